// Lua scripts across MPI ranks: the script runs on every rank with global
// thread ids and distinct seeds, prepare and cleanup run once (on rank 0)
// unless the script lists them in sysbench.cmdline.every_rank, and a rank
// whose command fails ends every rank, as does one whose options are
// refused. Through the real binary under
// mpirun; the script writes what it saw to one file per thread or rank.

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
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
using testing::RunMpi;
using testing::Show;

constexpr int kLuaRanks = 3;

// Writes "<what>_<n>" in --out holding the rank, the number of ranks and a
// random number (prepare, cleanup: n is the rank; thread_init: the tid).
constexpr char kScript[] = R"LUA(
sysbench.cmdline.options = {out = {"folder for the files", "."}, fail_rank = {"", -1}}
sysbench.cmdline.every_rank = {cleanup = true}
local function note(what, n)
  local f = assert(io.open(sysbench.opt.out .. "/" .. what .. "_" .. n, "w"))
  f:write(sysbench.rank, " ", sysbench.ranks, " ", sysbench.rand.uniform(1, 1000000000), "\n")
  f:close()
end
function prepare() note("prepare", sysbench.rank) end
function cleanup()
  if sysbench.rank == sysbench.opt.fail_rank then error("cleanup failed here") end
  note("cleanup", sysbench.rank)
end
function thread_init() note("tid", sysbench.tid) end
function event() end
)LUA";

// The files of `dir` by name, each with its one line.
std::map<std::string, std::string> Notes(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.find('_') == std::string::npos) continue;
    out[name] = testing::ReadFile(e.path().string());
  }
  return out;
}

class LuaMpiTest : public ::testing::Test {
 protected:
  std::vector<std::string> Args(std::vector<std::string> more) const {
    std::vector<std::string> a = {script_, "--out=" + out_.path(), "--threads=2"};
    a.insert(a.end(), more.begin(), more.end());
    return a;
  }
  void Clear() const {
    for (const auto& e : fs::directory_iterator(out_.path())) fs::remove(e.path());
  }
  testing::TempDir tmp_;
  testing::TempDir out_;
  const std::string script_ = tmp_.Write("ranks.lua", kScript);
};

TEST_F(LuaMpiTest, ThreadIdsAreGlobalAndSeedsDistinct) {
  const ProcessResult r = RunMpi(kLuaRanks, Args({"--events=60", "--rand-seed=7", "run"}));
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_NE(r.out.find("total number of events:              180\n"), std::string::npos) << Show(r);
  const std::map<std::string, std::string> first = Notes(out_.path());
  ASSERT_EQ(first.size(), 2u * kLuaRanks) << Show(r);
  std::set<std::string> numbers;
  for (int tid = 0; tid < 2 * kLuaRanks; ++tid) {
    const std::string name = "tid_" + std::to_string(tid);
    ASSERT_EQ(first.count(name), 1u) << name;
    const std::string& line = first.at(name);
    // Tids 0, 1 on rank 0, 2, 3 on rank 1...
    EXPECT_EQ(line.substr(0, 4), std::to_string(tid / 2) + " " + std::to_string(kLuaRanks) + " ")
        << name << ": " << line;
    numbers.insert(line.substr(4));
  }
  EXPECT_EQ(numbers.size(), 2u * kLuaRanks) << "every thread of every rank its own seed";
  EXPECT_NE(r.out.find("every rank uses this seed"), std::string::npos) << Show(r);
  // The same --rand-seed gives every thread the same numbers again.
  Clear();
  ASSERT_EQ(RunMpi(kLuaRanks, Args({"--events=60", "--rand-seed=7", "run"})).exit_code, 0);
  EXPECT_EQ(Notes(out_.path()), first);
}

TEST_F(LuaMpiTest, PrepareRunsOnceAndCleanupWhereTheScriptAsks) {
  const ProcessResult p = RunMpi(kLuaRanks, Args({"prepare"}));
  ASSERT_EQ(p.exit_code, 0) << Show(p);
  EXPECT_EQ(Notes(out_.path()).size(), 1u) << Show(p);
  EXPECT_EQ(Notes(out_.path()).count("prepare_0"), 1u);
  Clear();
  // cleanup is in sysbench.cmdline.every_rank: each rank runs it.
  const ProcessResult c = RunMpi(kLuaRanks, Args({"cleanup"}));
  ASSERT_EQ(c.exit_code, 0) << Show(c);
  const std::map<std::string, std::string> notes = Notes(out_.path());
  ASSERT_EQ(notes.size(), static_cast<size_t>(kLuaRanks)) << Show(c);
  for (int rank = 0; rank < kLuaRanks; ++rank) {
    EXPECT_EQ(notes.count("cleanup_" + std::to_string(rank)), 1u) << rank;
  }
}

TEST_F(LuaMpiTest, ARankWhoseCommandFailsEndsEveryRank) {
  const ProcessResult r = RunMpi(kLuaRanks, Args({"--fail-rank=1", "cleanup"}));
  EXPECT_EQ(r.exit_code, 1) << Show(r);
  EXPECT_NE(r.err.find("cleanup failed here"), std::string::npos) << Show(r);
  // The other ranks name it (mpirun may interleave the ranks' lines).
  EXPECT_EQ(CountOf(r.err, "rank 1 ("), static_cast<size_t>(kLuaRanks - 1)) << Show(r);
  const std::map<std::string, std::string> notes = Notes(out_.path());
  EXPECT_EQ(notes.count("cleanup_0"), 1u);
  EXPECT_EQ(notes.count("cleanup_1"), 0u);
}

// A rank whose script options are refused still joins the others: one
// line, rank 0's, naming it, exit 2 as the run of one process, and no rank
// runs the script.
TEST_F(LuaMpiTest, ARankWhoseOptionsAreRefusedIsOneLineNamingIt) {
  std::vector<std::string> command =
      testing::MpirunCommand(kLuaRanks - 1, Args({"--events=60", "run"}), /*timeout_s=*/60);
  testing::AddLoadcellRank(command, Args({"--events=60", "--no-such-option=1", "run"}));
  testing::ChildWatch watch;
  watch.timeout_s = 90;
  const ProcessResult r = testing::RunCommand(command, watch);
  EXPECT_EQ(r.exit_code, 2) << Show(r);
  EXPECT_EQ(CountOf(r.err, "loadcell: error: "), 1u) << Show(r);
  EXPECT_EQ(CountOf(r.err, "loadcell: error: rank 2 ("), 1u) << Show(r);
  EXPECT_EQ(CountOf(r.err, "--no-such-option"), 1u) << Show(r);
  EXPECT_TRUE(Notes(out_.path()).empty()) << Show(r);
}

}  // namespace
}  // namespace loadcell
