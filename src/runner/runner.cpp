#include "runner/runner.h"

#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <csignal>
#include <mutex>
#include <thread>

#include "core/clock.h"
#include "runner/recorder.h"
#include "runner/schedule.h"
#include "runner/snapshot.h"
#include "stats/summary.h"

namespace loadcell {
namespace {

std::atomic<bool> g_stop_requested{false};

class Run;
// Runs abandoned by a forced shutdown stay reachable here: their threads
// may still use them until the process exits.
// (Never destroyed, so that exit() does not free what they still use.)
std::mutex g_abandoned_mu;
std::vector<std::unique_ptr<Run>>* g_abandoned = new std::vector<std::unique_ptr<Run>>();

void OnStopSignal(int) {
  if (g_stop_requested.exchange(true)) {
    // A second signal while the first is being handled: leave at once.
    _exit(130);
  }
}

constexpr Nanos kLateThreshold = kNanosPerMilli;  // "late" start under --rate
constexpr Nanos kPollPeriod = 50 * kNanosPerMilli;

// Per-thread facts the runner keeps besides the recorder. Written by the
// owner thread only.
struct alignas(64) WorkerState {
  std::atomic<uint64_t> late_events{0};
  std::atomic<Nanos> max_lag{0};
  std::atomic<Nanos> finished_at{0};
  std::atomic<bool> done{false};
};

// Everything the worker threads share. Read-mostly fields first; the
// counters that threads update live on their own cache lines.
class Run {
 public:
  Run(Workload& workload, const RunConfig& cfg) : workload_(workload), cfg_(cfg) {}

  Workload& workload_;
  const RunConfig& cfg_;
  int threads_ = 1;
  bool self_timed_ = false;
  bool rate_limited_ = false;
  EventBudget budget_;
  uint64_t event_limit_ = 0;  // total measured events, 0: none
  uint64_t seed_ = 0;
  std::unique_ptr<Distribution> distribution_;

  Timeline timeline_;
  RateSchedule schedule_{0, 0};

  std::vector<std::unique_ptr<ThreadRecorder>> recorders_;
  std::vector<std::unique_ptr<WorkerState>> states_;

  alignas(64) std::atomic<bool> go_{false};
  std::atomic<bool> abort_start_{false};
  alignas(64) std::atomic<bool> stop_{false};
  alignas(64) std::atomic<uint64_t> issued_{0};        // events claimed (only with a limit)
  alignas(64) std::atomic<uint64_t> rate_tickets_{0};  // rate schedule tickets claimed
  // Under --rate: events running now (sysbench's "concurrency").
  alignas(64) std::atomic<uint64_t> running_events_{0};

  std::mutex mu_;
  std::condition_variable cv_;
  int ready_ = 0;
  int finished_ = 0;
  Status first_error_;
  Status start_error_;

  void WorkerMain(int id);
  void NoteError(const Status& s) {
    std::lock_guard<std::mutex> lock(mu_);
    if (first_error_.ok()) first_error_ = s;
  }

 private:
  template <bool kTsc>
  void ClosedLoop(int id, Worker& worker);
  void OpenLoop(int id, Worker& worker);

 public:
  const TickSource* ticks_ = nullptr;  // event timing source (closed loop)
  uint64_t end_ticks_ = 0;             // time limit in ticks_, 0: none
};

void Run::WorkerMain(int id) {
  ThreadRecorder& rec = *recorders_[id];
  ThreadContext ctx;
  ctx.thread_id = id;
  ctx.num_threads = threads_;
  ctx.seed = ThreadSeed(seed_, id);
  ctx.distribution = distribution_.get();
  ctx.distribution_config = &cfg_.rand;
  ctx.recorder = &rec;

  auto made = workload_.NewWorker(ctx);
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!made.ok() && start_error_.ok()) start_error_ = made.status();
    ++ready_;
  }
  cv_.notify_all();
  go_.wait(false, std::memory_order_acquire);

