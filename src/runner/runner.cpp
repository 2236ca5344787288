#include "runner/runner.h"

#include <algorithm>
#include <climits>
#include <mutex>

#include "core/clock.h"
#include "os/file_system.h"
#include "os/host_facts.h"
#include "runner/run.h"
#include "runner/stop_signal.h"
#include "stats/summary.h"

namespace loadcell {
namespace {

// Runs abandoned by a forced shutdown stay reachable here: their threads
// may still use them until the process exits.
// (Never destroyed, so that exit() does not free what they still use.)
std::mutex g_abandoned_mu;  // guards g_abandoned's vector
std::vector<std::unique_ptr<Run>>* g_abandoned = new std::vector<std::unique_ptr<Run>>();

// The manifest's file targets and database settings: what the workload
// states of its settings (Facts of a result not yet run) and the mount of
// each target's folder.
void RecordTargets(const Workload& w, Manifest& m) {
  const WorkloadFacts facts = w.Facts(RunResult{});
  m.targets.clear();
  for (const IoTargetFacts& t : facts.io) m.targets.push_back(TargetManifestOf(t));
  m.targets_recorded = true;
  m.database_settings = facts.database_settings;
}

}  // namespace

// ---------------------------------------------------------------- Configure

Status Run::Configure(Manifest manifest) {
  SetLimits();
  if (cfg_.cooldown_s > 0 && (rate_limited_ || own_loop_ || cfg_.time_s <= 0)) {
    return Status::InvalidArgument(
        "a cool-down needs a time limit and the closed loop (no --rate, no own event loop)");
  }
  ChooseSeed();
  auto dist = Distribution::Create(cfg_.rand, 0, (uint64_t{1} << 32) - 1);
  if (!dist.ok()) return dist.status();
  distribution_ = std::make_unique<Distribution>(std::move(dist).value());

  if (workload_.Info().counter_names.size() > static_cast<size_t>(kMaxCounters)) {
    return Status::Internal(workload_.Info().name + " names more counters than a recorder keeps");
  }
  kind_names_ = {"event"};
  for (const auto& k : workload_.Info().latency_kinds) kind_names_.push_back(k);
  for (int i = 0; i < threads_; ++i) {
    recorders_.push_back(std::make_unique<ThreadRecorder>(static_cast<int>(kind_names_.size()) - 1,
                                                          workload_.Info().reports_busy_time));
    // Each thread turns its recorder on when it enters the measured period.
    recorders_.back()->set_measuring(cfg_.warmup_s <= 0);
    states_.push_back(std::make_unique<WorkerState>());
  }
  ticks_ = cfg_.clock == "monotonic" ? &MonotonicTickSource() : &BestTickSource();
  CompleteManifest(manifest);
  manifest_ = std::move(manifest);

  LC_RETURN_IF_ERROR(workload_.Init(threads_));
  RecordTargets(workload_, manifest_);
  if (observer_) observer_->OnStart(manifest_);
  announced_ = true;
  return Status::Ok();
}

RunResult Run::NothingMeasured(const Status& why) {
  if (observer_ && !announced_) observer_->OnStart(manifest_);
  announced_ = true;
  const Nanos now = MonotonicNow();
  const Snapshot zero = Snap();
  RunResult result = MakeResult(zero, zero, now, now);
  result.interrupted = true;
  result.failure = why;
  return result;
}

void Run::SetLimits() {
  threads_ = static_cast<int>(cfg_.threads);
  self_timed_ = workload_.Info().self_timed;
  self_paced_ = self_timed_ && workload_.Info().self_paced;
  own_loop_ = workload_.Info().own_loop;
  rate_limited_ = cfg_.rate > 0;
  budget_ = workload_.Budget(threads_);
  event_limit_ = static_cast<uint64_t>(cfg_.events);
  if (budget_.total != 0 &&
      (event_limit_ == 0 || budget_.total < event_limit_ || budget_.replaces_event_limit)) {
    event_limit_ = budget_.total;
  }
  // Shares that add up to no more than the limit end the run by themselves;
  // the shared counter is then left alone (no cache line bounced per event).
  const uint64_t shares = budget_.per_thread * static_cast<uint64_t>(threads_);
  ticket_limit_ = budget_.per_thread != 0 && shares <= event_limit_ ? 0 : event_limit_;
}

void Run::ChooseSeed() {
  seed_from_time_ = cfg_.seed == 0;
  seed_ = seed_from_time_
              ? static_cast<uint64_t>(MonotonicNow()) ^ (static_cast<uint64_t>(getpid()) << 32)
              : static_cast<uint64_t>(cfg_.seed);
  if (seed_from_time_ && cfg_.share.seed != 0) seed_ = cfg_.share.seed;
  // Keep it within --rand-seed's range so that the printed seed can be given
  // back to reproduce the run's random sequences.
  seed_ &= 0x7fffffffffffffffULL;
  if (seed_ == 0) seed_ = 1;
}

void Run::CompleteManifest(Manifest& manifest) const {
  manifest.system.clock_source = rate_limited_
                                     ? MonotonicTickSource().description + " (rate-limited runs)"
                                     : ticks_->description;
  manifest.threads = threads_;
  manifest.time_limit_s = cfg_.time_s;
  manifest.event_limit = event_limit_;
  manifest.warmup_s = cfg_.warmup_s;
  manifest.rate = cfg_.rate;
  manifest.rand_type = cfg_.rand.type;
  manifest.seed = seed_;
  manifest.seed_from_time = seed_from_time_;
  if (cfg_.share.total_threads > 0) {
    manifest.seed_scope =
        "every rank uses this seed; each thread's comes from it and the thread's global id "
        "(its rank's first thread + its own)";
  }
  if (manifest.workload.empty()) manifest.workload = workload_.Describe();
}

// ---------------------------------------------------------------- Spawn

Status Run::Spawn() {
  Status status = StartThreads();
  {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return ready_ == started_; });
    if (status.ok()) status = start_error_;
  }
  if (!status.ok()) {
    AbortStart();
  } else if (observer_) {
    observer_->OnThreadsStarted();
  }
  return status;
}

