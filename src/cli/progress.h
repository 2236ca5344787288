#pragma once
// Live feedback on stderr for the command line: the one-line status of a run
// without --report-interval (only on a terminal), and the --quiet switch.
// The progress bar for long phases is core/progress.h.

#include <memory>
#include <ostream>

#include "core/options.h"
#include "os/system_info.h"  // StderrIsTerminal
#include "report/reporter.h"

namespace loadcell {

// How often the live status line is refreshed (RunConfig::status_interval_s).
inline constexpr double kLiveStatusPeriodS = 0.5;

// Takes --quiet (a bare flag or on|off) out of `options`; false when absent.
Result<bool> TakeQuietOption(RawOptions& options);

// A reporter that redraws one status line on `err` at each status tick
// ("[ 12.5s / 60s ] 4,567 events/s, 57,090 events, p95 1.21 ms") and erases
// it at OnEnd. `time_limit_s` 0: no limit known. It must be added to a
// MultiReporter before the reporters that print the final report, so that
// the line is gone when they write. Prints nothing but on status ticks.
std::unique_ptr<Reporter> MakeLiveStatus(std::ostream& err, double time_limit_s);

}  // namespace loadcell
