#pragma once
// threads: the sysbench 1.0 scheduler test (mutex + sched_yield).

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "runner/workload.h"

namespace loadcell {

class ThreadsWorkload final : public Workload {
 public:
  WorkloadInfo Info() const override;
  void RegisterOptions(OptionSet& opts) override;
  Status Validate(int threads) override;
  // Creates the --thread-locks mutexes, shared by every worker.
  Status Init(int threads) override;
  // REQUIRES: Init() was called. Workers must not outlive the workload.
  Result<std::unique_ptr<Worker>> NewWorker(const ThreadContext& ctx) override;
  std::vector<std::pair<std::string, std::string>> Describe() const override;
  // sysbench prints nothing of this test's settings.
  std::optional<std::string> SysbenchHeader() const override { return std::string(); }

  // Events started so far by all workers (each event takes the next lock
  // round-robin from this counter).
  uint32_t events_started() const { return next_lock_.load(std::memory_order_relaxed); }

 private:
  int64_t yields_ = 1000;
  int64_t locks_ = 8;
  // Contiguous like sysbench's pthread_mutex_t array (neighbours may share a
  // cache line), so contention figures compare.
  std::unique_ptr<std::mutex[]> mutexes_;
  std::atomic<uint32_t> next_lock_{0};
};

}  // namespace loadcell
