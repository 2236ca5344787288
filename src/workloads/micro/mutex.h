#pragma once
// mutex: the sysbench 1.0 mutex contention test.

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "runner/workload.h"

namespace loadcell {

// One mutex per 256 bytes: no two mutexes share a cache line (nor an
// adjacent-line prefetch pair). sysbench 1.0 pads each pthread_mutex_t with
// 256 bytes for the same reason.
struct alignas(256) PaddedMutex {
  std::mutex mutex;
};

class MutexWorkload final : public Workload {
 public:
  WorkloadInfo Info() const override;
  void RegisterOptions(OptionSet& opts) override;
  Status Validate(int threads) override;
  // Creates the --mutex-num mutexes, shared by every worker.
  Status Init(int threads) override;
  // REQUIRES: Init() was called. Workers must not outlive the workload.
  Result<std::unique_ptr<Worker>> NewWorker(const ThreadContext& ctx) override;
  // Exactly one event per thread.
  EventBudget Budget(int threads) const override { return {0, 1}; }
  std::vector<std::pair<std::string, std::string>> Describe() const override;
  // sysbench prints nothing of this test's settings.
  std::optional<std::string> SysbenchHeader() const override { return std::string(); }

  // The shared variable every lock round increments (under whichever mutex
  // it took, so concurrent rounds may overwrite each other, as in sysbench).
  uint64_t shared_increments() const { return shared_.value.load(std::memory_order_relaxed); }

 private:
  struct alignas(64) SharedCounter {
    std::atomic<uint64_t> value{0};
  };
  int64_t num_ = 4096;
  int64_t locks_ = 50000;
  int64_t loops_ = 10000;
  std::unique_ptr<PaddedMutex[]> mutexes_;
  SharedCounter shared_;
};

}  // namespace loadcell
