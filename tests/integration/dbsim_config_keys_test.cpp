// [CONFIG] keys of `loadcell dbsim` seen from outside the run
// (docs/dbsim.md, "SQLIOSim's configuration file"): ErrorFile writes the
// XML error log without -log, and is refused on one of the run's files;
// DeleteFilesAtStartup=FALSE keeps the last run's files and writes them
// again in place; -dir, CacheHitRatio, AllowIOBursts, UserCount=-1 and
// DelayAfterCycles each seen in what the run did.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
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
// added to [CONFIG], `random` and `read_ahead` the users' sections.
std::string ShortConfig(const std::string& config_extra,
                        const std::string& random = "UserCount=1\nSleepAfter=0\n",
                        const std::string& read_ahead = "UserCount=1\nRADelay=10\n") {
  return "[CONFIG]\nTestCycles=1\nTestCycleDuration=1\nNoBuffering=FALSE\nWriteThrough=FALSE\n" +
         config_extra + "[RandomUser]\n" + random +
         "[AuditUser]\nUserCount=1\nAuditDelay=0\n"
         "[ReadAheadUser]\n" +
         read_ahead +
         "[File1]\nFileName=data.mdx\nInitialSize=4\n"
         "[File2]\nFileName=log.ldx\nInitialSize=2\nLogFile=TRUE\n";
}

ProcessResult DbsimWith(const TempDir& dir, const std::string& config,
                        const std::vector<std::string>& extra = {}) {
  dir.Write("keys.ini", config);
  ChildWatch w;
  w.cwd = dir.path();
  w.timeout_s = 60;
  std::vector<std::string> args = {"dbsim", "-cfg", "keys.ini"};
  if (std::find(extra.begin(), extra.end(), "-dir") == extra.end()) {
    args.insert(args.end(), {"-dir", "."});
  }
  args.insert(args.end(), extra.begin(), extra.end());
  return RunLoadcell(args, w);
}

