// The HTML report of one run (RenderRunHtml) and the reporter that writes it
// at the end of a live run. The page is drawn from ResultData, the figures of
// a JSON result, so that a saved result (`loadcell report`) and a live run
// (--report-html) give the same page: the reporter renders the run's JSON
// with the JSON reporter and reads it back.

#include "report/html/html_report.h"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <optional>
#include <sstream>

#include "core/plural.h"
#include "report/format.h"
#include "report/html/html_page.h"
#include "report/html/html_svg.h"

namespace loadcell {
namespace {

using html::Escape;
using html::ShortDuration;
using html::ShortNumber;
using report_internal::PausedNote;

constexpr int kHistogramBinsPerDecade = 20;

double Pct(const LatencyFigures& l, const char* name) {
  auto v = l.Percentile(name);
  return v.has_value() ? static_cast<double>(*v) : std::nan("");
}

std::string Card(const std::string& name, const std::string& value) {
  return "<div class=\"card\"><dt>" + Escape(name) + "</dt><dd>" + Escape(value) + "</dd></div>";
}

std::string SummaryCards(const ResultData& r) {
  std::string out = "<dl class=\"cards\">";
  out += Card("events/s", ShortNumber(r.events_per_second, 4));
  out += Card("events", std::to_string(r.events));
  out += Card("measured time", ShortNumber(r.total_time_s, 4) + " s");
  for (const char* p : {"50", "95", "99", "99.9"}) {
    if (auto v = r.latency.Percentile(p)) {
      out += Card(std::string("p") + p + " latency", ShortDuration(static_cast<double>(*v)));
    }
  }
  out += Card("max latency", ShortDuration(static_cast<double>(r.latency.max)));
  if (r.errors > 0) out += Card("errors", std::to_string(r.errors));
  return out + "</dl>\n";
}

std::string Banners(const ResultData& r) {
  std::string out;
  if (!r.failure.empty()) {
    out += "<p class=\"banner bad\">The run failed: " + Escape(r.failure) +
           ". The figures cover what was measured until then.</p>";
  }
  if (r.interrupted) {
    out +=
        "<p class=\"banner\">The run was interrupted; the figures cover the time until the "
        "interrupt.</p>";
  }
  if (r.forced_shutdown) {
    out += "<p class=\"banner\">--forced-shutdown abandoned events still running at the end.</p>";
  }
  if (r.pauses > 0)
    out += "<p class=\"banner\">" + Escape(PausedNote(r.paused_s, r.pauses)) + "</p>";
  return out;
}

std::string ThroughputChart(const ResultData& r, const std::string& id = "throughput") {
  html::LineChart c;
  c.id = id;
  c.description = "Throughput (events per second) in each interval";
  c.x.label = "time (s)";
  c.y.label = "events/s";
  html::Series s{"events/s", {}, {}};
  for (const IntervalFigures& iv : r.intervals) {
    s.x.push_back(iv.t_s);
    s.y.push_back(iv.events_per_second);
  }
  c.series.push_back(std::move(s));
  return html::Figure("Throughput over time", html::RenderLineChart(c), "",
                      "Events per second in each interval.");
}

std::string PercentilesChart(const ResultData& r) {
  static const std::pair<const char*, const char*> kLines[] = {
      {"p50", "50"}, {"p95", "95"}, {"p99", "99"}, {"p99.9", "99.9"}};
  html::LineChart c;
  c.id = "latency-percentiles";
  c.description = "Latency percentiles (p50, p95, p99, p99.9, max) in each interval";
  c.x.label = "time (s)";
  c.y.label = "latency";
  c.y.format = &ShortDuration;
  std::vector<std::string> names;
  double lo = 0, hi = 0;
  for (const auto& [name, key] : kLines) {
    html::Series s{name, {}, {}};
    for (const IntervalFigures& iv : r.intervals) {
      s.x.push_back(iv.t_s);
      double v = iv.latency.count > 0 ? Pct(iv.latency, key) : std::nan("");
      s.y.push_back(v);
      if (v > 0) {
        lo = lo == 0 ? v : std::min(lo, v);
        hi = std::max(hi, v);
      }
    }
    names.push_back(name);
    c.series.push_back(std::move(s));
  }
  html::Series mx{"max", {}, {}};
  for (const IntervalFigures& iv : r.intervals) {
    mx.x.push_back(iv.t_s);
    double v = iv.latency.count > 0 ? static_cast<double>(iv.latency.max) : std::nan("");
    mx.y.push_back(v);
    if (v > 0) hi = std::max(hi, v);
  }
  names.push_back("max");
  c.series.push_back(std::move(mx));
  // A log axis keeps p50 readable beside a max that is far above it.
  c.y.log = lo > 0 && hi / lo > 20;
  return html::Figure("Latency percentiles over time", html::RenderLineChart(c),
                      html::RenderLegend(names),
                      std::string("Latency of the events completed in each interval") +
                          (c.y.log ? " (logarithmic axis)." : "."));
}

// The histogram's buckets grouped into kHistogramBinsPerDecade bins per
// power of ten (by each bucket's midpoint), for a readable log axis.
std::vector<html::HistogramBin> LogBins(const std::vector<HistogramRow>& rows) {
  std::vector<html::HistogramBin> bins;
  long current = 0;
  for (const HistogramRow& row : rows) {
    if (row.count == 0) continue;
    double low = std::max<double>(1, static_cast<double>(row.low));
    double high = std::max<double>(low, static_cast<double>(row.high) + 1);
    double mid = (low + high) / 2;  // a bucket is at most 1/128 wide: it falls in one bin
    long bin = static_cast<long>(std::floor(std::log10(mid) * kHistogramBinsPerDecade));
    if (bins.empty() || bin != current) {
      // Each bin spans its whole range on the log axis, so bars have equal widths.
      const double k = kHistogramBinsPerDecade;
      bins.push_back({std::pow(10.0, static_cast<double>(bin) / k),
                      std::pow(10.0, static_cast<double>(bin + 1) / k), row.count});
      current = bin;
    } else {
      bins.back().count += row.count;
    }
  }
  return bins;
}

std::string HistogramSection(const ResultData& r, const std::string& id = "histogram") {
  html::HistogramChart c;
  c.id = id;
  c.description = "Latency histogram of all events, logarithmic latency axis";
  c.x.label = "latency (log scale)";
  c.x.log = true;
  c.x.format = &ShortDuration;
  c.y_label = "events";
  c.bins = LogBins(r.histogram);
  return html::Figure("Latency histogram", html::RenderHistogramChart(c), "",
                      fmt::format("Events per latency range ({} ranges per power of ten).",
                                  kHistogramBinsPerDecade));
}

// A bar chart of the events of each `unit` (thread, rank) with the mean
// drawn when there are bars; `extremes` (when known) makes the caption's
// slowest/fastest sentence.
std::string EventsChart(const std::string& id, const std::string& unit, std::vector<html::Bar> bars,
                        double mean, const std::optional<Extremes>& extremes, std::string caption) {
  html::BarChart c;
  c.id = id;
  c.description = "Events completed by each " + unit + ", with the mean";
  c.y.label = "events";
  c.x_label = unit;
  c.bars = std::move(bars);
  if (!c.bars.empty()) {
    c.has_reference = true;
    c.reference = mean;
    c.reference_label = "mean " + ShortNumber(mean, 4);
    if (mean > 0 && extremes.has_value()) {
      caption += fmt::format(" Slowest {} {:+.1f}% and fastest {:+.1f}% from the mean.", unit,
                             extremes->min_from_mean_pct, extremes->max_from_mean_pct);
    }
  }
  return html::Figure("Per-" + unit + " fairness", html::RenderBarChart(c), "", caption);
}

std::string FairnessChart(const ResultData& r) {
  std::vector<html::Bar> bars;
  for (size_t i = 0; i < r.threads.size(); ++i) {
    const ThreadFigures& t = r.threads[i];
    bars.push_back({std::to_string(i), static_cast<double>(t.events),
                    fmt::format("thread {}: {} events, {} s busy", i, t.events,
                                ShortNumber(t.busy_time_s, 4))});
  }
  return EventsChart("threads", "thread", std::move(bars), r.fairness_events.mean,
                     r.fairness_events_extremes, "Events per thread.");
}

std::string RankFairnessChart(const ClusterFigures& c) {
  std::vector<html::Bar> bars;
  for (const RankFigures& k : c.ranks) {
    bars.push_back({std::to_string(k.rank), static_cast<double>(k.events),
                    fmt::format("rank {} ({}): {} events, {} events/s", k.rank, k.host, k.events,
                                ShortNumber(k.events_per_second, 4))});
  }
  return EventsChart(
      "ranks", "rank", std::move(bars), c.events_fairness.mean, c.events_extremes,
      fmt::format("Events per rank (mean {}, stddev {}).", ShortNumber(c.events_fairness.mean, 6),
                  ShortNumber(c.events_fairness.stddev, 4)));
}

std::string RankTable(const ClusterFigures& c) {
  std::vector<std::vector<std::string>> rows = {{"rank", "host", "threads", "events", "events/s",
                                                 "p50", "p95", "p99", "max", "errors",
                                                 "clock offset", "failure"}};
  for (const RankFigures& k : c.ranks) {
    rows.push_back(
        {std::to_string(k.rank), k.host, std::to_string(k.threads), std::to_string(k.events),
         ShortNumber(k.events_per_second, 6), ShortDuration(static_cast<double>(k.p50_ns)),
         ShortDuration(static_cast<double>(k.p95_ns)), ShortDuration(static_cast<double>(k.p99_ns)),
         ShortDuration(static_cast<double>(k.max_ns)), std::to_string(k.errors),
         ShortDuration(k.clock_offset_s * 1e9), k.failure});
  }
  return "<div><h3>Per rank</h3>" +
         html::Table(rows,
                     {true, false, true, true, true, true, true, true, true, true, true, false},
                     "ranks") +
         "</div>";
}

// A run across processes: who took part, fairness across the ranks, each
// rank's own figures. Empty for a run of one process.
std::string RanksSection(const ResultData& r) {
  if (!r.cluster) return "";
  const ClusterFigures& c = *r.cluster;
  std::string sub = fmt::format(
      "{}; every figure above merges them. Max clock offset from rank 0: {} (measured to "
      "within {}).",
      report_internal::RanksAndHosts(c), ShortDuration(c.max_clock_offset_s * 1e9),
      ShortDuration(c.max_round_trip_s / 2 * 1e9));
  std::string out =
      "<section id=\"cluster\"><h2>Ranks</h2><p class=\"sub\">" + Escape(sub) + "</p>";
  if (!c.missing_ranks.empty()) {
    std::string missing;
    for (int m : c.missing_ranks) missing += (missing.empty() ? "" : ", ") + std::to_string(m);
    out += "<p class=\"banner bad\">" +
           Escape("Missing ranks (did not answer; not in the figures): " + missing) + "</p>";
  }
  if (c.stonewall) {
    out += "<p>" +
           Escape(fmt::format("Stonewall: rank {} reached its budget first, at {} s; events by "
                              "then: {} ({} per second).",
                              c.stonewall->first_rank, ShortNumber(c.stonewall->at_s, 4),
                              ShortNumber(c.stonewall->events, 6),
                              ShortNumber(c.stonewall->events_per_second, 6))) +
           "</p>";
  }
  out += "<div class=\"charts\">" + RankFairnessChart(c) + RankTable(c) + "</div>";
  return out + "</section>\n";
}

// The kinds of operations to break down, by the test's counters: fileio
// (reads, writes, fsyncs) and OLTP (reads, writes, others). Empty when the
// result has neither.
std::vector<std::string> BreakdownCounters(const ResultData& r) {
  if (!r.Counter("reads") || !r.Counter("writes")) return {};
  if (r.Counter("fsyncs")) return {"reads", "writes", "fsyncs"};
  if (r.Counter("others")) return {"reads", "writes", "others"};
  return {"reads", "writes"};
}

std::string BreakdownSection(const ResultData& r) {
  std::vector<std::string> kinds = BreakdownCounters(r);
  if (kinds.empty() && r.latency_by_kind.empty()) return "";
  std::string out =
      "<section id=\"breakdown\"><h2>Breakdown by operation</h2><div class=\"charts\">";
  if (!kinds.empty()) {
    bool over_time = false;
    for (const IntervalFigures& iv : r.intervals) over_time = over_time || !iv.counters.empty();
    if (over_time) {
      html::LineChart c;
      c.id = "breakdown";
      c.description = "Operations per second by kind in each interval";
      c.x.label = "time (s)";
      c.y.label = "operations/s";
      for (const std::string& k : kinds) {
        html::Series s{k, {}, {}};
        for (const IntervalFigures& iv : r.intervals) {
          // An interval of no time has no rate: no point (NaN).
          std::optional<double> rate = iv.CounterRate(k);
          s.x.push_back(iv.t_s);
          s.y.push_back(rate.has_value() && iv.duration_s > 0 ? *rate : std::nan(""));
        }
        c.series.push_back(std::move(s));
      }
      out +=
          html::Figure("Operations over time", html::RenderLineChart(c), html::RenderLegend(kinds),
                       "Operations per second of each kind in each interval.");
    } else {
      html::BarChart c;
      c.id = "breakdown";
      c.description = "Operations by kind over the whole run";
      c.y.label = "operations";
      c.x_label = "kind";
      for (const std::string& k : kinds)
        c.bars.push_back({k, static_cast<double>(*r.Counter(k)), ""});
      out += html::Figure("Operations by kind", html::RenderBarChart(c), "",
                          "Operations of each kind over the whole run.");
    }
  }
  std::vector<std::vector<std::string>> rows = {
      {"kind", "operations", "per second", "mean", "p95", "p99", "max"}};
  for (const std::string& k : kinds) {
    const std::optional<double> rate = r.CounterRate(k);
    std::vector<std::string> row = {k, std::to_string(*r.Counter(k)),
                                    rate.has_value() ? ShortNumber(*rate, 4) : ""};
    // The per-kind latency is named in the singular ("read" for "reads").
    std::string singular = k.substr(0, k.size() - 1);
    const LatencyFigures* l = nullptr;
    for (const auto& [name, f] : r.latency_by_kind) {
      if (name == singular || name == k) l = &f;
    }
    if (l != nullptr && l->count > 0) {
      row.insert(row.end(),
                 {ShortDuration(l->mean), ShortDuration(Pct(*l, "95")),
                  ShortDuration(Pct(*l, "99")), ShortDuration(static_cast<double>(l->max))});
    } else {
      row.insert(row.end(), {"", "", "", ""});
    }
    rows.push_back(std::move(row));
  }
  // Latency kinds that no counter named (e.g. a test with its own kinds).
  for (const auto& [name, f] : r.latency_by_kind) {
    bool listed = false;
    for (const std::string& k : kinds) listed = listed || k == name + "s" || k == name;
    if (listed || f.count == 0) continue;
    rows.push_back({name, std::to_string(f.count), "", ShortDuration(f.mean),
                    ShortDuration(Pct(f, "95")), ShortDuration(Pct(f, "99")),
                    ShortDuration(static_cast<double>(f.max))});
  }
  out += "<div><h3>Per kind</h3>" +
         html::Table(rows, {false, true, true, true, true, true, true}, "kinds") + "</div>";
  return out + "</div></section>\n";
}

std::string FiguresSection(const ResultData& r) {
  std::string out = "<section id=\"figures\"><h2>Figures</h2><div class=\"charts\">";
  std::vector<std::vector<std::string>> lat = {{"latency", "value"}};
  lat.push_back({"count", std::to_string(r.latency.count)});
  lat.push_back({"min", ShortDuration(static_cast<double>(r.latency.min))});
  lat.push_back({"mean", ShortDuration(r.latency.mean)});
  lat.push_back({"stddev", ShortDuration(r.latency.stddev)});
  for (const auto& [p, v] : r.latency.percentiles)
    lat.push_back({"p" + p, ShortDuration(static_cast<double>(v))});
  lat.push_back({"max", ShortDuration(static_cast<double>(r.latency.max))});
  out += "<div><h3>Latency of all events</h3>" + html::Table(lat, {false, true}) + "</div>";
  std::string right;
  if (!r.metrics.empty()) {
    std::vector<std::vector<std::string>> rows = {{"metric", "value", "unit"}};
    for (const Metric& m : r.metrics) {
      rows.push_back({m.label.empty() ? m.key : m.label, ShortNumber(m.value, 6), m.unit});
    }
    right += "<h3>Metrics</h3>" + html::Table(rows, {false, true, false});
  }
  if (!r.counters.empty()) {
    std::vector<std::vector<std::string>> rows = {{"counter", "total"}};
    for (const auto& [name, v] : r.counters) rows.push_back({name, std::to_string(v)});
    right += "<h3>Counters</h3>" + html::Table(rows, {false, true});
  }
  if (!right.empty()) out += "<div>" + right + "</div>";
  return out + "</div></section>\n";
}

class HtmlReporter final : public Reporter {
 public:
  HtmlReporter(std::ostream& out, const Workload& w, const ReportSettings& s)
      : out_(out), workload_(w), settings_(s) {}

