#include "report/html/html_page.h"

#include <fmt/format.h>

#include "core/options.h"
#include "core/version.h"
#include "report/html/html_svg.h"

namespace loadcell::html {
namespace {

// Colour-blind-friendly palette (Okabe-Ito, with black last).
constexpr const char* kPalette[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                    "#E69F00", "#56B4E9", "#8a6d00", "#333333"};

std::string StyleSheet() {
  std::string css = R"css(
:root{--fg:#1b1f24;--muted:#57606a;--line:#d8dee4;--card:#f6f8fa;--bg:#fff;--warn:#9a6700;--bad:#cf222e}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;-webkit-text-size-adjust:100%}
main{max-width:1120px;margin:0 auto;padding:16px}
h1{font-size:1.5em;margin:.2em 0 .1em}
h2{font-size:1.15em;margin:1.4em 0 .5em;border-bottom:1px solid var(--line);padding-bottom:.2em}
h3{font-size:1em;margin:0 0 .4em}
p.sub{color:var(--muted);margin:0 0 1em}
.banner{border-left:4px solid var(--warn);background:#fff8c5;padding:.5em .8em;margin:.6em 0}
.banner.bad{border-color:var(--bad);background:#ffebe9}
.verdict{border-left:4px solid var(--warn);background:#fff8c5;padding:.2em .8em;margin:.6em 0}
.verdict.bad{border-color:var(--bad);background:#ffebe9}
.verdict.good{border-color:#1a7f37;background:#dafbe1}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(140px,1fr));gap:10px;margin:0}
.card{background:var(--card);border-radius:8px;padding:8px 12px}
.card dt{color:var(--muted);font-size:.85em}
.card dd{margin:0;font-size:1.3em;font-weight:600;font-variant-numeric:tabular-nums}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,500px),1fr));gap:16px}
figure{margin:0;border:1px solid var(--line);border-radius:8px;padding:10px 10px 6px;break-inside:avoid;page-break-inside:avoid;min-width:0}
figcaption{color:var(--muted);font-size:.85em;margin-top:.3em}
svg.chart{display:block;width:100%;height:auto;overflow:visible}
svg.chart text{font-family:inherit}
svg .tick{font-size:11px;fill:var(--muted)}
svg .axis-title{font-size:12px;fill:var(--fg)}
svg .nodata{font-size:14px;fill:var(--muted)}
svg .grid{stroke:#eaeef2;stroke-width:1}
svg .frame{fill:none;stroke:#8c959f;stroke-width:1}
svg .line{fill:none;stroke-width:2;stroke-linejoin:round}
svg .ref{stroke:var(--fg);stroke-width:1.2;stroke-dasharray:5 4}
svg .ref-label{font-size:11px;fill:var(--fg)}
svg .bar{stroke:none;opacity:.85}
ul.legend{list-style:none;display:flex;flex-wrap:wrap;gap:4px 14px;padding:0;margin:.3em 0 0;font-size:.85em}
.sw{display:inline-block;width:12px;height:12px;border-radius:2px;margin-right:5px;vertical-align:-1px}
.table-wrap{overflow-x:auto;-webkit-overflow-scrolling:touch;margin:.4em 0}
table{border-collapse:collapse;width:100%;font-size:.9em}
th,td{padding:4px 8px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
th{background:var(--card);font-weight:600}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.set td{font-weight:600}
details summary{cursor:pointer;color:var(--muted);margin:.4em 0}
footer{color:var(--muted);font-size:.8em;margin:2em 0 1em}
@media (max-width:600px){body{font-size:14px}main{padding:10px}.card dd{font-size:1.1em}th,td{padding:3px 5px}
 svg .tick{font-size:15px}svg .axis-title{font-size:16px}svg .ref-label{font-size:15px}}
@media print{
 body{font-size:10pt;background:#fff}
 main{max-width:none;padding:0}
 .charts{grid-template-columns:1fr 1fr;gap:10px}
 figure,table,.cards{break-inside:avoid;page-break-inside:avoid}
 details{display:block}
 details>*{display:block}
 h2{break-after:avoid;page-break-after:avoid}
 .table-wrap{overflow:visible}
}
)css";
  for (int i = 0; i < 8; ++i) {
    css += fmt::format(
        "svg .line.s{0}{{stroke:{1}}}svg .pt.s{0},svg "
        ".bar.s{0}{{fill:{1}}}.sw.s{0}{{background:{1}}}\n",
        i, kPalette[i]);
  }
  return css;
}

std::string Row(const std::string& name, const std::string& value) {
  return "<tr><th scope=\"row\">" + Escape(name) + "</th><td>" + Escape(value) + "</td></tr>";
}

std::string Limit(const Manifest& m) {
  std::string s;
  if (m.time_limit_s > 0) s = ShortNumber(m.time_limit_s, 6) + " s";
  if (m.event_limit > 0) s += (s.empty() ? "" : ", ") + std::to_string(m.event_limit) + " events";
  return s.empty() ? "none" : s;
}

}  // namespace

std::string PageStart(const std::string& title) {
  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
         "<meta name=\"generator\" content=\"loadcell " +
         Escape(kVersion) + "\"><title>" + Escape(title) + "</title><style>" + StyleSheet() +
         "</style></head>\n<body><main>\n";
}

std::string PageEnd() {
  return "<footer>Written by loadcell " + Escape(kVersion) +
         ". Self-contained page: inline SVG charts, no script, no network.</footer>\n"
         "</main></body></html>\n";
}

std::string Table(const std::vector<std::vector<std::string>>& rows,
                  const std::vector<bool>& numeric, const std::string& css_class) {
  if (rows.empty()) return "";
  std::string out = "<div class=\"table-wrap\"><table" +
                    (css_class.empty() ? std::string() : " class=\"" + css_class + "\"") + ">";
  for (size_t r = 0; r < rows.size(); ++r) {
    out += r == 0 ? "<thead><tr>" : "<tr>";
    for (size_t c = 0; c < rows[r].size(); ++c) {
      bool num = c < numeric.size() && numeric[c];
      const char* tag = r == 0 ? "th" : "td";
      out +=
          fmt::format("<{}{}>{}</{}>", tag, num ? " class=\"num\"" : "", Escape(rows[r][c]), tag);
    }
    out += r == 0 ? "</tr></thead><tbody>" : "</tr>";
  }
  return out + "</tbody></table></div>";
}

std::string Figure(const std::string& heading, const std::string& svg, const std::string& legend,
                   const std::string& caption) {
  std::string out = "<figure><h3>" + Escape(heading) + "</h3>" + svg + legend;
  if (!caption.empty()) out += "<figcaption>" + Escape(caption) + "</figcaption>";
  return out + "</figure>\n";
}

namespace {

// The workload's description: the lines without a value (sysbench-style
// sentences such as "Periodic FSYNC enabled, ...") as a list, in order, then
// the named values as a table (names without the text report's indent).
std::string WorkloadBlock(const std::vector<std::pair<std::string, std::string>>& described) {
  std::string lines, rows;
  for (const auto& [name, value] : described) {
    const size_t start = name.find_first_not_of(' ');
    const std::string text = start == std::string::npos ? "" : name.substr(start);
    if (value.empty()) {
      lines += "<li>" + Escape(text) + "</li>";
    } else {
      rows += Row(text, value);
    }
  }
  std::string out = "<h3>Workload</h3>";
  if (!lines.empty()) out += "<ul class=\"described\">" + lines + "</ul>";
  if (!rows.empty())
    out += "<div class=\"table-wrap\"><table class=\"kv\">" + rows + "</table></div>";
  return out;
}

}  // namespace

std::string ManifestSection(const Manifest& m) {
  std::string out = "<section id=\"manifest\"><h2>Manifest</h2><div class=\"charts\">";
  out += "<div><h3>What ran</h3><div class=\"table-wrap\"><table class=\"kv\">";
  out += Row("test", m.test);
  if (!m.command.empty()) out += Row("command", m.command);
  out += Row("tool", m.tool + " " + m.tool_version);
  out += Row("threads", std::to_string(m.threads));
  out += Row("limit", Limit(m));
  if (m.warmup_s > 0) out += Row("warm-up", ShortNumber(m.warmup_s, 6) + " s");
  out += Row("rate", m.rate > 0 ? ShortNumber(m.rate, 6) + " events/s (open loop)"
                                : std::string("as fast as possible (closed loop)"));
  if (!m.rand_type.empty()) out += Row("random distribution", m.rand_type);
  out += Row("seed", std::to_string(m.seed) + (m.seed_from_time ? " (from the clock)" : ""));
  out += "</table></div>";
  out += "<h3>Machine</h3><div class=\"table-wrap\"><table class=\"kv\">";
  out += Row("CPU", m.system.cpu_model.empty() ? "unknown" : m.system.cpu_model);
  out += Row("CPUs online", std::to_string(m.system.cpus_online));
  out += Row("memory",
             m.system.memory_bytes > 0
                 ? ShortNumber(static_cast<double>(m.system.memory_bytes) / (1 << 30)) + " GiB"
                 : std::string("unknown"));
  out += Row("kernel", m.system.kernel);
  out += Row("clock", m.system.clock_source);
  out += "</table></div></div>";

  out += "<div>";
  if (!m.workload.empty()) out += WorkloadBlock(m.workload);
  std::vector<std::vector<std::string>> set_rows = {{"option", "value", "group"}};
  std::vector<std::vector<std::string>> default_rows = {{"option", "value", "group"}};
  for (const ResolvedOption& o : m.options) {
    (o.is_default ? default_rows : set_rows).push_back({"--" + o.name, o.value, o.group});
  }
  out += "<h3>Options set</h3>";
  out += set_rows.size() > 1
             ? Table(set_rows, {}, "opts")
             : std::string("<p class=\"sub\">none: every option at its default</p>");
  if (default_rows.size() > 1) {
    out += fmt::format("<details><summary>{} options at their defaults</summary>{}</details>",
                       default_rows.size() - 1, Table(default_rows, {}, "opts"));
  }
  out += "</div></div></section>\n";
  return out;
}

}  // namespace loadcell::html
