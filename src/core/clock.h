#pragma once
// Monotonic time in nanoseconds. Durations never use wall-clock time.

#include <cstdint>
#include <ctime>
#include <string>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define LOADCELL_HAVE_TSC 1
#else
#define LOADCELL_HAVE_TSC 0
#endif

namespace loadcell {

using Nanos = int64_t;  // a point on CLOCK_MONOTONIC, or a duration
inline constexpr Nanos kNanosPerMicro = 1000;
inline constexpr Nanos kNanosPerMilli = kNanosPerMicro * 1000;
inline constexpr Nanos kNanosPerSecond = kNanosPerMilli * 1000;

// Hot-path read of CLOCK_MONOTONIC (vDSO, no system call on Linux).
inline Nanos MonotonicNow() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<Nanos>(ts.tv_sec) * kNanosPerSecond + ts.tv_nsec;
}

// The event loop's time source. Reading CLOCK_MONOTONIC costs ~25 ns even
// through the vDSO (it reads the TSC and scales it under a sequence lock);
// reading the TSC directly costs ~10 ns. loadcell uses the TSC for timing
// events only where that is as trustworthy as CLOCK_MONOTONIC: the CPU's TSC
// is invariant (constant_tsc and nonstop_tsc) and the kernel itself uses it
// as its clocksource (so it found it synchronised across CPUs). It is then
// calibrated against CLOCK_MONOTONIC once per process. Elsewhere, and with
// --clock=monotonic, events are timed with CLOCK_MONOTONIC.
struct TickSource {
  bool tsc = false;
  double ns_per_tick = 1.0;  // 1 for CLOCK_MONOTONIC (ticks are ns)
  std::string description;   // for the manifest
};

// The TSC-based source when it qualifies (see above), else CLOCK_MONOTONIC.
// The first call calibrates (about 20 ms); thread-safe.
const TickSource& BestTickSource();
const TickSource& MonotonicTickSource();

template <bool kTsc>
inline uint64_t ReadTicks() {
#if LOADCELL_HAVE_TSC
  if constexpr (kTsc) return __rdtsc();
#endif
  return static_cast<uint64_t>(MonotonicNow());
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
