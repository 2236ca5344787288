#pragma once
// Reading a saved loadcell JSON result (schema "loadcell-result/1",
// docs/json-schema.md) back into plain figures, for `loadcell report`,
// `loadcell compare`, `loadcell sweep` and the HTML report.
//
// ResultData holds the figures as the JSON states them (percentiles as
// numbers, the histogram as [low, high, count] rows); nothing is
// recomputed. Fields the reader does not know are ignored (later schema-1
// versions only add fields); a missing or mistyped field that the reader
// needs is an error naming the field.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/status.h"
#include "runner/run_result.h"

namespace loadcell {

// The schema a loadcell JSON result names: what json_reporter.cpp writes
// and what the reader expects.
inline constexpr std::string_view kResultSchema = "loadcell-result/1";

// One latency object (nanoseconds).
struct LatencyFigures {
  uint64_t count = 0;
  uint64_t min = 0;
  uint64_t max = 0;
  double mean = 0;
  double stddev = 0;
  double sum = 0;
  // In the JSON's order: {"50", 1234}, {"95", ...}, ...
  std::vector<std::pair<std::string, uint64_t>> percentiles;

  // The percentile named `name` ("99.9"), or nullopt when absent.
  std::optional<uint64_t> Percentile(std::string_view name) const;
};

struct IntervalFigures {
  double t_s = 0;
  double duration_s = 0;
  int threads = 0;
  uint64_t events = 0;
  double events_per_second = 0;
  uint64_t errors = 0;
  uint64_t queue = 0;
  LatencyFigures latency;
  std::vector<std::pair<std::string, LatencyFigures>> latency_by_kind;
  std::vector<std::pair<std::string, uint64_t>> counters;
  // "counters_per_second"; empty in results written before it existed.
  std::vector<std::pair<std::string, double>> counter_rates;

  // The rate of the counter named `name`, or nullopt.
  std::optional<double> CounterRate(std::string_view name) const;
};

struct HistogramRow {
  uint64_t low = 0;
  uint64_t high = 0;
  uint64_t count = 0;
};

// One row of dbsim's own tables (docs/dbsim.md, "JSON"): a user of a
// cycle (`users[]`) or a data file (`files[]`), as the JSON states it.
// One kind of I/O a dbsim user did (its JSON's `io` member of that kind).
struct DbsimKindFigures {
  std::string kind;  // the text report's words: "reads", "gather writes", ...
  uint64_t count = 0;
  uint64_t p50_ns = 0;
  uint64_t p99_ns = 0;
  uint64_t max_ns = 0;
};

struct DbsimRowFigures {
  std::string name;
  uint64_t reads = 0;
  uint64_t scatter_reads = 0;
  uint64_t writes = 0;
  uint64_t gather_writes = 0;
  uint64_t log_writes = 0;  // a user's; 0 for a file
  uint64_t flushes = 0;
  uint64_t bytes_read = 0;
  uint64_t bytes_written = 0;
  double iops = 0;
  // A file's I/O (every kind); 0 for a user (its `kinds` have them).
  uint64_t p50_ns = 0;
  uint64_t p99_ns = 0;
  uint64_t max_ns = 0;        // the longest I/O (a user's: of every kind)
  uint64_t throttled_ns = 0;  // time waited at the throttle
  uint64_t failed_pages = 0;  // every kind
  // A user's: each kind of I/O it did (a count above 0), in the text
  // report's order (reads, scatter reads, writes, gather writes, log
  // writes, flushes, grows, shrinks).
  std::vector<DbsimKindFigures> kinds;
};

struct ResultData {
  std::string source;  // where it was read from (a path), for messages
  Manifest manifest;
  double total_time_s = 0;
  uint64_t events = 0;
  double events_per_second = 0;
  uint64_t errors = 0;
  LatencyFigures latency;
  std::vector<std::pair<std::string, LatencyFigures>> latency_by_kind;
  std::optional<LatencyFigures> service_latency;
  std::vector<std::pair<std::string, uint64_t>> counters;
  // "summary.counters_per_second"; empty in results written before it
  // existed.
  std::vector<std::pair<std::string, double>> counter_rates;
  // value is NaN when the JSON holds null.
  std::vector<Metric> metrics;
  std::vector<ThreadFigures> threads;
  MeanStd fairness_events;  // "fairness.events": events per thread
  // Its min, max and their distance from the mean; nullopt in results
  // written before they were part of "fairness.events".
  std::optional<Extremes> fairness_events_extremes;
  std::vector<IntervalFigures> intervals;
  std::vector<HistogramRow> histogram;
  // "cluster": a run across processes (its ranks, fairness across them,
  // clock offsets, stonewall); nullopt for a run of one process.
  std::optional<ClusterFigures> cluster;
  bool interrupted = false;
  bool forced_shutdown = false;
  double paused_s = 0;  // the process was stopped this long during the run
  int pauses = 0;
  std::string failure;  // empty when the run completed
  // "validity": the verdict; not judged in results written before it
  // existed or with --verdict=off.
  Validity validity;

  // A dbsim run's users and data files (its `users` and `files`); empty for
  // other tests.
  std::vector<DbsimRowFigures> dbsim_users;
  std::vector<DbsimRowFigures> dbsim_files;

  // A run of several jobs (fio's; docs/json-schema.md, "Runs of several
  // jobs"): the figures above are every job's merged, and these each job's
  // (or each group_reporting group's) and each group's own, in the order
  // written. Empty for a run of one workload.
  std::vector<ResultData> jobs;
  std::vector<ResultData> groups;
  // In a part: its `job` object (its name, its group, how many job
  // instances it merges); "", 0 and 1 elsewhere.
  std::string job_name;
  int job_group = 0;
  int job_instances = 1;

  // The counter named `name`, or nullopt.
  std::optional<uint64_t> Counter(std::string_view name) const;
  // The rate of the counter named `name`, or nullopt.
  std::optional<double> CounterRate(std::string_view name) const;
  // The value of option `name` in the manifest (any group), or nullopt.
  std::optional<std::string> Option(std::string_view name) const;
};

// Parses `text`. `source` names it in messages. On failure InvalidArgument
// with one line, e.g.
//   "run.json: not a loadcell result: line 3, column 7: syntax error ..."
//   "run.json: not a loadcell result: 'schema' is \"x\", expected \"loadcell-result/1\""
//   "run.json: not a loadcell result: summary.events: expected an integer, found a string"
Result<ResultData> ParseResultJson(std::string_view text, const std::string& source);

// Reads and parses the file at `path`; a file that cannot be read is
// InvalidArgument naming it.
Result<ResultData> ReadResultFile(const std::string& path);

}  // namespace loadcell
