#include "workloads/dbsim/dbsim_throttle.h"

#include <algorithm>

#include "core/clock.h"

namespace loadcell {

DbsimIoSlot::DbsimIoSlot(DbsimIoSlot&& other) noexcept
    : gate_(other.gate_), waited_ns_(other.waited_ns_), admitted_ns_(other.admitted_ns_) {
  other.gate_ = nullptr;
}

void DbsimIoSlot::Done() {
  if (gate_ == nullptr) return;
  gate_->Leave(admitted_ns_, MonotonicNow());
  gate_ = nullptr;
}

DbsimIoGate::DbsimIoGate(int64_t target_ms, int64_t max_outstanding)
    : target_ns_(std::max<int64_t>(1, target_ms) * 1'000'000),
      max_outstanding_(max_outstanding > 0 ? max_outstanding : kMaxOutstanding),
      limit_(max_outstanding_) {}

DbsimIoSlot DbsimIoGate::Enter(bool burst) {
  std::unique_lock lock(mutex_);
  const auto admits = [&] { return in_flight_ < (burst ? max_outstanding_ : limit_); };
  int64_t waited = 0;
  if (!admits()) {
    // Every admitted I/O gives its slot back, so a waiter always gets one.
    const int64_t t0 = MonotonicNow();
    freed_.wait(lock, admits);
    waited = MonotonicNow() - t0;
  }
  ++in_flight_;
  lock.unlock();
  return DbsimIoSlot(this, waited, MonotonicNow());
}

void DbsimIoGate::Leave(int64_t admitted_ns, int64_t now_ns) {
  const int64_t took = std::max<int64_t>(0, now_ns - admitted_ns);
  {
    std::lock_guard lock(mutex_);
    --in_flight_;
    average_ns_ += (took - average_ns_) / 8;
    if (average_ns_ > target_ns_) {
      if (now_ns - last_cut_ns_ >= target_ns_) {
        limit_ = std::max<int64_t>(1, std::min(limit_, in_flight_ + 1) / 2);
        last_cut_ns_ = now_ns;
      }
    } else if (limit_ < max_outstanding_) {
      ++limit_;
    }
  }
  freed_.notify_all();
}

int64_t DbsimIoGate::limit() const {
  std::lock_guard lock(mutex_);
  return limit_;
}

int64_t DbsimIoGate::average_ns() const {
  std::lock_guard lock(mutex_);
  return average_ns_;
}

}  // namespace loadcell
