#include "cli/commands/compare_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "cli/commands/comparability.h"
#include "cli/commands/compare_jobs.h"
#include "cli/table_text.h"
#include "core/options.h"
#include "report/format.h"
#include "stats/summary.h"

namespace loadcell {
namespace {

using report_internal::CsvField;
using report_internal::CsvMs;
using report_internal::RanksAndHosts;
using report_internal::RanksBlock;
using report_internal::TableMs;

// Options that change how a result is shown or named, not what was measured.
const std::set<std::string>& PresentationOptions() {
  static const std::set<std::string> kNames = {
      "format",          "output-file", "config-file", "verbosity",
      "report-interval", "percentile",  "histogram",   "report-checkpoints",
      "rand-seed",       "report-html", "quiet"};
  return kNames;
}

double Mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? 0 : s / static_cast<double>(v.size());
}

double PctOf(const LatencyFigures& l, const char* p) {
  auto v = l.Percentile(p);
  return v ? static_cast<double>(*v) : 0;
}

std::string Change(double base, double v) {
  const std::optional<double> change = PercentChange(base, v);
  if (!change.has_value() && base != 0) return "out of range";
  if (!change.has_value()) return v == 0 ? "+0.0%" : "n/a";
  double pct = *change;
  if (std::abs(pct) < 0.05) pct = 0;
  return fmt::format("{:+.1f}%", pct);
}

struct ComparisonRow {
  std::string name;
  std::vector<double> values;  // per group
  std::string (*format)(double);
  // For the noise verdict: ranges per group (empty: none).
  std::vector<std::pair<double, double>> ranges;
};

std::string Fixed2(double v) { return fmt::format("{:.2f}", v); }

// A name or value of a saved result as a warning quotes it: at most 64
// bytes, with "..." when cut (EscapeControlBytes follows when printed).
std::string CutDown(const std::string& text) {
  bool cut = false;
  const std::string_view kept = CutAtCharacter(text, 64, &cut);
  return std::string(kept) + (cut ? "..." : "");
}
std::string Integer(double v) { return fmt::format("{:.0f}", v); }
std::string General(double v) {
  if (!std::isfinite(v)) return "n/a";
  return fmt::format("{:.2f}", v);
}

// "4 ranks on 2 hosts (c1, c2)", or "one process".
std::string Processes(const ResultData& r) {
  return r.cluster ? RanksAndHosts(*r.cluster) : "one process";
}

bool AnyAcrossProcesses(const std::vector<std::vector<ResultData>>& groups) {
  for (const auto& g : groups) {
    for (const ResultData& r : g) {
      if (r.cluster) return true;
    }
  }
  return false;
}

// The ranks of a run across processes and its hosts in the order of their
// first rank, space-separated; 1 and "" for a run of one process.
std::pair<int, std::string> RanksOf(const ResultData& r) {
  if (!r.cluster) return {1, ""};
  std::vector<std::string> hosts;
  for (const RankFigures& k : r.cluster->ranks) {
    if (std::find(hosts.begin(), hosts.end(), k.host) == hosts.end()) hosts.push_back(k.host);
  }
  std::string out;
  for (const std::string& h : hosts) out += (out.empty() ? "" : " ") + h;
  return {static_cast<int>(r.cluster->ranks.size()), out};
}

std::string Files(const std::vector<ResultData>& g) {
  std::string s;
  for (const ResultData& r : g) s += (s.empty() ? "" : " ") + r.source;
  return s;
}

}  // namespace

