#include "runner/stop_signal.h"

#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <csignal>

namespace loadcell {
namespace {

std::atomic<bool> g_stop_requested{false};
// CLOCK_MONOTONIC of the first signal, in ns (0: none yet).
std::atomic<int64_t> g_first_signal_at{0};

// clock_gettime is async-signal-safe.
int64_t MonotonicNanos() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

void OnStopSignal(int) {
  const int64_t now = MonotonicNanos();
  int64_t first = 0;
  if (g_first_signal_at.compare_exchange_strong(first, now)) {
    g_stop_requested.store(true);
    return;
  }
  // Part of the first request's burst: already being handled.
  if (now - first < kSignalBurstWindowNanos) return;
  // A later signal: the user insists; leave at once.
  _exit(130);
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
void ResetStopRequested() {
  g_stop_requested.store(false);
  g_first_signal_at.store(0);
}

}  // namespace loadcell
