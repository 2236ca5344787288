#include "cluster/launch.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "testing/status.h"

namespace loadcell {
namespace {

TEST(DetectLaunch, ReadsEachLaunchersEnvironment) {
  struct Case {
    const char* name;
    std::map<std::string, std::string> env;
    bool detected;
    const char* launcher;
    int rank;
    int size;
  };
  const std::vector<Case> cases = {
      {"plain", {}, false, "", 0, 1},
      {"open mpi",
       {{"OMPI_COMM_WORLD_RANK", "2"}, {"OMPI_COMM_WORLD_SIZE", "4"}},
       true,
       "Open MPI",
       2,
       4},
      {"open mpi also sets pmix",
       {{"OMPI_COMM_WORLD_RANK", "1"}, {"OMPI_COMM_WORLD_SIZE", "2"}, {"PMIX_RANK", "1"}},
       true,
       "Open MPI",
       1,
       2},
      {"pmix without a size", {{"PMIX_RANK", "3"}}, true, "PMIx", 3, 0},
      {"pmi (mpich hydra)", {{"PMI_RANK", "0"}, {"PMI_SIZE", "8"}}, true, "PMI", 0, 8},
      {"slurm", {{"SLURM_PROCID", "5"}, {"SLURM_NTASKS", "6"}}, true, "Slurm", 5, 6},
      {"slurm job without tasks", {{"SLURM_PROCID", "0"}}, false, "", 0, 1},
      {"not a number",
       {{"OMPI_COMM_WORLD_RANK", "x"}, {"OMPI_COMM_WORLD_SIZE", "4"}},
       false,
       "",
       0,
       1},
      {"size zero", {{"PMI_RANK", "0"}, {"PMI_SIZE", "0"}}, false, "", 0, 1},
      {"empty", {{"PMIX_RANK", ""}}, false, "", 0, 1},
  };
  for (const Case& c : cases) {
    const LaunchInfo got = DetectLaunch([&](const char* name) -> const char* {
      auto it = c.env.find(name);
      return it == c.env.end() ? nullptr : it->second.c_str();
    });
    EXPECT_EQ(got.detected, c.detected) << c.name;
    EXPECT_EQ(got.launcher, c.launcher) << c.name;
    EXPECT_EQ(got.rank, c.rank) << c.name;
    EXPECT_EQ(got.size, c.size) << c.name;
  }
}

TEST(ParseMpiMode, TakesAutoOnOffAndRefusesTheRest) {
  const std::vector<std::pair<std::string, MpiMode>> good = {
      {"auto", MpiMode::kAuto}, {"on", MpiMode::kOn},   {"yes", MpiMode::kOn},
      {"1", MpiMode::kOn},      {"off", MpiMode::kOff}, {"no", MpiMode::kOff},
  };
  for (const auto& [text, mode] : good) {
    Result<MpiMode> got = ParseMpiMode(text);
    ASSERT_OK(got) << text;
    EXPECT_EQ(*got, mode) << text;
  }
  for (const char* bad : {"", "maybe", "ON2"}) {
    Result<MpiMode> got = ParseMpiMode(bad);
    ASSERT_FALSE(got.ok()) << bad;
    EXPECT_EQ(got.status().message(), std::string("--mpi=") + bad + ": expected auto, on or off");
  }
}

}  // namespace
}  // namespace loadcell
