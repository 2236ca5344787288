#pragma once
// The HTML report: one self-contained page (inline CSS and SVG; no script,
// no network) that reads on a phone and prints on paper. See
// docs/html-report.md for what it shows.

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "report/json/json_reader.h"
#include "report/reporter.h"

namespace loadcell {

// The page for one run: manifest, summary, throughput and latency
// percentiles over time (when the result has intervals), the latency
// histogram on a log axis, per-thread fairness and, when the counters are
// there, the fileio (reads/writes/fsyncs) or OLTP (reads/writes/others)
// breakdown.
std::string RenderRunHtml(const ResultData& r);

// One point of a sweep, as the sweep command aggregated it over its runs.
struct SweepPointFigures {
  std::vector<std::string> values;  // one per swept option, as given
  int runs = 0;                     // finished runs of this point
  double events_per_second = 0;     // mean over runs
  double events_per_second_min = 0;
  double events_per_second_max = 0;
  std::optional<double> events_per_second_spread_pct;  // as GroupFigures'
  double p95_ns = 0;                                   // mean over runs
  double p99_ns = 0;                                   // mean over runs
  // Its runs' verdicts merged, as the text's last line words it ("valid",
  // "INVALID (1)"); "" when not judged (--verdict=off).
  std::string verdict;
};

struct SweepFigures {
  std::string test;
  std::vector<std::string> options;  // swept option names, without dashes
  std::vector<SweepPointFigures> points;
  int repeat = 1;
  bool interrupted = false;
  Manifest manifest;  // of the first finished run (for the page's manifest table)
};

// The sweep page: the saturation curves (throughput and p99 against the
// first swept option; one line per combination of the others) and the table.
std::string RenderSweepHtml(const SweepFigures& s);

// A reporter that writes RenderRunHtml of the run to `out` at OnEnd. The
// time series are the --report-interval intervals when there are some;
// otherwise the status ticks it receives (RunObserver::OnStatus), so that a
// run without --report-interval still gets its charts over time.
std::unique_ptr<Reporter> MakeHtmlReporter(std::ostream& out, const Workload& w,
                                           const ReportSettings& s);

}  // namespace loadcell
