#include "report/format.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/plural.h"

namespace loadcell::report_internal {

std::string FormatMs(double ms, int min_decimals) {
  if (!std::isfinite(ms) || ms == 0) return fmt::format("{:.{}f}", 0.0, min_decimals);
  const double mag = std::fabs(ms);
  int decimals = min_decimals;
  if (mag < 0.1) {
    // Two significant digits: the first one sits at 10^floor(log10(mag)).
    const int first = static_cast<int>(std::floor(std::log10(mag)));
    decimals = std::max(decimals, 1 - first);
  }
  decimals = std::min(decimals, 6);
  return fmt::format("{:.{}f}", ms, decimals);
}

std::string TableMs(double ns) { return FormatMs(ns / kNanosPerMs, 3); }

std::string CsvMs(double ns) { return fmt::format("{:.6f}", Finite(ns) / kNanosPerMs); }

std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string PercentileText(double p) { return fmt::format("{}", p); }

std::vector<double> ReportedPercentiles(double chosen, bool with_extreme) {
  std::vector<double> ps = {50, 95, 99, 99.9};
  if (with_extreme) ps.push_back(99.99);
  if (chosen > 0 && chosen <= 100 && std::find(ps.begin(), ps.end(), chosen) == ps.end()) {
    ps.push_back(chosen);
    std::sort(ps.begin(), ps.end());
  }
  return ps;
}

double Finite(double v) { return std::isfinite(v) ? v : 0; }

double MeanNs(const LatencyHistogram& h) { return h.Count() == 0 ? 0 : Finite(h.moments().Mean()); }

double StdDevNs(const LatencyHistogram& h) {
  return h.Count() == 0 ? 0 : Finite(h.moments().StdDev());
}

std::string CounterName(const std::vector<std::string>& names, size_t i) {
  if (i < names.size() && !names[i].empty()) return names[i];
  return fmt::format("counter_{}", i);
}

std::string IntervalStamp(double t_s, double report_interval_s) {
  t_s = Finite(t_s);
  const bool whole = report_interval_s <= 0 || report_interval_s == std::floor(report_interval_s);
  if (whole) return fmt::format("[ {}s ] ", std::llround(t_s));
  std::string t = fmt::format("{:.3f}", t_s);
  while (!t.empty() && t.back() == '0') t.pop_back();
  if (!t.empty() && t.back() == '.') t.pop_back();
  return fmt::format("[ {}s ] ", t);
}

std::string PausedNote(double paused_s, int pauses) {
  return fmt::format(
      "(paused {} {} for {:.2f}s: the process was stopped; total time and latencies include it)",
      pauses, pauses == 1 ? "time" : "times", Finite(paused_s));
}

std::string RanksAndHosts(const ClusterFigures& c) {
  std::vector<std::string> hosts;
  for (const RankFigures& k : c.ranks) {
    if (std::find(hosts.begin(), hosts.end(), k.host) == hosts.end()) hosts.push_back(k.host);
  }
  std::string list;
  for (const std::string& h : hosts) list += (list.empty() ? "" : ", ") + h;
  return fmt::format("{} on {} ({})", CountOf(c.ranks.size(), "rank", "ranks"),
                     CountOf(hosts.size(), "host", "hosts"), list);
}

}  // namespace loadcell::report_internal
