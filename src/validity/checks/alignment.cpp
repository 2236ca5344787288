// alignment (docs/validity.md): requests whose size or offsets are not
// multiples of the device's logical block (the kernel refuses them direct,
// or the page cache splits them) or physical block (the device reads a whole
// block to write part of it).

#include <fmt/format.h>

#include "validity/check.h"

namespace loadcell::validity {
namespace {

// The first of the request size and offset granularity that is not a
// multiple of `unit`, as words; "" when both are.
std::string MisalignedPart(const IoTargetFacts& t, uint32_t unit) {
  if (t.block_bytes % unit != 0) return fmt::format("requests of {} bytes", t.block_bytes);
  if (t.offset_align_bytes % unit != 0) {
    return fmt::format("offsets at multiples of {} bytes", t.offset_align_bytes);
  }
  return "";
}

// A block size (and offsets) that is a multiple of `unit`, naming the
// front end's options that set them.
std::string AlignmentAdvice(const CheckInput& in, uint32_t unit) {
  const std::string& options = in.workload.option_names.alignment;
  std::string advice = fmt::format("a block size that is a multiple of {} bytes", unit);
  if (!options.empty()) advice += " (" + options + ")";
  return advice;
}

}  // namespace

std::optional<CheckOutcome> CheckAlignment(const CheckInput& in) {
  constexpr const char* kId = "alignment";
  bool any = false;
  std::vector<CheckFigure> figures;
  for (size_t i = 0; i < in.workload.io.size(); ++i) {
    const IoTargetFacts& t = in.workload.io[i];
    if (t.null_engine || t.block_bytes == 0) continue;
    any = true;
    const TargetEndFacts none;
    const TargetEndFacts& dev = i < in.targets.size() ? in.targets[i] : none;
    if (dev.logical_block_bytes == 0 || dev.physical_block_bytes == 0) {
      return NotChecked(kId, t.dir +
                                 ": the system does not state the block sizes of a device "
                                 "under it");
    }
    figures = {{"block_bytes", static_cast<double>(t.block_bytes)},
               {"offset_align_bytes", static_cast<double>(t.offset_align_bytes)},
               {"logical_block_bytes", static_cast<double>(dev.logical_block_bytes)},
               {"physical_block_bytes", static_cast<double>(dev.physical_block_bytes)}};
    const std::string logical = MisalignedPart(t, dev.logical_block_bytes);
    if (!logical.empty()) {
      return Found(kId, t.direct ? CheckLevel::kInvalid : CheckLevel::kWarn,
                   fmt::format("{} on a device of {}-byte logical blocks: {}", logical,
                               dev.logical_block_bytes,
                               t.direct ? "the device cannot take them as asked"
                                        : "the page cache splits and merges them"),
                   AlignmentAdvice(in, dev.physical_block_bytes), std::move(figures));
    }
    const std::string physical = MisalignedPart(t, dev.physical_block_bytes);
    if (!physical.empty()) {
      return Found(
          kId, CheckLevel::kWarn,
          fmt::format("{} on a device of {}-byte physical blocks: it {} whole blocks", physical,
                      dev.physical_block_bytes, t.writes ? "reads, changes and writes" : "reads"),
          AlignmentAdvice(in, dev.physical_block_bytes), std::move(figures));
    }
  }
  if (!any) return std::nullopt;
  return Passed(kId, std::move(figures));
}

}  // namespace loadcell::validity