GroupFigures Aggregate(const std::vector<ResultData>& runs) {
  GroupFigures g;
  g.runs = static_cast<int>(runs.size());
  g.threads = runs.front().manifest.threads;
  std::tie(g.ranks, g.hosts) = RanksOf(runs.front());
  std::vector<double> dur, ev, eps, err, mn, mean, p50, p95, p99, p999, mx;
  for (const ResultData& r : runs) {
    dur.push_back(r.total_time_s);
    ev.push_back(static_cast<double>(r.events));
    eps.push_back(r.events_per_second);
    err.push_back(static_cast<double>(r.errors));
    mn.push_back(static_cast<double>(r.latency.min));
    mean.push_back(r.latency.mean);
    p50.push_back(PctOf(r.latency, "50"));
    p95.push_back(PctOf(r.latency, "95"));
    p99.push_back(PctOf(r.latency, "99"));
    p999.push_back(PctOf(r.latency, "99.9"));
    mx.push_back(static_cast<double>(r.latency.max));
  }
  g.duration_s = Mean(dur);
  g.events = Mean(ev);
  g.events_per_second = Mean(eps);
  g.events_per_second_min = *std::min_element(eps.begin(), eps.end());
  g.events_per_second_max = *std::max_element(eps.begin(), eps.end());
  if (g.runs > 1) {
    g.events_per_second_spread_pct =
        HalfRangePercent(g.events_per_second_min, g.events_per_second_max, g.events_per_second);
  }
  g.errors = Mean(err);
  g.lat_min = Mean(mn);
  g.lat_mean = Mean(mean);
  g.lat_p50 = Mean(p50);
  g.lat_p95 = Mean(p95);
  g.lat_p99 = Mean(p99);
  g.lat_p999 = Mean(p999);
  g.lat_max = Mean(mx);
  g.lat_p95_min = *std::min_element(p95.begin(), p95.end());
  g.lat_p95_max = *std::max_element(p95.begin(), p95.end());
  g.lat_p99_min = *std::min_element(p99.begin(), p99.end());
  g.lat_p99_max = *std::max_element(p99.begin(), p99.end());
  for (const auto& [name, v0] : runs.front().counters) {
    std::vector<double> v;
    v.reserve(runs.size());
    for (const ResultData& r : runs) v.push_back(static_cast<double>(r.Counter(name).value_or(0)));
    g.counters.emplace_back(name, Mean(v));
  }
  for (const Metric& m0 : runs.front().metrics) {
    std::vector<double> v;
    for (const ResultData& r : runs) {
      for (const Metric& m : r.metrics) {
        if (m.key == m0.key) v.push_back(m.value);
      }
    }
    if (v.size() != runs.size()) continue;
    Metric m = m0;
    m.value = Mean(v);
    g.metrics.push_back(std::move(m));
  }
  return g;
}

std::vector<std::string> ManifestDifferences(const Manifest& a, const Manifest& b,
                                             const std::string& name_a, const std::string& name_b) {
  std::vector<std::string> out;
  auto diff = [&](const std::string& what, const std::string& va, const std::string& vb) {
    if (va != vb) {
      out.push_back(CutDown(what) + ": " + CutDown(va) + " in " + name_a + ", " + CutDown(vb) +
                    " in " + name_b);
    }
  };
  diff("tool version", a.tool_version, b.tool_version);
  // Options by name (the manifest lists every option, defaults included);
  // the first of a name counts. Looked up by name: linear in the options.
  auto values = [](const Manifest& m) {
    std::unordered_map<std::string_view, std::string_view> v;
    v.reserve(m.options.size());
    for (const ResolvedOption& o : m.options) {
      v.emplace(o.name, o.value.empty() ? std::string_view("(empty)") : o.value);
    }
    return v;
  };
  const auto values_a = values(a), values_b = values(b);
  auto value_in = [](const auto& v, const std::string& name) {
    auto it = v.find(name);
    return std::string(it == v.end() ? std::string_view("(not set)") : it->second);
  };
  std::unordered_set<std::string_view> seen;
  for (const Manifest* m : {&a, &b}) {
    for (const ResolvedOption& o : m->options) {
      if (PresentationOptions().count(o.name) || !seen.insert(o.name).second) {
        continue;
      }
      // A DiskSpd switch is named as written ("-b"), any other option as a long one.
      diff((o.name.starts_with("-") ? "" : "--") + o.name, value_in(values_a, o.name),
           value_in(values_b, o.name));
    }
  }
  if (a.options.empty() || b.options.empty()) {
    diff("threads", std::to_string(a.threads), std::to_string(b.threads));
    diff("time limit", fmt::format("{}s", a.time_limit_s), fmt::format("{}s", b.time_limit_s));
    diff("rate", fmt::format("{}", a.rate), fmt::format("{}", b.rate));
  }
  diff("CPU", a.system.cpu_model, b.system.cpu_model);
  diff("CPUs online", std::to_string(a.system.cpus_online), std::to_string(b.system.cpus_online));
  diff("kernel", a.system.kernel, b.system.kernel);
  return out;
}

