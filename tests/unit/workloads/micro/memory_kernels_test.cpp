#include "workloads/micro/memory_kernels.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace loadcell {
namespace {

// Word counts around every vector width and unroll step, with a tail.
constexpr size_t kCounts[] = {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 33, 64, 65, 1000, 4099};

TEST(MemoryKernels, BaselineIsAlwaysThereAndBestIsTheWidest) {
  const std::vector<MemoryKernels> all = SupportedMemoryKernels();
  ASSERT_FALSE(all.empty());
  for (size_t i = 1; i < all.size(); ++i) EXPECT_GT(all[i].vector_bytes, all[i - 1].vector_bytes);
  EXPECT_EQ(std::string(BestMemoryKernels().name), all.back().name);
}

TEST(MemoryKernels, EveryWriteStoresTheValueInEveryWordAndNoOther) {
  for (const MemoryKernels& k : SupportedMemoryKernels()) {
    for (size_t n : kCounts) {
      // One guard word on each side, at an odd word offset (not vector aligned).
      std::vector<uint64_t> buf(n + 3, 7);
      const uint64_t value = 0x0123456789abcdefULL + n;
      k.write(buf.data() + 1, n, value);
      EXPECT_EQ(buf[0], 7u) << k.name << " n=" << n;
      EXPECT_EQ(buf[n + 1], 7u) << k.name << " n=" << n;
      for (size_t i = 1; i <= n; ++i)
        ASSERT_EQ(buf[i], value) << k.name << " n=" << n << " i=" << i;
    }
  }
}

TEST(MemoryKernels, EveryReadIsTheXorOfEveryWordAndNoOther) {
  for (const MemoryKernels& k : SupportedMemoryKernels()) {
    for (size_t n : kCounts) {
      std::vector<uint64_t> buf(n + 2, 0xffffULL);  // guards outside the range
      uint64_t want = 0;
      for (size_t i = 1; i <= n; ++i) {
        buf[i] = (i * 0x9e3779b97f4a7c15ULL) ^ (i << 7);
        want ^= buf[i];
      }
      EXPECT_EQ(k.read(buf.data() + 1, n), want) << k.name << " n=" << n;
    }
  }
}

}  // namespace
}  // namespace loadcell
