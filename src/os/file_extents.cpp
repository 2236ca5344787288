#include "os/file_extents.h"

#include <algorithm>

namespace loadcell {

uint64_t CoveredBytes(std::vector<ByteRange> ranges, uint64_t size) {
  std::sort(ranges.begin(), ranges.end(),
            [](const ByteRange& a, const ByteRange& b) { return a.offset < b.offset; });
  uint64_t covered = 0;
  uint64_t reached = 0;  // the end of what is counted so far
  for (const ByteRange& r : ranges) {
    if (r.offset >= size) continue;
    const uint64_t begin = std::max(r.offset, reached);
    const uint64_t end = r.offset + std::min(r.length, size - r.offset);  // never past `size`
    if (end <= begin) continue;
    covered += end - begin;
    reached = end;
  }
  return covered;
}

std::vector<ByteRange> UnwrittenRangesOf(const std::vector<FiemapEntry>& extents) {
  std::vector<ByteRange> out;
  for (const FiemapEntry& e : extents) {
    if ((e.flags & kFiemapExtentUnwritten) != 0 && e.length > 0) {
      out.push_back({e.logical, e.length});
    }
  }
  return out;
}

}  // namespace loadcell
