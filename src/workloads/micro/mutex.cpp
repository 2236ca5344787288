#include "workloads/micro/mutex.h"

#include <fmt/format.h>

#include "core/random.h"
#include "workloads/micro/do_not_optimize.h"

namespace loadcell {
namespace {

constexpr int64_t kMaxMutexes = 1 << 24;

class MutexWorker final : public Worker {
 public:
  MutexWorker(PaddedMutex* mutexes, uint64_t num, int64_t locks, int64_t loops,
              std::atomic<uint64_t>* shared, uint64_t seed)
      : mutexes_(mutexes), num_(num), locks_(locks), loops_(loops), shared_(shared), rng_(seed) {}

  Status RunEvent() override {
    if (done_) return EndOfWork();
    done_ = true;
    for (int64_t k = 0; k < locks_; ++k) {
      const uint64_t index = rng_.Uniform(0, num_ - 1);
      // The empty loop outside the lock; the barrier keeps every iteration.
      for (int64_t i = 0; i < loops_; ++i) ClobberMemory();
      std::mutex& m = mutexes_[index].mutex;
      m.lock();
      // Relaxed load + store: the same code as a plain increment, without
      // being a data race when two threads hold different mutexes.
      shared_->store(shared_->load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
      m.unlock();
    }
    return Status::Ok();
  }

 private:
  PaddedMutex* const mutexes_;
  const uint64_t num_;
  const int64_t locks_;
  const int64_t loops_;
  std::atomic<uint64_t>* const shared_;
  Random rng_;
  bool done_ = false;
};

}  // namespace

WorkloadInfo MutexWorkload::Info() const {
  WorkloadInfo info;
  info.name = "mutex";
  info.runs_per_process = true;
  info.summary = "mutex contention: random locks between empty loops";
  info.event_definition =
      "each thread runs one event: --mutex-locks times, an empty loop of --mutex-loops "
      "iterations, then lock a uniformly random one of --mutex-num mutexes, increment a "
      "shared variable and unlock";
  return info;
}

void MutexWorkload::RegisterOptions(OptionSet& opts) {
  opts.Int("mutex-num", &num_, 4096, "total size of the mutex array")
      .Min(1)
      .Max(static_cast<double>(kMaxMutexes));
  opts.Int("mutex-locks", &locks_, 50000, "number of mutex locks to do per thread").Min(1);
  opts.Int("mutex-loops", &loops_, 10000, "number of empty loops to do outside the lock").Min(0);
}

Status MutexWorkload::Validate(int /*threads*/) {
  if (num_ < 1 || num_ > kMaxMutexes) {
    return Status::InvalidArgument(
        fmt::format("--mutex-num={}: must be from 1 to {}", num_, kMaxMutexes));
  }
  if (locks_ < 1) {
    return Status::InvalidArgument(fmt::format("--mutex-locks={}: must be 1 or more", locks_));
  }
  if (loops_ < 0) {
    return Status::InvalidArgument(fmt::format("--mutex-loops={}: must be 0 or more", loops_));
  }
  return Status::Ok();
}

Status MutexWorkload::Init(int /*threads*/) {
  mutexes_ = std::make_unique<PaddedMutex[]>(static_cast<size_t>(num_));
  shared_.value.store(0, std::memory_order_relaxed);
  return Status::Ok();
}

Result<std::unique_ptr<Worker>> MutexWorkload::NewWorker(const ThreadContext& ctx) {
  if (mutexes_ == nullptr) return Status::Internal("mutex: NewWorker before Init");
  return std::unique_ptr<Worker>(std::make_unique<MutexWorker>(
      mutexes_.get(), static_cast<uint64_t>(num_), locks_, loops_, &shared_.value, ctx.seed));
}

std::vector<std::pair<std::string, std::string>> MutexWorkload::Describe() const {
  return {{"Mutexes", std::to_string(num_)},
          {"Locks per thread", std::to_string(locks_)},
          {"Empty loops per lock", std::to_string(loops_)}};
}

}  // namespace loadcell
