#pragma once
// A cheap monotonic clock of a few milliseconds' resolution, as a
// std::chrono clock: for limits of milliseconds or more checked on a hot
// path (a reply's deadline, twice a query).

#include <chrono>
#include <cstdint>

#include "core/clock.h"

namespace loadcell {

// The time the kernel last noted at its tick (CLOCK_MONOTONIC_COARSE: a read
// of memory through the vDSO, no TSC read, on CLOCK_MONOTONIC's timeline to
// within its resolution of 1-4 ms; on Windows GetTickCount64, 10-16 ms). A
// reply's deadline read CLOCK_MONOTONIC, then the TSC, twice a query: both
// read the TSC, which in a virtual machine costs enough to show in a
// client's user CPU per query. Compare its points only with each other.
Nanos CoarseMonotonicNow();

struct CoarseSteadyClock {
  using rep = int64_t;
  using period = std::nano;
  using duration = std::chrono::nanoseconds;
  using time_point = std::chrono::time_point<CoarseSteadyClock>;
  static constexpr bool is_steady = true;
  static time_point now() noexcept { return time_point(duration(CoarseMonotonicNow())); }
};

}  // namespace loadcell
