#pragma once
// The event clock as a std::chrono clock, for limits checked on a hot path.

#include <chrono>
#include <cstdint>

#include "core/clock.h"

namespace loadcell {

// The event clock (BestTickSource: the TSC where it qualifies, ~10 ns a
// read, else CLOCK_MONOTONIC) in nanoseconds, as a std::chrono clock on a
// timeline of its own: for limits checked on a hot path (a reply's
// deadline, twice a query), where two reads of CLOCK_MONOTONIC through the
// C library were measurable in a client's user CPU. Compare its points only
// with each other. The first call may calibrate the TSC (BestTickSource).
struct TickSteadyClock {
  using rep = int64_t;
  using period = std::nano;
  using duration = std::chrono::nanoseconds;
  using time_point = std::chrono::time_point<TickSteadyClock>;
  static constexpr bool is_steady = true;
  static time_point now() noexcept {
    static const TickSource& source = BestTickSource();  // looked up once
    if (source.tsc) {
      return time_point(duration(
          static_cast<int64_t>(static_cast<double>(ReadTicks<true>()) * source.ns_per_tick)));
    }
    return time_point(duration(MonotonicNow()));
  }
};

}  // namespace loadcell