namespace {

// The warnings for runs of a group that are not repeats of one
// configuration, and for groups that differ from A beyond presentation.
void AddGroupWarnings(const std::vector<std::vector<ResultData>>& groups,
                      std::vector<std::string>& warnings) {
  for (size_t i = 0; i < groups.size(); ++i) {
    for (size_t j = 1; j < groups[i].size(); ++j) {
      if (Processes(groups[i][0]) != Processes(groups[i][j])) {
        warnings.push_back(
            fmt::format("runs of {} are not repeats of one configuration: {} in {}, {} in {}",
                        GroupLabel(i), Processes(groups[i][0]), groups[i][0].source,
                        Processes(groups[i][j]), groups[i][j].source));
      }
      for (const std::string& d : ManifestDifferences(groups[i][0].manifest, groups[i][j].manifest,
                                                      groups[i][0].source, groups[i][j].source)) {
        warnings.push_back("runs of " + GroupLabel(i) +
                           " are not repeats of one configuration: " + d);
      }
    }
    if (i == 0) continue;
    if (Processes(groups[0][0]) != Processes(groups[i][0])) {
      warnings.push_back(fmt::format("{} differs from {} in who ran it: {} in {}, {} in {}",
                                     GroupLabel(i), GroupLabel(0), Processes(groups[0][0]),
                                     GroupLabel(0), Processes(groups[i][0]), GroupLabel(i)));
    }
    for (const std::string& d : ManifestDifferences(groups[0][0].manifest, groups[i][0].manifest,
                                                    GroupLabel(0), GroupLabel(i))) {
      warnings.push_back(GroupLabel(i) + " differs from " + GroupLabel(0) + " in " + d);
    }
  }
}

// The CSV cells of `g` from duration_s to events_per_second_max, the
// counters those of `columns` (A's), each in its column.
std::string CsvFigures(const GroupFigures& g, const GroupFigures& columns) {
  std::string out = fmt::format(
      "{:.4f},{},{:.0f},{:.3f},{:.0f},{},{},{},{},{},{},{}", g.duration_s, g.threads, g.events,
      g.events_per_second, g.errors, CsvMs(g.lat_min), CsvMs(g.lat_mean), CsvMs(g.lat_p50),
      CsvMs(g.lat_p95), CsvMs(g.lat_p99), CsvMs(g.lat_p999), CsvMs(g.lat_max));
  for (const auto& [name, v0] : columns.counters) {
    double v = 0;
    for (const auto& [nm, x] : g.counters) {
      if (nm == name) v = x;
    }
    out += fmt::format(",{:.0f}", v);
  }
  return out + fmt::format(",{:.3f},{:.3f}", g.events_per_second_min, g.events_per_second_max);
}

// The change columns of `g` against `a`; `noise` gives beyond_spread (blank
// with too few runs to tell: the noise column says so).
std::string CsvChanges(const GroupFigures& a, const GroupFigures& g, const std::string& noise) {
  auto pct = [](double base, double v) {
    const std::optional<double> change = PercentChange(base, v);
    return change.has_value() ? fmt::format("{:.2f}", *change) : std::string();
  };
  return fmt::format("{},{},{},{}", pct(a.events_per_second, g.events_per_second),
                     pct(a.lat_p95, g.lat_p95), pct(a.lat_p99, g.lat_p99),
                     noise == kTooFewRuns ? "" : (noise == "beyond spread" ? "yes" : "no"));
}

std::string FormatComparisonCsv(const std::vector<std::vector<ResultData>>& groups,
                                const std::vector<GroupFigures>& figs,
                                const ComparisonVerdict& verdict) {
  const bool jobs = std::any_of(groups.begin(), groups.end(),
                                [](const auto& g) { return !g.front().jobs.empty(); });
  std::string out = ComparisonCsvHeader(figs[0], jobs);
  const std::string totals;  // the totals' job cell
  for (size_t i = 0; i < groups.size(); ++i) {
    out += ComparisonCsvLine({i, jobs ? &totals : nullptr, &groups[i], &figs[i], &figs[0],
                              i == 0 ? nullptr : &figs[0], verdict.noise[i],
                              ComparisonVerdictCsv(groups[i], i, verdict)});
  }
  return out + (jobs ? FormatJobComparisonCsv(groups, figs[0]) : "");
}

// A row of the text table from the figures of every group: the value, and
// the range the noise verdict compares (none when min is nullptr).
struct FigureRow {
  const char* name;
  double GroupFigures::*value;
  std::string (*format)(double);
  double GroupFigures::*min = nullptr;
  double GroupFigures::*max = nullptr;
};

const FigureRow kFigureRows[] = {
    {"events/s", &GroupFigures::events_per_second, &Fixed2, &GroupFigures::events_per_second_min,
     &GroupFigures::events_per_second_max},
    {"latency min (ms)", &GroupFigures::lat_min, &TableMs},
    {"latency avg (ms)", &GroupFigures::lat_mean, &TableMs},
    {"latency p50 (ms)", &GroupFigures::lat_p50, &TableMs},
    {"latency p95 (ms)", &GroupFigures::lat_p95, &TableMs, &GroupFigures::lat_p95_min,
     &GroupFigures::lat_p95_max},
    {"latency p99 (ms)", &GroupFigures::lat_p99, &TableMs, &GroupFigures::lat_p99_min,
     &GroupFigures::lat_p99_max},
    {"latency p99.9 (ms)", &GroupFigures::lat_p999, &TableMs},
    {"latency max (ms)", &GroupFigures::lat_max, &TableMs},
    {"errors", &GroupFigures::errors, &Integer},
};

// The rows of the text table: kFigureRows, then the test's own metrics
// that every group has.
std::vector<ComparisonRow> ComparisonRows(const std::vector<GroupFigures>& figs) {
  std::vector<ComparisonRow> rows;
  for (const FigureRow& f : kFigureRows) {
    ComparisonRow r{f.name, {}, f.format, {}};
    for (const GroupFigures& g : figs) {
      r.values.push_back(g.*f.value);
      r.ranges.push_back(f.min == nullptr ? std::pair<double, double>(0, -1)
                                          : std::pair<double, double>(g.*f.min, g.*f.max));
    }
    rows.push_back(std::move(r));
  }
  const size_t n = figs.size();
  for (const Metric& m0 : figs[0].metrics) {
    std::vector<double> vals;
    for (const GroupFigures& g : figs) {
      for (const Metric& m : g.metrics) {
        if (m.key == m0.key) vals.push_back(m.value);
      }
    }
    if (vals.size() != n) continue;
    std::string name = m0.label.empty() ? m0.key : m0.label;
    if (!m0.unit.empty() && name.find(m0.unit) == std::string::npos) name += " (" + m0.unit + ")";
    rows.push_back(
        ComparisonRow{name, vals, &General, std::vector<std::pair<double, double>>(n, {0, -1})});
  }
  return rows;
}

// The table: per group its value, then (B on) its change against A and,
// with `repeats`, the noise verdict.
std::string RenderComparisonTable(const std::vector<ComparisonRow>& rows,
                                  const std::vector<GroupFigures>& figs, bool repeats) {
  const size_t n = figs.size();
  TextTable t;
  std::vector<std::string> header = {""};
  for (size_t i = 0; i < n; ++i) {
    header.push_back(GroupLabel(i));
    if (i > 0) header.push_back(GroupLabel(i) + " vs A");
    if (i > 0 && repeats) header.push_back("noise");
  }
  t.AddRow(header);
  for (const ComparisonRow& r : rows) {
    std::vector<std::string> cells = {r.name};
    for (size_t i = 0; i < n; ++i) {
      cells.push_back(r.format(r.values[i]));
      if (i == 0) continue;
      cells.push_back(std::isfinite(r.values[0]) && std::isfinite(r.values[i])
                          ? Change(r.values[0], r.values[i])
                          : "n/a");
      if (repeats) {
        const auto& ra = r.ranges[0];
        const auto& rb = r.ranges[i];
        const std::string noise = ra.second < ra.first
                                      ? ""
                                      : NoiseVerdict(figs[0].runs, ra.first, ra.second,
                                                     figs[i].runs, rb.first, rb.second);
        cells.push_back(noise == kTooFewRuns ? "too few runs" : noise);
      }
    }
    t.AddRow(cells);
  }
  return t.Render(/*left_columns=*/1);
}

std::string FormatComparisonText(const std::vector<std::vector<ResultData>>& groups,
                                 const std::vector<GroupFigures>& figs,
                                 const ComparisonVerdict& verdict) {
  const size_t n = groups.size();
  std::string out = fmt::format("Comparing {} results of test '{}'; changes are against A.\n", n,
                                CutDown(groups[0][0].manifest.test));
  bool repeats = false;
  // Runs across processes say who ran them, and each one's ranks follow the table.
  const bool across = AnyAcrossProcesses(groups);
  std::string ranks;
  for (size_t i = 0; i < n; ++i) {
    const std::string who = across ? ", " + Processes(groups[i][0]) : "";
    if (groups[i].size() == 1) {
      out += fmt::format("  {}: {}{}\n", GroupLabel(i), groups[i][0].source, who);
    } else {
      repeats = true;
      out += fmt::format("  {}: {} runs: {}{}\n", GroupLabel(i), groups[i].size(), Files(groups[i]),
                         who);
    }
    for (const ResultData& r : groups[i]) {
      if (r.cluster)
        ranks += fmt::format("\n{}: {}\n{}", GroupLabel(i), r.source, RanksBlock(*r.cluster));
    }
  }
  out += "\n";
  out += RenderComparisonTable(ComparisonRows(figs), figs, repeats);
  out += FormatJobComparison(groups);
  if (repeats) {
    out += fmt::format(
        "\nGroups show the mean over their runs. noise: 'beyond spread' when the runs' ranges\n"
        "(min to max) of the two groups do not overlap, 'within spread' when they do; 'too\n"
        "few runs' when a side has fewer than {} runs.\n",
        kMinRunsForNoise);
  } else {
    out += fmt::format(
        "\nSingle runs: the run-to-run spread is unknown. To judge noise, give {} or more\n"
        "repeated runs per side separated by --: loadcell compare a1.json a2.json a3.json --\n"
        "b1.json b2.json b3.json\n",
        kMinRunsForNoise);
  }
  out += ComparisonVerdictText(groups, verdict);
  return out + ranks;
}

}  // namespace

