// A Lua script whose event() never returns: the --time limit and a stop
// signal still end the run within the grace, with the report. A hook that
// never returns before or after the run (init, thread_init, done) ends
// within the grace of the stop signal too, and so do its prepare, cleanup
// and custom commands.

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

// One SIGINT `delay_ms` after stdout first shows `marker` ("": at the start).
ChildWatch SigintAfter(const std::string& marker, int delay_ms) {
  ChildWatch watch;
  watch.during = [](int pid) { kill(pid, SIGINT); };
  watch.marker = marker;
  watch.delay_ms = delay_ms;
  return watch;
}

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
    const ProcessResult r =
        RunLoadcell({script, "--time=0", "run"}, SigintAfter("Threads started", 200));
    EXPECT_EQ(r.exit_code, 130) << Show(r);
    EXPECT_LT(r.seconds_after_action, kGraceAndSlack) << Show(r);
    EXPECT_NE(r.out.find("Threads fairness:"), std::string::npos) << Show(r);
  }
}

// A hook that prints "LOOPING" and never returns.
struct StuckHook {
  const char* hook;
  const char* script;
  const char* phase;            // named in the error
  const char* command = "run";  // the script's command that runs the hook
};

const StuckHook kStuckHooks[] = {
    {"init",
     "function init() print('LOOPING') io.stdout:flush() while true do end end\n"
     "function event() end\n",
     "the start of the run"},
    {"thread_init",
     "function thread_init() print('LOOPING') io.stdout:flush() while true do end end\n"
     "function event() end\n",
     "the start of the run"},
    {"thread_init_of_one_thread",
     "function thread_init(tid) if tid == 1 then print('LOOPING') io.stdout:flush() "
     "while true do end end end\nfunction event() end\n",
     "the start of the run"},
    {"done",
     "function done() print('LOOPING') io.stdout:flush() while true do end end\n"
     "function event() end\n",
     "the script's done()"},
    {"prepare",
     "function prepare() print('LOOPING') io.stdout:flush() while true do end end\n"
     "function event() end\n",
     "the script's prepare", "prepare"},
    {"cleanup",
     "function cleanup() print('LOOPING') io.stdout:flush() while true do end end\n"
     "function event() end\n",
     "the script's cleanup", "cleanup"},
    {"custom_command",
     "sysbench.cmdline.commands = {spin = {function() print('LOOPING') io.stdout:flush() "
     "while true do end end}}\nfunction event() end\n",
     "the script's command 'spin'", "spin"},
    {"parallel_custom_command",
     "sysbench.cmdline.commands = {spin = {function() print('LOOPING') io.stdout:flush() "
     "while true do end end, sysbench.cmdline.PARALLEL_COMMAND}}\nfunction event() end\n",
     "the script's command 'spin'", "spin"},
};

void PrintTo(const StuckHook& h, std::ostream* os) { *os << h.hook; }

class LuaStuckHookTest : public ::testing::TestWithParam<StuckHook> {};

TEST_P(LuaStuckHookTest, EndsWithinTheGraceOfTheStopSignal) {
  testing::TempDir tmp;
  const std::string script = tmp.Write("stuck.lua", GetParam().script);
  ChildWatch watch = SigintAfter("LOOPING", 100);
  watch.timeout_s = 30;
  const ProcessResult r = RunLoadcell(
      {script, "--threads=2", "--events=10", "--forced-shutdown=1", GetParam().command}, watch);
  EXPECT_EQ(r.exit_code, 130) << Show(r);
  EXPECT_LT(r.seconds_after_action, 1 + 3) << Show(r);
  EXPECT_NE(r.err.find(std::string("interrupted; ") + GetParam().phase), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("did not stop within the grace of 1 s (--forced-shutdown)"),
            std::string::npos)
      << r.err;
}

INSTANTIATE_TEST_SUITE_P(Hooks, LuaStuckHookTest, ::testing::ValuesIn(kStuckHooks),
                         [](const auto& info) { return std::string(info.param.hook); });

// A script's prepare that does not look at the stop but ends within the
// grace: its end is still an interrupted one (exit 130), said in one line.
TEST(LuaStopTest, PrepareThatEndsAfterTheStopSignalIsInterrupted) {
  testing::TempDir tmp;
  const std::string script = tmp.Write("slow.lua",
                                       "function prepare() print('LOOPING') io.stdout:flush()\n"
                                       "  local t = os.time() while os.time() - t < 2 do end end\n"
                                       "function event() end\n");
  const ProcessResult r =
      RunLoadcell({script, "--forced-shutdown=60", "prepare"}, SigintAfter("LOOPING", 100));
  EXPECT_EQ(r.exit_code, 130) << Show(r);
  EXPECT_EQ(r.err, "loadcell: interrupted; the script's prepare returned after the stop signal\n")
      << Show(r);
}

// A script's run stopped by a signal, with the JSON report on stdout: the
// report parses and says it was interrupted; a print() in event() is on
// stderr, not in the report.
TEST(LuaStopTest, InterruptedRunHasTheFlagInTheJsonOnStdout) {
  testing::TempDir tmp;
  const std::string script = tmp.Write("p.lua",
                                       "local n = 0\nfunction event()\n  n = n + 1\n"
                                       "  if n == 1 then print('MARK') end\nend\n");
  const ProcessResult r =
      RunLoadcell({script, "--time=30", "--format=json", "run"}, SigintAfter("", 1000));
  EXPECT_EQ(r.exit_code, 130) << Show(r);
  EXPECT_NE(r.out.find("\"interrupted\": true"), std::string::npos) << Show(r);
  EXPECT_EQ(r.out.find("MARK"), std::string::npos) << Show(r);
  EXPECT_EQ(r.out.rfind('{', 0), 0u) << Show(r);
}

}  // namespace
}  // namespace loadcell
