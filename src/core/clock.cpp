#include "core/clock.h"

#include <cerrno>
#include <sstream>
#include <string>

#include "core/clock_platform.h"

namespace loadcell {
namespace {

class MonotonicClock final : public Clock {
 public:
  Nanos Now() const override { return MonotonicNow(); }
  void SleepUntil(Nanos deadline) override {
    timespec ts;
    ts.tv_sec = deadline / kNanosPerSecond;
    ts.tv_nsec = deadline % kNanosPerSecond;
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
    }
  }
};

TickSource MakeBest() {
  TickSource src;
  src.description = MonotonicClockName();
#if LOADCELL_HAVE_TSC
  if (!SystemTimesWithTsc()) return src;
  // Calibrate over ~20 ms, bracketing each TSC read by two clock reads.
  auto pair = []() {
    Nanos a = MonotonicNow();
    uint64_t t = __rdtsc();
    Nanos b = MonotonicNow();
    return std::pair<double, uint64_t>((static_cast<double>(a) + static_cast<double>(b)) / 2, t);
  };
  auto p0 = pair();
  timespec ts{0, 20 * kNanosPerMilli};
  while (nanosleep(&ts, &ts) == -1 && errno == EINTR) {
  }
  auto p1 = pair();
  if (p1.second <= p0.second) return src;
  double ns_per_tick = (p1.first - p0.first) / static_cast<double>(p1.second - p0.second);
  if (!(ns_per_tick > 0.01 && ns_per_tick < 10)) return src;
  src.tsc = true;
  src.ns_per_tick = ns_per_tick;
  std::ostringstream d;
  d.precision(4);
  d << "TSC (invariant, kernel clocksource; " << std::fixed << 1.0 / ns_per_tick
    << " GHz, calibrated against " << MonotonicClockName() << ")";
  src.description = d.str();
#endif
  return src;
}

}  // namespace

const TickSource& BestTickSource() {
  static const TickSource kSource = MakeBest();
  return kSource;
}

const TickSource& MonotonicTickSource() {
  static const TickSource kSource = [] {
    TickSource s;
    s.description = MonotonicClockName();
    return s;
  }();
  return kSource;
}

Clock& SystemClock() {
  static MonotonicClock clock;
  return clock;
}

}  // namespace loadcell
