#pragma once
// The stop request: SIGINT/SIGTERM (Windows: Ctrl-C, Ctrl-Break, the console
// closing; os/console.h) ask the current run to stop. Signals
// within kSignalBurstWindow of the first are the same request (GNU timeout
// signals the process and then its group; a terminal's Ctrl-C reaches the
// whole group), so the run still ends with its one report. A signal after
// the window exits at once (status 130), without a report.

#include <cstdint>

namespace loadcell {

inline constexpr int64_t kSignalBurstWindowNanos = 1'000'000'000;  // 1 s

// Installs SIGINT/SIGTERM handlers that ask the current run to stop.
void InstallStopSignalHandlers();
// True once SIGINT or SIGTERM arrived. Async-signal-safe to set, any thread
// may read it.
bool StopRequested();
// For tests: clears the flag.
void ResetStopRequested();

}  // namespace loadcell
