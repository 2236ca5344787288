// memory-cache (docs/validity.md): a memory test whose block fits in the
// CPU's L2 cache measures the cache, not RAM (the warning the test prints
// before the run, in the verdict).

#include <fmt/format.h>

#include "validity/check.h"

namespace loadcell::validity {

std::optional<CheckOutcome> CheckMemoryCache(const CheckInput& in) {
  constexpr const char* kId = "memory-cache";
  const WorkloadFacts& w = in.workload;
  if (w.memory_block_bytes == 0) return std::nullopt;
  if (w.l2_cache_bytes == 0) return NotChecked(kId, "the system does not say the L2 cache's size");
  std::vector<CheckFigure> figures = {{"block_bytes", static_cast<double>(w.memory_block_bytes)},
                                      {"l2_cache_bytes", static_cast<double>(w.l2_cache_bytes)}};
  if (w.memory_block_bytes > w.l2_cache_bytes) return Passed(kId, std::move(figures));
  return Found(kId, CheckLevel::kWarn,
               fmt::format("--memory-block-size={} fits in the CPU's L2 cache ({}): this "
                           "measures cache bandwidth, not RAM",
                           BytesText(w.memory_block_bytes), BytesText(w.l2_cache_bytes)),
               "use a --memory-block-size larger than the last-level cache (e.g. 1G)",
               std::move(figures));
}

}  // namespace loadcell::validity
