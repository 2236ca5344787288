// The settings of a run across ranks read from the command line before
// anything else (for the errors found before MPI starts), and the error
// lines held meanwhile. The ranks' one line itself is tested under mpirun
// (tests/integration/mpi_vote_test.cpp).

#include "cli/cluster_setup.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_style.h"

namespace loadcell {
namespace {

TEST(SpelledClusterSettingsTest, ReadsMpiAndItsTimeoutAsSpelled) {
  struct Case {
    std::vector<std::string> args;
    MpiMode mode;
    double timeout_s;
  };
  const std::vector<Case> cases = {
      {{"nosuchtest", "run"}, MpiMode::kAuto, kDefaultMpiTimeoutS},
      {{"cpu", "--mpi", "run"}, MpiMode::kOn, kDefaultMpiTimeoutS},
      {{"cpu", "--mpi=off", "run"}, MpiMode::kOff, kDefaultMpiTimeoutS},
      {{"--mpi=no", "--test=cpu", "run"}, MpiMode::kOff, kDefaultMpiTimeoutS},
      // A value that cannot be read counts as absent (its error comes later).
      {{"cpu", "--mpi=sometimes"}, MpiMode::kAuto, kDefaultMpiTimeoutS},
      {{"cpu", "--mpi-timeout=30s"}, MpiMode::kAuto, 30},
      {{"cpu", "--mpi-timeout=forever"}, MpiMode::kAuto, kDefaultMpiTimeoutS},
      {{"cpu", "--mpi-timeout=0.1s"}, MpiMode::kAuto, kDefaultMpiTimeoutS},
      // Other --mpi-* options are not --mpi.
      {{"cpu", "--mpi-files=shared", "--mpi-mixed=on"}, MpiMode::kAuto, kDefaultMpiTimeoutS},
  };
  for (const Case& c : cases) {
    const ClusterSettings s = SpelledClusterSettings(c.args);
    std::string name;
    for (const std::string& a : c.args) name += a + " ";
    EXPECT_EQ(s.mode, c.mode) << name;
    EXPECT_EQ(s.timeout_s, c.timeout_s) << name;
  }
}

TEST(HeldCliErrorsTest, HoldsErrorLinesUntilTakenAndPrintsWhatIsLeft) {
  std::ostringstream err;
  {
    HeldCliErrors held(err);
    PrintCliError(err, "unknown test 'x'");
    PrintSysbenchInvalidOption(err, "--nosuch=1");
    PrintCliWarning(err, "a warning is not held");
    EXPECT_EQ(err.str(), "loadcell: warning: a warning is not held\n");
    const std::vector<HeldCliError> lines = held.Take();
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0].line, "loadcell: error: unknown test 'x'\n");
    EXPECT_EQ(lines[0].message, "unknown test 'x'");
    EXPECT_EQ(lines[0].to, &err);
    EXPECT_EQ(lines[1].line, "invalid option: --nosuch=1\n");
    EXPECT_EQ(lines[1].message, "invalid option: --nosuch=1");
    // Taken: no longer held.
    PrintCliError(err, "after");
    EXPECT_NE(err.str().find("loadcell: error: after\n"), std::string::npos);
  }
  std::ostringstream left;
  {
    HeldCliErrors held(left);
    PrintCliError(left, "not taken");
    EXPECT_EQ(left.str(), "");
  }
  EXPECT_EQ(left.str(), "loadcell: error: not taken\n");
  // Without a launcher there is nothing to join: the lines as they were,
  // and the exit code.
  std::ostringstream alone;
  std::vector<HeldCliError> lines = {{"loadcell: error: x\n", "x"}};
  EXPECT_EQ(SayHeldErrorsAcrossRanks(ClusterSettings{}, lines, 2, alone), 2);
  EXPECT_EQ(alone.str(), "loadcell: error: x\n");
}

}  // namespace
}  // namespace loadcell
