#pragma once
// SQLIOSim's I/O throttle (docs/dbsim.md, "Throttling"): the users' I/Os
// pass a gate that admits at most `limit` at once. While the average I/O
// takes longer than TargetIODuration the limit is halved (at most once per
// target interval, never below 1); while it is under, the limit grows by one
// per completion up to MaxOutstandingIO. A burst (the checkpoint's, with
// AllowIOBursts) passes the throttle and waits only for MaxOutstandingIO.
// Each wait is the time a user was throttled. Thread-safe.

#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace loadcell {

class DbsimIoGate;

// One admitted I/O: its slot is given back when Done() is called or the
// slot is destroyed, the I/O's time (from admission) then feeding the
// average. Movable, not copyable.
class DbsimIoSlot final {
 public:
  DbsimIoSlot(DbsimIoGate* gate, int64_t waited_ns, int64_t admitted_ns)
      : gate_(gate), waited_ns_(waited_ns), admitted_ns_(admitted_ns) {}
  DbsimIoSlot(DbsimIoSlot&& other) noexcept;
  DbsimIoSlot(const DbsimIoSlot&) = delete;
  DbsimIoSlot& operator=(const DbsimIoSlot&) = delete;
  DbsimIoSlot& operator=(DbsimIoSlot&&) = delete;
  ~DbsimIoSlot() { Done(); }

  // How long the I/O waited at the gate.
  int64_t waited_ns() const { return waited_ns_; }
  // The I/O completed: gives the slot back (once).
  void Done();

 private:
  DbsimIoGate* gate_;
  int64_t waited_ns_;
  int64_t admitted_ns_;
};

class DbsimIoGate final {
 public:
  // `target_ms`: TargetIODuration; `max_outstanding`: MaxOutstandingIO
  // (0: kMaxOutstanding).
  DbsimIoGate(int64_t target_ms, int64_t max_outstanding);
  static constexpr int64_t kMaxOutstanding = 140000;

  // Waits until the I/O may be issued and admits it.
  DbsimIoSlot Enter(bool burst);

  // For the report and tests.
  int64_t limit() const;
  int64_t average_ns() const;

  // For DbsimIoSlot: an I/O admitted at `admitted_ns` completed at `now_ns`.
  void Leave(int64_t admitted_ns, int64_t now_ns);

 private:
  const int64_t target_ns_;
  const int64_t max_outstanding_;
  mutable std::mutex mutex_;
  std::condition_variable freed_;
  int64_t in_flight_ = 0;    // guarded by mutex_
  int64_t limit_;            // guarded by mutex_
  int64_t average_ns_ = 0;   // guarded by mutex_ (moving average, 1/8 weight)
  int64_t last_cut_ns_ = 0;  // guarded by mutex_
};

}  // namespace loadcell
