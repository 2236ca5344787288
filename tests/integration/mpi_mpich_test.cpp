// MPI runs under MPICH's launcher (mpiexec.mpich): loadcell loads MPICH's
// library (another ABI than Open MPI's: cluster/mpi_mpich.cpp) and the merged
// report is the sum of the ranks'. And which library a launcher's
// environment chooses, seen without a launcher.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "testing/mpirun.h"
#include "testing/run_binary.h"

namespace loadcell {
namespace {

using testing::CountOf;
using testing::LoadcellBinary;
using testing::MpichCommand;
using testing::ProcessResult;
using testing::RunCommand;
using testing::Show;

ProcessResult RunMpich(int ranks, const std::vector<std::string>& args) {
  testing::ChildWatch watch;
  watch.timeout_s = 90;
  return RunCommand(MpichCommand(ranks, args), watch);
}

TEST(MpichRunTest, MergedEventsAreTheSumOfTheRanksEvents) {
  const ProcessResult r =
      RunMpich(2, {"cpu", "--cpu-max-prime=2000", "--threads=1", "--events=150", "--format=json"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  const nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(doc.is_discarded()) << Show(r);  // one document: only rank 0 prints
  EXPECT_EQ(doc["summary"]["events"], 300u);
  EXPECT_EQ(doc["summary"]["latency_ns"]["count"], 300u);
  EXPECT_EQ(doc["manifest"]["threads"], 2);
  const nlohmann::json& ranks = doc["cluster"]["ranks"];
  ASSERT_EQ(ranks.size(), 2u) << Show(r);
  for (int k = 0; k < 2; ++k) {
    EXPECT_EQ(ranks[k]["rank"], k);
    EXPECT_EQ(ranks[k]["events"], 150u);
    EXPECT_TRUE(ranks[k]["failure"].is_null());
  }
}

// The interval lines come from every rank (rank 0 takes them from any
// source: MPI_ANY_SOURCE, whose value differs between the ABIs).
TEST(MpichRunTest, IntervalLinesAreMergedAcrossRanks) {
  const ProcessResult r = RunMpich(
      2, {"cpu", "--cpu-max-prime=2000", "--threads=1", "--time=2", "--report-interval=1"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_EQ(CountOf(r.out, "] thds: 2 eps: "), 2u) << Show(r);
  EXPECT_EQ(CountOf(r.out, "Ranks: 2\n"), 1u) << Show(r);
}

// LD_DEBUG=files makes the dynamic loader name every library it opens.
TEST(MpichRunTest, LoadsMpichsLibraryNotOpenMpis) {
  std::vector<std::string> cmd = MpichCommand(1, {"cpu", "--events=1"});
  cmd.insert(cmd.begin() + 3, {"-env", "LD_DEBUG", "files"});
  const ProcessResult r = RunCommand(cmd, {});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_NE(r.err.find("libmpich.so.12"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("libmpi.so.40"), std::string::npos) << r.err;
}

// A launcher's variables without the launcher: MPI starts one rank alone,
// which is not the size the variables say; the message names the library
// the launcher chose.
TEST(MpiLibraryChoiceTest, TheLaunchersEnvironmentChoosesTheLibrary) {
  struct Case {
    std::vector<std::string> env;
    std::string library;
  };
  const std::vector<Case> cases = {
      {{"PMI_RANK=0", "PMI_SIZE=2"}, "MPICH (libmpich.so.12) started 1 rank(s) where the PMI"},
      {{"SLURM_PROCID=0", "SLURM_NTASKS=2"},
       "Open MPI (libmpi.so.40) started 1 rank(s) where the Slurm"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> cmd = {"env"};
    cmd.insert(cmd.end(), c.env.begin(), c.env.end());
    cmd.insert(cmd.end(), {LoadcellBinary(), "cpu", "--events=1"});
    const ProcessResult r = RunCommand(cmd, {});
    EXPECT_EQ(r.exit_code, 1) << c.env[0] << "\n" << Show(r);
    EXPECT_NE(r.err.find("loadcell: error: " + c.library), std::string::npos) << c.env[0] << "\n"
                                                                              << Show(r);
    EXPECT_EQ(r.out.find("General statistics"), std::string::npos) << Show(r);
  }
}

}  // namespace
}  // namespace loadcell
