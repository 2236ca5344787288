// `loadcell dbsim --preset=sqlserver|postgresql|innodb` through the binary,
// briefly (-d 1 -size 4) on a real file system (the presets' unbuffered
// I/O): each runs every user with no failure at its page size; PostgreSQL's
// log is written in whole 8 KiB WAL blocks; InnoDB's pages go through the
// doublewrite area, a file loadcell makes and lists as its own.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell::testing {
namespace {

ProcessResult DbsimPreset(const TempDir& dir, const std::string& preset) {
  ChildWatch w;
  w.cwd = dir.path();
  w.timeout_s = 120;
  // A few users, the random ones updating often, so every writer writes.
  dir.Write("few.ini",
            "[RandomUser]\nUserCount=2\nRandomUserReadWriteRatio=5000\nSleepAfter=0\n"
            "[AuditUser]\nUserCount=1\nAuditDelay=0\n[ReadAheadUser]\nUserCount=1\n"
            "[BulkUpdateUser]\nUserCount=1\n");
  return RunLoadcell({"dbsim", "--preset=" + preset, "-cfg", "few.ini", "-dir", ".", "-d", "1",
                      "-size", "4", "--format=json"},
                     w);
}

nlohmann::json Parsed(const ProcessResult& r) {
  nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
  EXPECT_FALSE(doc.is_discarded()) << r.out;
  return doc;
}

TEST(DbsimPresets, EachPresetRunsEveryUserWithNoFailureAtItsPageSize) {
  for (const auto& [preset, page] : std::vector<std::pair<std::string, int>>{
           {"sqlserver", 8192}, {"postgresql", 8192}, {"innodb", 16384}}) {
    SCOPED_TRACE(preset);
    TempDir dir(BuildTree());
    const ProcessResult r = DbsimPreset(dir, preset);
    ASSERT_EQ(r.exit_code, 0) << Show(r);
    const nlohmann::json doc = Parsed(r);
    EXPECT_EQ(doc["page_size"], page);
    EXPECT_EQ(doc["page_checks"]["failed"], 0);
    EXPECT_EQ(doc["users"].size(), 7u) << r.out;  // six users and the audit pass
    uint64_t checked = 0;
    for (const auto& u : doc["users"]) checked += u["pages_checked"].get<uint64_t>();
    EXPECT_GE(checked, 4u * 1024 * 1024 / page) << r.out;
  }
}

TEST(DbsimPresets, PostgreSqlWritesItsLogInWholeWalBlocks) {
  TempDir dir(BuildTree());
  const ProcessResult r = DbsimPreset(dir, "postgresql");
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  const nlohmann::json doc = Parsed(r);
  const uint64_t log_bytes = doc["log"]["bytes_written"].get<uint64_t>();
  EXPECT_GT(log_bytes, 0u);
  EXPECT_EQ(log_bytes % 8192, 0u) << log_bytes;
}

TEST(DbsimPresets, InnoDbWritesThroughTheDoublewriteAreaItMakes) {
  TempDir dir(BuildTree());
  const ProcessResult r = DbsimPreset(dir, "innodb");
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  const nlohmann::json doc = Parsed(r);
  // The checkpoint's gather writes include the doublewrite copies: more
  // bytes written than the data file took.
  uint64_t user_bytes = 0;
  for (const auto& u : doc["users"]) {
    if (u["name"] == "checkpoint" || u["name"] == "bulk update user") {
      user_bytes += u["bytes_written"].get<uint64_t>();
    }
  }
  const uint64_t file_bytes = doc["files"][0]["bytes_written"].get<uint64_t>();
  EXPECT_GT(file_bytes, 0u);
  EXPECT_EQ(user_bytes, 2 * file_bytes) << r.out;
  EXPECT_NE(dir.Read(".loadcell-sqlio.manifest").find("created dbsim.dblwr 2097152 bytes"),
            std::string::npos)
      << dir.Read(".loadcell-sqlio.manifest");
}

// Without [FileN] sections, PostgreSQL's log file is one 16 MiB WAL
// segment (SQL Server's SQLIOSim's 50 MB log): as the folder's manifest
// lists the files the run made. The null engine: the files are holes.
TEST(DbsimPresets, PostgreSqlsLogIsOneWalSegment) {
  for (const auto& [preset, bytes] : std::vector<std::pair<std::string, std::string>>{
           {"postgresql", "16777216"}, {"sqlserver", "52428800"}}) {
    SCOPED_TRACE(preset);
    TempDir dir;
    dir.Write("few.ini",
              "[RandomUser]\nUserCount=1\n[AuditUser]\nUserCount=0\n"
              "[ReadAheadUser]\nUserCount=0\n[BulkUpdateUser]\nUserCount=0\n");
    ChildWatch w;
    w.cwd = dir.path();
    w.timeout_s = 120;
    const ProcessResult r = RunLoadcell(
        {"dbsim", "--preset=" + preset, "-cfg", "few.ini", "-dir", ".", "-d", "1", "--engine=null"},
        w);
    ASSERT_EQ(r.exit_code, 0) << Show(r);
    const std::string manifest = dir.Read(".loadcell-sqlio.manifest");
    EXPECT_NE(manifest.find("sqliosim.ldx " + bytes + " bytes"), std::string::npos) << manifest;
  }
}

TEST(DbsimPresets, AnUnknownPresetIsRefusedInOneLine) {
  TempDir dir;
  ChildWatch w;
  w.cwd = dir.path();
  const ProcessResult r = RunLoadcell({"dbsim", "--preset=oracle"}, w);
  EXPECT_EQ(r.exit_code, 2) << Show(r);
  EXPECT_NE(r.err.find("unknown preset 'oracle'"), std::string::npos) << r.err;
  EXPECT_TRUE(dir.IsEmpty());
}

}  // namespace
}  // namespace loadcell::testing
