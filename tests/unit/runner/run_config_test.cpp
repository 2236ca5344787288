// RunConfig's shutdown graces: after the time limit and after a stop signal.

#include "runner/run_config.h"

#include <gtest/gtest.h>

namespace loadcell {
namespace {

RunConfig With(std::string forced_shutdown, double time_s) {
  RunConfig c;
  c.forced_shutdown = std::move(forced_shutdown);
  c.time_s = time_s;
  return c;
}

TEST(RunConfigTest, TheForcedShutdownIsOnByDefault) {
  RunConfig c;
  EXPECT_DOUBLE_EQ(c.ForcedShutdownAfter(), 5);
  EXPECT_DOUBLE_EQ(c.StopGrace(), 5);
}

TEST(RunConfigTest, AStopSignalAlwaysHasABoundedGrace) {
  EXPECT_LT(With("off", 10).ForcedShutdownAfter(), 0);
  EXPECT_DOUBLE_EQ(With("off", 10).StopGrace(), RunConfig::kDefaultStopGrace);
  EXPECT_DOUBLE_EQ(With("2", 10).StopGrace(), 2);
  EXPECT_DOUBLE_EQ(With("10%", 100).StopGrace(), 10);
  // A percentage of no time limit is no grace: the default applies.
  EXPECT_DOUBLE_EQ(With("10%", 0).StopGrace(), RunConfig::kDefaultStopGrace);
}

}  // namespace
}  // namespace loadcell
