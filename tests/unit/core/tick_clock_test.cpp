// TickSteadyClock: the event clock as a std::chrono clock (the reply
// deadlines' clock): it never runs backwards and keeps time with
// CLOCK_MONOTONIC over a span a deadline cares about.

#include "core/tick_clock.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace loadcell {
namespace {

TEST(TickSteadyClock, NeverRunsBackwards) {
  TickSteadyClock::time_point last = TickSteadyClock::now();
  for (int i = 0; i < 100000; ++i) {
    const TickSteadyClock::time_point now = TickSteadyClock::now();
    ASSERT_GE(now, last) << "read " << i;
    last = now;
  }
}

// A reading of both clocks at one moment: CLOCK_MONOTONIC between two reads
// of the tick clock that lie close together (a preemption between them, on
// a loaded machine, is tried again).
struct BothClocks {
  Nanos mono = 0;
  TickSteadyClock::time_point tick{};
};
BothClocks ReadBoth() {
  BothClocks best;
  auto best_gap = std::chrono::nanoseconds::max();
  for (int i = 0; i < 20; ++i) {
    const auto a = TickSteadyClock::now();
    const Nanos mono = MonotonicNow();
    const auto b = TickSteadyClock::now();
    if (b - a < best_gap) {
      best_gap = b - a;
      best = {mono, a + (b - a) / 2};
    }
  }
  return best;
}

TEST(TickSteadyClock, KeepsTimeWithTheMonotonicClock) {
  const BothClocks start = ReadBoth();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const BothClocks end = ReadBoth();
  const auto mono_elapsed = std::chrono::nanoseconds(end.mono - start.mono);
  const auto elapsed = end.tick - start.tick;
  // The TSC's calibration is good to far better than 1%; a deadline of
  // seconds cares about milliseconds.
  EXPECT_LT(std::chrono::abs(mono_elapsed - elapsed), std::chrono::milliseconds(2))
      << "monotonic " << mono_elapsed.count() << " ns, tick clock " << elapsed.count() << " ns";
  EXPECT_GE(elapsed, std::chrono::milliseconds(199));
}

}  // namespace
}  // namespace loadcell
