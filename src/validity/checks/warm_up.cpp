// warm-up (docs/validity.md): a first interval far above (or below) the
// rest: the start, not the steady load, is in the figures.

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "validity/check.h"
#include "validity/thresholds.h"

namespace loadcell::validity {

std::optional<CheckOutcome> CheckWarmUp(const CheckInput& in) {
  constexpr const char* kId = "warm-up";
  const std::vector<IntervalSnapshot>& iv = in.result.intervals;
  if (in.report_interval_s <= 0 || iv.size() < static_cast<size_t>(kWarmUpMinIntervals)) {
    return std::nullopt;  // steady-state says why nothing is compared
  }
  std::vector<double> rest;
  for (size_t i = 1; i < iv.size(); ++i) rest.push_back(iv[i].events_per_second);
  std::nth_element(rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(rest.size() / 2),
                   rest.end());
  const double median = rest[rest.size() / 2];
  const double first = iv[0].events_per_second;
  const double ratio = median > 0 ? first / median : 1;
  std::vector<CheckFigure> figures = {{"first_interval_events_per_second", first},
                                      {"median_of_the_rest_events_per_second", median},
                                      {"ratio", ratio}};
  if (ratio <= kWarmUpMaxRatio && ratio >= 1 / kWarmUpMaxRatio) {
    return Passed(kId, std::move(figures));
  }
  return Found(
      kId, CheckLevel::kWarn,
      fmt::format("the first interval ran at {:.2f}/s, {:.2f}x the median of the others "
                  "({:.2f}/s): the start is in the figures",
                  first, ratio, median),
      fmt::format("add {} (at least {}s)",
                  in.workload.option_names.warm_up.empty() ? std::string("a warm-up")
                                                           : in.workload.option_names.warm_up,
                  in.report_interval_s),
      std::move(figures));
}

}  // namespace loadcell::validity
