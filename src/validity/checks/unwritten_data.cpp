// unwritten-data (docs/validity.md): reads of holes (ranges with no storage
// allocated) return zeros without touching the device.

#include <fmt/format.h>

#include "validity/check.h"

namespace loadcell::validity {

std::optional<CheckOutcome> CheckUnwrittenData(const CheckInput& in) {
  constexpr const char* kId = "unwritten-data";
  uint64_t holes = 0;
  uint64_t bytes = 0;
  bool any = false;
  for (size_t i = 0; i < in.workload.io.size(); ++i) {
    const IoTargetFacts& t = in.workload.io[i];
    if (t.null_engine || !t.reads) continue;
    any = true;
    if (i >= in.targets.size()) return NotChecked(kId, "the files' allocation was not read");
    if (!in.targets[i].holes_unknown.empty()) return NotChecked(kId, in.targets[i].holes_unknown);
    holes += in.targets[i].hole_bytes;
    bytes += t.file_set_bytes;
  }
  if (!any) return std::nullopt;
  std::vector<CheckFigure> figures = {{"hole_bytes", static_cast<double>(holes)},
                                      {"file_set_bytes", static_cast<double>(bytes)}};
  if (holes == 0) return Passed(kId, std::move(figures));
  return Found(kId, CheckLevel::kInvalid,
               fmt::format("{} of the {} read lie in holes (never written): those reads "
                           "return zeros without touching the device",
                           BytesText(holes), BytesText(bytes)),
               "write the files first (loadcell fileio prepare, or --file-test-mode=seqwr) "
               "instead of --file-use-existing on sparse files",
               std::move(figures));
}

}  // namespace loadcell::validity
