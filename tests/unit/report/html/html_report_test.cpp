#include "report/html/html_report.h"

#include <gtest/gtest.h>

#include <regex>
#include <sstream>

#include "report/html/html_svg.h"
#include "report/json/json_reader.h"
#include "report/json/json_writer.h"
#include "testing/report_fixture.h"
#include "testing/status.h"

namespace loadcell {
namespace {

using testing::FakeWorkload;
using testing::FixtureClusterResult;
using testing::FixtureInterval;
using testing::FixtureManifest;
using testing::FixtureResult;
using testing::FixtureSettings;
using testing::Format;
using testing::HistogramOf;
using testing::Render;

ResultData FixtureData(const RunResult& r) {
  FakeWorkload w;
  Result<ResultData> d = ParseResultJson(Render(Format::kJson, w, r, FixtureSettings()), "f.json");
  EXPECT_OK(d);
  return d.ok() ? *d : ResultData();
}

// The data-points attribute of chart `id`, or -1 when the chart is absent.
int ChartPoints(const std::string& html, const std::string& id) {
  std::smatch m;
  std::regex re("data-chart=\"" + id + "\" data-points=\"([0-9]+)\"");
  if (!std::regex_search(html, m, re)) return -1;
  return std::stoi(m[1]);
}

size_t Count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

TEST(HtmlReportTest, RunPageHasEveryChartWithItsPoints) {
  const std::string html = RenderRunHtml(FixtureData(FixtureResult()));
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(ChartPoints(html, "throughput"), 2);            // two intervals
  EXPECT_EQ(ChartPoints(html, "latency-percentiles"), 10);  // p50, p95, p99, p99.9, max
  EXPECT_EQ(ChartPoints(html, "threads"), 2);
  // Four distinct latencies (3 us, 250 us, 1.2 ms, 15 ms): four log bins.
  EXPECT_EQ(ChartPoints(html, "histogram"), 4);
  // Fixture counters are ops/bytes: no read/write breakdown.
  EXPECT_EQ(ChartPoints(html, "breakdown"), -1);
  // One marker per point of the line charts.
  EXPECT_EQ(Count(html, "<circle class=\"pt"), 12u);
  EXPECT_NE(html.find("Fake operations limit"), std::string::npos);
}

TEST(HtmlReportTest, TheVerdictPanelComesFirstWithTheChecksThatDidNotPass) {
  const std::string html = RenderRunHtml(FixtureData(testing::FixtureFullResult()));
  const size_t panel = html.find("<section id=\"verdict\" class=\"verdict bad\">");
  ASSERT_NE(panel, std::string::npos);
  EXPECT_LT(panel, html.find("<section id=\"summary\""));
  EXPECT_NE(html.find("<h2>Verdict: INVALID (1)</h2>"), std::string::npos);
  // Gravest first; passed checks are not rows.
  const size_t invalid = html.find("<td>INVALID</td><td>errors</td>");
  const size_t warn = html.find("<td>WARN</td><td>rate</td>");
  ASSERT_NE(invalid, std::string::npos);
  ASSERT_NE(warn, std::string::npos);
  EXPECT_LT(invalid, warn);
  EXPECT_NE(html.find("<td>not checked</td><td>steady-state</td>"), std::string::npos);
  EXPECT_EQ(html.find("<td>samples</td>"), std::string::npos);
}

TEST(HtmlReportTest, AResultWithoutVerdictHasNoPanel) {
  RunResult r = FixtureResult();
  r.validity = Validity{};
  EXPECT_EQ(RenderRunHtml(FixtureData(r)).find("id=\"verdict\""), std::string::npos);
}

TEST(HtmlReportTest, PageIsSelfContainedResponsiveAndPrintable) {
  const std::string html = RenderRunHtml(FixtureData(FixtureResult()));
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos);
  EXPECT_EQ(html.find("url("), std::string::npos);
  // The only address is the SVG namespace name, which is never fetched.
  EXPECT_EQ(Count(html, "http"), Count(html, "xmlns=\"http://www.w3.org/2000/svg\""));
  EXPECT_NE(html.find("name=\"viewport\""), std::string::npos);
  EXPECT_NE(html.find("@media print"), std::string::npos);
  EXPECT_NE(html.find("@media (max-width:600px)"), std::string::npos);
}

TEST(HtmlReportTest, TextFromTheResultIsEscaped) {
  const std::string html = RenderRunHtml(FixtureData(FixtureResult()));
  EXPECT_NE(html.find("Test CPU &quot;quoted&quot; \\ model"), std::string::npos);
  EXPECT_EQ(html.find("CPU \"quoted\""), std::string::npos);
}

TEST(HtmlReportTest, RunAcrossProcessesShowsTheRanksAndTheirFairness) {
  const std::string html = RenderRunHtml(FixtureData(FixtureClusterResult()));
  EXPECT_NE(html.find("<section id=\"cluster\"><h2>Ranks</h2>"), std::string::npos);
  EXPECT_NE(html.find("2 ranks on 2 hosts (c1, c2)"), std::string::npos) << html;
  EXPECT_EQ(ChartPoints(html, "ranks"), 2);
  EXPECT_NE(html.find("Events per rank (mean 500, stddev 100). Slowest rank -20.0% and fastest "
                      "+20.0% from the mean."),
            std::string::npos)
      << html;
  // One row per rank: rank, host, threads, events, events/s.
  EXPECT_NE(html.find("<td class=\"num\">1</td><td>c2</td><td class=\"num\">1</td><td "
                      "class=\"num\">400</td><td class=\"num\">200</td>"),
            std::string::npos)
      << html;
  // A run of one process has no such section.
  EXPECT_EQ(RenderRunHtml(FixtureData(FixtureResult())).find("id=\"cluster\""), std::string::npos);
}

TEST(HtmlReportTest, MissingRanksAndTheStonewallAreStated) {
  RunResult r = FixtureClusterResult();
  r.cluster->missing_ranks = {2, 3};
  r.cluster->stonewall = StonewallFigures{1, 1.5, 900, 600};
  const std::string html = RenderRunHtml(FixtureData(r));
  EXPECT_NE(html.find("Missing ranks (did not answer; not in the figures): 2, 3"),
            std::string::npos);
  EXPECT_NE(html.find("Stonewall: rank 1 reached its budget first, at 1.5 s; events by then: "
                      "900 (600 per second)."),
            std::string::npos)
      << html;
}

// sysbench-style description lines have no value: a list, not keys with
// empty values.
TEST(HtmlReportTest, DescriptionLinesWithoutValueAreAList) {
  RunResult r = FixtureResult();
  r.manifest.workload = {{"Extra file open flags", "(none)"},
                         {"Periodic FSYNC enabled, calling fsync() each 100 requests.", ""},
                         {"  block size", "1KiB"}};
  const std::string html = RenderRunHtml(FixtureData(r));
  EXPECT_NE(html.find("<li>Periodic FSYNC enabled, calling fsync() each 100 requests.</li>"),
            std::string::npos);
  EXPECT_EQ(html.find("<td></td>"), std::string::npos);
  EXPECT_NE(html.find("<th scope=\"row\">Extra file open flags</th><td>(none)</td>"),
            std::string::npos);
  EXPECT_NE(html.find("<th scope=\"row\">block size</th><td>1KiB</td>"), std::string::npos);
}

TEST(HtmlReportTest, FileIoCountersGiveTheBreakdown) {
  RunResult r = FixtureResult();
  r.counter_names = {"reads", "writes", "fsyncs"};
  r.counters = {600, 300, 100};
  for (IntervalSnapshot& s : r.intervals) s.counters = {300, 150, 50};
  r.latency.push_back({"read", HistogramOf({{3000, 600}})});
  r.latency.push_back({"write", HistogramOf({{250000, 300}})});
  r.latency.push_back({"fsync", HistogramOf({{1200000, 100}})});
  FillDerivedFigures(r);
  // The fake workload names ops/bytes; write the JSON with the fileio names.
  class FileIoLike final : public Workload {
   public:
    WorkloadInfo Info() const override {
      WorkloadInfo info;
      info.name = "fileio";
      info.counter_names = {"reads", "writes", "fsyncs"};
      return info;
    }
    void RegisterOptions(OptionSet&) override {}
    Result<std::unique_ptr<Worker>> NewWorker(const ThreadContext&) override {
      return Status::Unimplemented("");
    }
  } fileio;
  Result<ResultData> d = ParseResultJson(Render(Format::kJson, fileio, r, FixtureSettings()), "f");
  ASSERT_OK(d);
  const std::string html = RenderRunHtml(*d);
  EXPECT_EQ(ChartPoints(html, "breakdown"), 6);  // three kinds over two intervals
  EXPECT_NE(html.find("<td>fsyncs</td><td class=\"num\">100</td>"), std::string::npos);
  // The per-second column and the chart are the JSON's counters_per_second:
  // a rate changed in the JSON is the rate the page shows.
  std::string json = Render(Format::kJson, fileio, r, FixtureSettings());
  const std::string rate = "\"fsyncs\": " + JsonWriter::Number(r.counter_rates[2]);
  const size_t at = json.find(rate);
  ASSERT_NE(at, std::string::npos) << json;
  json.replace(at, rate.size(), "\"fsyncs\": 4321");
  Result<ResultData> edited = ParseResultJson(json, "f");
  ASSERT_OK(edited);
  EXPECT_NE(RenderRunHtml(*edited).find("<td>fsyncs</td><td class=\"num\">100</td><td "
                                        "class=\"num\">4321</td>"),
            std::string::npos);
}

// The slowest/fastest sentence is fairness.events' min/max_from_mean_pct.
TEST(HtmlReportTest, FairnessCaptionPrintsTheResultsExtremes) {
  ResultData d = FixtureData(FixtureResult());
  ASSERT_TRUE(d.fairness_events_extremes.has_value());
  EXPECT_EQ(d.fairness_events_extremes->min_from_mean_pct, -20);  // 400 of a mean of 500
  EXPECT_NE(RenderRunHtml(d).find("Slowest thread -20.0% and fastest +20.0% from the mean."),
            std::string::npos);
  d.fairness_events_extremes->min_from_mean_pct = -12.5;
  d.fairness_events_extremes->max_from_mean_pct = 7.25;
  const std::string html = RenderRunHtml(d);
  EXPECT_NE(html.find("Slowest thread -12.5% and fastest +7.2% from the mean."), std::string::npos)
      << html;
}

// A result saved before counters_per_second and the fairness extremes were
// written still makes a page: those cells blank, that sentence left out.
TEST(HtmlReportTest, OlderResultWithoutDerivedRatesStillRenders) {
  RunResult r = FixtureResult();
  r.counter_names = {"reads", "writes"};
  r.counters = {600, 400};
  for (IntervalSnapshot& s : r.intervals) s.counters = {300, 200};
  FillDerivedFigures(r);
  FakeWorkload w;
  std::string json = Render(Format::kJson, w, r, FixtureSettings());
  // Drop every "counters_per_second" object and the extremes.
  const std::regex rates(",\\s*\"counters_per_second\": \\{[^}]*\\}");
  const std::regex extremes(
      ",\\s*\"min\": [^,]*,\\s*\"max\": [^,]*,\\s*\"min_from_mean_pct\": "
      "[^,]*,\\s*\"max_from_mean_pct\": [-0-9.e]*");
  json = std::regex_replace(std::regex_replace(json, rates, ""), extremes, "");
  ASSERT_EQ(json.find("counters_per_second"), std::string::npos) << json;
  ASSERT_EQ(json.find("min_from_mean_pct"), std::string::npos) << json;
  Result<ResultData> d = ParseResultJson(json, "old.json");
  ASSERT_OK(d);
  EXPECT_TRUE(d->counter_rates.empty());
  EXPECT_FALSE(d->fairness_events_extremes.has_value());
  const std::string html = RenderRunHtml(*d);
  EXPECT_NE(html.find("<td>reads</td><td class=\"num\">600</td><td class=\"num\"></td>"),
            std::string::npos)
      << html;
  EXPECT_EQ(html.find("Slowest thread"), std::string::npos);
  EXPECT_NE(html.find("Per-thread fairness"), std::string::npos);
}

TEST(HtmlReportTest, ResultWithoutIntervalsSaysHowToGetCharts) {
  RunResult r = FixtureResult();
  r.intervals.clear();
  const std::string html = RenderRunHtml(FixtureData(r));
  EXPECT_EQ(ChartPoints(html, "throughput"), -1);
  EXPECT_NE(html.find("--report-interval"), std::string::npos);
  EXPECT_EQ(ChartPoints(html, "histogram"), 4);
}

TEST(HtmlReportTest, ReporterUsesStatusTicksWhenThereAreNoIntervals) {
  RunResult r = FixtureResult();
  std::vector<IntervalSnapshot> ticks = r.intervals;
  r.intervals.clear();
  FakeWorkload w;
  std::ostringstream out;
  std::unique_ptr<Reporter> rep = MakeHtmlReporter(out, w, FixtureSettings());
  rep->OnStart(r.manifest);
  for (const IntervalSnapshot& s : ticks) rep->OnStatus(s);
  rep->OnStatus(FixtureInterval(3, 10, 10));
  rep->OnEnd(r);
  EXPECT_EQ(ChartPoints(out.str(), "throughput"), 3);
}

// A run across ranks: the status ticks are rank 0's alone, never drawn as
// the run's; the page points to --report-interval (merged across ranks).
TEST(HtmlReportTest, RunAcrossProcessesDrawsNoStatusTicks) {
  RunResult r = FixtureClusterResult();
  r.intervals.clear();
  FakeWorkload w;
  std::ostringstream out;
  std::unique_ptr<Reporter> rep = MakeHtmlReporter(out, w, FixtureSettings());
  rep->OnStart(r.manifest);
  rep->OnStatus(FixtureInterval(1, 10, 10));
  rep->OnStatus(FixtureInterval(2, 10, 10));
  rep->OnEnd(r);
  EXPECT_EQ(ChartPoints(out.str(), "throughput"), -1);
  EXPECT_NE(out.str().find("run with --report-interval=N for charts over time (its lines merge"),
            std::string::npos);
}

TEST(HtmlReportTest, SweepPageDrawsTheSaturationCurves) {
  SweepFigures s;
  s.test = "fileio";
  s.options = {"threads", "file-block-size"};
  for (const char* t : {"1", "2", "4"}) {
    for (const char* b : {"4K", "64K"}) {
      SweepPointFigures p;
      p.values = {t, b};
      p.runs = 1;
      p.events_per_second = 100 * std::stod(t);
      p.p99_ns = 1e6;
      s.points.push_back(p);
    }
  }
  s.manifest = FixtureManifest();
  const std::string html = RenderSweepHtml(s);
  EXPECT_EQ(ChartPoints(html, "saturation-throughput"), 6);
  EXPECT_EQ(ChartPoints(html, "saturation-p99"), 6);
  EXPECT_NE(html.find("data-series=\"file-block-size=64K\""), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
}

// The table of points: each point's verdict, no column when none was judged.
TEST(HtmlReportTest, TheSweepsPointsCarryTheirVerdict) {
  SweepFigures s;
  s.test = "fileio";
  s.options = {"threads"};
  for (const char* v : {"valid", "INVALID (1)"}) {
    SweepPointFigures p;
    p.values = {v[0] == 'v' ? "1" : "2"};
    p.runs = 1;
    p.verdict = v;
    s.points.push_back(p);
  }
  s.manifest = FixtureManifest();
  const std::string html = RenderSweepHtml(s);
  EXPECT_NE(html.find("<th>verdict</th>"), std::string::npos) << html;
  EXPECT_NE(html.find("<td>INVALID (1)</td>"), std::string::npos) << html;
  EXPECT_NE(html.find("<td>valid</td>"), std::string::npos) << html;
  for (SweepPointFigures& p : s.points) p.verdict.clear();
  EXPECT_EQ(RenderSweepHtml(s).find("verdict</th>"), std::string::npos);
}

TEST(HtmlSvgTest, LineChartSkipsGapsAndCountsPoints) {
  html::LineChart c;
  c.id = "t";
  c.series.push_back({"a", {1, 2, 3, 4}, {1, std::nan(""), 3, 4}});
  const std::string svg = html::RenderLineChart(c);
  EXPECT_NE(svg.find("data-chart=\"t\" data-points=\"3\" data-series=\"1\""), std::string::npos);
  EXPECT_EQ(Count(svg, "<polyline"), 2u);  // the gap splits the line
  c.series.clear();
  EXPECT_NE(html::RenderLineChart(c).find("no data"), std::string::npos);
}

TEST(HtmlSvgTest, LogAxisDropsValuesItCannotPlace) {
  html::LineChart c;
  c.id = "t";
  c.y.log = true;
  c.series.push_back({"a", {1, 2, 3}, {0, 10, 1000}});
  EXPECT_NE(html::RenderLineChart(c).find("data-points=\"2\""), std::string::npos);
}

TEST(HtmlSvgTest, NumberAndDurationText) {
  EXPECT_EQ(html::ShortNumber(0), "0");
  EXPECT_EQ(html::ShortNumber(2.5), "2.5");
  EXPECT_EQ(html::ShortNumber(1234), "1234");
  EXPECT_EQ(html::ShortNumber(12345), "12.3k");
  EXPECT_EQ(html::ShortNumber(1.5e6), "1.5M");
  EXPECT_EQ(html::ShortNumber(0.0123), "0.0123");
  EXPECT_EQ(html::ShortDuration(850), "850 ns");
  EXPECT_EQ(html::ShortDuration(12500), "12.5 µs");
  EXPECT_EQ(html::ShortDuration(3.2e6), "3.2 ms");
  EXPECT_EQ(html::ShortDuration(1.05e9), "1.05 s");
  EXPECT_EQ(html::Escape("<a href=\"x\">&'"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
}

TEST(HtmlSvgTest, NiceTicksCoverTheRangeWithRoundSteps) {
  std::vector<double> t = html::NiceTicks(0, 2300, 5);
  ASSERT_GE(t.size(), 3u);
  EXPECT_EQ(t.front(), 0);
  EXPECT_GE(t.back(), 2300);
  EXPECT_EQ(t[1] - t[0], 500);
}

}  // namespace
}  // namespace loadcell
