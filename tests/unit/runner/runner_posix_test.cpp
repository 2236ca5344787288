// The runner and the stop request raised as SIGINT: POSIX only (on Windows
// the request comes from the console's control handler; scripts/test-windows
// sends it to loadcell.exe under Wine).

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "runner/stop_signal.h"
#include "unit/runner/fake_workload.h"

namespace loadcell {
namespace {

using testing::Config;
using testing::FakeWorkload;
using testing::MustRun;

TEST(RunnerTest, StopSignalEndsTheRunWithItsFigures) {
  InstallStopSignalHandlers();
  ResetStopRequested();
  FakeWorkload w;
  w.sleep_ns = 100 * kNanosPerMicro;
  std::thread killer([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    kill(getpid(), SIGINT);
  });
  RunResult r = MustRun(w, Config(2, 30, 0));
  killer.join();
  EXPECT_TRUE(r.interrupted);
  EXPECT_GT(r.events, 0u);
  EXPECT_LT(r.total_time_s, 5.0);
  ResetStopRequested();
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
}

}  // namespace
}  // namespace loadcell
