// [CONFIG] keys of `loadcell dbsim` seen from outside the run
// (docs/dbsim.md, "SQLIOSim's configuration file"): ErrorFile writes the
// XML error log without -log, and is refused on one of the run's files;
// DeleteFilesAtStartup=FALSE keeps the last run's files and writes them
// again in place.

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell::testing {
// Named, not anonymous: a unity build joins this file with the other
// integration tests.
namespace dbsim_config_keys_test {

// One second on 4 MiB of data and a 2 MiB log, buffered; `config_extra`
// added to [CONFIG].
std::string ShortConfig(const std::string& config_extra) {
  return "[CONFIG]\nTestCycles=1\nTestCycleDuration=1\nNoBuffering=FALSE\nWriteThrough=FALSE\n" +
         config_extra +
         "[RandomUser]\nUserCount=1\nSleepAfter=0\n"
         "[AuditUser]\nUserCount=1\nAuditDelay=0\n"
         "[ReadAheadUser]\nUserCount=1\nRADelay=10\n"
         "[File1]\nFileName=data.mdx\nInitialSize=4\n"
         "[File2]\nFileName=log.ldx\nInitialSize=2\nLogFile=TRUE\n";
}

ProcessResult DbsimWith(const TempDir& dir, const std::string& config) {
  dir.Write("keys.ini", config);
  ChildWatch w;
  w.cwd = dir.path();
  w.timeout_s = 60;
  return RunLoadcell({"dbsim", "-cfg", "keys.ini", "-dir", "."}, w);
}

TEST(DbsimConfigKeys, ErrorFileWritesTheXmlLogWithoutLog) {
  TempDir dir;
  const ProcessResult r = DbsimWith(dir, ShortConfig("ErrorFile=errors.xml\n"));
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  const std::string log = dir.Read("errors.xml");
  EXPECT_EQ(log.rfind("<?xml", 0), 0u) << log;
  EXPECT_NE(log.find("run ended: "), std::string::npos) << log;
  EXPECT_TRUE(log.ends_with("</LOG>\n")) << log;
  // Without ErrorFile (and -log): no log.
  TempDir none;
  const ProcessResult without = DbsimWith(none, ShortConfig(""));
  ASSERT_EQ(without.exit_code, 0) << Show(without);
  EXPECT_FALSE(std::filesystem::exists(none / "sqliosim.log.xml"));
  EXPECT_FALSE(std::filesystem::exists(none / "errors.xml"));
}

TEST(DbsimConfigKeys, ErrorFileOnOneOfTheRunsFilesIsRefused) {
  TempDir dir;
  const ProcessResult r = DbsimWith(dir, ShortConfig("ErrorFile=./data.mdx\n"));
  EXPECT_EQ(r.exit_code, 2) << Show(r);
  EXPECT_NE(r.err.find("ErrorFile ./data.mdx: that is the run's file data.mdx"), std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "data.mdx"));
}

TEST(DbsimConfigKeys, DeleteFilesAtStartupFalseReusesTheFilesInPlace) {
  TempDir dir;
  const std::string keep = ShortConfig("DeleteFilesAtStartup=FALSE\n");
  const ProcessResult first = DbsimWith(dir, keep);
  ASSERT_EQ(first.exit_code, 0) << Show(first);
  // A second name of the first run's file: the same file while it is kept.
  std::error_code linked;
  std::filesystem::create_hard_link(dir / "data.mdx", dir / "data.link", linked);
  if (linked) GTEST_SKIP() << "no hard links here: " << linked.message();
  const ProcessResult kept = DbsimWith(dir, keep);
  ASSERT_EQ(kept.exit_code, 0) << Show(kept);
  EXPECT_TRUE(std::filesystem::equivalent(dir / "data.mdx", dir / "data.link"));
  EXPECT_EQ(std::filesystem::file_size(dir / "data.mdx"), uint64_t{4} << 20);
  // TRUE (the default): removed and made again, another file.
  const ProcessResult made = DbsimWith(dir, ShortConfig("DeleteFilesAtStartup=TRUE\n"));
  ASSERT_EQ(made.exit_code, 0) << Show(made);
  EXPECT_FALSE(std::filesystem::equivalent(dir / "data.mdx", dir / "data.link"));
}

}  // namespace dbsim_config_keys_test
}  // namespace loadcell::testing
