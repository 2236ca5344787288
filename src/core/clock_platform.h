#pragma once
// Internal to core/clock.cpp: what the platform says about its clocks. One
// implementation per platform (clock_posix.cpp, clock_win32.cpp).

namespace loadcell {

// The name of the clock MonotonicNow() reads, for the manifest:
// "CLOCK_MONOTONIC"; on Windows "QueryPerformanceCounter" (mingw-w64's
// clock_gettime(CLOCK_MONOTONIC) reads it).
const char* MonotonicClockName();

// True when the operating system itself times with the CPU's TSC and the TSC
// is invariant, so that loadcell may read it directly (see TickSource).
bool SystemTimesWithTsc();

}  // namespace loadcell
