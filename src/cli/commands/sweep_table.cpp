// The tables of `loadcell sweep` (text and CSV) and the figures its HTML
// page draws, from the finished runs of each point.

#include <fmt/format.h>

#include <algorithm>

#include "cli/commands/compare_command.h"
#include "cli/commands/sweep_command.h"
#include "cli/table_text.h"
#include "core/plural.h"
#include "report/format.h"

namespace loadcell {
namespace {

using report_internal::CsvField;
using report_internal::CsvMs;
using report_internal::TableMs;

// The points that finished (at least one run), in order.
std::vector<size_t> DonePoints(const SweepTable& t) {
  std::vector<size_t> done;
  for (size_t p = 0; p < t.runs.size(); ++p) {
    if (!t.runs[p].empty()) done.push_back(p);
  }
  return done;
}

// The verdict of point `p`: its runs' verdicts merged (MergeVerdicts);
// unjudged when none was judged (--verdict=off).
Validity PointVerdict(const SweepTable& t, size_t p) {
  std::vector<NamedValidity> parts;
  for (size_t i = 0; i < t.runs[p].size(); ++i) {
    parts.push_back({fmt::format("run {}", i + 1), &t.runs[p][i].validity});
  }
  return MergeVerdicts(parts);
}

// Whether a finished point was judged: the text table's verdict column is
// left out when none was (--verdict=off prints no verdict).
bool AnyPointJudged(const SweepTable& t, const std::vector<size_t>& done) {
  return std::any_of(done.begin(), done.end(), [&](size_t p) { return PointVerdict(t, p).judged; });
}

// The CSV header: the swept options, the run's columns (threads only when
// it is not swept: then it is a column already), the counters, the range.
std::string SweepCsvHeader(const SweepTable& t, bool threads_swept,
                           const std::vector<std::string>& counters) {
  std::string out;
  for (const std::string& o : t.options) out += CsvField(o) + ",";
  out += threads_swept ? "runs,duration_s,events," : "runs,duration_s,threads,events,";
  out +=
      "events_per_second,errors,lat_min_ms,lat_avg_ms,lat_p50_ms,lat_p95_ms,lat_p99_ms,"
      "lat_p999_ms,lat_max_ms";
  for (const std::string& c : counters) {
    out += ',';
    out += CsvField(c);
  }
  return out + ",events_per_second_min,events_per_second_max,verdict\n";
}

std::string FormatSweepCsv(const SweepTable& t, const std::vector<size_t>& done) {
  const bool threads_swept =
      std::find(t.options.begin(), t.options.end(), "threads") != t.options.end();
  std::vector<std::string> counters;
  if (!done.empty()) {
    for (const auto& [name, v] : t.runs[done[0]][0].counters) counters.push_back(name);
  }
  std::string out = SweepCsvHeader(t, threads_swept, counters);
  for (size_t p : done) {
    GroupFigures g = Aggregate(t.runs[p]);
    for (const std::string& v : ShownValuesOf(t, p)) out += CsvField(v) + ",";
    out += fmt::format("{},{:.4f},", g.runs, g.duration_s);
    if (!threads_swept) out += fmt::format("{},", g.threads);
    out += fmt::format("{:.0f},{:.3f},{:.0f},{},{},{},{},{},{},{}", g.events, g.events_per_second,
                       g.errors, CsvMs(g.lat_min), CsvMs(g.lat_mean), CsvMs(g.lat_p50),
                       CsvMs(g.lat_p95), CsvMs(g.lat_p99), CsvMs(g.lat_p999), CsvMs(g.lat_max));
    for (const std::string& c : counters) {
      double v = 0;
      for (const auto& [name, x] : g.counters) {
        if (name == c) v = x;
      }
      out += fmt::format(",{:.0f}", v);
    }
    const Validity v = PointVerdict(t, p);
    out += fmt::format(",{:.3f},{:.3f},{}\n", g.events_per_second_min, g.events_per_second_max,
                       v.judged ? OverallName(v.overall()) : "");
  }
  return out;
}

// The text table's row of point `p`.
std::vector<std::string> SweepTextRow(const SweepTable& t, size_t p, bool verdicts) {
  GroupFigures g = Aggregate(t.runs[p]);
  std::vector<std::string> row = ShownValuesOf(t, p);
  if (t.repeat > 1) row.push_back(std::to_string(g.runs));
  row.push_back(fmt::format("{:.2f}", g.events_per_second));
  if (t.repeat > 1) {
    row.push_back(g.events_per_second_spread_pct.has_value()
                      ? fmt::format("±{:.1f}%", *g.events_per_second_spread_pct)
                      : "");
  }
  row.push_back(TableMs(g.lat_p95));
  row.push_back(TableMs(g.lat_p99));
  if (verdicts) {
    const Validity v = PointVerdict(t, p);
    row.push_back(v.judged ? VerdictLine(v) : "-");
  }
  return row;
}

std::string FormatSweepText(const SweepTable& t, const std::vector<size_t>& done) {
  std::string out =
      fmt::format("Sweep of {}: {}", t.test, CountOf(t.values.size(), "point", "points"));
  if (t.repeat > 1)
    out += fmt::format(", {} runs each (figures are means over the runs)", t.repeat);
  // A sweep under a launcher: every point ran across the ranks (the first's).
  if (!done.empty() && t.runs[done[0]][0].cluster) {
    out += ", each across " + report_internal::RanksAndHosts(*t.runs[done[0]][0].cluster);
  }
  out += "\n\n";
  TextTable table;
  std::vector<std::string> header = t.options;
  if (t.repeat > 1) header.push_back("runs");
  header.push_back("events/s");
  if (t.repeat > 1) header.push_back("spread");
  header.push_back("p95 (ms)");
  header.push_back("p99 (ms)");
  const bool verdicts = AnyPointJudged(t, done);
  if (verdicts) header.push_back("verdict");
  table.AddRow(header);
  for (size_t p : done) table.AddRow(SweepTextRow(t, p, verdicts));
  out += table.Render(0);
  if (t.repeat > 1)
    out += "\nspread: half the range (max - min) of the runs' events/s, in % of the mean.\n";
  if (t.interrupted) {
    out += fmt::format("\nInterrupted: {} of {} points finished.\n", done.size(), t.values.size());
  }
  return out;
}

}  // namespace

std::string FormatSweep(const SweepTable& t, const std::string& format) {
  const std::vector<size_t> done = DonePoints(t);
  return format == "csv" ? FormatSweepCsv(t, done) : FormatSweepText(t, done);
}

SweepFigures SweepToFigures(const SweepTable& t) {
  SweepFigures f;
  f.test = t.test;
  f.options = t.options;
  f.repeat = t.repeat;
  f.interrupted = t.interrupted;
  for (size_t p = 0; p < t.runs.size(); ++p) {
    if (t.runs[p].empty()) continue;
    if (f.points.empty()) f.manifest = t.runs[p][0].manifest;
    GroupFigures g = Aggregate(t.runs[p]);
    SweepPointFigures pf;
    pf.values = ShownValuesOf(t, p);
    pf.runs = g.runs;
    pf.events_per_second = g.events_per_second;
    pf.events_per_second_min = g.events_per_second_min;
    pf.events_per_second_max = g.events_per_second_max;
    pf.events_per_second_spread_pct = g.events_per_second_spread_pct;
    pf.p95_ns = g.lat_p95;
    pf.p99_ns = g.lat_p99;
    const Validity v = PointVerdict(t, p);
    if (v.judged) pf.verdict = VerdictLine(v);
    f.points.push_back(std::move(pf));
  }
  return f;
}

}  // namespace loadcell
