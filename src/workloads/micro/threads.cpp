#include "workloads/micro/threads.h"

#include <fmt/format.h>

#include <thread>

namespace loadcell {
namespace {

constexpr int64_t kMaxLocks = 1 << 24;

class ThreadsWorker final : public Worker {
 public:
  ThreadsWorker(std::mutex* mutexes, uint32_t lock_count, int64_t yields,
                std::atomic<uint32_t>* next_lock)
      : mutexes_(mutexes), lock_count_(lock_count), yields_(yields), next_lock_(next_lock) {}

  Status RunEvent() override {
    std::mutex& m = mutexes_[next_lock_->fetch_add(1, std::memory_order_relaxed) % lock_count_];
    for (int64_t i = 0; i < yields_; ++i) {
      m.lock();
      std::this_thread::yield();  // sched_yield() on Linux
      m.unlock();
    }
    return Status::Ok();
  }

 private:
  std::mutex* const mutexes_;
  const uint32_t lock_count_;
  const int64_t yields_;
  std::atomic<uint32_t>* const next_lock_;
};

}  // namespace

WorkloadInfo ThreadsWorkload::Info() const {
  WorkloadInfo info;
  info.name = "threads";
  info.runs_per_process = true;
  info.summary = "thread scheduler: lock, yield, unlock";
  info.event_definition =
      "one event takes the next of the --thread-locks mutexes (round-robin over all events) "
      "and --thread-yields times locks it, calls sched_yield() and unlocks it";
  return info;
}

void ThreadsWorkload::RegisterOptions(OptionSet& opts) {
  opts.Int("thread-yields", &yields_, 1000, "number of lock/yield/unlock rounds per event").Min(0);
  opts.Int("thread-locks", &locks_, 8, "number of mutexes shared by the threads")
      .Min(1)
      .Max(static_cast<double>(kMaxLocks));
}

Status ThreadsWorkload::Validate(int /*threads*/) {
  if (yields_ < 0) {
    return Status::InvalidArgument(fmt::format("--thread-yields={}: must be 0 or more", yields_));
  }
  if (locks_ < 1 || locks_ > kMaxLocks) {
    return Status::InvalidArgument(
        fmt::format("--thread-locks={}: must be from 1 to {}", locks_, kMaxLocks));
  }
  return Status::Ok();
}

Status ThreadsWorkload::Init(int /*threads*/) {
  mutexes_ = std::make_unique<std::mutex[]>(static_cast<size_t>(locks_));
  next_lock_.store(0, std::memory_order_relaxed);
  return Status::Ok();
}

Result<std::unique_ptr<Worker>> ThreadsWorkload::NewWorker(const ThreadContext& /*ctx*/) {
  if (mutexes_ == nullptr) return Status::Internal("threads: NewWorker before Init");
  return std::unique_ptr<Worker>(std::make_unique<ThreadsWorker>(
      mutexes_.get(), static_cast<uint32_t>(locks_), yields_, &next_lock_));
}

std::vector<std::pair<std::string, std::string>> ThreadsWorkload::Describe() const {
  return {{"Thread yields per event", std::to_string(yields_)},
          {"Locks used", std::to_string(locks_)}};
}

}  // namespace loadcell
