// ThreadMonotonic: a hot path's CLOCK_MONOTONIC, read from the TSC where the
// run's clock is the TSC. Its values must never go backwards and must stay
// on MonotonicNow()'s timeline (the I/O logs and rate schedules compare
// them with it), across its re-anchoring every ~10 ms.

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "core/clock.h"

namespace loadcell {
namespace {

class ThreadMonotonicTest : public ::testing::TestWithParam<bool> {
 protected:
  const TickSource& Source() const { return GetParam() ? BestTickSource() : MonotonicTickSource(); }
};

TEST_P(ThreadMonotonicTest, NeverRunsBackwards) {
  ThreadMonotonic clock(Source());
  Nanos last = clock.Now();
  for (int i = 0; i < 200000; ++i) {
    const Nanos now = clock.Now();
    ASSERT_GE(now, last) << "read " << i;
    last = now;
  }
}

// Each read lies between two reads of CLOCK_MONOTONIC around it, give or
// take the calibration's error over one anchoring span (generously 1 ms
// here: a loaded machine calibrates worse), also after several spans.
TEST_P(ThreadMonotonicTest, StaysOnTheMonotonicTimelineAcrossAnchors) {
  ThreadMonotonic clock(Source());
  constexpr Nanos kTolerance = kNanosPerMilli;
  const Nanos start = MonotonicNow();
  while (MonotonicNow() - start < 45 * kNanosPerMilli) {
    const Nanos before = MonotonicNow();
    const Nanos now = clock.Now();
    const Nanos after = MonotonicNow();
    ASSERT_GE(now, before - kTolerance) << Source().description;
    ASSERT_LE(now, after + kTolerance) << Source().description;
    std::this_thread::sleep_for(std::chrono::milliseconds(3));
  }
}

INSTANTIATE_TEST_SUITE_P(Sources, ThreadMonotonicTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& p) {
                           return std::string(p.param ? "Best" : "Monotonic");
                         });

}  // namespace
}  // namespace loadcell
