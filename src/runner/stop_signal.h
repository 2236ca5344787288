#pragma once
// The stop request: SIGINT/SIGTERM (Windows: Ctrl-C, Ctrl-Break, the console
// closing; os/console.h) ask the current run to stop. Signals
// within kSignalBurstWindow of the first are the same request (GNU timeout
// signals the process and then its group; a terminal's Ctrl-C reaches the
// whole group), so the run still ends with its one report. A signal after
// the window exits at once (status 130), without a report.

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace loadcell {

inline constexpr int64_t kSignalBurstWindowNanos = 1'000'000'000;  // 1 s

// Installs SIGINT/SIGTERM handlers that ask the current run to stop.
void InstallStopSignalHandlers();
// True once SIGINT or SIGTERM arrived. Async-signal-safe to set, any thread
// may read it.
bool StopRequested();
// For tests: clears the flag.
void ResetStopRequested();

// The grace for phases that have no report to give: while a StopGuard is
// held (a workload's Init, the start of the worker threads, a prepare or
// cleanup), a stop request that the phase does not honour within `grace_s`
// ends the process: "loadcell: error: interrupted; PHASE did not stop within
// the grace of N s (--forced-shutdown)" on stderr, exit 130. A phase that
// ends in time (the guard destroyed) goes on as usual. Not copyable; the
// destructor joins the watching thread.
class StopGuard final {
 public:
  StopGuard(std::string phase, double grace_s);
  ~StopGuard();
  StopGuard(const StopGuard&) = delete;
  StopGuard& operator=(const StopGuard&) = delete;

 private:
  void Watch();

  const std::string phase_;
  const double grace_s_;
  std::mutex mu_;  // guards ended_
  std::condition_variable cv_;
  bool ended_ = false;
  std::thread watcher_;
};

}  // namespace loadcell
