// The sweep page: saturation curves (throughput and p99 against the first
// swept option) and the table of points.

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "core/plural.h"
#include "report/html/html_page.h"
#include "report/html/html_report.h"
#include "report/html/html_svg.h"

namespace loadcell {
namespace {

using html::Escape;
using html::ShortDuration;
using html::ShortNumber;

// The other options' values of a point, as a series name ("file-block-size=4K").
std::string SeriesName(const SweepFigures& s, const SweepPointFigures& p) {
  std::string name;
  for (size_t i = 1; i < s.options.size() && i < p.values.size(); ++i) {
    if (!name.empty()) name += ", ";
    name += s.options[i] + "=" + p.values[i];
  }
  return name.empty() ? "all" : name;
}

// The page's header: title, how many points over which options.
std::string SweepHeader(const SweepFigures& s, const std::string& title) {
  std::string swept;
  for (const std::string& o : s.options) swept += (swept.empty() ? "--" : ", --") + o;
  std::string out =
      "<header><h1>" + Escape(title) + "</h1><p class=\"sub\">" +
      Escape(fmt::format("{} over {}{}", CountOf(s.points.size(), "point", "points"), swept,
                         s.repeat > 1 ? fmt::format(", {} runs each", s.repeat) : "")) +
      "</p></header>\n";
  if (s.interrupted) {
    out += "<p class=\"banner\">The sweep was interrupted; only the finished points are shown.</p>";
  }
  return out;
}

// The saturation curves: throughput and p99 against the first option.
std::string SaturationSection(const SweepFigures& s) {
  // x: the first option's values in the order given; one series per
  // combination of the other options.
  std::vector<std::string> xs;
  std::map<std::string, size_t> x_index;
  std::vector<std::string> names;
  std::map<std::string, size_t> series_index;
  for (const SweepPointFigures& p : s.points) {
    const std::string& x = p.values.empty() ? std::string("") : p.values[0];
    if (x_index.emplace(x, xs.size()).second) xs.push_back(x);
    std::string n = SeriesName(s, p);
    if (series_index.emplace(n, names.size()).second) names.push_back(n);
  }
  html::LineChart eps;
  eps.id = "saturation-throughput";
  eps.description = "Throughput against " + (s.options.empty() ? "" : s.options[0]);
  eps.x.label = s.options.empty() ? "" : "--" + s.options[0];
  eps.x.categories = xs;
  eps.y.label = "events/s";
  html::LineChart p99 = eps;
  p99.id = "saturation-p99";
  p99.description = "p99 latency against " + (s.options.empty() ? "" : s.options[0]);
  p99.y.label = "p99 latency";
  p99.y.format = &ShortDuration;
  for (const std::string& n : names) {
    eps.series.push_back({n, {}, {}});
    p99.series.push_back({n, {}, {}});
  }
  for (const SweepPointFigures& p : s.points) {
    if (p.runs == 0) continue;
    size_t si = series_index[SeriesName(s, p)];
    double x = static_cast<double>(x_index[p.values.empty() ? std::string("") : p.values[0]]);
    eps.series[si].x.push_back(x);
    eps.series[si].y.push_back(p.events_per_second);
    p99.series[si].x.push_back(x);
    p99.series[si].y.push_back(p.p99_ns);
  }
  std::string legend = names.size() > 1 ? html::RenderLegend(names) : "";
  std::string out = "<section id=\"saturation\"><h2>Saturation</h2><div class=\"charts\">";
  out += html::Figure("Throughput", html::RenderLineChart(eps), legend,
                      s.repeat > 1 ? "Mean events per second over the runs of each point."
                                   : "Events per second of each point.");
  out += html::Figure("p99 latency", html::RenderLineChart(p99), legend,
                      "Where throughput stops growing while p99 climbs, the system is saturated.");
  return out + "</div></section>\n";
}

// The table of points: the options' values, then the figures.
std::string PointsSection(const SweepFigures& s) {
  std::vector<std::vector<std::string>> rows(1);
  std::vector<bool> numeric;
  for (const std::string& o : s.options) {
    rows[0].push_back(o);
    numeric.push_back(true);
  }
  for (const char* h : {"runs", "events/s", "spread", "p95", "p99"}) {
    rows[0].push_back(h);
    numeric.push_back(true);
  }
  // Each point's verdict (docs/validity.md): no column when none was judged.
  const bool verdicts = std::any_of(s.points.begin(), s.points.end(),
                                    [](const SweepPointFigures& p) { return !p.verdict.empty(); });
  if (verdicts) {
    rows[0].push_back("verdict");
    numeric.push_back(false);
  }
  for (const SweepPointFigures& p : s.points) {
    std::vector<std::string> row = p.values;
    row.resize(s.options.size());
    row.push_back(std::to_string(p.runs));
    row.push_back(ShortNumber(p.events_per_second, 5));
    row.push_back(p.events_per_second_spread_pct.has_value()
                      ? fmt::format("±{:.1f}%", *p.events_per_second_spread_pct)
                      : "");
    row.push_back(ShortDuration(p.p95_ns));
    row.push_back(ShortDuration(p.p99_ns));
    if (verdicts) row.push_back(p.verdict.empty() ? "-" : p.verdict);
    rows.push_back(std::move(row));
  }
  return "<section id=\"points\"><h2>Points</h2>" + html::Table(rows, numeric, "sweep") +
         "</section>\n";
}

// The first point's manifest, headed as such.
std::string SweepManifestSection(const SweepFigures& s) {
  std::string manifest = html::ManifestSection(s.manifest);
  const std::string heading = "<h2>Manifest</h2>";
  if (size_t at = manifest.find(heading); at != std::string::npos) {
    manifest.replace(at, heading.size(),
                     "<h2>Manifest of the first point</h2><p class=\"sub\">The swept options "
                     "differ from point to point; each run's JSON holds its own manifest.</p>");
  }
  return manifest;
}

}  // namespace

std::string RenderSweepHtml(const SweepFigures& s) {
  const std::string title = "loadcell sweep of " + s.test;
  return html::PageStart(title) + SweepHeader(s, title) + SaturationSection(s) + PointsSection(s) +
         SweepManifestSection(s) + html::PageEnd();
}

}  // namespace loadcell
