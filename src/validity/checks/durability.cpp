// durability (docs/validity.md): writes that no flush or write-through made
// durable, and the device's write cache.

#include <fmt/format.h>

#include "validity/check.h"

namespace loadcell::validity {

std::optional<CheckOutcome> CheckDurability(const CheckInput& in) {
  constexpr const char* kId = "durability";
  bool any = false;
  std::string cache;
  for (size_t i = 0; i < in.workload.io.size(); ++i) {
    const IoTargetFacts& t = in.workload.io[i];
    if (t.null_engine || !t.writes) continue;
    any = true;
    const std::string mode = i < in.targets.size() ? in.targets[i].write_cache : "";
    if (!mode.empty()) cache = mode;
    const bool volatile_cache = mode == "write back";
    std::vector<CheckFigure> figures = {{"write_through", t.write_through ? 1.0 : 0.0},
                                        {"periodic_flush", t.periodic_flush ? 1.0 : 0.0},
                                        {"device_write_back", volatile_cache ? 1.0 : 0.0}};
    if (!t.write_through && !t.periodic_flush) {
      return Found(
          kId, CheckLevel::kWarn,
          fmt::format("writes with no flush during the run and no write-through{}: they may "
                      "still be in {} when counted",
                      mode.empty() ? "" : " (device cache: " + mode + ")",
                      t.direct ? "the device's cache" : "the page cache"),
          fmt::format("add {} to measure durable writes",
                      OptionsText({in.workload.option_names.flush_every,
                                   in.workload.option_names.write_through})),
          std::move(figures));
    }
  }
  if (!any) return std::nullopt;
  return Passed(kId, {{"device_write_back", cache == "write back" ? 1.0 : 0.0}});
}

}  // namespace loadcell::validity
