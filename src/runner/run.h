#pragma once
// One run of a workload (internal to runner/): its settings, what its worker
// threads share with the control thread, and the control thread's own
// bookkeeping. runner.cpp holds the control steps, worker_loop.cpp what each
// worker thread runs.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/random.h"
#include "core/status.h"
#include "os/thread.h"
#include "runner/coordinator.h"
#include "runner/recorder.h"
#include "runner/run_config.h"
#include "runner/run_result.h"
#include "runner/runner.h"
#include "runner/schedule.h"
#include "runner/snapshot.h"
#include "runner/workload.h"

namespace loadcell {

// How often a waiting thread looks at the stop flag, and the longest sleep
// of the control loop.
inline constexpr Nanos kPollPeriod = 50 * kNanosPerMilli;
// The control loop waking this much later than it asked was not running:
// the process was stopped (SIGSTOP, a suspended VM, a debugger). The gap is
// a pause: it moves the forced shutdown on by as much and is reported.
inline constexpr Nanos kPauseGap = 1000 * kNanosPerMilli;

// Per-thread facts the runner keeps besides the recorder. Written by the
// owner thread only; read by the control thread.
struct alignas(64) WorkerState {
  std::atomic<uint64_t> late_events{0};
  std::atomic<Nanos> max_lag{0};
  std::atomic<Nanos> finished_at{0};
  // The thread's own CPU time (user + system), time waiting for a CPU
  // (-1: unknown) and wall time from its release to its end (Finish
  // included); cpu_known false when the system did not tell its CPU time.
  std::atomic<uint64_t> cpu_ns{0};
  std::atomic<int64_t> cpu_wait_ns{-1};
  std::atomic<Nanos> run_ns{0};
  std::atomic<bool> cpu_known{false};
  std::atomic<bool> done{false};  // release: finished_at and the above are final
};

// A run. The control thread calls Configure, Spawn, Control and Collect, in
// that order and once each, then JoinAndFinish, or DetachThreads after a
// forced shutdown (the threads may then use the Run until the process exits,
// so it must not be destroyed). Worker threads only enter WorkerMain.
class Run final {
 public:
  Run(Workload& workload, const RunConfig& cfg, RunObserver* observer, RunCoordinator& coordinator)
      : workload_(workload), cfg_(cfg), observer_(observer), coordinator_(coordinator) {}
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  // Derives the settings (threads, limits, seed, clocks), completes and
  // announces `manifest`, creates the recorders and calls Workload::Init.
  Status Configure(Manifest manifest);
  // Starts the threads and waits until each created its worker. On any
  // failure the threads leave without running an event, are joined, and the
  // first error is returned.
  Status Spawn();
  // Releases the threads, then reports warm-up end, status ticks, intervals
  // and checkpoints as they fall due, until every thread finished or the
  // forced shutdown is due. Notes a stop signal by stopping the threads.
  // (Both --time and a stop signal thus end it within a bounded grace.)
  void Control();
  // The run's figures from the measured baseline to the last thread's end.
  RunResult Collect();
  // After a successful Spawn, when the run must not start after all: the
  // threads leave without running an event and are joined.
  void CancelStart() { AbortStart(); }
  // After a start that gave way to a stop request (`why`, Cancelled: the
  // workload's init or a thread's start honoured it), the threads joined:
  // the result of nothing measured, interrupted, announced to the observer
  // first if Configure did not get as far.
  RunResult NothingMeasured(const Status& why);
  // Joins the threads and calls Workload::Done (its error, if the run had
  // none, becomes result.failure). REQUIRES: !forced().
  void JoinAndFinish(RunResult& result);
  // Leaves the hanging threads to the process exit. REQUIRES: forced().
  void DetachThreads();
  bool forced() const { return forced_; }

  // The body of worker thread `id` (worker_loop.cpp).
  void WorkerMain(int id);

