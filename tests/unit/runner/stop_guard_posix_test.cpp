// StopGuard: a phase without a report that ignores the stop request ends
// the process once the grace is over; one that ends in time goes on. POSIX
// only: the request is raised as SIGINT (on Windows it comes from the
// console's control handler; scripts/test-windows sends it to loadcell.exe).

#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <thread>

#include "runner/stop_signal.h"

namespace loadcell {
namespace {

TEST(StopGuardDeathTest, AStuckPhaseEndsTheProcessAfterTheGrace) {
  EXPECT_EXIT(
      {
        InstallStopSignalHandlers();
        const StopGuard guard("the test phase", 0.2);
        raise(SIGINT);
        std::this_thread::sleep_for(std::chrono::seconds(20));
      },
      ::testing::ExitedWithCode(130),
      "interrupted; the test phase did not stop within the grace of 0.2 s");
}

TEST(StopGuardTest, APhaseThatEndsInTimeGoesOn) {
  InstallStopSignalHandlers();
  {
    const StopGuard guard("the test phase", 0.5);
    raise(SIGINT);
    ASSERT_TRUE(StopRequested());
  }
  // Past the grace: the guard is gone, so nothing ends the process.
  std::this_thread::sleep_for(std::chrono::milliseconds(700));
  EXPECT_TRUE(StopRequested());
  ResetStopRequested();
}

}  // namespace
}  // namespace loadcell
