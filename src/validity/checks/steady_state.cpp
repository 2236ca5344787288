// steady-state (docs/validity.md): the rate of the first third of the
// intervals against that of the last third, then a window of intervals
// moved over the series by the SNIA PTS rule (the range, and the slope of a
// least-squares line, against the window's average): the run ended steady
// when a window ending at or next to the last interval meets it.

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "validity/check.h"
#include "validity/thresholds.h"

namespace loadcell::validity {
namespace {

// Events over time of intervals [from, to).
double ThirdRate(const std::vector<IntervalSnapshot>& iv, size_t from, size_t to) {
  double events = 0;
  double time = 0;
  for (size_t i = from; i < to; ++i) {
    events += static_cast<double>(iv[i].events);
    time += iv[i].duration_s;
  }
  return time > 0 ? events / time : 0;
}

// The rates of the kSteadyWindowIntervals intervals from `first`: their
// average, their range and the excursion of their least-squares line over
// the window (slope x (n - 1)), both as fractions of the average, and the
// seconds the window spans.
struct WindowFit {
  size_t first = 0;
  double from_s = 0;
  double to_s = 0;
  double average = 0;
  double range = 0;
  double slope = 0;
  // How far past the rule the window lies: its larger of range and slope,
  // each over its threshold (at most 1: steady).
  double Excess() const {
    return std::max(range / kSteadyWindowMaxRange, slope / kSteadyWindowMaxSlope);
  }
};

WindowFit FitWindow(const std::vector<IntervalSnapshot>& iv, size_t first) {
  const size_t n = static_cast<size_t>(kSteadyWindowIntervals);
  std::vector<double> rates;
  for (size_t i = first; i < first + n; ++i) rates.push_back(ThirdRate(iv, i, i + 1));
  WindowFit f;
  f.first = first;
  f.from_s = iv[first].t_end_s - iv[first].duration_s;
  f.to_s = iv[first + n - 1].t_end_s;
  double sum = 0;
  for (const double r : rates) sum += r;
  f.average = sum / static_cast<double>(n);
  if (f.average <= 0) {
    f.range = f.slope = 1;  // no events: nothing steady to see
    return f;
  }
  const auto [lo, hi] = std::minmax_element(rates.begin(), rates.end());
  f.range = (*hi - *lo) / f.average;
  const double mid_x = static_cast<double>(n - 1) / 2;
  double sxy = 0;
  double sxx = 0;
  for (size_t i = 0; i < n; ++i) {
    const double dx = static_cast<double>(i) - mid_x;
    sxy += dx * (rates[i] - f.average);
    sxx += dx * dx;
  }
  f.slope = std::fabs(sxy / sxx) * static_cast<double>(n - 1) / f.average;
  return f;
}

bool Steady(const WindowFit& f) {
  return f.range <= kSteadyWindowMaxRange && f.slope <= kSteadyWindowMaxSlope;
}

// The windows moved over the series: the one that judges the run (the
// latest steady one among those ending within kSteadyWindowEndSlack
// intervals of the last, else the one nearest the rule among them), and the
// latest steady window before those, if any.
struct WindowSearch {
  WindowFit judged;
  bool earlier_steady = false;
  WindowFit earlier;
};

WindowSearch SearchWindows(const std::vector<IntervalSnapshot>& iv) {
  const size_t n = static_cast<size_t>(kSteadyWindowIntervals);
  const size_t last_first = iv.size() - n;
  const size_t slack = static_cast<size_t>(kSteadyWindowEndSlack);
  const size_t near_first = last_first > slack ? last_first - slack : 0;
  WindowSearch s;
  bool have = false;
  for (size_t first = near_first; first <= last_first; ++first) {
    const WindowFit f = FitWindow(iv, first);
    const bool better = Steady(f) ? true : !Steady(s.judged) && f.Excess() < s.judged.Excess();
    if (!have || better) s.judged = f;
    have = true;
  }
  if (Steady(s.judged)) return s;
  for (size_t first = near_first; first-- > 0;) {
    const WindowFit f = FitWindow(iv, first);
    if (Steady(f)) {
      s.earlier_steady = true;
      s.earlier = f;
      break;
    }
  }
  return s;
}

}  // namespace

std::optional<CheckOutcome> CheckSteadyState(const CheckInput& in) {
  constexpr const char* kId = "steady-state";
  const std::vector<IntervalSnapshot>& iv = in.result.intervals;
  if (in.report_interval_s <= 0) {
    const std::string& option = in.workload.option_names.report_interval;
    return NotChecked(kId, option.empty() ? std::string("no interval figures to compare")
                                          : "no interval figures to compare (" + option + ")");
  }
  if (iv.size() < static_cast<size_t>(kSteadyMinIntervals)) {
    return NotChecked(kId, fmt::format("{} intervals, fewer than the {} it compares in thirds",
                                       iv.size(), kSteadyMinIntervals));
  }
  const size_t third = iv.size() / 3;
  const double first = ThirdRate(iv, 0, third);
  const double last = ThirdRate(iv, iv.size() - third, iv.size());
  const double larger = std::max(first, last);
  const double drift = larger > 0 ? std::fabs(first - last) / larger : 0;
  std::vector<CheckFigure> figures = {{"first_third_events_per_second", first},
                                      {"last_third_events_per_second", last},
                                      {"drift", drift}};
  const WindowSearch search = SearchWindows(iv);
  const WindowFit& window = search.judged;
  figures.push_back({"window_from_s", window.from_s});
  figures.push_back({"window_to_s", window.to_s});
  figures.push_back({"window_events_per_second", window.average});
  figures.push_back({"window_range", window.range});
  figures.push_back({"window_slope", window.slope});
  if (search.earlier_steady) {
    figures.push_back({"steady_window_from_s", search.earlier.from_s});
    figures.push_back({"steady_window_to_s", search.earlier.to_s});
  }
  const IoOptionNames& names = in.workload.option_names;
  const std::string advice =
      names.warm_up.empty()
          ? "run longer (" + names.run_length + ")"
          : "run longer (" + names.run_length + ") or skip the start (" + names.warm_up + ")";
  if (drift > kSteadyMaxDrift) {
    return Found(kId, CheckLevel::kWarn,
                 fmt::format("the rate moved from {:.2f}/s in the first third of the intervals "
                             "to {:.2f}/s in the last ({:.0f}%, above {:.0f}%): no steady state",
                             first, last, drift * 100, kSteadyMaxDrift * 100),
                 advice, std::move(figures));
  }
  if (!Steady(window)) {
    // The SNIA PTS rule: no window of the last ones met it; the nearest.
    const bool ranged =
        window.range / kSteadyWindowMaxRange >= window.slope / kSteadyWindowMaxSlope;
    const std::string earlier =
        search.earlier_steady ? fmt::format(" (it was steady over {:.1f}-{:.1f}s, then moved)",
                                            search.earlier.from_s, search.earlier.to_s)
                              : std::string();
    return Found(
        kId, CheckLevel::kWarn,
        fmt::format("no window of {} intervals at the end met the SNIA PTS rule: the "
                    "nearest, {:.1f}-{:.1f}s, {} {:.0f}% of its {:.2f}/s average "
                    "(above {:.0f}%){}: no steady state",
                    kSteadyWindowIntervals, window.from_s, window.to_s,
                    ranged ? "ranged over" : "had its fitted line move",
                    (ranged ? window.range : window.slope) * 100, window.average,
                    (ranged ? kSteadyWindowMaxRange : kSteadyWindowMaxSlope) * 100, earlier),
        advice, std::move(figures));
  }
  return Passed(kId, std::move(figures));
}

}  // namespace loadcell::validity
