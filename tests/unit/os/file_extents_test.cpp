// The parse of a file's extent map (os/file_extents.h): the unwritten
// extents among FIEMAP's entries, and ranges counted once over a file.

#include "os/file_extents.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace loadcell {
namespace {

TEST(FileExtentsTest, OnlyExtentsFlaggedUnwrittenAreUnwritten) {
  constexpr uint32_t kLast = 0x1;                                              // FIEMAP_EXTENT_LAST
  const std::vector<FiemapEntry> map = {{0, 4096, 0},                          // written
                                        {4096, 8192, kFiemapExtentUnwritten},  // fallocate's
                                        {12288, 0, kFiemapExtentUnwritten},    // empty: nothing
                                        {65536, 4096, kFiemapExtentUnwritten | kLast}};
  const std::vector<ByteRange> r = UnwrittenRangesOf(map);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].offset, 4096u);
  EXPECT_EQ(r[0].length, 8192u);
  EXPECT_EQ(r[1].offset, 65536u);
  EXPECT_EQ(r[1].length, 4096u);
  EXPECT_TRUE(UnwrittenRangesOf({{0, 1 << 20, 0}}).empty());
}

TEST(FileExtentsTest, OverlappingRangesCountOnceWithinTheFile) {
  // A hole inside an unwritten extent, one beside it, one past the end.
  const std::vector<ByteRange> ranges = {{0, 100}, {50, 100}, {300, 50}, {990, 100}, {2000, 10}};
  EXPECT_EQ(CoveredBytes(ranges, 1000), 150u + 50 + 10);
  EXPECT_EQ(CoveredBytes({}, 1000), 0u);
  EXPECT_EQ(CoveredBytes({{0, 1000}}, 0), 0u);
  // In any order; an extent reaching past 2^64 ends at the file's end.
  EXPECT_EQ(CoveredBytes({{500, UINT64_MAX}, {0, 10}}, 1000), 510u);
  EXPECT_EQ(CoveredBytes({{10, 10}, {0, 30}}, 1000), 30u);
}

}  // namespace
}  // namespace loadcell