// Starts the threads; each creates its worker, then waits for `go_`.
Status Run::StartThreads() {
  handles_.resize(threads_);
  args_.resize(threads_);
  Status status;
  for (int i = 0; i < threads_; ++i) {
    args_[i] = {this, i};
    Result<ThreadHandle> thread = StartThread(cfg_.thread_stack_size, ThreadEntry, &args_[i]);
    if (!thread.ok()) {
      status = PosixError("cannot start worker thread " + std::to_string(i), thread.status().err());
      break;
    }
    handles_[i] = *thread;
    ++started_;
  }
  return status;
}

void Run::AbortStart() {
  abort_start_.store(true, std::memory_order_release);
  ReleaseThreads();
  for (int i = 0; i < started_; ++i) JoinThread(handles_[i]);
}

void Run::ThreadEntry(void* arg) {
  auto* a = static_cast<ThreadArg*>(arg);
  a->run->WorkerMain(a->id);
}

// ---------------------------------------------------------------- Control

void Run::Control() {
  // Baseline before anything runs (all zeros; kept simple and exact).
  base_ = Snap();
  WaitStartDelay();
  Release();
  StartReporting();
  Nanos asked = 0;
  for (;;) {
    const Nanos now = MonotonicNow();
    NotePause(asked, now);
    EndWarmupIfDue(now);
    StatusTickIfDue(now);
    IntervalIfDue(now);
    CheckpointIfDue(now);
    BacklogCheck(now);
    StopIfSignalled(now);
    PollCoordinator(now);
    if (AllFinished()) break;
    if (ForcedShutdownDue(now)) break;
    asked = NextWake(now);
    WaitUntil(asked);
  }
}

void Run::NotePause(Nanos asked, Nanos now) {
  if (asked == 0 || now - asked <= kPauseGap) return;
  const Nanos gap = now - asked;
  paused_ += gap;
  ++pauses_;
  // The grace is for events that ignore the stop, not for a stopped process.
  if (forced_at_ != 0) forced_at_ += gap;
}

