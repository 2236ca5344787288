#pragma once
// The stop request: SIGINT/SIGTERM ask the current run to stop. A second
// signal while the first is being handled exits at once (status 130).

namespace loadcell {

// Installs SIGINT/SIGTERM handlers that ask the current run to stop.
void InstallStopSignalHandlers();
// True once SIGINT or SIGTERM arrived. Async-signal-safe to set, any thread
// may read it.
bool StopRequested();
// For tests: clears the flag.
void ResetStopRequested();

}  // namespace loadcell