std::string ComparisonCsvHeader(const GroupFigures& a, bool jobs) {
  std::string out = jobs ? "result,job," : "result,";
  out +=
      "runs,files,duration_s,threads,events,events_per_second,errors,"
      "lat_min_ms,lat_avg_ms,lat_p50_ms,lat_p95_ms,lat_p99_ms,lat_p999_ms,lat_max_ms";
  for (const auto& [name, v] : a.counters) {
    out += ',';
    out += CsvField(name);
  }
  return out +
         ",events_per_second_min,events_per_second_max,change_events_per_second_pct,"
         "change_lat_p95_pct,change_lat_p99_pct,beyond_spread,ranks,hosts," +
         kComparisonVerdictCsvColumns + "\n";
}

std::string ComparisonCsvLine(const ComparisonCsvRow& row) {
  std::string out = GroupLabel(row.group) + ",";
  if (row.job != nullptr) out += CsvField(*row.job) + ",";
  const std::vector<ResultData>& runs = *row.runs;
  const GroupFigures* g = row.figures;
  out += fmt::format("{},{},", g == nullptr ? 0 : g->runs, CsvField(Files(runs)));
  if (g == nullptr) {
    // Blank cells: the figures (12, the counters, the rate's range) and
    // the 4 changes, separated by commas.
    out += std::string(12 + row.columns->counters.size() + 2 + 4 - 1, ',');
  } else {
    out += CsvFigures(*g, *row.columns) + ",";
    out += row.base == nullptr ? ",,," : CsvChanges(*row.base, *g, row.noise);
  }
  // Who ran it: the result's first run's (a job's is its run's).
  const auto [ranks, hosts] = RanksOf(runs.front());
  return out + fmt::format(",{},{},{}\n", ranks, CsvField(hosts), row.verdict_cells);
}

