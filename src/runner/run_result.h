#pragma once
// What a run produced: raw merged figures, interval series and the manifest,
// and the figures derived from them. The runner fills the raw fields, then
// FillDerivedFigures() the derived ones (marked "derived" below) and the
// workload's Metrics() the metrics; reporters read them, never recompute.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/status.h"
#include "os/system_info.h"
#include "runner/run_facts.h"
#include "runner/validity.h"
#include "stats/histogram.h"
#include "stats/summary.h"

namespace loadcell {

// One named figure a workload derives from the counters, e.g.
// {"mib_per_second", "MiB/sec", 6245.78, "MiB/s"}.
struct Metric {
  std::string key;    // stable, for JSON/CSV ("operations_per_second")
  std::string label;  // for humans
  double value = 0;
  std::string unit;
};

// Resolved option as it was in force.
struct ResolvedOption {
  std::string group;  // "general" or the test name
  std::string name;
  std::string value;
  bool is_default = true;
};

// A file target as `loadcell compare` weighs it: the facts that make two
// results of one test measure the same thing (docs/validity.md). From the
// workload's facts and the mount of the target's folder.
struct TargetManifest {
  std::string engine;        // the engine that ran: "sync", "io_uring", "null", ...
  bool direct = false;       // the caching: direct I/O, or buffered through the page cache
  uint64_t block_bytes = 0;  // the request size; 0 unknown
  // The depth asked per thread (the engine's own when none was asked), and
  // the one the engine ran with (1 for a synchronous engine).
  uint32_t queue_depth_asked = 1;
  uint32_t queue_depth = 1;
  std::string write_pattern;  // "random", "zero", "sequence"; "none" when not written
  uint64_t file_set_bytes = 0;
  std::string file_system;    // "ext4", "tmpfs"; "" unknown
  std::string mount_options;  // the mount's and the super block's: "rw,relatime"; "" unknown
};

// Everything needed to reconcile two results: what exactly was done.
struct Manifest {
  std::string tool = "loadcell";
  std::string tool_version;
  std::string test;
  std::string command;  // prepare|run|cleanup
  int threads = 1;
  double time_limit_s = 0;   // 0: none
  uint64_t event_limit = 0;  // 0: none
  double warmup_s = 0;
  double rate = 0;  // events/s target, 0: closed loop
  std::string rand_type;
  uint64_t seed = 0;
  bool seed_from_time = false;
  // How the processes of a run across processes use the seed, in words
  // (empty for a run of one process).
  std::string seed_scope;
  std::vector<ResolvedOption> options;
  // The workload's own description, in order ("Prime numbers limit", "10000").
  std::vector<std::pair<std::string, std::string>> workload;
  SystemInfo system;
  // The file targets (fileio and sqlio: one each), empty for a test without
  // files. `targets_recorded` is false in results written before they were
  // part of the manifest: nothing is known of them.
  std::vector<TargetManifest> targets;
  bool targets_recorded = false;
  // The database server's settings (WorkloadFacts::database_settings), read
  // before the run; empty for a test without a database, one that does not
  // read them, or a result written before they were recorded.
  DatabaseSettings database_settings;
};

// Latency figures of one kind (all events, or reads/writes/fsyncs).
struct LatencyStats {
  std::string kind = "event";
  LatencyHistogram histogram;  // nanoseconds; moments() are exact
};

// One interval of --report-interval: covers only that interval.
struct IntervalSnapshot {
  double t_end_s = 0;     // seconds since the measured start
  double duration_s = 0;  // length of this interval
  int threads = 0;
  uint64_t events = 0;
  uint64_t errors = 0;
  std::vector<LatencyStats> latency;  // [0] is all events; per kind follow
  std::vector<uint64_t> counters;     // workload counters, deltas
  // Under --rate: events whose intended start had passed but that had not
  // started by the interval's end (sysbench's "queue").
  uint64_t queue = 0;
  // Under --rate: events running at the interval's end (sysbench's
  // "concurrency").
  uint64_t concurrency = 0;
  // Derived: events and errors over duration_s (0 when it is 0).
  double events_per_second = 0;
  double errors_per_second = 0;
  // Derived: each counter over duration_s, in the counters' order.
  std::vector<double> counter_rates;
};

struct RunResult;

struct ThreadFigures {
  uint64_t events = 0;
  // Sum of this thread's event latencies (service times under --rate).
  double exec_time_s = 0;
  // Wall time the thread spent running events: equal to exec_time_s when
  // its events run one at a time; less when they overlap (asynchronous I/O
  // counts the time with at least one request outstanding, once).
  double busy_time_s = 0;
  // The thread's own CPU time (user + system) from its release to its end
  // (warm-up and its worker's finish included), the time it spent ready to
  // run but waiting for a CPU, and its wall time over the same span;
  // cpu_time_s -1: unknown (the system did not tell, a thread still running
  // at a forced shutdown, a result read back or another rank's thread),
  // cpu_wait_s -1: unknown (Windows). For the verdict (client-cpu); not
  // written in reports.
  double cpu_time_s = -1;
  double cpu_wait_s = -1;
  double run_time_s = 0;
  // Derived: events over the result's total time; exec_time_s per event
  // (0 without events).
  double events_per_second = 0;
  double mean_latency_s = 0;
};

// sysbench's "Threads fairness": mean and standard deviation over threads.
struct FairnessFigures {
  MeanStd events;
  MeanStd exec_time_s;
  MeanStd busy_time_s;
  // The threads with the fewest and the most events, and their distance
  // from the mean.
  Extremes events_extremes;
};

struct RateFigures {
  double target = 0;         // events/s asked for
  double achieved = 0;       // events/s started
  uint64_t late_events = 0;  // started more than 1 ms after intended
  double max_lag_ms = 0;     // worst start delay
  double final_lag_ms = 0;   // how far behind schedule at the end
};

// One process (rank) of a run across processes, as the merged result keeps
// it. Its threads are the merged result's threads
// [first_thread, first_thread + threads).
struct RankFigures {
  int rank = 0;
  std::string host;
  int threads = 0;
  int first_thread = 0;
  uint64_t events = 0;
  uint64_t errors = 0;
  double total_time_s = 0;  // this rank's own measured time
  // Its event latencies: the figures a CSV row and the per-rank table show
  // (its histogram itself is merged into the result's, not kept).
  uint64_t min_ns = 0;
  double mean_ns = 0;
  uint64_t p50_ns = 0;
  uint64_t p95_ns = 0;
  uint64_t p99_ns = 0;
  uint64_t p999_ns = 0;
  uint64_t max_ns = 0;
  // Its monotonic clock's offset from rank 0's (rank 0's minus its own),
  // as measured at the start.
  double clock_offset_s = 0;
  // Its measured span, on rank 0's clock, from the merged window's start:
  // how far apart the ranks started (the start spread) and ended (the
  // tail, where fewer ranks ran). Set by the merge.
  double start_s = 0;
  double end_s = 0;
  std::string failure;  // its first error ("" when it had none)
  // Derived: events over total_time_s.
  double events_per_second = 0;
};

// --stonewall=on: the first rank to reach its event budget stopped every
// rank; the figures up to that moment.
struct StonewallFigures {
  int first_rank = 0;  // the rank that reached its budget first
  double at_s = 0;     // when it did, from the global window's start
  // Every rank's events up to that moment: all of a rank's events when it
  // ended by then; for a rank still running, its events scaled by the part
  // of its own window that lay before the moment (its own steady rate: it
  // was told to stop a poll period or two later).
  double events = 0;
  double events_per_second = 0;  // events over at_s (0 when at_s is 0)
};

// A run across processes: who took part and how well their clocks agreed.
struct ClusterFigures {
  std::vector<RankFigures> ranks;
  // Ranks that stopped answering (--mpi-timeout): the figures hold only the
  // others'.
  std::vector<int> missing_ranks;
  std::optional<StonewallFigures> stonewall;
  // The largest |clock_offset_s| over the ranks, and the largest round trip
  // of the messages that measured it (the offsets are known to within half
  // of it).
  double max_clock_offset_s = 0;
  double max_round_trip_s = 0;
  // Derived: mean and standard deviation of the ranks' events (fairness
  // across ranks, as RunResult::fairness is across threads), and the ranks
  // with the fewest and the most events.
  MeanStd events_fairness;
  Extremes events_extremes;
  // A run of several that ended together (RunCoordinator::FinishRuns: a
  // job of a group): each rank's own result of it, in the order of `ranks`
  // (its mergeable part, the merged result's counter names, its own
  // intervals, derived figures filled), for the reports that show a rank's
  // own rows of a job (DiskSpd's threads, fio's group_reporting per rank).
  // Empty for a run of one (Finish) and in a result read back from JSON.
  std::vector<std::shared_ptr<const RunResult>> rank_results;
};

struct RunResult {
  Manifest manifest;
  bool checkpoint = false;  // a --report-checkpoints report
  double total_time_s = 0;  // measured time (warm-up excluded)
  // The measured span on this process' monotonic clock (total_time_s is
  // their difference); after a merge, on rank 0's clock.
  int64_t window_start_ns = 0;
  int64_t window_end_ns = 0;
  uint64_t events = 0;
  uint64_t errors = 0;
  // [0]: all events (from the intended start under --rate); then per kind.
  std::vector<LatencyStats> latency;
  std::optional<LatencyStats> service;  // under --rate: pure service time
  std::vector<ThreadFigures> threads;
  // The worker threads of this process that ran at the same time as this
  // run's, its own included (the jobs of one group: runner/jobs.h), over
  // which the process' CPU time is shared; 0: its own alone.
  int concurrent_threads = 0;
  std::vector<std::string> counter_names;
  std::vector<uint64_t> counters;
  std::vector<Metric> metrics;  // derived by the workload
  std::optional<RateFigures> rate;
  std::vector<IntervalSnapshot> intervals;
  bool interrupted = false;  // SIGINT/SIGTERM
  bool forced_shutdown = false;
  // The process was stopped during the run (SIGSTOP, a suspended VM): how
  // long in all, and how many times. Its latencies and time include it.
  double paused_s = 0;
  int pauses = 0;
  // With forced_shutdown: the threads (0-based) abandoned inside an event.
  std::vector<int> abandoned_threads;
  Status failure;  // the first worker error, if any
  // Set when the result merges the ranks of a run across processes.
  std::optional<ClusterFigures> cluster;
  // The verdict (src/validity/), made after the run and before the report.
  Validity validity;

  // Derived: events and errors over total_time_s (0 when it is 0).
  double events_per_second = 0;
  double errors_per_second = 0;
  FairnessFigures fairness;
  // The threads' figures summed (raw fields), with their derived figures.
  ThreadFigures thread_total;
  // Derived: each counter over total_time_s, in the counters' order.
  std::vector<double> counter_rates;
  // Derived: SQLIO's -L histogram of all events (WholeMsPercentages).
  std::array<double, kWholeMsColumns> latency_whole_ms_pct{};
};

// The value of the metric keyed `key` in `metrics`, 0 when there is none.
double MetricValue(const std::vector<Metric>& metrics, std::string_view key);

// Fills the derived fields of `s` from its raw ones. Pure (stats/summary.h);
// idempotent.
void FillDerivedFigures(IntervalSnapshot& s);
// Fills the derived fields of `r`, of each of its threads, ranks and
// intervals from their raw ones. Pure; idempotent. Leaves rate and metrics
// alone.
void FillDerivedFigures(RunResult& r);

}  // namespace loadcell
