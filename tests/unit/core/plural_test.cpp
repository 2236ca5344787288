#include "core/plural.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <limits>

namespace loadcell {
namespace {

TEST(CountOf, OneTakesTheSingular) {
  EXPECT_EQ(CountOf(1, "file", "files"), "1 file");
  EXPECT_EQ(CountOf(uint64_t{1}, "thread", "threads"), "1 thread");
}

TEST(CountOf, ZeroAndManyTakeThePlural) {
  EXPECT_EQ(CountOf(0, "file", "files"), "0 files");
  EXPECT_EQ(CountOf(3, "file", "files"), "3 files");
  EXPECT_EQ(CountOf(size_t{2}, "point", "points"), "2 points");
}

TEST(CountOf, NegativeCountsArePrintedAsTheyAre) {
  // -1 is not 1: the plural, and the sign is kept rather than wrapped.
  EXPECT_EQ(CountOf(int64_t{-1}, "row", "rows"), "-1 rows");
}

TEST(CountOf, LargestCountsAreNotTruncated) {
  EXPECT_EQ(CountOf(std::numeric_limits<uint64_t>::max(), "byte", "bytes"),
            "18446744073709551615 bytes");
}

TEST(CountOf, MultiWordAndIrregularNouns) {
  EXPECT_EQ(CountOf(1, "delete + insert", "delete + inserts"), "1 delete + insert");
  EXPECT_EQ(CountOf(2, "index", "indexes"), "2 indexes");
}

}  // namespace
}  // namespace loadcell
