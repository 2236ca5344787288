#pragma once
// A dbsim run with --inject-fault, run again while the fault never fired.
// The fault breaks the Nth I/O of the first data file; on a loaded machine
// a 1-2 s cycle can end before that I/O (a starved user, one checkpoint
// write), and loadcell then says so ("never fired", exit 1) instead of
// reporting a clean run. What the test checks needs the fault to fire: a
// rerun (at most `attempts` runs in all) gives it the I/Os it needs, and the
// last run is returned, fired or not, for the test to judge.

#include <functional>

#include "testing/run_binary.h"

namespace loadcell::testing {

inline bool InjectedFaultNeverFired(const ProcessResult& r) {
  return r.err.find(" never fired: ") != std::string::npos;
}

inline ProcessResult RunUntilInjectedFaultFires(const std::function<ProcessResult()>& run,
                                                int attempts = 3) {
  ProcessResult r = run();
  for (int i = 1; i < attempts && InjectedFaultNeverFired(r); ++i) r = run();
  return r;
}

}  // namespace loadcell::testing
