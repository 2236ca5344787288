#pragma once
// cpu: the sysbench 1.0 prime-number test.

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "runner/workload.h"

namespace loadcell {

// The work of one cpu event: tests every integer c with 3 <= c < limit for
// primality by trial division by l = 2, 3, ... while l <= sqrt(c) (64-bit
// unsigned integers, the bound as a double), and returns how many were prime.
// CountPrimesBelow(10000) == 1228 (the primes below 10000 except 2).
uint64_t CountPrimesBelow(uint64_t limit);

class CpuWorkload final : public Workload, public TextReportSections {
 public:
  WorkloadInfo Info() const override;
  void RegisterOptions(OptionSet& opts) override;
  Status Validate(int threads) override;
  Result<std::unique_ptr<Worker>> NewWorker(const ThreadContext& ctx) override;
  std::vector<std::pair<std::string, std::string>> Describe() const override;
  // The test measures the CPU it runs on: a busy client is its point.
  WorkloadFacts Facts(const RunResult& /*r*/) const override {
    WorkloadFacts f;
    f.measures_client_cpu = true;
    return f;
  }
  std::string TextSection(const RunResult& r) const override;

  uint64_t max_prime() const { return static_cast<uint64_t>(max_prime_); }

 private:
  int64_t max_prime_ = 10000;
};

}  // namespace loadcell
