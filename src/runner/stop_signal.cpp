#include "runner/stop_signal.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <csignal>

namespace loadcell {
namespace {

std::atomic<bool> g_stop_requested{false};

void OnStopSignal(int) {
  if (g_stop_requested.exchange(true)) {
    // A second signal while the first is being handled: leave at once.
    _exit(130);
  }
}

}  // namespace

void InstallStopSignalHandlers() {
  struct sigaction sa = {};
  sa.sa_handler = OnStopSignal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

bool StopRequested() { return g_stop_requested.load(std::memory_order_relaxed); }
void ResetStopRequested() { g_stop_requested.store(false); }

}  // namespace loadcell
