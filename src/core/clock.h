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

// CLOCK_MONOTONIC for one thread's hot path, read from the TSC when `src`
// is the TSC (BestTickSource: about 10 ns a read rather than 25), else with
// MonotonicNow(). Its values are on MonotonicNow()'s timeline: after every
// 10 ms of ticks (kAnchorNanos) it reads CLOCK_MONOTONIC again and counts on
// from there, so the calibration's error adds up over 10 ms at most (tens of
// ns for a calibration good to a few parts per million), never over a whole
// run; its values never go backwards. Not thread-safe: one per thread.
class ThreadMonotonic {
 public:
  explicit ThreadMonotonic(const TickSource& src)
      : tsc_(src.tsc),
        ns_per_tick_(src.ns_per_tick),
        anchor_ticks_(static_cast<uint64_t>(static_cast<double>(kAnchorNanos) / ns_per_tick_)) {
    if (tsc_) Anchor(ReadTicks<true>());
  }
  Nanos Now() {
    if (!tsc_) return MonotonicNow();
    const uint64_t t = ReadTicks<true>();
    if (t < base_ticks_ || t - base_ticks_ >= anchor_ticks_) [[unlikely]] {
      Anchor(t);
      return last_;
    }
    const double ns = static_cast<double>(t - base_ticks_) * ns_per_tick_;
    // NOLINTNEXTLINE(bugprone-incorrect-roundings): rounding to nearest, ns >= 0
    const Nanos v = base_ns_ + static_cast<Nanos>(ns + 0.5);
    if (v > last_) last_ = v;
    return last_;
  }

 private:
  static constexpr Nanos kAnchorNanos = 10 * kNanosPerMilli;
  void Anchor(uint64_t t) {
    base_ticks_ = t;
    base_ns_ = MonotonicNow();
    if (base_ns_ > last_) last_ = base_ns_;
  }
  bool tsc_ = false;
  double ns_per_tick_ = 1.0;
  uint64_t anchor_ticks_ = 0;
  uint64_t base_ticks_ = 0;
  Nanos base_ns_ = 0;
  Nanos last_ = 0;
};

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
