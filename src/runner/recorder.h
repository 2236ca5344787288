#pragma once
// Per-thread recorder: single writer (its worker thread), read by the
// runner's reporting thread. One per thread, cache-line aligned so that no
// two threads write the same line.

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "stats/histogram.h"

namespace loadcell {

// The most counters a workload may name (WorkloadInfo::counter_names; fio
// jobs name 50, dbsim's users 22 and 9 per data file, up to 63 of them).
// Run::Configure refuses more.
inline constexpr int kMaxCounters = 640;

class alignas(64) ThreadRecorder {
 public:
  // kinds: number of latency kinds besides "event" (index 0).
  // own_busy_time: the worker reports its busy time through AddBusy()
  // (WorkloadInfo::reports_busy_time); otherwise it is the sum of the thread's
  // event latencies.
  explicit ThreadRecorder(int kinds, bool own_busy_time = false);
  ThreadRecorder(const ThreadRecorder&) = delete;
  ThreadRecorder& operator=(const ThreadRecorder&) = delete;

  // Owner thread only. While the recorder is not measuring (the warm-up),
  // every Record*, Add and AddBusy call is dropped: warm-up events leave no
  // trace in any figure, whoever times them.
  void RecordEvent(uint64_t latency_ns) {
    if (measuring_) event_->Record(latency_ns);
  }
  void RecordKind(int kind, uint64_t latency_ns) {  // kind >= 1
    if (measuring_) hist_[kind]->Record(latency_ns);
  }
  void RecordService(uint64_t ns) {
    if (measuring_) service_.Record(ns);
  }
  // A self-timed worker's event that ran from t0 to t1 (its own reads of
  // MonotonicNow()): its latency counts from the intended start when the
  // runner paces the thread under --rate (set_intended_start, queueing
  // behind late events included) and then its service time from t0; else
  // from t0.
  void RecordTimedEvent(int64_t t0, int64_t t1) {
    if (!measuring_) return;
    const int64_t from = intended_start_ != 0 && intended_start_ < t0 ? intended_start_ : t0;
    event_->Record(t1 > from ? static_cast<uint64_t>(t1 - from) : 0);
    if (intended_start_ != 0) service_.Record(t1 > t0 ? static_cast<uint64_t>(t1 - t0) : 0);
  }
  // Under --rate, set by the runner before each event of a self-timed
  // worker that does not pace itself: that event's intended start
  // (MonotonicNow()'s clock; 0: none).
  void set_intended_start(int64_t t) { intended_start_ = t; }
  void Add(int counter, uint64_t n) {
    if (!measuring_) return;
    counters_[counter].store(counters_[counter].load(std::memory_order_relaxed) + n,
                             std::memory_order_relaxed);
  }
  // Wall time with at least one event outstanding, added as it passes.
  void AddBusy(uint64_t ns) {
    if (!measuring_) return;
    busy_ns_.store(busy_ns_.load(std::memory_order_relaxed) + ns, std::memory_order_relaxed);
  }
  // Errors are counted in the warm-up too: a failed run shows its error.
  void AddError() {
    errors_.store(errors_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }

  // Owner thread, or any thread before the owner starts. A recorder is
  // created measuring.
  void set_measuring(bool on) { measuring_ = on; }
  bool measuring() const { return measuring_; }

  // Any thread.
  int kinds() const { return static_cast<int>(hist_.size()); }
  const ConcurrentHistogram& histogram(int kind) const { return *hist_[kind]; }
  ConcurrentHistogram& histogram(int kind) { return *hist_[kind]; }
  const ConcurrentHistogram& service() const { return service_; }
  ConcurrentHistogram& service() { return service_; }
  uint64_t counter(int i) const { return counters_[i].load(std::memory_order_relaxed); }
  uint64_t errors() const { return errors_.load(std::memory_order_relaxed); }
  bool own_busy_time() const { return own_busy_time_; }
  uint64_t busy_ns() const { return busy_ns_.load(std::memory_order_relaxed); }

 private:
  std::vector<std::unique_ptr<ConcurrentHistogram>> hist_;
  ConcurrentHistogram* event_ = nullptr;  // == hist_[0].get(), one load less per event
  ConcurrentHistogram service_;
  std::array<std::atomic<uint64_t>, kMaxCounters> counters_{};
  std::atomic<uint64_t> errors_{0};
  std::atomic<uint64_t> busy_ns_{0};
  bool own_busy_time_ = false;
  bool measuring_ = true;       // owner thread only
  int64_t intended_start_ = 0;  // owner thread only
};

}  // namespace loadcell
