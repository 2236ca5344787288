// steady-state (docs/validity.md): the rate of the first third of the
// intervals against that of the last third, then the last window of
// intervals by the SNIA PTS rule (the range, and the slope of a least-squares
// line, against the window's average).

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

// The last kSteadyWindowIntervals intervals' rates: their average, their
// range and the excursion of their least-squares line over the window
// (slope x (n - 1)), both as fractions of the average.
struct WindowFit {
  double average = 0;
  double range = 0;
  double slope = 0;
};

WindowFit FitLastWindow(const std::vector<IntervalSnapshot>& iv) {
  const size_t n = static_cast<size_t>(kSteadyWindowIntervals);
  std::vector<double> rates;
  for (size_t i = iv.size() - n; i < iv.size(); ++i) rates.push_back(ThirdRate(iv, i, i + 1));
  WindowFit f;
  double sum = 0;
  for (const double r : rates) sum += r;
  f.average = sum / static_cast<double>(n);
  if (f.average <= 0) return f;
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
  const WindowFit window = FitLastWindow(iv);
  figures.push_back({"window_events_per_second", window.average});
  figures.push_back({"window_range", window.range});
  figures.push_back({"window_slope", window.slope});
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
  // The SNIA PTS rule over the window: its range, then its slope.
  const bool ranged = window.range > kSteadyWindowMaxRange;
  if (ranged || window.slope > kSteadyWindowMaxSlope) {
    return Found(kId, CheckLevel::kWarn,
                 fmt::format("over the last {} intervals {} {:.0f}% of its {:.2f}/s average "
                             "(above {:.0f}%, the SNIA PTS rule): no steady state",
                             kSteadyWindowIntervals,
                             ranged ? "the rate ranged over" : "the rate's fitted line moved",
                             (ranged ? window.range : window.slope) * 100, window.average,
                             (ranged ? kSteadyWindowMaxRange : kSteadyWindowMaxSlope) * 100),
                 advice, std::move(figures));
  }
  return Passed(kId, std::move(figures));
}

}  // namespace loadcell::validity