// A run that starts late (RunConfig::start_delay_s) waits here, its threads
// created and held, in slices so that a stop request ends the wait.
void Run::WaitStartDelay() {
  if (cfg_.start_delay_s <= 0) return;
  const Nanos until = MonotonicNow() + SecondsToNanos(cfg_.start_delay_s);
  for (Nanos now = MonotonicNow(); now < until && !StopRequested(); now = MonotonicNow()) {
    SystemClock().SleepUntil(std::min(until, now + kPollPeriod));
  }
}

// Fixes the timeline from now and lets the threads go.
void Run::Release() {
  const Nanos t_start = MonotonicNow();
  timeline_ = Timeline::Make(t_start, cfg_.warmup_s, cfg_.time_s, cfg_.cooldown_s);
  if (ticks_->tsc && timeline_.end != 0) {
    const uint64_t tsc_now = ReadTicks<true>();
    end_ticks_ =
        tsc_now + static_cast<uint64_t>(static_cast<double>(timeline_.end - MonotonicNow()) /
                                        ticks_->ns_per_tick);
  }
  ScheduleShare share;
  if (cfg_.share.total_threads > 0) {
    share = {static_cast<uint64_t>(cfg_.share.first_thread), static_cast<uint64_t>(threads_),
             static_cast<uint64_t>(cfg_.share.total_threads)};
  }
  schedule_ = RateSchedule(t_start, cfg_.rate, share);
  ReleaseThreads();
}

void Run::ReleaseThreads() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    go_.store(true, std::memory_order_release);
  }
  go_cv_.notify_all();
}

void Run::StartReporting() {
  const Timeline& tl = timeline_;
  interval_ticker_ = Ticker(tl.measure_start, SecondsToNanos(cfg_.report_interval_s));
  // Status ticks (RunObserver::OnStatus): a second, observer-only series.
  status_ticker_ = Ticker(tl.measure_start,
                          observer_ != nullptr ? SecondsToNanos(cfg_.status_interval_s) : Nanos{0});
  checkpoints_ = cfg_.CheckpointTimes();
  const double forced_after = cfg_.ForcedShutdownAfter();
  forced_at_ = (forced_after >= 0 && tl.end != 0) ? tl.StopAt() + SecondsToNanos(forced_after) : 0;
  warm_ = cfg_.warmup_s <= 0;
  base_at_ = tl.measure_start;
  last_interval_ = base_;
  last_interval_at_ = tl.measure_start;
  last_status_ = base_;
  last_status_at_ = tl.measure_start;
}

// Warm-up events are recorded nowhere (each thread's recorder is off until
// the thread enters the measured period), so the baseline stays the zeros
// taken before the release and the measured time starts at measure_start.
void Run::EndWarmupIfDue(Nanos now) {
  if (warm_ || now < timeline_.measure_start) return;
  warm_ = true;
}

// The cool-down is not measured: no interval or status tick falls in it.
bool Run::InCoolDown(Nanos tick) const { return timeline_.cool_end != 0 && tick > timeline_.end; }

void Run::StatusTickIfDue(Nanos now) {
  if (!warm_ || !status_ticker_.enabled() || now < status_ticker_.next()) return;
  if (InCoolDown(status_ticker_.next())) return;
  Snapshot snap = Snap();
  IntervalSnapshot st =
      MakeInterval(snap, last_status_, last_status_at_, status_ticker_.next(), now);
  observer_->OnStatus(st);
  last_status_ = std::move(snap);
  last_status_at_ = now;
  status_ticker_.AdvancePast(now);
}

void Run::IntervalIfDue(Nanos now) {
  if (!warm_ || !interval_ticker_.enabled() || now < interval_ticker_.next()) return;
  if (InCoolDown(interval_ticker_.next())) return;
  Snapshot snap = Snap();
  IntervalSnapshot iv =
      MakeInterval(snap, last_interval_, last_interval_at_, interval_ticker_.next(), now);
  if (rate_limited_) {
    uint64_t due = schedule_.DueBy(now);
    uint64_t taken = rate_tickets_.load(std::memory_order_relaxed);
    iv.queue = due > taken ? due - taken : 0;
    iv.concurrency = running_events_.load(std::memory_order_relaxed);
  }
  if (coordinator_.ShareInterval(iv)) ReportInterval(iv);
  last_interval_ = std::move(snap);
  last_interval_at_ = now;
  interval_ticker_.AdvancePast(now);
}

