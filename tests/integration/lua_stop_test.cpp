// A Lua script whose event() never returns: the --time limit and a stop
// signal still end the run within the grace, with the report.

#include <gtest/gtest.h>
#include <signal.h>

#include <string>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::ChildWatch;
using testing::ProcessResult;
using testing::RunLoadcell;
using testing::Show;

constexpr double kGraceAndSlack = 5 + 3;  // the default --forced-shutdown, and some

TEST(LuaStopTest, EndlessEventEndsWithinTheGraceWithTheReport) {
  testing::TempDir tmp;
  const std::string script = tmp.Write("stuck.lua", "function event()\n  while true do end\nend\n");
  {
    ChildWatch watch;
    watch.during = [](int) {};  // only to time the exit from the start
    watch.marker = "";
    const ProcessResult r = RunLoadcell({script, "--time=1", "run"}, watch);
    EXPECT_EQ(r.exit_code, 1) << Show(r);
    EXPECT_LT(r.seconds_after_action, 1 + kGraceAndSlack) << Show(r);
    EXPECT_NE(r.out.find("Threads fairness:"), std::string::npos) << Show(r);
    EXPECT_NE(r.err.find("abandoned thread 0"), std::string::npos) << r.err;
  }
  {
    ChildWatch watch;
    watch.during = [](int pid) { kill(pid, SIGINT); };
    watch.delay_ms = 200;
    const ProcessResult r = RunLoadcell({script, "--time=0", "run"}, watch);
    EXPECT_EQ(r.exit_code, 130) << Show(r);
    EXPECT_LT(r.seconds_after_action, kGraceAndSlack) << Show(r);
    EXPECT_NE(r.out.find("Threads fairness:"), std::string::npos) << Show(r);
  }
}

}  // namespace
}  // namespace loadcell