  void OnStart(const Manifest& m) override { json_->OnStart(m); }
  void OnInterval(const IntervalSnapshot& s) override { json_->OnInterval(s); }
  void OnCheckpoint(const RunResult& r) override { json_->OnCheckpoint(r); }
  void OnStatus(const IntervalSnapshot& s) override { status_.push_back(s); }

  void OnEnd(const RunResult& r) override {
    const RunResult* result = &r;
    RunResult with_status;
    // Under MPI the status ticks are rank 0's own figures: only the merged
    // intervals (--report-interval) may draw a run across ranks.
    if (r.intervals.empty() && !status_.empty() && !r.cluster) {
      with_status = r;
      with_status.intervals = status_;
      result = &with_status;
    }
    json_->OnEnd(*result);
    Result<ResultData> data = ParseResultJson(json_text_.str(), "this run");
    if (!data.ok()) {
      // Our own JSON always reads back; say so on the page if it did not.
      out_ << html::PageStart("loadcell report") << "<p class=\"banner bad\">"
           << Escape(data.status().message()) << "</p>" << html::PageEnd();
    } else {
      out_ << RenderRunHtml(*data);
    }
    out_.flush();
  }

 private:
  std::ostream& out_;
  const Workload& workload_;
  ReportSettings settings_;
  std::ostringstream json_text_;
  std::unique_ptr<Reporter> json_ = MakeJsonReporter(json_text_, workload_, settings_);
  std::vector<IntervalSnapshot> status_;
};

// The verdict panel at the top (docs/validity.md): the verdict line and a
// row per check that did not pass; nothing for a result without a verdict.
// A job's panel (`id` "verdict-job-N", `what` its name) is a part's.
std::string VerdictPanel(const ResultData& r, const std::string& id = "verdict",
                         const std::string& what = "") {
  const Validity& v = r.validity;
  if (!v.judged) return "";
  const Overall overall = v.overall();
  const char* tone = overall == Overall::kInvalid             ? " bad"
                     : overall == Overall::kValidWithWarnings ? ""
                                                              : " good";
  std::string out = "<section id=\"" + id + "\" class=\"verdict" + std::string(tone) + "\"><h" +
                    (what.empty() ? "2" : "3") + ">" + Escape(what) +
                    "Verdict: " + Escape(VerdictLine(v)) + (what.empty() ? "</h2>" : "</h3>");
  std::vector<std::vector<std::string>> rows = {{"", "check", "seen", "what to change"}};
  for (const CheckOutcome* c : v.NotPassed()) {
    rows.push_back({CheckLevelWord(c->level), c->id, c->seen, c->advice.empty() ? "-" : c->advice});
  }
  if (rows.size() == 1) {
    out += fmt::format("<p class=\"sub\">All {} checks passed.</p>", v.checks.size());
  } else {
    out += html::Table(rows, {});
  }
  return out + "</section>\n";
}

// The bytes read and written per second of a result, from its counters
// (fio's jobs: bytes_read, bytes_written); nullopt when it counts neither.
std::optional<double> BytesPerSecond(const ResultData& r) {
  const std::optional<double> read = r.CounterRate("bytes_read");
  const std::optional<double> written = r.CounterRate("bytes_written");
  if (!read && !written) return std::nullopt;
  return read.value_or(0) + written.value_or(0);
}

// A run of several jobs (fio's): a table of every job's figures and
// verdict, then each job's own verdict panel and charts. Nothing for a run
// of one workload.
std::string JobsSection(const ResultData& r) {
  if (r.jobs.empty()) return "";
  std::vector<std::vector<std::string>> rows = {
      {"job", "group", "events/s", "MiB/s", "mean", "p50", "p99", "max", "verdict"}};
  for (const ResultData& j : r.jobs) {
    const std::optional<double> bytes = BytesPerSecond(j);
    rows.push_back({j.job_name, std::to_string(j.job_group), ShortNumber(j.events_per_second, 4),
                    bytes ? ShortNumber(*bytes / (1024.0 * 1024.0), 4) : "-",
                    ShortDuration(j.latency.mean), ShortDuration(Pct(j.latency, "50")),
                    ShortDuration(Pct(j.latency, "99")),
                    ShortDuration(static_cast<double>(j.latency.max)),
                    j.validity.judged ? VerdictLine(j.validity) : "not judged"});
  }
  std::string out = "<section id=\"jobs\"><h2>Jobs</h2>" +
                    html::Table(rows, {false, true, true, true, true, true, true, true, false});
  for (size_t i = 0; i < r.jobs.size(); ++i) {
    const ResultData& j = r.jobs[i];
    const std::string n = std::to_string(i + 1);
    out += "<section id=\"job-" + n + "\"><h3>job " + Escape(j.job_name) + "</h3>";
    if (!j.failure.empty()) {
      out += "<p class=\"banner bad\">The job failed: " + Escape(j.failure) + "</p>";
    }
    out += VerdictPanel(j, "verdict-job-" + n, "job " + j.job_name + ": ");
    out += "<div class=\"charts\">";
    if (!j.intervals.empty()) out += ThroughputChart(j, "throughput-job-" + n);
    out += HistogramSection(j, "histogram-job-" + n) + "</div></section>\n";
  }
  return out + "</section>\n";
}

}  // namespace

std::string RenderRunHtml(const ResultData& r) {
  const Manifest& m = r.manifest;
  std::string out = html::PageStart("loadcell " + m.test + " report");
  out +=
      "<header><h1>loadcell " + Escape(m.test) + "</h1><p class=\"sub\">" +
      Escape(fmt::format("{}, {} s measured, loadcell {}", CountOf(m.threads, "thread", "threads"),
                         ShortNumber(r.total_time_s, 4), m.tool_version)) +
      "</p></header>\n";
  out += VerdictPanel(r);
  out += Banners(r);
  out += "<section id=\"summary\"><h2>Summary</h2>" + SummaryCards(r) + "</section>\n";
  out += "<section id=\"over-time\"><h2>Over time</h2>";
  if (r.intervals.empty() && r.cluster) {
    out +=
        "<p class=\"sub\">This result has no intervals: run with --report-interval=N for "
        "charts over time (its lines merge every rank's figures).</p>";
  } else if (r.intervals.empty()) {
    out +=
        "<p class=\"sub\">This result has no intervals: run with --report-interval=N or "
        "--report-html for charts over time.</p>";
  } else {
    out += "<div class=\"charts\">" + ThroughputChart(r) + PercentilesChart(r) + "</div>";
  }
  out += "</section>\n";
  out += "<section id=\"distribution\"><h2>Distribution</h2><div class=\"charts\">" +
         HistogramSection(r) + FairnessChart(r) + "</div></section>\n";
  out += JobsSection(r);
  out += html::DbsimTablesSection(r);
  out += RanksSection(r);
  out += BreakdownSection(r);
  out += FiguresSection(r);
  out += html::ManifestSection(m);
  out += html::PageEnd();
  return out;
}

std::unique_ptr<Reporter> MakeHtmlReporter(std::ostream& out, const Workload& w,
                                           const ReportSettings& s) {
  return std::make_unique<HtmlReporter>(out, w, s);
}

}  // namespace loadcell
