#pragma once
// `loadcell suite`: a quick look at a machine. Runs cpu, memory, threads
// and mutex for about two seconds each with default test options and
// prints one summary table.

#include <ostream>

#include "core/options.h"

namespace loadcell {

// `options` are the user's (general options such as --threads apply to
// every test; a test option applies to its test). Validates everything
// before the first test starts. Returns the exit code: 0 when every test
// ran, 1 when one failed, 2 for bad options, 130 when interrupted.
int RunSuite(RawOptions& options, std::ostream& out, std::ostream& err);

}  // namespace loadcell
