// MPI runs that do not end well, and the run-time exchanges between the
// ranks, through the real binary under mpirun (testing/mpirun.h): a rank
// that stops answering, Ctrl-C on mpirun, global interval lines and the
// stonewall. `timeout` (exit 124) would end a hang; every case asserts that
// it did not come to that.

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "testing/mpirun.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::CountOf;
using testing::LoadcellBinary;
using testing::MpirunCommand;
using testing::ProcessResult;
using testing::RunCommand;
using testing::RunMpi;
using testing::Show;

TEST(MpiFaultsTest, ARankThatStopsAnsweringIsLeftOutAfterTheTimeout) {
  const testing::TempDir dir;
  const std::string pid_file = dir / "rank2.pid";
  // The interval lines show that every rank runs (the first is merged from
  // all three): rank 2 is stopped mid-run, not before the start (that is
  // mpi_start_test.cpp's case), however loaded the machine.
  const std::vector<std::string> args = {"cpu", "--cpu-max-prime=2000", "--time=3",
                                         "--mpi-timeout=1", "--report-interval=1"};
  std::vector<std::string> cmd = MpirunCommand(2, args, /*timeout_s=*/60);
  std::string shell = "echo $$ > " + pid_file + ".tmp && mv " + pid_file + ".tmp " + pid_file +
                      " && exec " + LoadcellBinary();
  for (const std::string& a : args) shell += " " + a;
  testing::AddShellRank(cmd, shell);
  int stopped = 0;
  testing::ChildWatch watch;
  watch.timeout_s = 90;
  watch.marker = "] thds: 3 ";
  watch.delay_ms = 200;
  watch.during = [&](int) {
    stopped = testing::WaitForPidFile(pid_file);
    if (stopped > 0) kill(stopped, SIGSTOP);
  };
  const ProcessResult r = RunCommand(cmd, watch);
  ASSERT_GT(stopped, 0) << Show(r);
  // mpirun ends the stopped rank once rank 0 has left: it is gone.
  const bool gone = !testing::StillRunning(stopped);
  if (!gone) kill(stopped, SIGKILL);
  EXPECT_TRUE(gone) << "rank 2 was left behind";
  EXPECT_EQ(r.exit_code, 1) << Show(r);
  EXPECT_LT(r.seconds_after_action, 30) << Show(r);
  EXPECT_NE(r.err.find("loadcell: error: rank 2 ("), std::string::npos) << Show(r);
  EXPECT_NE(r.err.find(") did not answer for 1 s (--mpi-timeout); the report holds the other "
                       "ranks' figures"),
            std::string::npos)
      << Show(r);
  // The report of the two that answered.
  EXPECT_EQ(CountOf(r.out, "General statistics:"), 1u) << Show(r);
  EXPECT_EQ(CountOf(r.out, "Ranks: 2\n"), 1u) << Show(r);
  EXPECT_EQ(CountOf(r.out, "missing ranks (did not answer):      2\n"), 1u) << Show(r);
}

TEST(MpiFaultsTest, CtrlCOnMpirunGivesTheMergedPartialReport) {
  testing::ChildWatch watch;
  watch.timeout_s = 90;
  watch.delay_ms = 1000;
  // The child is `timeout`, which passes SIGINT on to mpirun; mpirun sends
  // SIGTERM to every rank.
  watch.during = [](int pid) { kill(pid, SIGINT); };
  std::vector<std::string> command = MpirunCommand(3, {"cpu", "--cpu-max-prime=2000", "--time=60"});
  // mpirun follows its SIGTERM to the ranks with a SIGKILL 1 s later by
  // default: under make test's load the ranks' merge and report took longer
  // (no rank's output, exit 1). 4 s lets them finish; mpirun waits that long
  // even when they are done sooner.
  command.insert(command.begin() + 3, {"--mca", "odls_base_sigkill_timeout", "4"});
  const ProcessResult r = RunCommand(command, watch);
  EXPECT_NE(r.exit_code, 124) << Show(r);
  EXPECT_NE(r.exit_code, 0) << Show(r);
  EXPECT_LT(r.seconds_after_action, 20) << Show(r);
  EXPECT_EQ(CountOf(r.out, "General statistics:"), 1u) << Show(r);
  EXPECT_EQ(CountOf(r.out, "Ranks: 3\n"), 1u) << Show(r);
  EXPECT_EQ(CountOf(r.out, "(interrupted: figures cover the time actually run)"), 1u) << Show(r);
  // Every rank left through its interrupted end (exit 130).
  EXPECT_EQ(CountOf(r.err,
                    "loadcell: interrupted; the report covers the time until the "
                    "interrupt"),
            3u)
      << Show(r);
}

