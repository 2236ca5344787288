#include "runner/stop_signal.h"

#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>

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

StopGuard::StopGuard(std::string phase, double grace_s)
    : phase_(std::move(phase)), grace_s_(grace_s), watcher_([this] { Watch(); }) {}

StopGuard::~StopGuard() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    ended_ = true;
  }
  cv_.notify_all();
  watcher_.join();
}

void StopGuard::Watch() {
  // The flag is set by a signal handler, which cannot notify: polled.
  constexpr auto kPoll = std::chrono::milliseconds(20);
  std::unique_lock<std::mutex> lock(mu_);
  while (!ended_ && !StopRequested()) cv_.wait_for(lock, kPoll);
  if (ended_) return;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(std::max(grace_s_, 0.0));
  if (cv_.wait_until(lock, deadline, [this] { return ended_; })) return;
  char grace[32];
  std::snprintf(grace, sizeof(grace), "%g", grace_s_);
  std::string line = "loadcell: error: interrupted; ";
  line.append(phase_).append(" did not stop within the grace of ").append(grace);
  line.append(" s (--forced-shutdown)\n");
  // A thread of its own, not a signal handler: stdio is safe here.
  (void)std::fwrite(line.data(), 1, line.size(), stderr);
  (void)std::fflush(stderr);
  std::_Exit(130);
}

}  // namespace loadcell
