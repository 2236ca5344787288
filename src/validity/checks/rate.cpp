// rate (docs/validity.md): under --rate, the rate achieved against the one
// asked, and how late the events started.

#include <fmt/format.h>

#include "validity/check.h"
#include "validity/thresholds.h"

namespace loadcell::validity {

namespace {

// A rate the workload kept to by its front end's own option (fio's
// rate_iops, DiskSpd's -g), in that option's unit; its lateness is not
// counted.
std::optional<CheckOutcome> CheckOwnRate(const CheckInput& in) {
  constexpr const char* kId = "rate";
  const OwnRateFacts& own = in.workload.own_rate;
  if (own.option.empty() || own.target <= 0) return std::nullopt;
  std::vector<CheckFigure> figures = {{"rate_asked", own.target}, {"rate_achieved", own.achieved}};
  const double floor = own.minimum ? own.target : kRateKeptFraction * own.target;
  if (own.achieved < floor) {
    return Found(kId, CheckLevel::kInvalid,
                 fmt::format("{:.2f} {} achieved of the {:.2f} asked by {} ({:.0f}%): the system "
                             "could not keep the rate",
                             own.achieved, own.unit, own.target, own.option,
                             own.achieved / own.target * 100),
                 fmt::format("ask a lower {}, or a deeper queue ({})", own.option,
                             in.workload.option_names.deeper_queue),
                 std::move(figures));
  }
  return Passed(kId, std::move(figures));
}

}  // namespace

std::optional<CheckOutcome> CheckRate(const CheckInput& in) {
  constexpr const char* kId = "rate";
  const RunResult& r = in.result;
  if (!r.rate.has_value() || r.rate->target <= 0) return CheckOwnRate(in);
  const RateFigures& rf = *r.rate;
  const double median_ms =
      r.latency.empty() ? 0 : static_cast<double>(r.latency[0].histogram.Percentile(50)) / 1e6;
  const double late =
      r.events > 0 ? static_cast<double>(rf.late_events) / static_cast<double>(r.events) : 0;
  std::vector<CheckFigure> figures = {{"rate_asked", rf.target},
                                      {"rate_achieved", rf.achieved},
                                      {"late_fraction", late},
                                      {"max_lag_ms", rf.max_lag_ms},
                                      {"latency_median_ms", median_ms}};
  if (rf.achieved < kRateKeptFraction * rf.target) {
    return Found(kId, CheckLevel::kInvalid,
                 fmt::format("{:.2f} events/s achieved of the {:.2f} asked ({:.0f}%): the "
                             "system could not keep the rate",
                             rf.achieved, rf.target, rf.achieved / rf.target * 100),
                 "ask a lower --rate, or give it more --threads", std::move(figures));
  }
  if (late > kLateEventsFraction && rf.max_lag_ms > median_ms) {
    return Found(kId, CheckLevel::kWarn,
                 fmt::format("{:.1f}% of the events started more than 1 ms late, up to {:.3f} ms "
                             "(above the latency median, {:.3f} ms)",
                             late * 100, rf.max_lag_ms, median_ms),
                 "give the rate more --threads, or ask a lower --rate", std::move(figures));
  }
  return Passed(kId, std::move(figures));
}

}  // namespace loadcell::validity