void Run::BacklogCheck(Nanos now) {
  if (!rate_limited_ || cfg_.rate_backlog_limit == 0 || stopped_) return;
  const uint64_t due = schedule_.DueBy(now);
  const uint64_t taken = rate_tickets_.load(std::memory_order_relaxed);
  if (due <= taken || due - taken <= cfg_.rate_backlog_limit) return;
  // sysbench's words: its event queue of that many events is full.
  NoteError(Status::ResourceExhausted(
      "The event queue is full. This means the worker threads are unable to keep up with the "
      "specified event generation rate"));
  StopThreads(now);
}

// A checkpoint reports the figures since the previous one, then resets them.
void Run::CheckpointIfDue(Nanos now) {
  if (!warm_ || !CheckpointLeft() || now < CheckpointDue()) return;
  Snapshot snap = Snap();
  RunResult cp = MakeResult(snap, base_, base_at_, now);
  cp.checkpoint = true;
  cp.metrics = workload_.Metrics(cp);
  if (observer_) observer_->OnCheckpoint(cp);
  base_ = std::move(snap);
  ResetMinMax();
  base_at_ = now;
  ++next_checkpoint_;
}

void Run::ReportInterval(const IntervalSnapshot& iv) {
  intervals_.push_back(iv);
  if (observer_) observer_->OnInterval(iv);
}

void Run::StopIfSignalled(Nanos now) {
  if (interrupted_ || !StopRequested()) return;
  interrupted_ = true;
  StopThreads(now);
}

void Run::PollCoordinator(Nanos now) {
  CoordinatorNews news;
  coordinator_.Poll(now, news);
  for (const IntervalSnapshot& iv : news.intervals) ReportInterval(iv);
  if (news.stop && !stopped_) StopThreads(now);
}

void Run::StopThreads(Nanos now) {
  stopped_ = true;
  stop_.store(true);
  // Events that ignore the stop are abandoned after the grace.
  const Nanos at = now + SecondsToNanos(cfg_.StopGrace());
  if (forced_at_ == 0 || at < forced_at_) forced_at_ = at;
}

bool Run::ForcedShutdownDue(Nanos now) {
  if (forced_at_ == 0 || now < forced_at_) return false;
  if (!stopped_ && cfg_.GraceGrowsWithEvents() && timeline_.end != 0) {
    // After the time limit: an event is abandoned only once it has run past
    // the grace and past kGraceEventFactor times the longest one completed.
    const double longest = static_cast<double>(LongestEventSoFar());
    const Nanos grown =
        timeline_.StopAt() + std::max(SecondsToNanos(RunConfig::kDefaultStopGrace),
                                      static_cast<Nanos>(longest * RunConfig::kGraceEventFactor));
    if (grown > forced_at_) {
      forced_at_ = grown;
      if (now < forced_at_) return false;
    }
  }
  forced_ = true;
  stop_.store(true);
  return true;
}

// The first moment a duty falls due, at most kPollPeriod away.
Nanos Run::NextWake(Nanos now) const {
  Nanos wake = now + kPollPeriod;
  if (!warm_) wake = std::min(wake, timeline_.measure_start);
  if (warm_ && interval_ticker_.enabled()) wake = std::min(wake, interval_ticker_.next());
  if (warm_ && status_ticker_.enabled()) wake = std::min(wake, status_ticker_.next());
  if (warm_ && CheckpointLeft()) wake = std::min(wake, CheckpointDue());
  if (forced_at_ != 0) wake = std::min(wake, forced_at_);
  return wake;
}

bool Run::AllFinished() {
  std::lock_guard<std::mutex> lock(mu_);
  return finished_ == threads_;
}

void Run::WaitUntil(Nanos wake) {
  std::unique_lock<std::mutex> lock(mu_);
  // Checked under the lock that the threads take to count themselves, so
  // that the last one's notification cannot be missed.
  if (finished_ == threads_) return;
  Nanos wait = std::max<Nanos>(wake - MonotonicNow(), 0);
  cv_.wait_for(lock, std::chrono::nanoseconds(wait));
}

// ---------------------------------------------------------------- Collect

