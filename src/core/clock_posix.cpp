#include <ctime>
#include <fstream>
#include <sstream>
#include <string>

#include "core/clock_platform.h"
#include "core/coarse_clock.h"

namespace loadcell {
namespace {

std::string ReadFirstLine(const char* path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

bool CpuHasFlags() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("flags", 0) == 0) {
      std::istringstream words(line);
      std::string w;
      bool constant = false, nonstop = false;
      while (words >> w) {
        constant = constant || w == "constant_tsc";
        nonstop = nonstop || w == "nonstop_tsc";
      }
      return constant && nonstop;
    }
  }
  return false;
}

}  // namespace

const char* MonotonicClockName() { return "CLOCK_MONOTONIC"; }

Nanos CoarseMonotonicNow() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
  return static_cast<Nanos>(ts.tv_sec) * kNanosPerSecond + ts.tv_nsec;
}

// The kernel's clocksource is the TSC (so it found it synchronised across
// CPUs) and the CPU says it is invariant (constant_tsc and nonstop_tsc).
bool SystemTimesWithTsc() {
  return ReadFirstLine("/sys/devices/system/clocksource/clocksource0/current_clocksource") ==
             "tsc" &&
         CpuHasFlags();
}

}  // namespace loadcell
