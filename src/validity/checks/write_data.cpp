// write-data (docs/validity.md): zeros or a repeating sequence let
// compressing or deduplicating storage skip the work.

#include <fmt/format.h>

#include "validity/check.h"

namespace loadcell::validity {

std::optional<CheckOutcome> CheckWriteData(const CheckInput& in) {
  constexpr const char* kId = "write-data";
  bool any = false;
  for (const IoTargetFacts& t : in.workload.io) {
    if (t.null_engine || !t.writes) continue;
    any = true;
    if (t.write_pattern == "zero" || t.write_pattern == "sequence") {
      return Found(kId, CheckLevel::kWarn,
                   fmt::format("writes of {} data: storage that compresses or deduplicates "
                               "stores almost nothing",
                               t.write_pattern == "zero" ? "all-zero" : "sequence"),
                   "use --file-write-pattern=random (the default)", {{"compressible", 1}});
    }
  }
  if (!any) return std::nullopt;
  return Passed(kId, {{"compressible", 0}});
}

}  // namespace loadcell::validity
