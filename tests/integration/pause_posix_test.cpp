// A process stopped past the forced-shutdown grace (SIGSTOP, then SIGCONT)
// is paused, not stuck: the run ends normally and every report says it was
// paused, for how long, and that its latencies include it.

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <string>
#include <thread>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::ChildWatch;
using testing::ProcessResult;
using testing::RunLoadcell;
using testing::Show;

// Stops the child for 3 s (past the 1 s grace and the 2 s run), then lets it go on.
ChildWatch StopForThreeSeconds() {
  ChildWatch watch;
  watch.delay_ms = 200;
  watch.during = [](int pid) {
    ::kill(pid, SIGSTOP);
    std::this_thread::sleep_for(std::chrono::seconds(3));
    ::kill(pid, SIGCONT);
  };
  return watch;
}

TEST(PausedRun, EndsNormallyAndEveryReportSaysSo) {
  testing::TempDir dir;
  const std::string json = dir.File("r.json");
  ProcessResult text =
      RunLoadcell({"cpu", "--time=2", "--forced-shutdown=1", "--cpu-max-prime=2000", "run"},
                  StopForThreeSeconds());
  EXPECT_EQ(text.exit_code, 0) << Show(text);
  EXPECT_EQ(text.out.find("forced shutdown"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("(paused 1 time for "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("total time and latencies include it)"), std::string::npos) << text.out;

  ProcessResult js = RunLoadcell({"cpu", "--time=2", "--forced-shutdown=1", "--cpu-max-prime=2000",
                                  "--format=json", "--output-file=" + json, "run"},
                                 StopForThreeSeconds());
  EXPECT_EQ(js.exit_code, 0) << Show(js);
  const std::string saved = testing::ReadFile(json);
  EXPECT_NE(saved.find("\"forced_shutdown\": false"), std::string::npos) << saved;
  EXPECT_NE(saved.find("\"pauses\": 1"), std::string::npos) << saved;
  const size_t at = saved.find("\"paused_s\": ");
  ASSERT_NE(at, std::string::npos) << saved;
  EXPECT_GE(std::stod(saved.substr(at + 12)), 2.0) << saved;  // of the 3 s stop

  ProcessResult page = RunLoadcell({"report", json});
  EXPECT_EQ(page.exit_code, 0) << Show(page);
  EXPECT_NE(page.out.find("(paused 1 time for "), std::string::npos);
}

TEST(PausedRun, AnUnpausedRunSaysNothingOfIt) {
  ProcessResult r = RunLoadcell({"cpu", "--time=0.3", "--cpu-max-prime=2000", "run"});
  EXPECT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_EQ(r.out.find("paused"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace loadcell
