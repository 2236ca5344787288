#include "workloads/micro/cpu.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>

#include "workloads/micro/do_not_optimize.h"

namespace loadcell {

uint64_t CountPrimesBelow(uint64_t limit) {
  // Same integer and floating-point types and loop shape as sysbench 1.0, so
  // that events per second compare: the cost is dominated by the 64-bit
  // divisions and by the int -> double conversion in the bound check.
  uint64_t primes = 0;
  for (uint64_t c = 3; c < limit; ++c) {
    const double bound = std::sqrt(static_cast<double>(c));
    uint64_t divisor = 2;
    for (; static_cast<double>(divisor) <= bound; ++divisor) {
      if (c % divisor == 0) break;
    }
    if (static_cast<double>(divisor) > bound) ++primes;
  }
  return primes;
}

namespace {

class CpuWorker final : public Worker {
 public:
  explicit CpuWorker(uint64_t limit) : limit_(limit) {}

  Status RunEvent() override {
    const uint64_t primes = CountPrimesBelow(limit_);
    DoNotOptimize(primes);
    primes_found_ = primes;
    return Status::Ok();
  }

 private:
  const uint64_t limit_;
  uint64_t primes_found_ = 0;  // consumes the result of each event
};

}  // namespace

WorkloadInfo CpuWorkload::Info() const {
  WorkloadInfo info;
  info.name = "cpu";
  info.runs_per_process = true;
  info.summary = "CPU performance: prime numbers by trial division";
  info.event_definition =
      "one event tests every integer from 3 to --cpu-max-prime minus 1 for primality by trial "
      "division up to its square root, as sysbench 1.0 does";
  return info;
}

void CpuWorkload::RegisterOptions(OptionSet& opts) {
  opts.Int("cpu-max-prime", &max_prime_, 10000, "upper limit for the prime number search")
      .Min(3)
      .Max(4294967295.0);
}

Status CpuWorkload::Validate(int /*threads*/) {
  if (max_prime_ < 3 || max_prime_ > 4294967295LL) {
    return Status::InvalidArgument(
        fmt::format("--cpu-max-prime={}: must be an integer from 3 to 4294967295", max_prime_));
  }
  return Status::Ok();
}

Result<std::unique_ptr<Worker>> CpuWorkload::NewWorker(const ThreadContext& /*ctx*/) {
  return std::unique_ptr<Worker>(std::make_unique<CpuWorker>(max_prime()));
}

std::vector<std::pair<std::string, std::string>> CpuWorkload::Describe() const {
  return {{"Prime numbers limit", std::to_string(max_prime_)}};
}

std::string CpuWorkload::TextSection(const RunResult& r) const {
  const double eps = r.total_time_s > 0 ? static_cast<double>(r.events) / r.total_time_s : 0.0;
  return fmt::format("CPU speed:\n    events per second: {:8.2f}\n", eps);
}

}  // namespace loadcell