std::string FormatComparison(const std::vector<std::vector<ResultData>>& groups,
                             const std::string& format, std::vector<std::string>* warnings) {
  std::vector<GroupFigures> figs;
  figs.reserve(groups.size());
  for (const auto& g : groups) figs.push_back(Aggregate(g));
  if (warnings != nullptr) AddGroupWarnings(groups, *warnings);
  const ComparisonVerdict verdict = JudgeComparison(groups);
  return format == "csv" ? FormatComparisonCsv(groups, figs, verdict)
                         : FormatComparisonText(groups, figs, verdict);
}

int RunCompareCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::string format = "text";
  std::vector<std::vector<std::string>> groups(1);
  bool grouped = false;
  for (const std::string& a : args) {
    if (a == "--") {
      grouped = true;
      groups.emplace_back();
    } else if (a.rfind("--format=", 0) == 0) {
      format = a.substr(9);
      if (format != "text" && format != "csv") {
        err << "loadcell: error: compare: " << a << ": use --format=text or --format=csv\n";
        return 2;
      }
    } else if (a == "--help" || a == "-h") {
      out << "Usage: loadcell compare [--format=text|csv] A.json B.json [C.json ...]\n"
             "       loadcell compare [--format=text|csv] A1.json A2.json A3.json -- B1.json "
             "B2.json B3.json\n"
             "Files between -- separators are repeated runs of one configuration; a change is\n"
             "judged against their spread with 3 runs or more a side.\n";
      return 0;
    } else if (a.rfind("--", 0) == 0) {
      err << "loadcell: error: compare: unknown option '" << a
          << "'; compare takes --format=text|csv and result files\n";
      return 2;
    } else {
      groups.back().push_back(a);
    }
  }
  if (!grouped) {
    std::vector<std::vector<std::string>> single;
    for (const std::string& f : groups[0]) single.push_back({f});
    groups = std::move(single);
  }
  for (size_t i = 0; i < groups.size(); ++i) {
    if (groups[i].empty()) {
      err << "loadcell: error: compare: group " << GroupLabel(i)
          << " has no files (two -- in a row, or -- at an end)\n";
      return 2;
    }
  }
  if (groups.size() < 2) {
    err << "loadcell: error: compare: needs at least two results "
           "(loadcell compare before.json after.json)\n";
    return 2;
  }
  std::vector<std::vector<ResultData>> data(groups.size());
  for (size_t i = 0; i < groups.size(); ++i) {
    for (const std::string& f : groups[i]) {
      Result<ResultData> r = ReadResultFile(f);
      if (!r.ok()) {
        err << "loadcell: error: " << r.status().ToString() << "\n";
        return 2;
      }
      data[i].push_back(std::move(r).value());
    }
  }
  const ResultData& first = data[0][0];
  for (const auto& g : data) {
    for (const ResultData& r : g) {
      if (r.manifest.test != first.manifest.test) {
        err << "loadcell: error: "
            << EscapeControlBytes(fmt::format(
                   "compare: {} is a '{}' result but {} is a '{}' result; compare results of "
                   "the same test",
                   first.source, CutDown(first.manifest.test), r.source, CutDown(r.manifest.test)))
            << "\n";
        return 2;
      }
    }
  }
  std::vector<std::string> warnings;
  std::string table = FormatComparison(data, format, &warnings);
  // Many differences (results of unrelated runs, or a mangled file) are
  // summarised: the first few, then how many more.
  constexpr size_t kMaxWarnings = 20;
  for (size_t i = 0; i < warnings.size() && i < kMaxWarnings; ++i) {
    err << "loadcell: warning: " << EscapeControlBytes(warnings[i]) << "\n";
  }
  if (warnings.size() > kMaxWarnings) {
    err << "loadcell: warning: " << warnings.size() - kMaxWarnings
        << " more differences not shown (" << warnings.size() << " in all)\n";
  }
  // Names and strings of the results (hosts, metric labels, counters) may
  // hold any byte: none reaches the terminal raw.
  out << EscapeControlBytesKeepingLines(table);
  out.flush();
  return 0;
}

}  // namespace loadcell
