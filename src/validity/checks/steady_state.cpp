// steady-state (docs/validity.md): the rate of the first third of the
// intervals against that of the last third.

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

}  // namespace

std::optional<CheckOutcome> CheckSteadyState(const CheckInput& in) {
  constexpr const char* kId = "steady-state";
  const std::vector<IntervalSnapshot>& iv = in.result.intervals;
  if (in.report_interval_s <= 0) {
    return NotChecked(kId, "no interval figures to compare (--report-interval)");
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
  if (drift <= kSteadyMaxDrift) return Passed(kId, std::move(figures));
  return Found(kId, CheckLevel::kWarn,
               fmt::format("the rate moved from {:.2f}/s in the first third of the intervals to "
                           "{:.2f}/s in the last ({:.0f}%, above {:.0f}%): no steady state",
                           first, last, drift * 100, kSteadyMaxDrift * 100),
               "run longer (--time) or skip the start (--warmup-time)", std::move(figures));
}

}  // namespace loadcell::validity