TEST(MpiFaultsTest, IntervalLinesAreMergedAcrossRanks) {
  for (const int ranks : {2, 4}) {
    const ProcessResult r = RunMpi(ranks, {"cpu", "--cpu-max-prime=2000", "--threads=2",
                                           "--time=3.5", "--report-interval=1", "--format=json"});
    ASSERT_EQ(r.exit_code, 0) << Show(r);
    const nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
    ASSERT_FALSE(doc.is_discarded()) << Show(r);
    const nlohmann::json& iv = doc["intervals"];
    ASSERT_EQ(iv.size(), 3u) << Show(r);
    uint64_t sum = 0;
    for (size_t k = 0; k < iv.size(); ++k) {
      EXPECT_EQ(iv[k]["t"].get<double>(), static_cast<double>(k + 1)) << k;
      // Every rank's threads: the line is the merge of all of them.
      EXPECT_EQ(iv[k]["threads"], 2 * ranks) << k << "\n" << iv[k].dump();
      sum += iv[k]["events"].get<uint64_t>();
    }
    EXPECT_GT(sum, 0u);
    EXPECT_LE(sum, doc["summary"]["events"].get<uint64_t>());
  }
  const ProcessResult text =
      RunMpi(3, {"cpu", "--cpu-max-prime=2000", "--time=2.5", "--report-interval=1"});
  ASSERT_EQ(text.exit_code, 0) << Show(text);
  EXPECT_EQ(CountOf(text.out, "] thds: 3 eps: "), 2u) << Show(text);
}

// Ranks 0 and 1 are fast, rank 2 is slow (each of its events is a much
// larger prime search, let through by --mpi-mixed=on): alone it would take
// minutes for its budget; the stonewall ends it when a fast rank is done.
TEST(MpiFaultsTest, TheFirstRankDoneStopsEveryRankUnderTheStonewall) {
  const std::vector<std::string> fast = {
      "cpu",          "--cpu-max-prime=2000", "--events=20000", "--stonewall=on", "--mpi-mixed=on",
      "--format=json"};
  std::vector<std::string> cmd = MpirunCommand(2, fast, /*timeout_s=*/60);
  testing::AddShellRank(cmd, "exec " + LoadcellBinary() +
                                 " cpu --cpu-max-prime=300000 --events=20000 --stonewall=on "
                                 "--mpi-mixed=on");
  testing::ChildWatch watch;
  watch.timeout_s = 90;
  const ProcessResult r = RunCommand(cmd, watch);
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  const nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << Show(r);
  const nlohmann::json& c = doc["cluster"];
  ASSERT_TRUE(c["stonewall"].is_object()) << c.dump();
  const int first = c["stonewall"]["first_rank"];
  EXPECT_TRUE(first == 0 || first == 1) << c.dump();
  EXPECT_EQ(c["ranks"][first]["events"], 20000) << c.dump();
  EXPECT_LT(c["ranks"][2]["events"].get<uint64_t>(), 20000u) << c.dump();
  const double sw_events = c["stonewall"]["events"];
  EXPECT_GE(sw_events, 20000.0) << c.dump();
  EXPECT_LE(sw_events, doc["summary"]["events"].get<double>()) << c.dump();
  EXPECT_GT(c["stonewall"]["at_s"].get<double>(), 0) << c.dump();
  EXPECT_LE(c["stonewall"]["at_s"].get<double>(), doc["summary"]["total_time_s"].get<double>());
}

// A rank stopped for 3 s (past the 1 s grace) and let go on is paused, not
// stuck: the merged report says so, as a run of one process does.
TEST(MpiFaultsTest, ARankPausedMidRunIsSaidSoInTheMergedReport) {
  const testing::TempDir dir;
  const std::string pid_file = dir / "rank1.pid";
  const std::string json = dir / "r.json";
  const std::vector<std::string> args = {"cpu",
                                         "--cpu-max-prime=2000",
                                         "--time=2",
                                         "--forced-shutdown=1",
                                         "--mpi-timeout=20",
                                         "--format=json",
                                         "--output-file=" + json};
  std::vector<std::string> cmd = MpirunCommand(1, args, /*timeout_s=*/60);
  std::string shell = "echo $$ > " + pid_file + ".tmp && mv " + pid_file + ".tmp " + pid_file +
                      " && exec " + LoadcellBinary();
  for (const std::string& a : args) {
    if (a.rfind("--output-file=", 0) != 0) shell += " " + a;
  }
  testing::AddShellRank(cmd, shell);
  int stopped = 0;
  testing::ChildWatch watch;
  watch.timeout_s = 90;
  watch.during = [&](int) {
    stopped = testing::WaitForPidFile(pid_file);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));  // into the run
    if (stopped <= 0) return;
    kill(stopped, SIGSTOP);
    std::this_thread::sleep_for(std::chrono::seconds(3));
    kill(stopped, SIGCONT);
  };
  const ProcessResult r = RunCommand(cmd, watch);
  ASSERT_GT(stopped, 0) << Show(r);
  EXPECT_EQ(r.exit_code, 0) << Show(r);
  const nlohmann::json j = nlohmann::json::parse(testing::ReadFile(json), nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << testing::ReadFile(json);
  const std::string saved = j.dump();
  EXPECT_NE(saved.find("\"pauses\":1"), std::string::npos) << saved;
  EXPECT_NE(saved.find("\"forced_shutdown\":false"), std::string::npos) << saved;
  const size_t at = saved.find("\"paused_s\":");
  ASSERT_NE(at, std::string::npos) << saved;
  EXPECT_GE(std::stod(saved.substr(at + 11)), 2.0) << saved;  // of the 3 s stop
}

}  // namespace
}  // namespace loadcell
