// queue-depth (docs/validity.md): the mean in-flight count by Little's law
// (requests per second x mean latency) against the depth asked.

#include <fmt/format.h>

#include "validity/check.h"
#include "validity/thresholds.h"

namespace loadcell::validity {

std::optional<CheckOutcome> CheckQueueDepth(const CheckInput& in) {
  constexpr const char* kId = "queue-depth";
  const IoOptionNames& names = in.workload.option_names;
  bool any = false;
  bool paced = true;  // every target idles between requests by design
  uint64_t asked = 0;
  std::string depth_option;
  for (const IoTargetFacts& t : in.workload.io) {
    if (t.null_engine) continue;
    any = true;
    paced = paced && t.paced;
    if (depth_option.empty()) depth_option = t.depth_option;
    if (t.queue_depth_set && t.queue_depth_asked > 1 && !t.asynchronous) {
      return Found(
          kId, CheckLevel::kWarn,
          fmt::format("{}={} asked of the {} engine, which runs one request at a time "
                      "per thread",
                      t.depth_option, t.queue_depth_asked, t.engine),
          fmt::format("use an asynchronous engine ({}) or more {}", names.async_engines,
                      names.threads),
          {{"queue_depth_asked", static_cast<double>(t.queue_depth_asked)}, {"queue_depth", 1}});
    }
    if (t.buffered_aio && t.queue_depth > 1) {
      return Found(kId, CheckLevel::kWarn,
                   fmt::format("libaio on buffered files at {}={}: the kernel completes "
                               "buffered requests inside the submission, one at a time",
                               t.depth_option, t.queue_depth),
                   fmt::format("add {}, or use another asynchronous engine ({})", names.direct,
                               names.async_engines),
                   {{"queue_depth_asked", static_cast<double>(t.queue_depth)}});
    }
    asked += static_cast<uint64_t>(t.queue_depth) * static_cast<uint64_t>(t.threads);
  }
  if (!any) return std::nullopt;
  const RunResult& r = in.result;
  if (r.latency.empty() || r.events == 0 || r.total_time_s <= 0) {
    return NotChecked(kId, "no request was measured");
  }
  const double mean_latency_s = r.latency[0].histogram.moments().Mean() / 1e9;
  const double in_flight = r.events_per_second * mean_latency_s;
  const double asked_d = static_cast<double>(asked);
  std::vector<CheckFigure> figures = {{"queue_depth_asked", asked_d},
                                      {"mean_in_flight", in_flight},
                                      {"requests_per_second", r.events_per_second},
                                      {"mean_latency_s", mean_latency_s}};
  if (asked <= 1 || in_flight >= kDepthReachedFraction * asked_d) {
    return Passed(kId, std::move(figures));
  }
  if (paced) {
    // Below the ceiling because the workload pauses, not because the
    // client could not submit: stated, not warned.
    CheckOutcome ok = Passed(kId, std::move(figures));
    ok.seen = fmt::format(
        "{:.2f} requests in flight on average of at most {} (threads x depth): the workload "
        "pauses between its requests by design",
        in_flight, asked);
    return ok;
  }
  return Found(kId, CheckLevel::kWarn,
               fmt::format("{:.2f} requests in flight on average ({:.0f}/s x {:.3f} ms, Little's "
                           "law) of the {} asked (threads x depth)",
                           in_flight, r.events_per_second, mean_latency_s * 1e3, asked),
               fmt::format("the client cannot keep the queue full: use fewer {} or a lower {}, "
                           "or find what limits submission",
                           names.threads, depth_option),
               std::move(figures));
}

}  // namespace loadcell::validity
