// ThreadCpuNs: the calling thread's CPU time moves forward while it computes
// (clock_gettime on Linux, GetThreadTimes on Windows).

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>

#include "os/thread.h"

namespace loadcell {
namespace {

TEST(ThreadCpuTest, GrowsWhileTheThreadComputes) {
  const uint64_t start = ThreadCpuNs();
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  volatile uint64_t sink = 0;
  uint64_t now = start;
  // Windows counts thread time in scheduler ticks (about 15.6 ms): compute
  // until the figure moves, or give up after 10 s of wall time.
  while (now <= start && std::chrono::steady_clock::now() < give_up) {
    for (int i = 0; i < 100000; ++i) sink = sink + static_cast<uint64_t>(i);
    now = ThreadCpuNs();
  }
  EXPECT_GT(now, start);
  EXPECT_LT(now - start, uint64_t{60} * 1000000000);  // never a wild value
}

}  // namespace
}  // namespace loadcell