  if (made.ok() && !abort_start_.load(std::memory_order_acquire)) {
    std::unique_ptr<Worker> worker = std::move(made).value();
    if (rate_limited_) {
      OpenLoop(id, *worker);
    } else if (ticks_->tsc) {
      ClosedLoop<true>(id, *worker);
    } else {
      ClosedLoop<false>(id, *worker);
    }
    Status fin = worker->Finish();
    if (!fin.ok()) NoteError(fin);
  }
  states_[id]->finished_at.store(MonotonicNow(), std::memory_order_relaxed);
  states_[id]->done.store(true, std::memory_order_release);
  {
    std::lock_guard<std::mutex> lock(mu_);
    ++finished_;
  }
  cv_.notify_all();
}

// Closed loop: events back to back. One clock read separates two events: it
// ends one and starts the next, so the runner's own work between events
// (recording the previous latency, checking the limits: a few ns) is counted
// in the next event's latency: never lost, never counted twice, and the sum
// of a thread's latencies is exactly its busy time. This halves the clock
// reads per event, which matters for very short events (see `null`).
template <bool kTsc>
void Run::ClosedLoop(int id, Worker& worker) {
  ThreadRecorder& rec = *recorders_[id];
  // In ticks of the event clock: TSC ticks, or ns when kTsc is false.
  const uint64_t end_ticks = kTsc ? end_ticks_ : static_cast<uint64_t>(timeline_.end);
  const double ns_per_tick = ticks_->ns_per_tick;
  const uint64_t per_thread = budget_.per_thread;
  const uint64_t event_limit = event_limit_;
  const bool record = !self_timed_;
  uint64_t mine = 0;

  uint64_t k_prev = ReadTicks<kTsc>();
  for (;;) {
    if (stop_.load(std::memory_order_relaxed)) break;
    if (event_limit != 0 && issued_.fetch_add(1, std::memory_order_relaxed) >= event_limit) break;
    if (per_thread != 0 && mine >= per_thread) break;

    Status s = worker.RunEvent();
    const uint64_t k1 = ReadTicks<kTsc>();
    if (!s.ok()) [[unlikely]] {
      if (IsEndOfWork(s)) break;
      rec.AddError();
      NoteError(s);
      stop_.store(true, std::memory_order_relaxed);
      break;
    }
    ++mine;
    if (record) {
      // TSCs are synchronised where they are used; never record a wrapped
      // (negative) difference all the same.
      const uint64_t dt = k1 > k_prev ? k1 - k_prev : 0;
      if constexpr (kTsc) {
        rec.RecordEvent(static_cast<uint64_t>(static_cast<double>(dt) * ns_per_tick + 0.5));
      } else {
        rec.RecordEvent(dt);
      }
    }
    k_prev = k1;
    if (end_ticks != 0 && k1 >= end_ticks) break;
  }
}

