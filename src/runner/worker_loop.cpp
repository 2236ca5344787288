// What each worker thread of a Run does: create its worker, wait for the
// start, run events in a closed or an open loop, finish.

#include <algorithm>

#include "core/clock.h"
#include "os/thread.h"
#include "runner/run.h"

namespace loadcell {
namespace {

constexpr Nanos kLateThreshold = kNanosPerMilli;  // "late" start under --rate

}  // namespace

class Run::ThreadPacer final : public Pacer {
 public:
  ThreadPacer(Run& run, int id) : run_(run), rec_(*run.recorders_[id]), st_(*run.states_[id]) {}

  Nanos TakeStart() override {
    const uint64_t ticket = run_.rate_tickets_.fetch_add(1, std::memory_order_relaxed);
    const Nanos intended = run_.schedule_.IntendedStart(ticket);
    const Nanos end = run_.timeline_.end;
    return end != 0 && intended >= end ? kNoStart : intended;
  }

  // Lag counts only for measured operations.
  void Started(Nanos intended, Nanos at) override {
    if (!rec_.measuring()) return;
    const Nanos lag = at - intended;
    if (lag > kLateThreshold) {
      ++late_;
      st_.late_events.store(late_, std::memory_order_relaxed);
    }
    if (lag > max_lag_) {
      max_lag_ = lag;
      st_.max_lag.store(max_lag_, std::memory_order_relaxed);
    }
  }

  bool Stopping() const override { return run_.stop_.load(std::memory_order_relaxed); }

 private:
  Run& run_;
  ThreadRecorder& rec_;
  WorkerState& st_;
  uint64_t late_ = 0;
  Nanos max_lag_ = 0;
};

// A worker's own loop (WorkloadInfo::own_loop) asks this before each event:
// the closed loop's and the open loop's checks, in their order, and the
// timing the runner does for the other workers.
class Run::ThreadLoop final : public EventLoopControl {
 public:
  ThreadLoop(Run& run, int id, ThreadPacer& pacer)
      : run_(run), rec_(*run.recorders_[id]), pacer_(pacer) {}

  bool More() override {
    DropUnfinished();
    if (run_.stop_.load(std::memory_order_relaxed)) return false;
    if (run_.rate_limited_) return MoreOnSchedule();
    const Nanos now = MonotonicNow();
    if (run_.timeline_.end != 0 && now >= run_.timeline_.end) return false;
    if (!rec_.measuring() && now >= run_.timeline_.measure_start) rec_.set_measuring(true);
    return !rec_.measuring() || run_.TakeBudget(mine_, run_.budget_.per_thread, run_.ticket_limit_);
  }

  void EventStart() override {
    if (run_.rate_limited_) run_.running_events_.fetch_add(1, std::memory_order_relaxed);
    t0_ = MonotonicNow();
  }

  void EventStop() override {
    if (t0_ == 0) return;
    rec_.RecordTimedEvent(t0_, MonotonicNow());
    if (run_.rate_limited_) {
      run_.running_events_.fetch_sub(1, std::memory_order_relaxed);
      pacer_.Started(intended_, t0_);
    }
    t0_ = 0;
  }

  // An event started and never stopped (the loop left it: sysbench's loop
  // does so with the event whose event() ends the thread) is not counted.
  void DropUnfinished() {
    if (t0_ == 0) return;
    if (run_.rate_limited_) run_.running_events_.fetch_sub(1, std::memory_order_relaxed);
    t0_ = 0;
  }

 private:
  // OpenLoop's checks: the next intended start, the budget, the wait.
  bool MoreOnSchedule() {
    intended_ = pacer_.TakeStart();
    if (intended_ == Pacer::kNoStart) return false;
    if (!rec_.measuring() && intended_ >= run_.timeline_.measure_start) rec_.set_measuring(true);
    if (rec_.measuring() && !run_.TakeBudget(mine_, run_.budget_.per_thread, run_.ticket_limit_)) {
      return false;
    }
    for (Nanos now = MonotonicNow(); now < intended_; now = MonotonicNow()) {
      if (run_.stop_.load(std::memory_order_relaxed)) return false;
      SystemClock().SleepUntil(std::min(intended_, now + kPollPeriod));
    }
    rec_.set_intended_start(intended_);
    return true;
  }

