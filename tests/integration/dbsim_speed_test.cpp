// `loadcell dbsim`'s speed options through the binary (docs/dbsim.md,
// "Speed"), 1 s runs on a 4 MiB data file: the null engine runs every user
// with every page still checked while its files stay holes (no page reaches
// them), and prints the simulation's own cost per page; an unverified run
// (--verify=off) does the I/O, checks no page and says so in the report and
// the verdict; both refuse a journal (exit 2).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell::testing {
namespace {

// 4 MiB of 8 KiB pages (512), a 2 MiB log, buffered; a user of each kind.
constexpr const char* kSpeedConfig =
    "[CONFIG]\nTestCycles=1\nTestCycleDuration=1\nNoBuffering=FALSE\nWriteThrough=FALSE\n"
    "[RandomUser]\nUserCount=1\nSleepAfter=0\n"
    "[AuditUser]\nUserCount=1\nAuditDelay=0\n"
    "[ReadAheadUser]\nUserCount=1\nRADelay=0\n"
    "[BulkUpdateUser]\nUserCount=1\nBUDelay=0\n"
    "[File1]\nFileName=data.mdx\nInitialSize=4\n"
    "[File2]\nFileName=log.ldx\nInitialSize=2\nLogFile=TRUE\n";

ProcessResult SpeedRun(const TempDir& dir, const std::vector<std::string>& extra) {
  dir.Write("speed.ini", kSpeedConfig);
  std::vector<std::string> args = {"dbsim", "-cfg", "speed.ini", "-dir", "."};
  args.insert(args.end(), extra.begin(), extra.end());
  ChildWatch w;
  w.cwd = dir.path();
  w.timeout_s = 120;
  return RunLoadcell(args, w);
}

nlohmann::json SpeedJson(const ProcessResult& r) {
  nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
  EXPECT_FALSE(doc.is_discarded()) << r.out;
  return doc;
}

const nlohmann::json* SpeedUser(const nlohmann::json& doc, const std::string& name) {
  for (const auto& u : doc["users"]) {
    if (u["name"] == name) return &u;
  }
  return nullptr;
}

uint64_t SpeedSum(const nlohmann::json& doc, const char* member) {
  uint64_t n = 0;
  for (const auto& u : doc["users"]) n += u[member].get<uint64_t>();
  return n;
}

bool SpeedAllZero(const std::string& path) {
  const std::string bytes = ReadFile(path);
  return !bytes.empty() && bytes.find_first_not_of('\0') == std::string::npos;
}

TEST(DbsimSpeed, TheNullEngineChecksEveryPageAndWritesNoneToTheFiles) {
  TempDir dir;
  const ProcessResult r = SpeedRun(dir, {"--engine=null", "--format=json"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  const nlohmann::json doc = SpeedJson(r);
  EXPECT_EQ(doc["engine"], "null");
  EXPECT_EQ(doc["verify"], true);
  EXPECT_EQ(doc["page_checks"]["failed"], 0) << r.out;
  // The end-of-cycle audit alone checks every page once.
  EXPECT_GE(SpeedSum(doc, "pages_checked"), 512u);
  const nlohmann::json& file = doc["files"][0];
  EXPECT_GT(file["writes"].get<uint64_t>() + file["gather_writes"].get<uint64_t>(), 0u) << file;
  EXPECT_GT(file["scatter_reads"].get<uint64_t>(), 0u) << file;
  // The cost per page: measured, above zero, finite.
  const nlohmann::json& checks = doc["page_checks"];
  ASSERT_TRUE(checks["verify_ns_per_page"].is_number()) << checks;
  const double ns = checks["verify_ns_per_page"].get<double>();
  EXPECT_GT(ns, 0.0);
  EXPECT_TRUE(std::isfinite(ns));
  EXPECT_GT(checks["verified_pages"].get<uint64_t>(),
            checks["verify_sampled_pages"].get<uint64_t>());
  EXPECT_GT(checks["verify_sampled_pages"].get<uint64_t>(), 0u);
  // No page reached the files: they are holes of their size, zeros.
  EXPECT_EQ(std::filesystem::file_size(dir.File("data.mdx")), 4u << 20);
  EXPECT_TRUE(SpeedAllZero(dir.File("data.mdx")));
  EXPECT_TRUE(SpeedAllZero(dir.File("log.ldx")));
  EXPECT_EQ(doc["manifest"]["targets"][0]["engine"], "null") << doc["manifest"]["targets"];
}

TEST(DbsimSpeed, AVerifiedRunPrintsItsCostPerPage) {
  TempDir dir;
  const ProcessResult r = SpeedRun(dir, {});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  const auto line = r.out.find("  verification cost: ");
  ASSERT_NE(line, std::string::npos) << r.out;
  const double us = std::stod(r.out.substr(line + 21));
  EXPECT_GT(us, 0.0) << r.out.substr(line, 200);
  EXPECT_TRUE(std::isfinite(us));
  EXPECT_NE(r.out.find(" us per page (", line), std::string::npos) << r.out.substr(line, 200);
  EXPECT_NE(r.out.find("M pages/s per core", line), std::string::npos) << r.out.substr(line, 200);
}

TEST(DbsimSpeed, AnUnverifiedRunReadsWithoutCheckingAndSaysSo) {
  TempDir dir;
  const ProcessResult r = SpeedRun(dir, {"--verify=off", "--format=json"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  const nlohmann::json doc = SpeedJson(r);
  EXPECT_EQ(doc["verify"], false);
  EXPECT_EQ(SpeedSum(doc, "pages_checked"), 0u) << r.out;
  EXPECT_EQ(doc["page_checks"]["verified"], false);
  EXPECT_TRUE(doc["page_checks"]["verify_ns_per_page"].is_null());
  // The audit users still read.
  const nlohmann::json* audit = SpeedUser(doc, "audit user");
  ASSERT_NE(audit, nullptr) << r.out;
  EXPECT_GT((*audit)["io"]["read"]["count"].get<uint64_t>(), 0u) << audit->dump();
  EXPECT_GT((*audit)["bytes_read"].get<uint64_t>(), 0u);
  // The verdict says no page was checked.
  bool said = false;
  for (const auto& c : doc["verdict"]["not_passed"]) {
    if (c["id"] == "page-checks") {
      said = true;
      EXPECT_EQ(c["level"], "warn");
      EXPECT_NE(c["seen"].get<std::string>().find("not verified"), std::string::npos) << c;
    }
  }
  EXPECT_TRUE(said) << doc["verdict"];
  EXPECT_NE(doc["verdict"]["overall"], "valid");
  // The data file was read and written through the file system.
  const nlohmann::json& file = doc["files"][0];
  EXPECT_GT(file["bytes_written"].get<uint64_t>(), 0u) << file;
}

TEST(DbsimSpeed, TheTextOfAnUnverifiedRunSaysNoPageWasChecked) {
  TempDir dir;
  const ProcessResult r = SpeedRun(dir, {"--verify=off", "--engine=null"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_NE(r.out.find("null engine (no file I/O), pages not verified"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  not verified (--verify=off): no page stamped or checked"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("pages not verified (--verify=off)", r.out.find("Page checks:")),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("verification cost"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("every page read back was the version last written"), std::string::npos)
      << r.out;
}

TEST(DbsimSpeed, AJournalOrABadValueIsRefused) {
  TempDir dir;
  ProcessResult r = SpeedRun(dir, {"--verify=off", "--journal=j.log"});
  EXPECT_EQ(r.exit_code, 2) << Show(r);
  EXPECT_NE(r.err.find("--verify=off goes with no --journal"), std::string::npos) << r.err;
  r = SpeedRun(dir, {"--engine=null", "--journal=j.log"});
  EXPECT_EQ(r.exit_code, 2) << Show(r);
  EXPECT_NE(r.err.find("--engine=null goes with no --journal"), std::string::npos) << r.err;
  r = SpeedRun(dir, {"--engine=libaio"});
  EXPECT_EQ(r.exit_code, 2) << Show(r);
  EXPECT_NE(r.err.find("dbsim: --engine: 'libaio' is not a choice (valid: sync, null)"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.File("data.mdx")));
}

}  // namespace
}  // namespace loadcell::testing
