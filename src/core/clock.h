#pragma once
// Monotonic time in nanoseconds. Durations never use wall-clock time.

#include <cstdint>
#include <ctime>

namespace loadcell {

using Nanos = int64_t;  // a point on CLOCK_MONOTONIC, or a duration
inline constexpr Nanos kNanosPerMicro = 1000;
inline constexpr Nanos kNanosPerMilli = 1000 * 1000;
inline constexpr Nanos kNanosPerSecond = 1000 * 1000 * 1000;

// Hot-path read of CLOCK_MONOTONIC (vDSO, no system call on Linux).
inline Nanos MonotonicNow() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<Nanos>(ts.tv_sec) * kNanosPerSecond + ts.tv_nsec;
}

// The clock seam for code whose arithmetic is tested with a fake clock
// (interval scheduling, rate limiting). Implementations are thread-safe.
class Clock {
 public:
  virtual ~Clock() = default;
  virtual Nanos Now() const = 0;
  // Blocks until Now() >= deadline. Returns at once for a past deadline.
  virtual void SleepUntil(Nanos deadline) = 0;
};

// The process-wide monotonic clock.
Clock& SystemClock();

// A clock that only moves when told to; SleepUntil jumps to the deadline.
class FakeClock final : public Clock {
 public:
  explicit FakeClock(Nanos start = 0) : now_(start) {}
  Nanos Now() const override { return now_; }
  void SleepUntil(Nanos deadline) override {
    if (deadline > now_) now_ = deadline;
  }
  void Advance(Nanos d) { now_ += d; }

 private:
  Nanos now_;
};

}  // namespace loadcell
