// `loadcell dbsim -log FILE` stopped from outside. SIGTERM ends the run with
// its report and the log put in place whole: no temporary is left. SIGKILL
// cannot be caught: the log's temporary stays, recorded in the folder's
// manifest, and the next run in that folder removes it, and never a file
// that only looks like one.

#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell::testing {
// Named, not anonymous: a unity build joins this file with the other
// integration tests.
namespace dbsim_outputs_test {

// A minute's cycle (stopped long before), on 4 MiB of data and a 2 MiB log.
constexpr const char* kLongConfig =
    "[CONFIG]\nTestCycles=1\nTestCycleDuration=60\nNoBuffering=FALSE\nWriteThrough=FALSE\n"
    "[RandomUser]\nUserCount=1\nSleepAfter=0\n"
    "[AuditUser]\nUserCount=1\nAuditDelay=0\n"
    "[ReadAheadUser]\nUserCount=1\nRADelay=10\n"
    "[File1]\nFileName=data.mdx\nInitialSize=4\n"
    "[File2]\nFileName=log.ldx\nInitialSize=2\nLogFile=TRUE\n";

constexpr const char* kTemporaryPrefix = ".errors.xml.loadcell-";

// The names in `dir` of errors.xml's temporaries.
std::set<std::string> LogTemporaries(const TempDir& dir) {
  std::set<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
    const std::string name = e.path().filename().string();
    if (name.rfind(kTemporaryPrefix, 0) == 0) out.insert(name);
  }
  return out;
}

ProcessResult DbsimRun(const TempDir& dir, const std::vector<std::string>& args,
                       ChildWatch w = {}) {
  std::vector<std::string> command = {"dbsim", "-cfg", "long.ini", "-dir", "."};
  command.insert(command.end(), args.begin(), args.end());
  w.cwd = dir.path();
  w.timeout_s = 60;
  return RunLoadcell(command, w);
}

// A run with -log errors.xml, sent `sig` once it runs.
ProcessResult StoppedRun(const TempDir& dir, int sig) {
  ChildWatch w;
  w.marker = "loadcell dbsim:";
  w.delay_ms = 300;
  w.during = [sig](int pid) { ::kill(pid, sig); };
  return DbsimRun(dir, {"-log", "errors.xml"}, w);
}

TEST(DbsimOutputsTest, SigtermPutsTheLogInPlaceWholeAndLeavesNoTemporary) {
  TempDir dir;
  dir.Write("long.ini", kLongConfig);
  const ProcessResult r = StoppedRun(dir, SIGTERM);
  EXPECT_EQ(r.exit_code, 130) << Show(r);
  const std::string log = dir.Read("errors.xml");
  EXPECT_EQ(log.rfind("<?xml", 0), 0u) << log;
  EXPECT_NE(log.find("run ended: "), std::string::npos) << log;
  EXPECT_TRUE(log.ends_with("</LOG>\n")) << log;
  EXPECT_EQ(Tree(dir.path()), (std::set<std::string>{"long.ini", "data.mdx", "log.ldx",
                                                     ".loadcell-sqlio.manifest", "errors.xml"}));
}

TEST(DbsimOutputsTest, AfterSigkillTheNextRunRemovesTheLogsTemporaryAndNothingElse) {
  TempDir dir;
  dir.Write("long.ini", kLongConfig);
  // Named as loadcell names a temporary, but no run recorded it.
  const std::string users = std::string(kTemporaryPrefix) + "0badf00d";
  dir.Write(users, "the user's");
  const ProcessResult killed = StoppedRun(dir, SIGKILL);
  ASSERT_EQ(killed.exit_code, 128 + SIGKILL) << Show(killed);
  const std::set<std::string> left = LogTemporaries(dir);
  ASSERT_EQ(left.size(), 2u);  // the killed run's, and the user's
  EXPECT_FALSE(std::filesystem::exists(dir / "errors.xml"));
  std::string killed_one;
  for (const std::string& name : left) {
    if (name != users) killed_one = name;
  }
  EXPECT_NE(
      dir.Read(".loadcell-sqlio.manifest").find("/" + killed_one + " by loadcell dbsim device="),
      std::string::npos)
      << dir.Read(".loadcell-sqlio.manifest");

  // The next run in that folder, whatever its log.
  const ProcessResult next = DbsimRun(dir, {"-d", "1", "-log", "other.xml"});
  EXPECT_EQ(next.exit_code, 0) << Show(next);
  EXPECT_EQ(LogTemporaries(dir), std::set<std::string>{users});
  EXPECT_EQ(dir.Read(users), "the user's");
  EXPECT_EQ(Tree(dir.path()),
            (std::set<std::string>{"long.ini", "data.mdx", "log.ldx", ".loadcell-sqlio.manifest",
                                   "other.xml", users}));
}

}  // namespace dbsim_outputs_test
}  // namespace loadcell::testing
