// `loadcell dbsim --user-depth=N`: several of a user's I/Os in flight at
// once, through the binary, 1 s on a small file set: a random user and a
// read-ahead user of one thread each reach more than one I/O in flight and
// never more than they were given, a user kept at depth 1 never has two,
// every page is still checked with no false failure, and a torn write
// injected through the FileSystem seam is still caught and named at depth 4.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "testing/dbsim_run.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell::testing {
namespace {

// 4 MiB of 8 KiB pages (512), a 2 MiB log, buffered; one random user, one
// read-ahead user, one audit user, one thread each; no bulk update user (its
// rewrites of whole runs would hide an injected fault from the reads).
constexpr const char* kDepthConfig =
    "[CONFIG]\nTestCycles=1\nTestCycleDuration=1\nNoBuffering=FALSE\nWriteThrough=FALSE\n"
    "StopOnError=FALSE\n"
    "[RandomUser]\nUserCount=1\nSleepAfter=0\nRandomUserReadWriteRatio=9000\n"
    "[AuditUser]\nUserCount=1\nAuditDelay=0\n"
    "[ReadAheadUser]\nUserCount=1\nRADelay=10\n"
    "[BulkUpdateUser]\nUserCount=0\n"
    "[File1]\nFileName=data.mdx\nInitialSize=4\n"
    "[File2]\nFileName=log.ldx\nInitialSize=2\nLogFile=TRUE\n";

// `reads`: RandomUserReadWriteRatio (few updates keep an injected fault
// from being overwritten before a read finds it); `unbuffered`: NoBuffering
// (each read then waits for the device, long enough for the pool's
// threads to overlap).
ProcessResult DbsimAtDepth(const TempDir& dir, const std::vector<std::string>& extra,
                           const std::string& reads = "9000", bool unbuffered = false) {
  std::string config = kDepthConfig;
  config.replace(config.find("Ratio=9000"), 10, "Ratio=" + reads);
  if (unbuffered) config.replace(config.find("NoBuffering=FALSE"), 17, "NoBuffering=TRUE");
  dir.Write("depth.ini", config);
  std::vector<std::string> args = {"dbsim", "-cfg", "depth.ini", "-dir", "."};
  args.insert(args.end(), extra.begin(), extra.end());
  ChildWatch w;
  w.cwd = dir.path();
  w.timeout_s = 120;
  return RunLoadcell(args, w);
}

const nlohmann::json* User(const nlohmann::json& doc, const std::string& name) {
  for (const auto& u : doc["users"]) {
    if (u["name"] == name) return &u;
  }
  return nullptr;
}

// Unbuffered, in the build tree (a tmpfs refuses O_DIRECT).
TEST(DbsimDepth, UsersReachTheirDepthAndEveryPageIsStillChecked) {
  TempDir dir(BuildTree());
  const ProcessResult r = DbsimAtDepth(dir, {"--user-depth=4", "--format=json"}, "9000", true);
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  const nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << r.out;
  EXPECT_EQ(doc["page_checks"]["failed"], 0) << r.out;
  uint64_t checked = 0;
  for (const auto& u : doc["users"]) {
    checked += u["pages_checked"].get<uint64_t>();
    // Never more in flight at once than its threads x its depth.
    const int64_t most = u["io_depth"].get<int64_t>() * u["threads"].get<int64_t>();
    EXPECT_LE(u["peak_in_flight"].get<int64_t>(), most) << u.dump();
    EXPECT_LE(u["mean_in_flight"].get<double>(), static_cast<double>(most) + 0.01) << u.dump();
  }
  EXPECT_GE(checked, 512u);  // the end-of-cycle audit reads every page
  const nlohmann::json* random = User(doc, "random user");
  ASSERT_NE(random, nullptr) << r.out;
  EXPECT_EQ((*random)["io_depth"], 4);
  // Whether the random user's short reads overlap is the scheduler's on a
  // loaded machine: its depth is shown by the read-ahead user's longer runs.
  EXPECT_GT((*random)["mean_in_flight"].get<double>(), 0.0) << random->dump();
  EXPECT_GT((*random)["io"]["read"]["count"].get<uint64_t>(), 0u) << random->dump();
  const nlohmann::json* read_ahead = User(doc, "read-ahead user");
  ASSERT_NE(read_ahead, nullptr) << r.out;
  EXPECT_EQ((*read_ahead)["io_depth"], 4);
  EXPECT_GE((*read_ahead)["peak_in_flight"].get<int64_t>(), 2) << read_ahead->dump();
  EXPECT_GT((*read_ahead)["io"]["scatter_read"]["count"].get<uint64_t>(), 0u);
  // The audit user keeps one I/O at a time: it never had two in flight.
  const nlohmann::json* audit = User(doc, "audit user");
  ASSERT_NE(audit, nullptr) << r.out;
  EXPECT_EQ((*audit)["io_depth"], 1);
  EXPECT_EQ((*audit)["peak_in_flight"], 1) << audit->dump();
}

// MaxOutstandingIO=1 alone (no TargetIODuration): the gate admits one I/O
// at a time over every user, so no user ever has two in flight, at depth 4
// too (an I/O is counted out before its slot admits the next one).
TEST(DbsimDepth, MaxOutstandingIoOfOneKeepsEveryUserAtOneInFlight) {
  TempDir dir;
  std::string config = kDepthConfig;
  config.replace(config.find("StopOnError=FALSE\n"), 18, "StopOnError=FALSE\nMaxOutstandingIO=1\n");
  config.replace(config.find("UserCount=1\nSleepAfter"), 11, "UserCount=2");
  dir.Write("one.ini", config);
  ChildWatch w;
  w.cwd = dir.path();
  w.timeout_s = 120;
  const ProcessResult r =
      RunLoadcell({"dbsim", "-cfg", "one.ini", "-dir", ".", "--user-depth=4", "--format=json"}, w);
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  const nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << r.out;
  for (const auto& u : doc["users"]) {
    EXPECT_LE(u["peak_in_flight"].get<int64_t>(), 1) << u.dump();
  }
  for (const char* name : {"random user", "read-ahead user", "audit user"}) {
    const nlohmann::json* u = User(doc, name);
    ASSERT_NE(u, nullptr) << name << "\n" << r.out;
    EXPECT_EQ((*u)["peak_in_flight"], 1) << u->dump();
  }
  EXPECT_EQ((*User(doc, "random user"))["threads"], 2) << r.out;
}

TEST(DbsimDepth, ATornWriteIsCaughtAtDepthFour) {
  TempDir dir;
  const ProcessResult r = RunUntilInjectedFaultFires([&dir] {
    return DbsimAtDepth(dir, {"--user-depth=4", "--inject-fault=torn-write:5"}, "9900");
  });
  EXPECT_EQ(r.exit_code, 1) << Show(r);
  const auto checks = r.out.find("Page checks:");
  ASSERT_NE(checks, std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  injected fault (--inject-fault=torn-write:5): fired\n", checks),
            std::string::npos)
      << Show(r);
  EXPECT_NE(r.out.find("  torn page: ", checks), std::string::npos) << r.out.substr(checks);
  EXPECT_NE(r.out.find("depth 4 per thread"), std::string::npos) << r.out;
}

TEST(DbsimDepth, ADepthOutOfRangeIsRefusedNamingTheOption) {
  TempDir dir;
  const ProcessResult r = DbsimAtDepth(dir, {"--user-depth=0"});
  EXPECT_EQ(r.exit_code, 2) << Show(r);
  EXPECT_NE(r.err.find("--user-depth 0: a whole number from 1 to 64"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.File("data.mdx")));
}

}  // namespace
}  // namespace loadcell::testing
