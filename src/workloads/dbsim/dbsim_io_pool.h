#pragma once
// Several of one simulated user's I/Os in flight at once (docs/dbsim.md,
// "Several I/Os in flight per user"). A user's worker hands a batch of
// independent I/O tasks to its pool, which runs up to `depth` of them at
// once: on the worker's own thread and on depth - 1 helper threads (on the
// CPUs of IOAffinity when it is given, else where the worker runs). Each
// task is an ordinary call through the database's FileSystem, so the fault
// file system still sees (and breaks) every I/O. The depth meter counts a
// user's I/Os between their admission and their completion and keeps the
// most it saw at once. Internal to workloads/dbsim.

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/status.h"

namespace loadcell {

// The I/Os of one user (every thread of it) in flight now, and the most
// at once. Thread-safe.
class DbsimDepthMeter final {
 public:
  void Enter() {
    const int64_t now = in_flight_.fetch_add(1, std::memory_order_relaxed) + 1;
    int64_t peak = peak_.load(std::memory_order_relaxed);
    while (now > peak && !peak_.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
    }
  }
  void Leave() { in_flight_.fetch_sub(1, std::memory_order_relaxed); }
  int64_t peak() const { return peak_.load(std::memory_order_relaxed); }

 private:
  std::atomic<int64_t> in_flight_{0};
  std::atomic<int64_t> peak_{0};
};

// One worker's pool. Run() is called by its owner thread only; the tasks
// run on that thread and the helpers at once.
class DbsimIoPool final {
 public:
  // `depth` (at least 1): the most tasks at once; depth - 1 helper threads,
  // each confined to `helper_cpus` (none: where the thread making the pool
  // runs) before the pool is made. `cpus_key`: the key that named them, in
  // the error of a helper the system refused them.
  explicit DbsimIoPool(int depth, const std::vector<int>& helper_cpus = {},
                       const std::string& cpus_key = {});
  ~DbsimIoPool();  // the helpers stopped and joined
  DbsimIoPool(const DbsimIoPool&) = delete;
  DbsimIoPool& operator=(const DbsimIoPool&) = delete;

  int depth() const { return depth_; }
  // Runs task(0) .. task(count - 1), up to depth() at once, and returns
  // when every one has ended: the first failure in index order, else OK.
  // Every task runs, whether an earlier one failed or not. A task must not
  // call Run. A helper that could not be confined to its CPUs fails every
  // Run, naming the key.
  Status Run(size_t count, const std::function<Status(size_t)>& task);

 private:
  void Help(const std::vector<int>& cpus, const std::string& cpus_key);
  // Takes and runs tasks of the current batch until none is left.
  void RunTasks();

  const int depth_;
  std::mutex mutex_;
  std::condition_variable work_;                         // a batch was posted, or the pool stops
  std::condition_variable done_;                         // the batch's last task ended
  const std::function<Status(size_t)>* task_ = nullptr;  // guarded by mutex_
  size_t count_ = 0;                                     // guarded by mutex_
  size_t next_ = 0;                                      // guarded by mutex_
  size_t ended_ = 0;                                     // guarded by mutex_
  std::vector<Status> results_;                          // guarded by mutex_
  bool stop_ = false;                                    // guarded by mutex_
  size_t started_ = 0;                                   // helpers confined; guarded by mutex_
  Status start_error_;                                   // the first helper's; guarded by mutex_
  std::vector<std::thread> helpers_;
};

}  // namespace loadcell
