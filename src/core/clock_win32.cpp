#include <windows.h>

#include "core/clock_platform.h"
#include "core/coarse_clock.h"

namespace loadcell {

const char* MonotonicClockName() { return "QueryPerformanceCounter"; }

Nanos CoarseMonotonicNow() { return static_cast<Nanos>(GetTickCount64()) * kNanosPerMilli; }

// Windows does not say whether it trusts the TSC across processors; where it
// does, QueryPerformanceCounter reads the invariant TSC itself. So loadcell
// times events with QueryPerformanceCounter and never reads the TSC directly.
bool SystemTimesWithTsc() { return false; }

}  // namespace loadcell