// Open loop (--rate): every event has an intended start on the schedule; the
// latency counts from it (queueing included), the service time from the
// actual start. CLOCK_MONOTONIC throughout.
void Run::OpenLoop(int id, Worker& worker) {
  // The default 50 us timer slack would make every wake-up late by up to
  // that much, and the lateness counts in the latency from the intended start.
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  ThreadRecorder& rec = *recorders_[id];
  WorkerState& st = *states_[id];
  const Nanos end = timeline_.end;
  const uint64_t per_thread = budget_.per_thread;
  uint64_t mine = 0;
  Nanos max_lag = 0;
  uint64_t late = 0;

  for (;;) {
    if (stop_.load(std::memory_order_relaxed)) break;
    if (event_limit_ != 0 && issued_.fetch_add(1, std::memory_order_relaxed) >= event_limit_) {
      break;
    }
    if (per_thread != 0 && mine >= per_thread) break;

    const uint64_t ticket = rate_tickets_.fetch_add(1, std::memory_order_relaxed);
    const Nanos intended = schedule_.IntendedStart(ticket);
    if (end != 0 && intended >= end) break;
    // Sleep in slices so that a stop request is seen promptly.
    for (Nanos now = MonotonicNow(); now < intended; now = MonotonicNow()) {
      if (stop_.load(std::memory_order_relaxed)) return;
      SystemClock().SleepUntil(std::min(intended, now + kPollPeriod));
    }

    running_events_.fetch_add(1, std::memory_order_relaxed);
    const Nanos t0 = MonotonicNow();
    Status s = worker.RunEvent();
    const Nanos t1 = MonotonicNow();
    running_events_.fetch_sub(1, std::memory_order_relaxed);
    if (!s.ok()) {
      if (IsEndOfWork(s)) break;
      rec.AddError();
      NoteError(s);
      stop_.store(true, std::memory_order_relaxed);
      break;
    }
    ++mine;
    if (!self_timed_) {
      rec.RecordEvent(static_cast<uint64_t>(t1 - std::min(intended, t0)));
      rec.RecordService(static_cast<uint64_t>(t1 - t0));
    }
    const Nanos lag = t0 - intended;
    if (lag > kLateThreshold) {
      ++late;
      st.late_events.store(late, std::memory_order_relaxed);
    }
    if (lag > max_lag) {
      max_lag = lag;
      st.max_lag.store(max_lag, std::memory_order_relaxed);
    }
    if (end != 0 && t1 >= end) break;
  }
}

RunResult MakeResult(const Run& run, const Snapshot& now, const Snapshot& base, Nanos from,
                     Nanos to, const Manifest& manifest,
                     const std::vector<std::string>& kind_names) {
  RunResult r;
  r.manifest = manifest;
  r.total_time_s = NanosToSeconds(std::max<Nanos>(0, to - from));
  Diff(now, base, /*exact_min_max=*/true, kind_names, r);
  if (run.rate_limited_) {
    RateFigures rf;
    rf.target = run.cfg_.rate;
    rf.achieved = Rate(static_cast<double>(r.events), r.total_time_s);
    Nanos max_lag = 0;
    for (const auto& st : run.states_) {
      rf.late_events += st->late_events.load(std::memory_order_relaxed);
      max_lag = std::max(max_lag, st->max_lag.load(std::memory_order_relaxed));
    }
    rf.max_lag_ms = static_cast<double>(max_lag) / 1e6;
    uint64_t due = run.schedule_.DueBy(to);
    uint64_t taken = run.rate_tickets_.load(std::memory_order_relaxed);
    rf.final_lag_ms =
        due > taken ? static_cast<double>(due - taken) * run.schedule_.period_ns() / 1e6 : 0;
    r.rate = rf;
  }
  r.counter_names = run.workload_.Info().counter_names;
  r.counters.resize(r.counter_names.size());
  FillDerivedFigures(r);
  return r;
}

}  // namespace

bool IsEndOfWork(const Status& s) {
  return s.code() == StatusCode::kCancelled && s.message() == "end of work";
}

