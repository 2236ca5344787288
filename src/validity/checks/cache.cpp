// cache (docs/validity.md): buffered reads over a file set the page cache
// can hold measure memory, not the device.

#include <fmt/format.h>

#include <algorithm>

#include "validity/check.h"
#include "validity/thresholds.h"

namespace loadcell::validity {

std::optional<CheckOutcome> CheckCache(const CheckInput& in) {
  constexpr const char* kId = "cache";
  uint64_t buffered_read_bytes = 0;
  bool any = false;
  bool direct = false;
  for (const IoTargetFacts& t : in.workload.io) {
    if (t.null_engine || !t.reads) continue;
    direct = direct || t.direct;
    if (t.direct) continue;
    any = true;
    buffered_read_bytes += t.file_set_bytes;
  }
  if (!any && direct) {
    // Stated: what sets this run apart from a buffered one of the same files.
    CheckOutcome ok = Passed(kId, {{"direct", 1}});
    ok.seen = "direct I/O: the reads bypass the page cache";
    return ok;
  }
  if (!any) return std::nullopt;
  uint64_t memory = in.host.memory_bytes;
  if (in.host.cgroup_limit_bytes > 0) memory = std::min(memory, in.host.cgroup_limit_bytes);
  if (memory == 0) return NotChecked(kId, "the system does not say how much memory it has");
  const double multiple = static_cast<double>(buffered_read_bytes) / static_cast<double>(memory);
  std::vector<CheckFigure> figures = {{"file_set_bytes", static_cast<double>(buffered_read_bytes)},
                                      {"memory_bytes", static_cast<double>(memory)},
                                      {"file_set_to_memory", multiple}};
  if (multiple >= kCacheWarnMultiple) return Passed(kId, std::move(figures));
  const char* where = in.host.cgroup_limit_bytes > 0 && in.host.cgroup_limit_bytes == memory
                          ? "the cgroup's memory limit"
                          : "memory";
  const CheckLevel level =
      multiple <= kCacheInvalidMultiple ? CheckLevel::kInvalid : CheckLevel::kWarn;
  return Found(
      kId, level,
      fmt::format("buffered reads over {} of files, {:.2f}x {} ({}): the page cache "
                  "may serve them, not the device",
                  BytesText(buffered_read_bytes), multiple, where, BytesText(memory)),
      fmt::format("use {}, or a {} of at least {:.0f}x {}", in.workload.option_names.direct,
                  in.workload.option_names.file_set_size, kCacheWarnMultiple, where),
      std::move(figures));
}

}  // namespace loadcell::validity
