#include "core/clock.h"

#include <cerrno>

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

}  // namespace

Clock& SystemClock() {
  static MonotonicClock clock;
  return clock;
}

}  // namespace loadcell
