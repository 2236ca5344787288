// write-data (docs/validity.md): zeros, a repeating sequence, or data a
// workload made compressible or repeated on purpose (fio's
// buffer_compress_percentage, dedupe_percentage, buffer_pattern) let
// compressing or deduplicating storage skip the work.

#include <fmt/format.h>

#include <algorithm>

#include "validity/check.h"
#include "validity/thresholds.h"

namespace loadcell::validity {

std::optional<CheckOutcome> CheckWriteData(const CheckInput& in) {
  constexpr const char* kId = "write-data";
  bool any = false;
  bool estimated = false;
  double compressible = 0;
  double duplicate = 0;
  for (const IoTargetFacts& t : in.workload.io) {
    if (t.null_engine || !t.writes) continue;
    any = true;
    if (t.write_compressible_fraction >= 0 || t.write_duplicate_fraction >= 0) {
      estimated = true;
      compressible = std::max(compressible, t.write_compressible_fraction);
      duplicate = std::max(duplicate, t.write_duplicate_fraction);
      continue;
    }
    if (t.write_pattern == "zero" || t.write_pattern == "sequence") {
      return Found(kId, CheckLevel::kWarn,
                   fmt::format("writes of {} data: storage that compresses or deduplicates "
                               "stores almost nothing",
                               t.write_pattern == "zero" ? "all-zero" : "sequence"),
                   "use --file-write-pattern=random (the default)", {{"compressible", 1}});
    }
  }
  if (!any) return std::nullopt;
  if (!estimated) return Passed(kId, {{"compressible", 0}});
  if (compressible >= kWriteDataRepeatedFraction || duplicate >= kWriteDataRepeatedFraction) {
    return Found(kId, CheckLevel::kWarn,
                 fmt::format("about {:.0f}% of the data written is repeated within its blocks and "
                             "{:.0f}% of the blocks repeat earlier ones: storage that compresses "
                             "or deduplicates does not store it",
                             compressible * 100, duplicate * 100),
                 "write random data (fio: no zero_buffers, buffer_pattern, "
                 "buffer_compress_percentage or dedupe_percentage) unless that storage's "
                 "savings are what is measured",
                 {{"compressible", compressible}, {"duplicate", duplicate}});
  }
  return Passed(kId, {{"compressible", compressible}, {"duplicate", duplicate}});
}

}  // namespace loadcell::validity