 private:
  struct ThreadArg {
    Run* run;
    int id;
  };
  static void ThreadEntry(void* arg);  // arg: a ThreadArg
  // Sets go_ (under mu_) and wakes the threads waiting for it.
  void ReleaseThreads();
  // The schedule as one thread takes from it (worker_loop.cpp).
  class ThreadPacer;
  // The limits and timing of one thread whose worker runs its own loop.
  class ThreadLoop;

  // ---- Configure's parts (runner.cpp)
  void SetLimits();
  void ChooseSeed();
  void CompleteManifest(Manifest& manifest) const;

  // ---- Spawn's parts
  Status StartThreads();
  void AbortStart();

  // ---- The control loop's duties, each acting when due at `now`
  void WaitStartDelay();
  void Release();
  void StartReporting();
  void EndWarmupIfDue(Nanos now);
  void StatusTickIfDue(Nanos now);
  void IntervalIfDue(Nanos now);
  void CheckpointIfDue(Nanos now);
  // Under --rate with a backlog limit: the schedule more than
  // cfg_.rate_backlog_limit events ahead of the threads fails the run and
  // stops them (the threads' own figures still make the result).
  void BacklogCheck(Nanos now);
  // A stop signal stops the threads and makes the forced shutdown due
  // cfg_.StopGrace() from `now` (sooner if it already was).
  void StopIfSignalled(Nanos now);
  // Asks the coordinator for news: reports the intervals it hands back and
  // stops the threads as a stop signal would (not marked interrupted) when
  // it says so.
  void PollCoordinator(Nanos now);
  // Stops the threads; the forced shutdown is due cfg_.StopGrace() from `now`.
  void StopThreads(Nanos now);
  void ReportInterval(const IntervalSnapshot& iv);
  bool ForcedShutdownDue(Nanos now);
  // The loop asked to wake at `asked` and woke at `now`: a gap of more than
  // kPauseGap is a pause (counted, and the forced shutdown moves on by it).
  void NotePause(Nanos asked, Nanos now);
  Nanos NextWake(Nanos now) const;
  bool AllFinished();
  // Sleeps until `wake` or until the last thread finishes, whichever is first.
  void WaitUntil(Nanos wake);

  // ---- Figures
  Snapshot Snap() const;
  // The longest event completed so far (to within the histogram's bucket).
  Nanos LongestEventSoFar() const;
  void ResetMinMax();
  Nanos CheckpointDue() const;  // REQUIRES: a checkpoint is left
  bool CheckpointLeft() const { return next_checkpoint_ < checkpoints_.size(); }
  IntervalSnapshot MakeInterval(const Snapshot& snap, const Snapshot& last, Nanos last_at, Nanos at,
                                Nanos now) const;
  RunResult MakeResult(const Snapshot& now, const Snapshot& base, Nanos from, Nanos to) const;
  RateFigures MakeRateFigures(uint64_t events, double total_time_s, Nanos to) const;
  Nanos LastThreadEnd() const;

  // ---- Worker loops (worker_loop.cpp)
  template <bool kTsc>
  void ClosedLoop(int id, Worker& worker);
  void OpenLoop(int id, Worker& worker, ThreadPacer& pacer);
  // WorkloadInfo::own_loop: the worker's one RunEvent() call is the loop.
  void OwnLoop(int id, Worker& worker, ThreadLoop& loop);
  bool WarmUp(int id, Worker& worker);
  // Takes one measured event from this thread's share (`mine` of
  // `per_thread` used, 0: none) and from the shared ticket counter (0: no
  // limit). False, taking nothing, when either is used up.
  bool TakeBudget(uint64_t& mine, uint64_t per_thread, uint64_t ticket_limit);
  // An event failed with `s`: end of work ends this thread's loop quietly,
  // anything else is counted, kept (the first one) and stops every thread.
  void EventFailed(ThreadRecorder& rec, const Status& s);
  void NoteError(const Status& s);

