#pragma once
// `loadcell compare`: two or more saved JSON results side by side.
//
//   loadcell compare [--format=text|csv] A.json B.json [C.json ...]
//   loadcell compare [--format=text|csv] A1.json A2.json -- B1.json B2.json [-- C1.json ...]
//
// Without `--` every file is one result. With `--`, the files between
// separators are repeated runs of one configuration (a group); each group's
// figures are the means over its runs and a change is judged against the
// run-to-run spread (docs/compare-sweep.md). The first result or group is
// the baseline. After the table: whether each result is comparable with
// the baseline, the noise verdict and each result's own validity verdict
// (comparability.h, docs/validity.md).

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "report/json/json_reader.h"

namespace loadcell {

// The figures of a group of runs: means over the runs, with the range of
// the throughput.
struct GroupFigures {
  int runs = 0;
  double duration_s = 0;
  int threads = 0;
  double events = 0;
  double events_per_second = 0;
  double events_per_second_min = 0;
  double events_per_second_max = 0;
  // Half the range of events/s in % of the mean (HalfRangePercent); nullopt
  // for a single run or a mean of 0.
  std::optional<double> events_per_second_spread_pct;
  double errors = 0;
  // Latency in ns: min, mean, p50, p95, p99, p99.9, max (means over runs).
  double lat_min = 0, lat_mean = 0, lat_p50 = 0, lat_p95 = 0, lat_p99 = 0, lat_p999 = 0,
         lat_max = 0;
  // Ranges over runs of p95 and p99 (ns).
  double lat_p95_min = 0, lat_p95_max = 0, lat_p99_min = 0, lat_p99_max = 0;
  std::vector<std::pair<std::string, double>> counters;  // means, in the first run's order
  std::vector<Metric> metrics;  // means of the metrics every run has, first run's order
  // A run across processes (its first run's): its ranks, and its hosts in
  // the order of their first rank, space-separated. 1 and "" for one process.
  int ranks = 1;
  std::string hosts;
};

// REQUIRES: !runs.empty().
GroupFigures Aggregate(const std::vector<ResultData>& runs);

// The lines that tell how two manifests differ in something that changes
// the meaning of a comparison (options other than report presentation,
// threads, limits, rate, tool version, machine), e.g.
//   "--file-block-size: 4K in A, 16K in B". Empty when they agree.
std::vector<std::string> ManifestDifferences(const Manifest& a, const Manifest& b,
                                             const std::string& name_a, const std::string& name_b);

// The comparison table. `format` is "text" or "csv". `warnings` receives
// the manifest differences (one line each, without a prefix).
// REQUIRES: at least two groups, none empty, all of one test.
std::string FormatComparison(const std::vector<std::vector<ResultData>>& groups,
                             const std::string& format, std::vector<std::string>* warnings);

// The CSV's header line (docs/compare-sweep.md): A's counters (`a`) among
// the figures; with `jobs` (a comparison of runs of several jobs) a `job`
// column after `result`.
std::string ComparisonCsvHeader(const GroupFigures& a, bool jobs);

// One line of that CSV: the totals of a result or group, or one job of it
// (compare_jobs.h).
struct ComparisonCsvRow {
  size_t group = 0;                          // its index: A is 0
  const std::string* job = nullptr;          // the job cell; null: no job column
  const std::vector<ResultData>* runs = {};  // its runs (files, ranks and hosts)
  // Its figures; null: the result has no such job (runs 0, the figures
  // and changes blank).
  const GroupFigures* figures = nullptr;
  const GroupFigures* columns = nullptr;  // whose counters the header names (A's totals)
  const GroupFigures* base = nullptr;     // the changes against it; null: blank
  std::string noise;                      // ComparisonVerdict::noise: beyond_spread
  std::string verdict_cells;              // ComparisonVerdictCsv's
};
std::string ComparisonCsvLine(const ComparisonCsvRow& row);

// The command: `args` are the words after "compare". Returns the exit code.
int RunCompareCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace loadcell
