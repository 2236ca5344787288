// The vote that ends each part of a prepare or cleanup across MPI ranks
// (ProcessGroup::Agree) has a deadline: a rank stopped in the middle of its
// part ends every rank after --mpi-timeout with one line naming it, while
// a rank whose part merely takes long (and whose control thread still
// answers) holds nobody up wrongly. Through the real binary under mpirun,
// with a Lua script whose prepare runs on every rank.

#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <string>
#include <vector>

#include "testing/mpirun.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

namespace fs = std::filesystem;
using testing::CountOf;
using testing::ProcessResult;
using testing::Show;

constexpr int kAgreeRanks = 3;

// prepare on every rank: rank --stop-rank writes its pid and stops itself
// (SIGSTOP: the whole process, its control thread too); rank --slow-rank
// takes --slow-s seconds; each rank that finishes writes prepare_<rank>.
constexpr char kAgreeScript[] = R"LUA(
local ffi = require("ffi")
ffi.cdef[[int getpid(void); int kill(int pid, int sig); int usleep(unsigned int usec);]]
sysbench.cmdline.options = {out = {"folder for the files", "."}, stop_rank = {"", -1},
                            slow_rank = {"", -1}, slow_s = {"", 0}}
sysbench.cmdline.every_rank = {prepare = true}
function prepare()
  local out = sysbench.opt.out
  if sysbench.rank == sysbench.opt.stop_rank then
    local f = assert(io.open(out .. "/stopped.pid.tmp", "w"))
    f:write(ffi.C.getpid(), "\n")
    f:close()
    assert(os.rename(out .. "/stopped.pid.tmp", out .. "/stopped.pid"))
    ffi.C.kill(ffi.C.getpid(), 19)
  end
  if sysbench.rank == sysbench.opt.slow_rank then
    for _ = 1, sysbench.opt.slow_s * 10 do ffi.C.usleep(100000) end
  end
  local f = assert(io.open(out .. "/prepare_" .. sysbench.rank, "w"))
  f:close()
end
function event() end
)LUA";

class MpiAgreeTest : public ::testing::Test {
 protected:
  std::vector<std::string> Args(std::vector<std::string> more) const {
    std::vector<std::string> a = {script_, "--out=" + out_.path()};
    a.insert(a.end(), more.begin(), more.end());
    return a;
  }
  bool Prepared(int rank) const { return fs::exists(out_ / ("prepare_" + std::to_string(rank))); }
  testing::TempDir tmp_;
  testing::TempDir out_;
  const std::string script_ = tmp_.Write("agree.lua", kAgreeScript);
};

// Rank 2 stops inside its prepare: ranks 0 and 1 finish theirs, wait 3 s
// (--mpi-timeout) for its word and end with one line naming it and what the
// ranks were doing; mpirun then ends the stopped rank. Before the vote had
// a deadline, ranks 0 and 1 waited inside an MPI collective forever.
TEST_F(MpiAgreeTest, ARankStoppedInItsPartEndsEveryRankAfterTheTimeout) {
  std::vector<std::string> command = testing::MpirunCommand(
      kAgreeRanks, Args({"--stop-rank=2", "--mpi-timeout=3", "prepare"}), /*timeout_s=*/90);
  int stopped = 0;
  testing::ChildWatch watch;
  watch.timeout_s = 120;
  watch.marker = "";
  watch.during = [&](int) { stopped = testing::WaitForPidFile(out_ / "stopped.pid"); };
  const ProcessResult r = testing::RunCommand(command, watch);
  ASSERT_GT(stopped, 0) << Show(r);
  const bool gone = !testing::StillRunning(stopped);
  if (!gone) kill(stopped, SIGKILL);
  EXPECT_TRUE(gone) << "rank 2 was left behind\n" << Show(r);
  EXPECT_NE(r.exit_code, 0) << Show(r);
  EXPECT_NE(r.exit_code, 124) << "a hang, ended by timeout\n" << Show(r);
  EXPECT_GE(CountOf(r.err,
                    "did not answer for 3 s (--mpi-timeout) while the ranks were to run the "
                    "script's prepare command; every rank stopped"),
            1u)
      << Show(r);
  EXPECT_GE(CountOf(r.err, "loadcell: error: rank 2 ("), 1u) << Show(r);
  // (Rank 2 may still write its file: mpirun ends a job's ranks with
  // SIGCONT before SIGTERM.)
  EXPECT_TRUE(Prepared(0) && Prepared(1)) << Show(r);
  // 3 s of silence and mpirun's own end, with margin for a loaded machine
  // (a hang lasts until `timeout`: 90 s).
  EXPECT_LT(r.seconds_after_action, 60) << Show(r);
}

// Rank 1's part takes 6 s, three times --mpi-timeout: its control thread
// keeps saying it is there, so the vote waits for it and the prepare
// succeeds on every rank.
TEST_F(MpiAgreeTest, APartLongerThanTheTimeoutIsNotSilence) {
  const ProcessResult r = testing::RunMpi(
      kAgreeRanks, Args({"--slow-rank=1", "--slow-s=6", "--mpi-timeout=2", "prepare"}));
  EXPECT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_EQ(CountOf(r.err, "did not answer"), 0u) << Show(r);
  for (int rank = 0; rank < kAgreeRanks; ++rank) EXPECT_TRUE(Prepared(rank)) << rank;
}

}  // namespace
}  // namespace loadcell
