// CoarseSteadyClock: the reply deadlines' clock: it never runs backwards and
// keeps time with CLOCK_MONOTONIC to within its resolution over a span a
// deadline cares about.

#include "core/coarse_clock.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace loadcell {
namespace {

TEST(CoarseSteadyClock, NeverRunsBackwards) {
  CoarseSteadyClock::time_point last = CoarseSteadyClock::now();
  for (int i = 0; i < 100000; ++i) {
    const CoarseSteadyClock::time_point now = CoarseSteadyClock::now();
    ASSERT_GE(now, last) << "read " << i;
    last = now;
  }
}

TEST(CoarseSteadyClock, KeepsTimeWithTheMonotonicClockToWithinItsResolution) {
  const Nanos mono_start = MonotonicNow();
  const auto start = CoarseSteadyClock::now();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const auto end = CoarseSteadyClock::now();
  const auto mono_elapsed = std::chrono::nanoseconds(MonotonicNow() - mono_start);
  const auto elapsed = end - start;
  // Its resolution is the kernel's tick (1-4 ms; Windows' 10-16 ms), each
  // end may lag by that much; a deadline of seconds cares about less than a
  // few ticks.
  EXPECT_LT(std::chrono::abs(elapsed - mono_elapsed), std::chrono::milliseconds(35))
      << "monotonic " << mono_elapsed.count() << " ns, coarse clock " << elapsed.count() << " ns";
  EXPECT_GE(elapsed, std::chrono::milliseconds(160));
}

}  // namespace
}  // namespace loadcell