RunResult Run::Collect() {
  // Measured span: from the (post-warm-up) baseline to the last thread's end.
  Nanos end_at = LastThreadEnd();
  if (forced_ || end_at == 0) end_at = MonotonicNow();
  // A cool-down ran on after the measured end, unmeasured.
  if (timeline_.cool_end != 0 && end_at > timeline_.end) end_at = timeline_.end;
  // The run ended inside the warm-up: nothing was measured, in no time;
  // or, as the front end asked, what the workload kept, since the release.
  if (!warm_) base_at_ = cfg_.warmup_cut_short_measured ? timeline_.start : end_at;
  RunResult result = MakeResult(Snap(), base_, base_at_, end_at);
  result.intervals = std::move(intervals_);
  result.interrupted = interrupted_;
  for (size_t i = 0; i < result.threads.size() && i < states_.size(); ++i) {
    const WorkerState& st = *states_[i];
    if (!st.done.load(std::memory_order_acquire) || !st.cpu_known.load(std::memory_order_relaxed)) {
      continue;
    }
    ThreadFigures& t = result.threads[i];
    t.cpu_time_s = static_cast<double>(st.cpu_ns.load(std::memory_order_relaxed)) / 1e9;
    t.run_time_s = static_cast<double>(st.run_ns.load(std::memory_order_relaxed)) / 1e9;
    const int64_t waited = st.cpu_wait_ns.load(std::memory_order_relaxed);
    if (waited >= 0) t.cpu_wait_s = static_cast<double>(waited) / 1e9;
  }
  if (forced_) {
    for (int i = 0; i < threads_; ++i) {
      if (!states_[i]->done.load(std::memory_order_acquire)) result.abandoned_threads.push_back(i);
    }
    // Every thread made it out after all: nothing is abandoned.
    if (result.abandoned_threads.empty() && AllFinished()) forced_ = false;
  }
  result.forced_shutdown = forced_;
  result.paused_s = static_cast<double>(paused_) / 1e9;
  result.pauses = pauses_;
  std::lock_guard<std::mutex> lock(mu_);
  result.failure = first_error_;
  return result;
}

Nanos Run::LastThreadEnd() const {
  Nanos end_at = 0;
  for (const auto& st : states_) {
    if (st->done.load(std::memory_order_acquire)) {
      end_at = std::max(end_at, st->finished_at.load(std::memory_order_relaxed));
    }
  }
  return end_at;
}

void Run::JoinAndFinish(RunResult& result) {
  for (int i = 0; i < threads_; ++i) JoinThread(handles_[i]);
  const StopGuard guard("the workload's end (done)", cfg_.StopGrace());
  Status done = workload_.Done();
  if (!done.ok() && result.failure.ok()) result.failure = done;
}

void Run::DetachThreads() {
  for (int i = 0; i < threads_; ++i) DetachThread(handles_[i]);
}

// ---------------------------------------------------------------- Figures

// The upper edge of the highest bucket any event reached so far (the max
// itself is reset at checkpoints; the buckets are not).
Nanos Run::LongestEventSoFar() const {
  const Snapshot snap = Snap();
  if (snap.kinds.empty()) return 0;
  const std::vector<uint64_t>& buckets = snap.kinds[0].buckets();
  for (size_t i = buckets.size(); i-- > 0;) {
    if (buckets[i] != 0) return static_cast<Nanos>(HistogramBucketHigh(i));
  }
  return 0;
}

Snapshot Run::Snap() const {
  return TakeSnapshot(recorders_, static_cast<int>(kind_names_.size()));
}

void Run::ResetMinMax() {
  for (auto& rec : recorders_) {
    for (int k = 0; k < rec->kinds(); ++k) rec->histogram(k).ResetMinMax();
    rec->service().ResetMinMax();
  }
}

Nanos Run::CheckpointDue() const {
  return timeline_.measure_start + SecondsToNanos(checkpoints_[next_checkpoint_]);
}

