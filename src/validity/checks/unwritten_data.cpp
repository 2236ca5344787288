// unwritten-data (docs/validity.md): reads of holes (ranges with no storage
// allocated) and of unwritten extents (allocated and never written, as
// fallocate leaves them) return zeros without touching the device.

#include <fmt/format.h>

#include <algorithm>

#include "validity/check.h"

namespace loadcell::validity {

std::optional<CheckOutcome> CheckUnwrittenData(const CheckInput& in) {
  constexpr const char* kId = "unwritten-data";
  uint64_t holes = 0;
  uint64_t unwritten = 0;
  uint64_t never = 0;  // in either, counted once
  uint64_t bytes = 0;
  std::string unwritten_unknown;
  bool any = false;
  for (size_t i = 0; i < in.workload.io.size(); ++i) {
    const IoTargetFacts& t = in.workload.io[i];
    if (t.null_engine || !t.reads) continue;
    any = true;
    if (i >= in.targets.size()) return NotChecked(kId, "the files' allocation was not read");
    const TargetEndFacts& f = in.targets[i];
    if (!f.holes_unknown.empty()) return NotChecked(kId, f.holes_unknown);
    holes += f.hole_bytes;
    unwritten += f.unwritten_bytes;
    // The union holds the holes at least.
    never += std::max(f.never_written_bytes, f.hole_bytes);
    if (unwritten_unknown.empty()) unwritten_unknown = f.unwritten_unknown;
    bytes += t.file_set_bytes;
  }
  if (!any) return std::nullopt;
  std::vector<CheckFigure> figures = {{"hole_bytes", static_cast<double>(holes)},
                                      {"file_set_bytes", static_cast<double>(bytes)}};
  if (unwritten_unknown.empty()) {
    figures.push_back({"unwritten_bytes", static_cast<double>(unwritten)});
    figures.push_back({"never_written_bytes", static_cast<double>(never)});
  }
  if (never == 0) {
    CheckOutcome ok = Passed(kId, std::move(figures));
    // Holes alone were looked for: say what was not.
    if (!unwritten_unknown.empty())
      ok.seen = "no hole; unwritten extents not read: " + unwritten_unknown;
    return ok;
  }
  const std::string advice =
      fmt::format("write the files first ({}) instead of reading {}",
                  in.workload.option_names.write_first, in.workload.option_names.unwritten_source);
  if (unwritten == 0) {
    return Found(kId, CheckLevel::kInvalid,
                 fmt::format("{} of the {} read lie in holes (never written): those reads "
                             "return zeros without touching the device",
                             BytesText(holes), BytesText(bytes)),
                 advice, std::move(figures));
  }
  return Found(
      kId, CheckLevel::kInvalid,
      fmt::format("{} of the {} read were never written: {} in unwritten extents "
                  "(allocated, as by fallocate, never written), {} reported as holes; "
                  "those reads return zeros without touching the device",
                  BytesText(never), BytesText(bytes), BytesText(unwritten), BytesText(holes)),
      advice, std::move(figures));
}

}  // namespace loadcell::validity
