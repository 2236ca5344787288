// StopGuard without a stop request: nothing happens (the requests, raised as
// SIGINT, are in stop_guard_posix_test.cpp).

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "runner/stop_signal.h"

namespace loadcell {
namespace {

TEST(StopGuardTest, WithoutAStopRequestNothingHappens) {
  ResetStopRequested();
  const StopGuard guard("the test phase", 0.01);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(StopRequested());
}

}  // namespace
}  // namespace loadcell