// The run's JSON users by name.
std::map<std::string, nlohmann::json> UsersOf(const ProcessResult& r) {
  std::map<std::string, nlohmann::json> users;
  const nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
  if (doc.is_discarded()) return users;
  for (const auto& u : doc["users"]) users[u["name"].get<std::string>()] = u;
  return users;
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

// -dir DIR: the data files, the log and the manifest are made in DIR,
// nothing in the working folder.
TEST(DbsimConfigKeys, DirPutsTheFilesAndTheManifestInItsFolder) {
  TempDir dir;
  std::filesystem::create_directory(dir / "sub");
  const ProcessResult r = DbsimWith(dir, ShortConfig(""), {"-dir", "sub", "-d", "1"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_EQ(std::filesystem::file_size(dir / "sub/data.mdx"), uint64_t{4} << 20);
  EXPECT_EQ(std::filesystem::file_size(dir / "sub/log.ldx"), uint64_t{2} << 20);
  const std::string manifest = dir.Read("sub/.loadcell-sqlio.manifest");
  EXPECT_NE(manifest.find("created data.mdx "), std::string::npos) << manifest;
  EXPECT_NE(manifest.find("created log.ldx "), std::string::npos) << manifest;
  std::vector<std::string> here;
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
    here.push_back(e.path().filename().string());
  }
  std::sort(here.begin(), here.end());
  EXPECT_EQ(here, (std::vector<std::string>{"keys.ini", "sub"}));
}

// CacheHitRatio: the share of the random user's page accesses found in the
// buffer pool, counted as cache hits and not read.
TEST(DbsimConfigKeys, CacheHitRatioIsTheShareOfRandomAccessesNotRead) {
  struct Row {
    int ratio;
    double least, most;  // the share of accesses that were hits
  };
  for (const Row& row : {Row{10000, 1.0, 1.0}, Row{5000, 0.35, 0.65}, Row{0, 0.0, 0.0}}) {
    SCOPED_TRACE(row.ratio);
    TempDir dir;
    const ProcessResult r = DbsimWith(
        dir, ShortConfig("CacheHitRatio=" + std::to_string(row.ratio) + "\n"), {"--format=json"});
    ASSERT_EQ(r.exit_code, 0) << Show(r);
    auto users = UsersOf(r);
    ASSERT_EQ(users.count("random user"), 1u) << r.out;
    const auto hits = users["random user"]["cache_hits"].get<uint64_t>();
    const auto reads = users["random user"]["io"]["read"]["count"].get<uint64_t>();
    ASSERT_GT(hits + reads, 20u) << users["random user"].dump();
    const double share = static_cast<double>(hits) / static_cast<double>(hits + reads);
    EXPECT_GE(share, row.least) << "hits " << hits << ", reads " << reads;
    EXPECT_LE(share, row.most) << "hits " << hits << ", reads " << reads;
  }
}

// AllowIOBursts=TRUE: the checkpoint's writes pass the throttle and never
// wait (no MaxOutstandingIO); FALSE: once slow I/Os (unbuffered
// write-through, over TargetIODuration=1 ms) cut the limit, they wait too.
// In the build tree: a tmpfs refuses O_DIRECT.
TEST(DbsimConfigKeys, AllowIoBurstsFalseThrottlesTheCheckpoint) {
  const std::string slow =
      "TargetIODuration=1\nNoBuffering=TRUE\nWriteThrough=TRUE\nAllowIOBursts=";
  const std::string updates = "UserCount=2\nSleepAfter=0\nRandomUserReadWriteRatio=0\n";
  auto run = [&](const std::string& bursts) {
    TempDir dir(BuildTree());
    std::string config = ShortConfig(slow + bursts + "\n", updates);
    const std::string buffered = "NoBuffering=FALSE\nWriteThrough=FALSE\n";
    config.replace(config.find(buffered), buffered.size(), "");
    const ProcessResult r = DbsimWith(dir, config, {"--format=json"});
    EXPECT_EQ(r.exit_code, 0) << Show(r);
    return UsersOf(r);
  };
  auto passed = run("TRUE");
  ASSERT_EQ(passed.count("checkpoint"), 1u);
  EXPECT_GT(passed["checkpoint"]["io"]["write"]["count"].get<uint64_t>() +
                passed["checkpoint"]["io"]["gather_write"]["count"].get<uint64_t>(),
            0u);
  EXPECT_EQ(passed["checkpoint"]["throttled_ns"], 0) << passed["checkpoint"].dump();
  auto held = run("FALSE");
  ASSERT_EQ(held.count("checkpoint"), 1u);
  uint64_t throttled = 0;
  for (const auto& [name, u] : held) throttled += u["throttled_ns"].get<uint64_t>();
  if (throttled == 0) GTEST_SKIP() << "every I/O here took under 1 ms: the limit was never cut";
  EXPECT_GT(held["checkpoint"]["throttled_ns"].get<uint64_t>(), 0u) << held["checkpoint"].dump();
}

// UserCount=-1 is SQLIOSim's min(CPUCount * 2, 8).
TEST(DbsimConfigKeys, UserCountMinusOneIsTwiceCpuCountAtMostEight) {
  for (const auto& [cpus, threads] : {std::pair{1, 2}, std::pair{5, 8}}) {
    SCOPED_TRACE(cpus);
    TempDir dir;
    const ProcessResult r = DbsimWith(
        dir, ShortConfig("CPUCount=" + std::to_string(cpus) + "\n", "UserCount=-1\nSleepAfter=0\n"),
        {"--format=json"});
    ASSERT_EQ(r.exit_code, 0) << Show(r);
    auto users = UsersOf(r);
    ASSERT_EQ(users.count("random user"), 1u) << r.out;
    EXPECT_EQ(users["random user"]["threads"], threads) << users["random user"].dump();
  }
}

// DelayAfterCycles: the read-ahead user pauses RADelay before every N-th
// read after the first (docs/dbsim.md). With a 300 ms pause over 1 s: N=1
// pauses before each read (at most 4 reads), N=2 before every second (two
// reads per pause, at most 8, more than N=1 can do).
TEST(DbsimConfigKeys, DelayAfterCyclesPausesBeforeEveryNthRead) {
  auto reads = [](int every) {
    TempDir dir;
    const ProcessResult r = DbsimWith(
        dir,
        ShortConfig("", "UserCount=1\nSleepAfter=0\n",
                    "UserCount=1\nRADelay=300\nDelayAfterCycles=" + std::to_string(every) + "\n"),
        {"--format=json"});
    EXPECT_EQ(r.exit_code, 0) << Show(r);
    auto users = UsersOf(r);
    return users["read-ahead user"]["io"]["scatter_read"]["count"].get<uint64_t>();
  };
  const uint64_t each = reads(1);
  EXPECT_GE(each, 1u);
  EXPECT_LE(each, 4u);
  const uint64_t second = reads(2);
  EXPECT_GE(second, 5u);
  EXPECT_LE(second, 8u);
}

// SleepAfter: the random user pauses that long after each chain of
// accesses (MinIOChainLength..MaxIOChainLength, here 1: after every access
// but the first). 300 ms over a 1 s cycle allows at most 4 accesses; a
// pause that reaches the cycle's end ends the user's cycle instead of
// letting it go on without pauses until the runner stops it.
TEST(DbsimConfigKeys, SleepAfterPausesAfterEveryChainToTheCyclesEnd) {
  TempDir dir;
  const ProcessResult r =
      DbsimWith(dir,
                ShortConfig("",
                            "UserCount=1\nSleepAfter=300\nMinIOChainLength=1\nMaxIOChainLength=1\n"
                            "RandomUserReadWriteRatio=10000\n"),
                {"--format=json"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  auto users = UsersOf(r);
  const uint64_t reads = users["random user"]["io"]["read"]["count"].get<uint64_t>();
  EXPECT_GE(reads, 1u) << users["random user"].dump();
  EXPECT_LE(reads, 4u) << users["random user"].dump();
}

}  // namespace dbsim_config_keys_test
}  // namespace loadcell::testing