// The figures between two snapshots, as an interval ending at tick `at`
// (used by --report-interval lines and by the live status).
IntervalSnapshot Run::MakeInterval(const Snapshot& snap, const Snapshot& last, Nanos last_at,
                                   Nanos at, Nanos now) const {
  IntervalSnapshot iv;
  iv.t_end_s = NanosToSeconds(at - timeline_.measure_start);
  iv.duration_s = NanosToSeconds(now - last_at);
  iv.threads = threads_;
  RunResult tmp;
  Diff(snap, last, /*exact_min_max=*/false, kind_names_, tmp);
  iv.events = tmp.events;
  iv.errors = tmp.errors;
  iv.latency = std::move(tmp.latency);
  iv.counters = std::move(tmp.counters);
  iv.counters.resize(workload_.Info().counter_names.size());
  FillDerivedFigures(iv);
  return iv;
}

RunResult Run::MakeResult(const Snapshot& now, const Snapshot& base, Nanos from, Nanos to) const {
  RunResult r;
  r.manifest = manifest_;
  r.total_time_s = NanosToSeconds(std::max<Nanos>(0, to - from));
  r.window_start_ns = from;
  r.window_end_ns = std::max(from, to);
  Diff(now, base, /*exact_min_max=*/true, kind_names_, r);
  if (rate_limited_) r.rate = MakeRateFigures(r.events, r.total_time_s, to);
  r.counter_names = workload_.Info().counter_names;
  r.counters.resize(r.counter_names.size());
  FillDerivedFigures(r);
  return r;
}

RateFigures Run::MakeRateFigures(uint64_t events, double total_time_s, Nanos to) const {
  RateFigures rf;
  rf.target = cfg_.rate;
  rf.achieved = Rate(static_cast<double>(events), total_time_s);
  Nanos max_lag = 0;
  for (const auto& st : states_) {
    rf.late_events += st->late_events.load(std::memory_order_relaxed);
    max_lag = std::max(max_lag, st->max_lag.load(std::memory_order_relaxed));
  }
  rf.max_lag_ms = static_cast<double>(max_lag) / 1e6;
  uint64_t due = schedule_.DueBy(to);
  uint64_t taken = rate_tickets_.load(std::memory_order_relaxed);
  rf.final_lag_ms =
      due > taken ? static_cast<double>(due - taken) * schedule_.share_period_ns() / 1e6 : 0;
  return rf;
}

// ---------------------------------------------------------------- RunWorkload

RunCoordinator& SoloCoordinator() {
  static RunCoordinator solo;
  return solo;
}

Result<RunResult> RunWorkload(Workload& workload, const RunConfig& cfg, Manifest manifest,
                              RunObserver* observer, RunCoordinator& coordinator) {
  auto run = std::make_unique<Run>(workload, cfg, observer, coordinator);
  {
    // Until the threads are released no report exists: a stuck Init or
    // thread start ends the process once the stop signal's grace is over.
    const StopGuard guard("the start of the run (the workload's init, the threads' start)",
                          cfg.StopGrace());
    Status ready = run->Configure(std::move(manifest));
    if (ready.ok()) ready = run->Spawn();
    // Every participant's start, at the same moment (at once when alone).
    if (Status go = coordinator.Start(ready); !go.ok()) {
      if (ready.ok()) run->CancelStart();
      if (go.code() != StatusCode::kCancelled || !StopRequested()) return go;
      // The start gave way to a stop request: the report of nothing measured.
      RunResult result = run->NothingMeasured(go);
      result.metrics = workload.Metrics(result);
      return result;
    }
  }
  run->Control();
  RunResult result = run->Collect();
  if (run->forced()) {
    // Threads that still hang cannot be joined; leave them (and the run
    // they use) to the process exit that the caller performs.
    run->DetachThreads();
    std::lock_guard<std::mutex> lock(g_abandoned_mu);
    g_abandoned->push_back(std::move(run));
  } else {
    run->JoinAndFinish(result);
  }
  const size_t reported = result.intervals.size();
  if (observer != nullptr) observer->OnThreadsEnded();
  coordinator.Finish(result);
  // Intervals the coordinator completed only at the end.
  for (size_t i = reported; observer != nullptr && i < result.intervals.size(); ++i) {
    observer->OnInterval(result.intervals[i]);
  }
  result.metrics = workload.Metrics(result);
  return result;
}

}  // namespace loadcell
