#pragma once
// The contract between the runner and a test. The runner knows no concrete
// workload; tests register themselves in workloads/builtin.cpp.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/options.h"
#include "core/random.h"
#include "core/status.h"
#include "runner/run_facts.h"
#include "runner/run_result.h"

namespace loadcell {

class ThreadRecorder;

// Returned by Worker::RunEvent() when this thread has no more events to run
// (e.g. mutex runs exactly one event per thread). Not an error: its own code,
// kEndOfWork, recognised by that code alone.
inline Status EndOfWork() { return Status(StatusCode::kEndOfWork, "end of work"); }
inline bool IsEndOfWork(const Status& s) { return s.code() == StatusCode::kEndOfWork; }

// Under --rate, the run's one schedule as seen by a self-paced worker
// (WorkloadInfo::self_paced): one per thread, used by that thread only.
class Pacer {
 public:
  static constexpr Nanos kNoStart = -1;
  virtual ~Pacer() = default;
  // Takes the next operation of the schedule (shared by every thread) and
  // returns its intended start on MonotonicNow()'s clock, or kNoStart when
  // that falls at or after the time limit (take no more).
  virtual Nanos TakeStart() = 0;
  // The operation due at `intended` was submitted at `at`: counts its lag in
  // the run's rate figures (late events, max lag).
  virtual void Started(Nanos intended, Nanos at) = 0;
  // True once the run is stopping: a worker waiting for an intended start
  // returns EndOfWork() instead.
  virtual bool Stopping() const = 0;
};

// For a workload whose workers run their thread's event loop themselves
// (WorkloadInfo::own_loop: a sysbench script's own thread_run()): the run's
// limits and timing as that loop uses them. One per thread, used by that
// thread only, between the start of its RunEvent() call and its return.
class EventLoopControl {
 public:
  virtual ~EventLoopControl() = default;
  // Takes one more event for this thread: false once the run is stopping,
  // past its time limit or out of its event budget (take no more). Under
  // --rate it first waits for the event's intended start (false when the run
  // ends or stops meanwhile). The warm-up ends here, with the event that
  // starts after it.
  virtual bool More() = 0;
  // The event taken by More() starts now, and ends now: its latency is
  // recorded (from its intended start under --rate, the service time from
  // EventStart). An EventStop without an EventStart records nothing.
  virtual void EventStart() = 0;
  virtual void EventStop() = 0;
};

struct ThreadContext {
  int thread_id = 0;
  int num_threads = 1;
  // Under MPI, the threads of every rank are one set: this process' first
  // thread's place in it and its size (0: this process runs alone).
  int first_thread = 0;
  int total_threads = 0;
  uint64_t seed = 0;  // this thread's seed (ThreadSeed(run_seed, GlobalThreadId()))

