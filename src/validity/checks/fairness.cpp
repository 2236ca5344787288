// fairness (docs/validity.md): worker threads that did far fewer events
// than the others; the total then hides a thread that waited (for a lock,
// a CPU, a slow file) while the others ran.

#include <fmt/format.h>

#include "validity/check.h"
#include "validity/thresholds.h"

namespace loadcell::validity {

std::optional<CheckOutcome> CheckFairness(const CheckInput& in) {
  constexpr const char* kId = "fairness";
  const RunResult& r = in.result;
  if (r.threads.size() < 2 || r.events == 0) return std::nullopt;
  const Extremes& e = r.fairness.events_extremes;
  const MeanStd& m = r.fairness.events;
  const double shortfall = m.mean > 0 ? (m.mean - e.min) / m.mean : 0;
  std::vector<CheckFigure> figures = {{"threads", static_cast<double>(r.threads.size())},
                                      {"events_mean", m.mean},
                                      {"events_stddev", m.stddev},
                                      {"events_min", e.min},
                                      {"events_max", e.max},
                                      {"min_below_mean", shortfall}};
  if (shortfall <= kFairnessMaxShortfall) return Passed(kId, std::move(figures));
  return Found(kId, CheckLevel::kWarn,
               fmt::format("the slowest of {} threads did {:.0f} events, {:.0f}% below their mean "
                           "of {:.1f} (the busiest: {:.0f}): the threads did not share the work",
                           r.threads.size(), e.min, shortfall * 100, m.mean, e.max),
               "fewer --threads than the CPUs the run may use, or find what the slowest thread "
               "waited for (a lock, a file, a CPU shared with another process)",
               std::move(figures));
}

}  // namespace loadcell::validity