  // ---- Settings: written by Configure, read-only once threads start.
  Workload& workload_;
  const RunConfig& cfg_;
  RunObserver* const observer_;  // may be null
  RunCoordinator& coordinator_;
  Manifest manifest_;
  int threads_ = 1;
  bool self_timed_ = false;
  bool self_paced_ = false;  // under --rate: the workers take their own intended starts
  bool own_loop_ = false;    // the workers run their own loops (ThreadLoop)
  bool rate_limited_ = false;
  EventBudget budget_;
  uint64_t event_limit_ = 0;   // total measured events, 0: none (the manifest's)
  uint64_t ticket_limit_ = 0;  // what issued_ limits: event_limit_ unless the shares imply it
  uint64_t seed_ = 0;
  bool seed_from_time_ = false;
  std::unique_ptr<Distribution> distribution_;
  std::vector<std::string> kind_names_;  // "event", then the workload's kinds
  const TickSource* ticks_ = nullptr;    // event timing source (closed loop)

  // ---- Set by Release before go_ is set (which publishes them), read-only
  // afterwards.
  Timeline timeline_;
  RateSchedule schedule_{0, 0};
  uint64_t end_ticks_ = 0;  // time limit in ticks_, 0: none
  bool InCoolDown(Nanos tick) const;
  // After the measured end: events go on, not measured, until the
  // cool-down's end (RunConfig::cooldown_s).
  void CoolDown(int id, Worker& worker);

  // ---- Per thread: recorders_[i] and states_[i] are written by thread i
  // only (the vectors themselves are fixed by Configure); any thread reads.
  std::vector<std::unique_ptr<ThreadRecorder>> recorders_;
  std::vector<std::unique_ptr<WorkerState>> states_;

  // ---- Thread handles: control thread only.
  std::vector<ThreadHandle> handles_;
  std::vector<ThreadArg> args_;
  int started_ = 0;  // threads actually created

  // ---- Flags every thread reads; the counters threads update live on
  // their own cache lines.
  alignas(64) std::atomic<bool> go_{false};  // release: the threads may start
  std::condition_variable go_cv_;            // signals go_ (set under mu_)
  std::atomic<bool> abort_start_{false};     // set before go_: leave without running
  alignas(64) std::atomic<bool> stop_{false};
  alignas(64) std::atomic<uint64_t> issued_{0};        // measured events claimed (ticket_limit_)
  alignas(64) std::atomic<uint64_t> rate_tickets_{0};  // rate schedule tickets claimed
  // Under --rate: events running now (sysbench's "concurrency").
  alignas(64) std::atomic<uint64_t> running_events_{0};

  // ---- mu_ guards the four members below it; cv_ is notified whenever
  // ready_ or finished_ grows.
  std::mutex mu_;
  std::condition_variable cv_;
  int ready_ = 0;       // GUARDED_BY(mu_): threads that tried to create their worker
  int finished_ = 0;    // GUARDED_BY(mu_): threads out of their loop (Finish called)
  Status first_error_;  // GUARDED_BY(mu_): the first event or Finish error
  Status start_error_;  // GUARDED_BY(mu_): the first NewWorker error

  // ---- Control thread only: the reporting state of the control loop.
  bool warm_ = false;       // past the warm-up
  bool announced_ = false;  // the observer's OnStart was called
  Snapshot base_;           // measured baseline (warm-up end, last checkpoint)
  Nanos base_at_ = 0;       // when base_ was taken
  Ticker interval_ticker_;  // --report-interval
  Snapshot last_interval_;  // at the previous interval line
  Nanos last_interval_at_ = 0;
  Ticker status_ticker_;  // RunObserver::OnStatus
  Snapshot last_status_;  // at the previous status tick
  Nanos last_status_at_ = 0;
  std::vector<double> checkpoints_;  // --report-checkpoints, seconds, ascending
  size_t next_checkpoint_ = 0;
  Nanos forced_at_ = 0;  // forced shutdown due, 0: never
  Nanos paused_ = 0;     // the control loop's pauses (NotePause), in all
  int pauses_ = 0;
  std::vector<IntervalSnapshot> intervals_;
  bool interrupted_ = false;  // a stop signal stopped the run
  bool stopped_ = false;      // the threads were told to stop (signal or coordinator)
  bool forced_ = false;       // the forced shutdown ended the control loop
};

}  // namespace loadcell