  // This thread's id among the threads of every process that runs the test
  // together, and their number: thread_id and num_threads when alone.
  int GlobalThreadId() const { return first_thread + thread_id; }
  int GlobalThreads() const { return total_threads > 0 ? total_threads : num_threads; }
  const Distribution* distribution = nullptr;  // --rand-type over [0, 2^63)
  const DistributionConfig* distribution_config = nullptr;
  // For self-timed workers: where they record per-kind latencies and
  // counters. Always set; synchronous workers may add counters through it.
  ThreadRecorder* recorder = nullptr;
  // Under --rate for a self-paced workload, else null.
  Pacer* pacer = nullptr;
  // For a workload that runs its own loop (WorkloadInfo::own_loop), else null.
  EventLoopControl* loop = nullptr;
  // The run's clock for timing events (--clock; CLOCK_MONOTONIC under
  // --rate): a self-timed worker may read it through a ThreadMonotonic.
  // Null outside a run (tests): MonotonicTickSource().
  const TickSource* ticks = nullptr;
};

// Runs events on one thread. Not shared between threads.
class Worker {
 public:
  virtual ~Worker() = default;
  // One measured event. For a synchronous worker the runner times the call.
  // Returns OK, EndOfWork(), or an error that fails the run.
  virtual Status RunEvent() = 0;
  // Called once on the worker's thread after its last event.
  virtual Status Finish() { return Status::Ok(); }
};

// Limits that the test itself imposes (0 = none): memory stops after
// total-size / block-size events, mutex runs one event per thread.
struct EventBudget {
  uint64_t total = 0;
  uint64_t per_thread = 0;
  // The total replaces --events instead of capping it (sysbench's memory
  // test runs total-size / block-size events whatever --events says).
  bool replaces_event_limit = false;
};

// How a test speaks on the console (its own lines: prepare's and cleanup's
// progress, warnings before a run), set once by the front end before
// Prepare, Cleanup or Init. The levels are sysbench's --verbosity: 2 and up
// prints warnings, 3 and up notices (the prepare and cleanup lines).
struct ConsoleStyle {
  static constexpr int kWarnings = 2;
  static constexpr int kNotices = 3;
  // sysbench mode: only what sysbench 1.0.20 prints.
  bool sysbench_output = false;
  int verbosity = kNotices;
};

struct PrepareContext {
  int threads = 1;
  uint64_t seed = 0;
  // sysbench mode: say what sysbench 1.0.20 says, no progress display.
  bool sysbench_output = false;
};

// The processes that run one test together (the ranks of an MPI run), as a
// workload that shares something between them (a database) sees them: its
// place among them, and a vote that every one of them takes at the same
// point of its prepare, cleanup or run set-up. Used on the main thread only.
class ProcessGroup {
 public:
  virtual ~ProcessGroup() = default;
  virtual int Rank() const = 0;  // 0 .. Size() - 1
  virtual int Size() const = 0;
  virtual const std::string& Host() const = 0;  // this process' host name
  // How many different hosts the processes run on.
  virtual int HostCount() const = 0;
  // Every process' --threads added up, and how many the processes below
  // this one have (its first thread's global id).
  virtual int TotalThreads() const = 0;
  virtual int FirstThread() const = 0;
  // Every process runs `work`, its own part (of a prepare, a cleanup), and
  // the call returns when every one has: Ok when every part was, this
  // process' own error when its part failed, else the failure of the
  // lowest failing process with its message, named "rank N (host): ...".
  // While the parts run the processes hear from each other: one silent for
  // the group's timeout (stopped, hung, its host gone) ends the call with
  // an error naming it and `what` ("prepare"), however long the others'
  // parts take. `work` runs on a thread of its own. A collective: every
  // process must call it the same number of times.
  virtual Status Agree(const std::function<Status()>& work, const std::string& what) = 0;
};

// What a workload is, for the runner, `loadcell list`, help and reports.
// Valid once the test's options are parsed (a trait may follow an option).
struct WorkloadInfo {
  std::string name;
  std::string summary;           // one line, for `loadcell list`
  std::string event_definition;  // what one event is, in words; for help and docs
  // prepare and cleanup are commands of this test (otherwise only run).
  bool supports_prepare = false;
  // Workers record their own latencies through ThreadContext::recorder;
  // otherwise the runner times RunEvent().
  bool self_timed = false;
  // A self-timed workload whose workers, under --rate, pace themselves:
  // they submit each operation at its intended start (ThreadContext::pacer,
  // never ahead of it), record its latency from that start (RecordEvent,
  // RecordKind) and its service time from its submission (RecordService).
  // The runner then runs their events back to back. Without it, the runner
  // sleeps until each event's intended start before calling RunEvent().
  bool self_paced = false;
  // A self-timed workload whose events overlap on one thread (asynchronous
  // I/O) reports each thread's busy time through ThreadRecorder::AddBusy():
  // the wall time with at least one event outstanding. Otherwise a thread's
  // busy time is the sum of its event latencies.
  bool reports_busy_time = false;
  // The workers run their thread's whole event loop in one RunEvent() call
  // (a sysbench script's own thread_run()): the runner calls it once per
  // thread, with ThreadContext::loop, which the loop asks before each event
  // and tells when each starts and ends; the runner times nothing itself.
  // RunEvent() then returns OK or EndOfWork() when the loop ends, or the
  // error that fails the run.
  bool own_loop = false;
  // Latency kinds a self-timed worker records besides "event" (read, write,
  // fsync), in recorder index order from 1.
  std::vector<std::string> latency_kinds;
  // Names of the counters workers add through ThreadRecorder::Add(), in
  // index order.
  std::vector<std::string> counter_names;
  // Each process of a run across processes (MPI ranks) may run this test on
  // its own, sharing nothing with the others (no files, no tables), and the
  // results merge. Tests without it are refused in such a run.
  bool runs_per_process = false;
  // Each process of a run across processes may run this test on files of
  // its own, in a sub-folder of its own (TakeProcessFolder), and the
  // results merge (--mpi-files=per-rank).
  bool files_per_process = false;
  // The processes of such a run may also share one set of files, which the
  // first prepares and cleans up alone (ShareFiles; --mpi-files=shared).
  bool files_shared = false;
  // The processes of a run across processes run this test together on
  // something they share (a database): JoinProcesses gives it the group;
  // its prepare and cleanup are the group's (each process does its part),
  // its run each process' threads with global thread ids, and a --rate is
  // the rate of them all.
  bool runs_across_processes = false;
};

class Workload {
 public:
  virtual ~Workload() = default;
  virtual WorkloadInfo Info() const = 0;