void InstallStopSignalHandlers() {
  struct sigaction sa = {};
  sa.sa_handler = OnStopSignal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

bool StopRequested() { return g_stop_requested.load(std::memory_order_relaxed); }
void ResetStopRequested() { g_stop_requested.store(false); }

Result<RunResult> RunWorkload(Workload& workload, const RunConfig& cfg, Manifest manifest,
                              RunObserver* observer) {
  auto run = std::make_unique<Run>(workload, cfg);
  run->threads_ = static_cast<int>(cfg.threads);
  run->self_timed_ = workload.Info().self_timed;
  run->rate_limited_ = cfg.rate > 0;
  run->budget_ = workload.Budget(run->threads_);
  run->event_limit_ = static_cast<uint64_t>(cfg.events);
  if (run->budget_.total != 0 &&
      (run->event_limit_ == 0 || run->budget_.total < run->event_limit_)) {
    run->event_limit_ = run->budget_.total;
  }
  bool seed_from_time = cfg.seed == 0;
  run->seed_ = seed_from_time
                   ? static_cast<uint64_t>(MonotonicNow()) ^ (static_cast<uint64_t>(getpid()) << 32)
                   : static_cast<uint64_t>(cfg.seed);
  // Keep it within --rand-seed's range so that the printed seed can be given
  // back to reproduce the run's random sequences.
  run->seed_ &= 0x7fffffffffffffffULL;
  if (run->seed_ == 0) run->seed_ = 1;
  auto dist = Distribution::Create(cfg.rand, 0, (uint64_t{1} << 32) - 1);
  if (!dist.ok()) return dist.status();
  run->distribution_ = std::make_unique<Distribution>(std::move(dist).value());

  std::vector<std::string> kind_names = {"event"};
  for (const auto& k : workload.Info().latency_kinds) kind_names.push_back(k);
  for (int i = 0; i < run->threads_; ++i) {
    run->recorders_.push_back(std::make_unique<ThreadRecorder>(
        static_cast<int>(kind_names.size()) - 1, workload.Info().reports_busy_time));
    run->states_.push_back(std::make_unique<WorkerState>());
  }

  run->ticks_ = cfg.clock == "monotonic" ? &MonotonicTickSource() : &BestTickSource();
  manifest.system.clock_source = run->rate_limited_
                                     ? std::string("CLOCK_MONOTONIC (rate-limited runs)")
                                     : run->ticks_->description;
  manifest.threads = run->threads_;
  manifest.time_limit_s = cfg.time_s;
  manifest.event_limit = run->event_limit_;
  manifest.warmup_s = cfg.warmup_s;
  manifest.rate = cfg.rate;
  manifest.rand_type = cfg.rand.type;
  manifest.seed = run->seed_;
  manifest.seed_from_time = seed_from_time;
  if (manifest.workload.empty()) manifest.workload = workload.Describe();

  LC_RETURN_IF_ERROR(workload.Init(run->threads_));
  if (observer) observer->OnStart(manifest);

  // Start the threads; each creates its worker, then waits for `go_`.
  std::vector<pthread_t> threads(run->threads_);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  if (cfg.thread_stack_size > 0) {
    pthread_attr_setstacksize(&attr, std::max<size_t>(cfg.thread_stack_size, PTHREAD_STACK_MIN));
  }
  struct Arg {
    Run* run;
    int id;
  };
  std::vector<Arg> args(run->threads_);
  int started = 0;
  Status spawn_error;
  for (int i = 0; i < run->threads_; ++i) {
    args[i] = {run.get(), i};
    int rc = pthread_create(
        &threads[i], &attr,
        [](void* p) -> void* {
          auto* a = static_cast<Arg*>(p);
          a->run->WorkerMain(a->id);
          return nullptr;
        },
        &args[i]);
    if (rc != 0) {
      spawn_error = PosixError("cannot start worker thread " + std::to_string(i), rc);
      break;
    }
    ++started;
  }
  pthread_attr_destroy(&attr);
  {
    std::unique_lock<std::mutex> lock(run->mu_);
    run->cv_.wait(lock, [&] { return run->ready_ == started; });
    if (spawn_error.ok()) spawn_error = run->start_error_;
  }
  if (!spawn_error.ok()) {
    run->abort_start_.store(true, std::memory_order_release);
    run->go_.store(true, std::memory_order_release);
    run->go_.notify_all();
    for (int i = 0; i < started; ++i) pthread_join(threads[i], nullptr);
    return spawn_error;
  }

  // Baseline before anything runs (all zeros; kept simple and exact).
  Snapshot base = TakeSnapshot(run->recorders_, static_cast<int>(kind_names.size()));

  // Release the threads.
  const Nanos t_start = MonotonicNow();
  run->timeline_ = Timeline::Make(t_start, cfg.warmup_s, cfg.time_s);
  if (run->ticks_->tsc && run->timeline_.end != 0) {
    const uint64_t tsc_now = ReadTicks<true>();
    run->end_ticks_ =
        tsc_now + static_cast<uint64_t>(static_cast<double>(run->timeline_.end - MonotonicNow()) /
                                        run->ticks_->ns_per_tick);
  }
  run->schedule_ = RateSchedule(t_start, cfg.rate);
  run->go_.store(true, std::memory_order_release);
  run->go_.notify_all();

  const Timeline& tl = run->timeline_;
  const Nanos interval_ns = SecondsToNanos(cfg.report_interval_s);
  Ticker ticker(tl.measure_start, interval_ns);
  std::vector<double> checkpoints = cfg.CheckpointTimes();
  size_t next_checkpoint = 0;
  const double forced_after = cfg.ForcedShutdownAfter();
  const Nanos forced_at =
      (forced_after >= 0 && tl.end != 0) ? tl.end + SecondsToNanos(forced_after) : 0;

  RunResult final_result;
  final_result.manifest = manifest;
  bool warm = cfg.warmup_s <= 0;
  Nanos base_at = tl.measure_start;
  Snapshot last_interval = base;
  Nanos last_interval_at = tl.measure_start;
  bool interrupted = false;
  bool forced = false;

  auto reset_min_max = [&]() {
    for (auto& rec : run->recorders_) {
      for (int k = 0; k < rec->kinds(); ++k) rec->histogram(k).ResetMinMax();
      rec->service().ResetMinMax();
    }
  };

  // Status ticks (RunObserver::OnStatus): a second, observer-only series.
  Ticker status_ticker(tl.measure_start,
                       observer != nullptr ? SecondsToNanos(cfg.status_interval_s) : Nanos{0});
  Snapshot last_status = base;
  Nanos last_status_at = tl.measure_start;

  // The figures between two snapshots, as an interval ending at tick `at`
  // (used by --report-interval lines and by the live status).
  auto make_interval = [&](const Snapshot& snap, const Snapshot& last, Nanos last_at, Nanos at,
                           Nanos now) {
    IntervalSnapshot iv;
    iv.t_end_s = NanosToSeconds(at - tl.measure_start);
    iv.duration_s = NanosToSeconds(now - last_at);
    iv.threads = run->threads_;
    RunResult tmp;
    Diff(snap, last, /*exact_min_max=*/false, kind_names, tmp);
    iv.events = tmp.events;
    iv.errors = tmp.errors;
    iv.latency = std::move(tmp.latency);
    iv.counters = std::move(tmp.counters);
    iv.counters.resize(workload.Info().counter_names.size());
    FillDerivedFigures(iv);
    return iv;
  };

  for (;;) {
    Nanos now = MonotonicNow();
    if (!warm && now >= tl.measure_start) {
      warm = true;
      run->issued_.store(0, std::memory_order_relaxed);
      base = TakeSnapshot(run->recorders_, static_cast<int>(kind_names.size()));
      reset_min_max();
      base_at = now;
      last_interval = base;
      last_interval_at = now;
      last_status = base;
      last_status_at = now;
    }
    if (warm && status_ticker.enabled() && now >= status_ticker.next()) {
      Snapshot snap = TakeSnapshot(run->recorders_, static_cast<int>(kind_names.size()));
      IntervalSnapshot st =
          make_interval(snap, last_status, last_status_at, status_ticker.next(), now);
      observer->OnStatus(st);
      last_status = std::move(snap);
      last_status_at = now;
      status_ticker.AdvancePast(now);
    }
    if (warm && ticker.enabled() && now >= ticker.next()) {
      Snapshot snap = TakeSnapshot(run->recorders_, static_cast<int>(kind_names.size()));
      IntervalSnapshot iv =
          make_interval(snap, last_interval, last_interval_at, ticker.next(), now);
      if (run->rate_limited_) {
        uint64_t due = run->schedule_.DueBy(now);
        uint64_t taken = run->rate_tickets_.load(std::memory_order_relaxed);
        iv.queue = due > taken ? due - taken : 0;
        iv.concurrency = run->running_events_.load(std::memory_order_relaxed);
      }
      final_result.intervals.push_back(iv);
      if (observer) observer->OnInterval(iv);
      last_interval = std::move(snap);
      last_interval_at = now;
      ticker.AdvancePast(now);
    }
    if (warm && next_checkpoint < checkpoints.size() &&
        now >= tl.measure_start + SecondsToNanos(checkpoints[next_checkpoint])) {
      Snapshot snap = TakeSnapshot(run->recorders_, static_cast<int>(kind_names.size()));
      RunResult cp = MakeResult(*run, snap, base, base_at, now, manifest, kind_names);
      cp.checkpoint = true;
      cp.metrics = workload.Metrics(cp);
      if (observer) observer->OnCheckpoint(cp);
      base = std::move(snap);
      reset_min_max();
      base_at = now;
      ++next_checkpoint;
    }

    if (StopRequested() && !run->stop_.load()) {
      interrupted = true;
      run->stop_.store(true);
    }

    std::unique_lock<std::mutex> lock(run->mu_);
    if (run->finished_ == run->threads_) break;
    if (forced_at != 0 && now >= forced_at) {
      forced = true;
      run->stop_.store(true);
      break;
    }
    Nanos wake = now + kPollPeriod;
    if (!warm) wake = std::min(wake, tl.measure_start);
    if (warm && ticker.enabled()) wake = std::min(wake, ticker.next());
    if (warm && status_ticker.enabled()) wake = std::min(wake, status_ticker.next());
    if (warm && next_checkpoint < checkpoints.size()) {
      wake = std::min(wake, tl.measure_start + SecondsToNanos(checkpoints[next_checkpoint]));
    }
    if (forced_at != 0) wake = std::min(wake, forced_at);
    Nanos wait = std::max<Nanos>(wake - MonotonicNow(), 0);
    run->cv_.wait_for(lock, std::chrono::nanoseconds(wait));
  }

  // Measured span: from the (post-warm-up) baseline to the last thread's end.
  Nanos end_at = 0;
  for (const auto& st : run->states_) {
    if (st->done.load(std::memory_order_acquire)) {
      end_at = std::max(end_at, st->finished_at.load(std::memory_order_relaxed));
    }
  }
  if (forced || end_at == 0) end_at = MonotonicNow();
  if (!warm) {
    // The run ended inside the warm-up: nothing was measured.
    base = TakeSnapshot(run->recorders_, static_cast<int>(kind_names.size()));
    base_at = end_at;
  }
  Snapshot last = TakeSnapshot(run->recorders_, static_cast<int>(kind_names.size()));
  RunResult result = MakeResult(*run, last, base, base_at, end_at, manifest, kind_names);
  result.intervals = std::move(final_result.intervals);
  result.interrupted = interrupted;
  result.forced_shutdown = forced;
  {
    std::lock_guard<std::mutex> lock(run->mu_);
    result.failure = run->first_error_;
  }

  if (forced) {
    // Threads that still hang cannot be joined; leave them (and the run
    // they use) to the process exit that the caller performs.
    for (int i = 0; i < run->threads_; ++i) pthread_detach(threads[i]);
    std::lock_guard<std::mutex> lock(g_abandoned_mu);
    g_abandoned->push_back(std::move(run));
  } else {
    for (int i = 0; i < run->threads_; ++i) pthread_join(threads[i], nullptr);
    Status done = workload.Done();
    if (!done.ok() && result.failure.ok()) result.failure = done;
  }
  result.metrics = workload.Metrics(result);
  return result;
}

}  // namespace loadcell
