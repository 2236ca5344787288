// The start of an MPI run with a rank that stops answering before it: the
// others end after --mpi-timeout, naming it, instead of waiting forever.
// Through the real binary under mpirun (testing/mpirun.h). `timeout` (exit
// 124) would end a hang; the case asserts that it did not come to that.

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
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
using testing::Show;

// Process `pid`'s resident memory in KiB (-1 when it is gone).
long ResidentKib(int pid) {
  const std::string status = testing::ReadFile("/proc/" + std::to_string(pid) + "/status");
  const size_t at = status.find("VmRSS:");
  if (at == std::string::npos) return -1;
  return std::stol(status.substr(at + 6));
}

// Rank 2 fills a 2 GiB memory block in its workload's init (the others a
// small one) and is stopped (SIGSTOP) while it does: it never says it is
// ready. Ranks 0 and 1, ready long before, give up on it after 3 s (time
// enough, on a loaded machine, for the watch below to see rank 2 filling
// its block and stop it before they give up).
TEST(MpiStartTest, ARankThatStopsAnsweringBeforeTheStartEndsTheRunAfterTheTimeout) {
  const testing::TempDir dir;
  const std::string pid_file = dir / "rank2.pid";
  // --mpi-mixed=on: rank 2's block may be larger than the others'.
  const std::vector<std::string> args = {"memory", "--memory-scope=global", "--time=30",
                                         "--mpi-timeout=3", "--mpi-mixed=on"};
  std::vector<std::string> cmd = MpirunCommand(2, args, /*timeout_s=*/60);
  cmd.insert(cmd.end() - static_cast<long>(args.size()), "--memory-block-size=1M");
  std::string shell = "echo $$ > " + pid_file + ".tmp && mv " + pid_file + ".tmp " + pid_file +
                      " && exec " + LoadcellBinary() + " --memory-block-size=2G";
  for (const std::string& a : args) shell += " " + a;
  testing::AddShellRank(cmd, shell);
  int stopped = 0;
  long stopped_at_kib = 0;
  long last_kib = 0;  // what the watch saw last, for the failure message
  int polls = 0;
  testing::ChildWatch watch;
  watch.timeout_s = 90;
  watch.marker = "";
  watch.during = [&](int) {
    const int pid = testing::WaitForPidFile(pid_file);
    // Stopped once the block is being filled: past MPI's start, before its vote.
    for (int i = 0; pid > 0 && i < 60000; ++i) {
      const long kib = ResidentKib(pid);
      polls = i;
      if (kib < 0) return;
      last_kib = kib;
      if (kib > (256L << 10)) {
        kill(pid, SIGSTOP);
        stopped = pid;
        stopped_at_kib = kib;
        return;
      }
      std::this_thread::sleep_for(std::chrono::microseconds(500));
    }
  };
  const ProcessResult r = RunCommand(cmd, watch);
  ASSERT_GT(stopped, 0) << "rank 2 last seen at " << last_kib << " KiB after " << polls
                        << " polls\n"
                        << Show(r);
  EXPECT_LT(stopped_at_kib, 2L << 20) << "rank 2 had filled its block already";
  const bool gone = !testing::StillRunning(stopped);
  if (!gone) kill(stopped, SIGKILL);
  EXPECT_TRUE(gone) << "rank 2 was left behind";
  EXPECT_EQ(r.exit_code, 1) << Show(r);
  EXPECT_LT(r.seconds_after_action, 30) << Show(r);
  // Ranks 0 and 1 both name it; nothing ran, no report. (Rank 2 may add
  // a line naming rank 0: when Open MPI ends the job it continues a
  // stopped process before it terminates it, and rank 2, past its own
  // deadline by then, finds rank 0 gone.)
  EXPECT_GE(CountOf(r.err,
                    ") did not answer for 3 s before the start (--mpi-timeout); no rank "
                    "ran it"),
            2u)
      << Show(r);
  EXPECT_EQ(CountOf(r.err, "loadcell: error: rank 2 ("), 2u) << Show(r);
  EXPECT_EQ(CountOf(r.out, "General statistics:"), 0u) << Show(r);
}

// A rank that cannot start (its block cannot be mapped) stops every rank
// before any event: rank 0 prints its error in one line naming it, the
// others print nothing, and every rank exits with the code a run of one
// process with that block gives.
TEST(MpiStartTest, ARankThatCannotStartStopsEveryRankBeforeAnyEvent) {
  const std::vector<std::string> args = {"memory", "--memory-scope=global", "--time=30",
                                         "--mpi-mixed=on"};
  const std::string huge = "--memory-block-size=64T --memory-total-size=0";
  std::vector<std::string> cmd = MpirunCommand(2, args, /*timeout_s=*/60);
  testing::AddShellRank(cmd, "exec " + LoadcellBinary() + " memory --memory-scope=global " +
                                 "--time=30 --mpi-mixed=on " + huge);
  testing::ChildWatch watch;
  watch.timeout_s = 90;
  const ProcessResult r = RunCommand(cmd, watch);
  const ProcessResult single =
      testing::RunLoadcell({"memory", "--memory-scope=global", "--time=30",
                            "--memory-block-size=64T", "--memory-total-size=0"});
  ASSERT_NE(single.exit_code, 0) << Show(single);
  const std::string why = single.err.substr(single.err.find("error: ") + 7);
  EXPECT_EQ(r.exit_code, single.exit_code) << Show(r);
  EXPECT_EQ(CountOf(r.err, "loadcell: error: "), 1u) << Show(r);
  EXPECT_EQ(CountOf(r.err, "loadcell: error: rank 2 ("), 1u) << Show(r);
  EXPECT_EQ(CountOf(r.err, "): " + why), 1u) << Show(r) << "\n" << why;
  EXPECT_EQ(CountOf(r.out, "General statistics:"), 0u) << Show(r);
}

}  // namespace
}  // namespace loadcell