  // Binds the test's options to its fields.
  virtual void RegisterOptions(OptionSet& opts) = 0;
  // Cross-option checks after parsing; InvalidArgument names the option.
  virtual Status Validate(int threads) { return Status::Ok(); }
  // Called once, after Validate, when this process is one of several
  // running the test (files_per_process): its files go in the sub-folder
  // `name` of the folder its options name; prepare creates the sub-folder,
  // cleanup removes it once empty. The default does nothing.
  virtual Status TakeProcessFolder(const std::string& name) { return Status::Ok(); }
  // Called once, after Validate, instead of TakeProcessFolder when this
  // process is `rank` of `ranks` running the test on one set of files
  // (files_shared): only rank 0 prepares it and cleans it up (the caller
  // calls Prepare and Cleanup there alone); a run's sequential requests keep
  // to this rank's segment. InvalidArgument (one line) for what a shared
  // set cannot do. The default does nothing.
  virtual Status ShareFiles(int rank, int ranks) { return Status::Ok(); }
  // Called once, after Validate (and TakeProcessFolder), when this process
  // is one of several running the test (runs_across_processes) and before
  // Prepare, Cleanup or Init: the processes it runs with. `group` outlives
  // the workload's use of it. An error here must be the same on every
  // process (it may depend only on what every process is told alike: the
  // group's size and hosts, the test the ranks agreed on): the first
  // process alone prints it for all. The default keeps nothing.
  virtual Status JoinProcesses(ProcessGroup& group) { return Status::Ok(); }
  // The run's --events limit (0: none), given once the options are parsed
  // and before Describe(), for a description that names it.
  virtual void SetEventLimit(int64_t events) {}
  // Warnings to print on stderr before running (e.g. block fits in cache).
  virtual std::vector<std::string> Warnings(int threads) const { return {}; }
  // How the test's own console lines are to be said (ConsoleStyle); called
  // once the options are parsed. The default says nothing of its own.
  virtual void SetConsoleStyle(const ConsoleStyle& style) {}

  // Called only when Info().supports_prepare.
  virtual Status Prepare(const PrepareContext& ctx) { return Status::Ok(); }
  virtual Status Cleanup(const PrepareContext& ctx) { return Status::Ok(); }

  // Called once before workers are created.
  virtual Status Init(int threads) { return Status::Ok(); }
  virtual Result<std::unique_ptr<Worker>> NewWorker(const ThreadContext& ctx) = 0;
  // Called once after every worker finished.
  virtual Status Done() { return Status::Ok(); }

  virtual EventBudget Budget(int threads) const { return {}; }

  // The manifest's description of what will be done, in order.
  virtual std::vector<std::pair<std::string, std::string>> Describe() const { return {}; }
  // sysbench mode: the lines sysbench 1.0.20 prints for this test between its
  // header and "Initializing worker threads...", exactly (blank lines
  // included). nullopt: the Describe() lines, then a blank line.
  virtual std::optional<std::string> SysbenchHeader() const { return std::nullopt; }
  // Figures derived from a result (pure): ops/s, MiB/s, ...
  virtual std::vector<Metric> Metrics(const RunResult& r) const { return {}; }
  // What the validity checks need to know of this run (runner/run_facts.h),
  // from the settings and `r` (its counters); called once after the run.
  virtual WorkloadFacts Facts(const RunResult& r) const { return {}; }
};

// Text-report pieces in sysbench's shape, for a workload whose end report or
// interval line is not the generic one. A workload offers them by also
// deriving from this interface; only the text reporter asks (dynamic_cast),
// so no other reporter depends on them.
class TextReportSections {
 public:
  virtual ~TextReportSections() = default;
  // The end report's results section. Empty: the generic form (the metrics).
  virtual std::string TextSection(const RunResult& r) const = 0;
  // sysbench mode: the section as sysbench 1.0.20 prints it, blank lines
  // included, without loadcell's additions.
  virtual std::string SysbenchSection(const RunResult& r) const { return TextSection(r); }
  // One --report-interval line. Empty: the generic form.
  virtual std::string IntervalLine(const IntervalSnapshot& s, double percentile) const {
    return "";
  }
  // Output that replaces the interval line and is printed as it is, with no
  // "[ Ns ] " stamp added (a Lua script's report_intermediate hook; it may
  // be empty). nullopt: IntervalLine() applies.
  virtual std::optional<std::string> IntervalOutput(const IntervalSnapshot& s,
                                                    double percentile) const {
    return std::nullopt;
  }
  // What the workload prints itself at the end of the run, which a quiet
  // report (--verbosity below 3) still shows, as sysbench runs a script's
  // report_cumulative hook whatever the verbosity; nullopt when it prints
  // nothing of its own. Call it instead of TextSection, not with it.
  virtual std::optional<std::string> OwnEndOutput(const RunResult& r) const { return std::nullopt; }
};

}  // namespace loadcell