  Run& run_;
  ThreadRecorder& rec_;
  ThreadPacer& pacer_;
  uint64_t mine_ = 0;
  Nanos intended_ = 0;
  Nanos t0_ = 0;  // the running event's start, 0: none
};

void Run::WorkerMain(int id) {
  ThreadPacer pacer(*this, id);  // outlives the worker, which may hold it
  ThreadLoop loop(*this, id, pacer);
  if (rate_limited_) {
    // The default 50 us timer slack would make every wake-up late by up to
    // that much, and the lateness counts in the latency from the intended
    // start.
    UseFineTimerSlack();
  }
  ThreadContext ctx;
  ctx.thread_id = id;
  ctx.num_threads = threads_;
  if (cfg_.share.total_threads > 0) {
    ctx.first_thread = cfg_.share.first_thread;
    ctx.total_threads = cfg_.share.total_threads;
  }
  ctx.seed = ThreadSeed(seed_, ctx.GlobalThreadId());
  ctx.distribution = distribution_.get();
  ctx.distribution_config = &cfg_.rand;
  ctx.recorder = recorders_[id].get();
  if (rate_limited_ && self_paced_) ctx.pacer = &pacer;
  if (own_loop_) ctx.loop = &loop;
  ctx.ticks = rate_limited_ ? &MonotonicTickSource() : ticks_;

  auto made = workload_.NewWorker(ctx);
  {
    std::unique_lock<std::mutex> lock(mu_);
    if (!made.ok() && start_error_.ok()) start_error_ = made.status();
    ++ready_;
    cv_.notify_all();
    // A condition variable, not go_.wait(): GCC 12's atomic wait loses
    // wake-ups where it has no futex (the Windows build hung in it).
    go_cv_.wait(lock, [&] { return go_.load(std::memory_order_acquire); });
  }

  // The thread's own CPU time over its run, for the verdict's client-cpu
  // (one reading here and one at the end: nothing per event).
  const Nanos released_at = MonotonicNow();
  const uint64_t cpu_at_release = ThreadCpuNs();
  const int64_t wait_at_release = ThreadRunWaitNs();
  if (made.ok() && !abort_start_.load(std::memory_order_acquire)) {
    std::unique_ptr<Worker> worker = std::move(made).value();
    if (own_loop_) {
      OwnLoop(id, *worker, loop);
    } else if (rate_limited_ && !self_paced_) {
      OpenLoop(id, *worker, pacer);
    } else if (ticks_->tsc) {
      ClosedLoop<true>(id, *worker);
    } else {
      ClosedLoop<false>(id, *worker);
    }
    Status fin = worker->Finish();
    if (!fin.ok()) NoteError(fin);
  }
  WorkerState& st = *states_[id];
  const Nanos finished_at = MonotonicNow();
  const uint64_t cpu_at_end = ThreadCpuNs();
  const int64_t wait_at_end = ThreadRunWaitNs();
  if (cpu_at_release != 0 && cpu_at_end >= cpu_at_release) {
    st.cpu_ns.store(cpu_at_end - cpu_at_release, std::memory_order_relaxed);
    if (wait_at_release >= 0 && wait_at_end >= wait_at_release) {
      st.cpu_wait_ns.store(wait_at_end - wait_at_release, std::memory_order_relaxed);
    }
    st.run_ns.store(finished_at - released_at, std::memory_order_relaxed);
    st.cpu_known.store(true, std::memory_order_relaxed);
  }
  st.finished_at.store(finished_at, std::memory_order_relaxed);
  st.done.store(true, std::memory_order_release);
  {
    std::lock_guard<std::mutex> lock(mu_);
    ++finished_;
  }
  cv_.notify_all();
}

void Run::NoteError(const Status& s) {
  std::lock_guard<std::mutex> lock(mu_);
  if (first_error_.ok()) first_error_ = s;
}

void Run::EventFailed(ThreadRecorder& rec, const Status& s) {
  if (IsEndOfWork(s)) return;
  rec.AddError();
  NoteError(s);
  stop_.store(true, std::memory_order_relaxed);
}

// Closed-loop warm-up: events back to back until the measured period
// starts, into a recorder that is not measuring (Configure made it so), and
// taking nothing from any budget. Returns false when the thread's loop ends
// inside the warm-up (stop, end of work, error).
bool Run::WarmUp(int id, Worker& worker) {
  ThreadRecorder& rec = *recorders_[id];
  if (rec.measuring()) return true;
  const Nanos measure_start = timeline_.measure_start;
  bool go_on = true;
  while (go_on && MonotonicNow() < measure_start) {
    if (stop_.load(std::memory_order_relaxed)) {
      go_on = false;
      break;
    }
    Status s = worker.RunEvent();
    if (!s.ok()) {
      EventFailed(rec, s);
      go_on = false;
    }
  }
  rec.set_measuring(true);
  return go_on;
}

// The per-thread share is looked at first, so that a thread that used its
// share never takes a ticket that another thread's event needed.
bool Run::TakeBudget(uint64_t& mine, uint64_t per_thread, uint64_t ticket_limit) {
  if (per_thread != 0 && mine >= per_thread) return false;
  if (ticket_limit != 0 && issued_.fetch_add(1, std::memory_order_relaxed) >= ticket_limit) {
    return false;
  }
  ++mine;
  return true;
}

// Closed loop: events back to back. One clock read separates two events: it
// ends one and starts the next, so the runner's own work between events
// (recording the previous latency, checking the limits: a few ns) is counted
// in the next event's latency: never lost, never counted twice, and the sum
// of a thread's latencies is exactly its busy time. This halves the clock
// reads per event, which matters for very short events (see `null`).
template <bool kTsc>
void Run::ClosedLoop(int id, Worker& worker) {
  if (!WarmUp(id, worker)) return;
  ThreadRecorder& rec = *recorders_[id];
  // In ticks of the event clock: TSC ticks, or ns when kTsc is false.
  const uint64_t end_ticks = kTsc ? end_ticks_ : static_cast<uint64_t>(timeline_.end);
  const double ns_per_tick = ticks_->ns_per_tick;
  const uint64_t per_thread = budget_.per_thread;
  const uint64_t ticket_limit = ticket_limit_;
  const bool record = !self_timed_;
  uint64_t mine = 0;

  uint64_t k_prev = ReadTicks<kTsc>();
  for (;;) {
    if (stop_.load(std::memory_order_relaxed)) break;
    if (!TakeBudget(mine, per_thread, ticket_limit)) break;

    Status s = worker.RunEvent();
    const uint64_t k1 = ReadTicks<kTsc>();
    if (!s.ok()) [[unlikely]] {
      EventFailed(rec, s);
      return;
    }
    if (record) {
      // TSCs are synchronised where they are used; never record a wrapped
      // (negative) difference all the same.
      const uint64_t dt = k1 > k_prev ? k1 - k_prev : 0;
      if constexpr (kTsc) {
        // Round to nearest without a libm call on the per-event path (dt >= 0).
        // NOLINTNEXTLINE(bugprone-incorrect-roundings)
        rec.RecordEvent(static_cast<uint64_t>(static_cast<double>(dt) * ns_per_tick + 0.5));
      } else {
        rec.RecordEvent(dt);
      }
    }
    k_prev = k1;
    if (end_ticks != 0 && k1 >= end_ticks) {
      if (timeline_.cool_end != 0) CoolDown(id, worker);
      break;
    }
  }
}

void Run::CoolDown(int id, Worker& worker) {
  ThreadRecorder& rec = *recorders_[id];
  rec.set_measuring(false);
  while (!stop_.load(std::memory_order_relaxed) && MonotonicNow() < timeline_.cool_end) {
    Status s = worker.RunEvent();
    if (!s.ok()) {
      // The end of the work in the cool-down is no failure of the run.
      if (!IsEndOfWork(s)) EventFailed(rec, s);
      break;
    }
  }
}

// Open loop (--rate): every event has an intended start on the schedule; the
// latency counts from it (queueing included), the service time from the
// actual start. CLOCK_MONOTONIC throughout. A self-timed worker that does
// not pace itself records its own figures through RecordTimedEvent, which
// counts from the intended start the runner sets here.
void Run::OpenLoop(int id, Worker& worker, ThreadPacer& pacer) {
  ThreadRecorder& rec = *recorders_[id];
  const Nanos end = timeline_.end;
  const Nanos measure_start = timeline_.measure_start;
  const uint64_t per_thread = budget_.per_thread;
  uint64_t mine = 0;

  for (;;) {
    if (stop_.load(std::memory_order_relaxed)) break;
    const Nanos intended = pacer.TakeStart();
    if (intended == Pacer::kNoStart) break;
    // An event belongs to the warm-up when its intended start does; only
    // measured events take from the budgets.
    if (!rec.measuring() && intended >= measure_start) rec.set_measuring(true);
    if (rec.measuring() && !TakeBudget(mine, per_thread, ticket_limit_)) break;
    // Sleep in slices so that a stop request is seen promptly.
    for (Nanos now = MonotonicNow(); now < intended; now = MonotonicNow()) {
      if (stop_.load(std::memory_order_relaxed)) return;
      SystemClock().SleepUntil(std::min(intended, now + kPollPeriod));
    }

    running_events_.fetch_add(1, std::memory_order_relaxed);
    // A self-timed worker times its own event from this start (RecordTimedEvent).
    if (self_timed_) rec.set_intended_start(intended);
    const Nanos t0 = MonotonicNow();
    Status s = worker.RunEvent();
    const Nanos t1 = MonotonicNow();
    running_events_.fetch_sub(1, std::memory_order_relaxed);
    if (!s.ok()) {
      EventFailed(rec, s);
      break;
    }
    if (!self_timed_) {
      rec.RecordEvent(static_cast<uint64_t>(t1 - std::min(intended, t0)));
      rec.RecordService(static_cast<uint64_t>(t1 - t0));
    }
    pacer.Started(intended, t0);
    if (end != 0 && t1 >= end) break;
  }
}

// The worker's loop asks ThreadLoop for each event and times it there; the
// warm-up, the budgets and the rate are ThreadLoop's.
void Run::OwnLoop(int id, Worker& worker, ThreadLoop& loop) {
  Status s = worker.RunEvent();
  loop.DropUnfinished();
  if (!s.ok()) EventFailed(*recorders_[id], s);
}

}  // namespace loadcell
