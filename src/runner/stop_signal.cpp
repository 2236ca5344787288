#include "runner/stop_signal.h"

#include <time.h>

#include <atomic>

#include "os/console.h"

namespace loadcell {
namespace {

std::atomic<bool> g_stop_requested{false};
// CLOCK_MONOTONIC of the first signal, in ns (0: none yet).
std::atomic<int64_t> g_first_signal_at{0};

// clock_gettime is async-signal-safe (and on Windows, where the stop comes
// on a thread of its own, QueryPerformanceCounter underneath).
int64_t MonotonicNanos() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

void OnStopSignal() {
  const int64_t now = MonotonicNanos();
  int64_t first = 0;
  if (g_first_signal_at.compare_exchange_strong(first, now)) {
    g_stop_requested.store(true);
    return;
  }
  // Part of the first request's burst: already being handled.
  if (now - first < kSignalBurstWindowNanos) return;
  // A later signal: the user insists; leave at once.
  ExitImmediately(130);
}

}  // namespace

void InstallStopSignalHandlers() { InstallStopHandler(OnStopSignal); }

bool StopRequested() { return g_stop_requested.load(std::memory_order_relaxed); }
void ResetStopRequested() {
  g_stop_requested.store(false);
  g_first_signal_at.store(0);
}

}  // namespace loadcell
