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

using testing::CollectingObserver;
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

// A start that gives way to a stop request (a worker's creation returned
// Cancelled) is a result, announced, with nothing measured and marked
// interrupted, so that a report still appears.
TEST(RunnerTest, StartThatGivesWayToAStopSignalIsAnInterruptedResult) {
  InstallStopSignalHandlers();
  ResetStopRequested();
  FakeWorkload w;
  w.create_honours_stop = true;
  kill(getpid(), SIGINT);
  CollectingObserver obs;
  auto r = RunWorkload(w, Config(2, 30, 0), Manifest{}, &obs);
  ResetStopRequested();
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  ASSERT_OK(r);
  EXPECT_TRUE(r->interrupted);
  EXPECT_EQ(r->failure.code(), StatusCode::kCancelled);
  EXPECT_EQ(r->events, 0u);
  EXPECT_EQ(r->total_time_s, 0);
  EXPECT_EQ(obs.starts, 1);
  EXPECT_EQ(w.executed.load(), 0u);
}

}  // namespace
}  // namespace loadcell
