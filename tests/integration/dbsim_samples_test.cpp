// SQLIOSim's sample configurations (default, hwcache, nothrottle,
// seqwrites, sparse), as tests/data/dbsim_samples/*.ini hold their
// settings, each run briefly through the binary (-d 1 -size 8: 8 MB data
// files, a 4 MB log) on a real file system (unbuffered, write-through as
// the samples ask): every user the sample enables runs and does I/O, the
// end-of-cycle audit reads every page, and no page fails its check.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell::testing {
namespace {

struct DbsimSample {
  const char* name;
  std::vector<const char*> users;   // "name (" must appear
  std::vector<const char*> absent;  // users the sample turns off
};

std::string SampleText(const std::string& name) {
  std::ifstream in(std::string(LOADCELL_SOURCE_DIR) + "/tests/data/dbsim_samples/" + name + ".ini");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The users of the JSON report named `name` (with several cycles "name,
// cycle N": every cycle's), and what they did: bytes read and written, and
// pages found in the buffer pool (CacheHitRatio: hwcache's random user finds
// every page there and reads none).
struct UserIo {
  int found = 0;
  uint64_t work = 0;
};

UserIo IoOf(const nlohmann::json& doc, const std::string& name) {
  UserIo io;
  for (const auto& u : doc["users"]) {
    const std::string n = u["name"].get<std::string>();
    if (n != name && n.rfind(name + ", cycle ", 0) != 0) continue;
    ++io.found;
    io.work += u["bytes_read"].get<uint64_t>() + u["bytes_written"].get<uint64_t>() +
               u["cache_hits"].get<uint64_t>();
  }
  return io;
}

TEST(DbsimSamples, EachSampleRunsWithEveryUserItEnablesAndNoFailure) {
  const std::vector<DbsimSample> samples = {
      {"default",
       {"random user", "log writer", "checkpoint", "read-ahead user", "audit user",
        "bulk update user", "shrink user", "end-of-cycle audit"},
       {}},
      {"hwcache",
       {"random user", "log writer", "checkpoint", "bulk update user", "end-of-cycle audit"},
       {"read-ahead user", "audit user", "shrink user"}},
      {"nothrottle",
       {"random user", "log writer", "checkpoint", "read-ahead user", "audit user",
        "bulk update user", "shrink user", "end-of-cycle audit"},
       {}},
      {"seqwrites",
       {"log writer", "checkpoint", "bulk update user", "end-of-cycle audit"},
       {"random user", "read-ahead user", "audit user", "shrink user"}},
      {"sparse",
       {"random user", "log writer", "checkpoint", "read-ahead user", "audit user",
        "bulk update user", "end-of-cycle audit"},
       {"shrink user"}},
  };
  for (const DbsimSample& sample : samples) {
    SCOPED_TRACE(sample.name);
    const std::string text = SampleText(sample.name);
    ASSERT_FALSE(text.empty()) << sample.name;
    TempDir dir(BuildTree());
    dir.Write("sample.ini", text);
    ChildWatch w;
    w.cwd = dir.path();
    w.timeout_s = 180;
    const ProcessResult r = RunLoadcell(
        {"dbsim", "-cfg", "sample.ini", "-dir", ".", "-d", "1", "-size", "8", "--format=json"}, w);
    ASSERT_EQ(r.exit_code, 0) << Show(r);
    const nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
    ASSERT_FALSE(doc.is_discarded()) << r.out;
    EXPECT_TRUE(doc["verify"].get<bool>());
    EXPECT_EQ(doc["page_checks"]["failed"], 0) << r.out;
    const bool pages_dirtied = IoOf(doc, "random user").found > 0;
    for (const char* user : sample.users) {
      const UserIo io = IoOf(doc, user);
      EXPECT_GE(io.found, 1) << user << "\n" << r.out;
      // Every user it enables did I/O but the shrink user, whose first
      // resize comes MinShrinkInterval seconds in (longer than this run),
      // and the checkpoint where no random user dirties pages (seqwrites:
      // the bulk update user writes its own).
      const std::string name = user;
      if (name == "shrink user" || (name == "checkpoint" && !pages_dirtied)) continue;
      EXPECT_GT(io.work, 0u) << user << "\n" << r.out;
    }
    for (const char* user : sample.absent) {
      EXPECT_EQ(IoOf(doc, user).found, 0) << user << "\n" << r.out;
    }
    // -size 8: 8 MB data files (1024 pages) that may grow to 16 MB.
    for (const auto& f : doc["files"]) {
      EXPECT_EQ(f["initial_pages"], 1024) << f.dump();
      EXPECT_EQ(f["capacity_pages"], 2048) << f.dump();
    }
    // The audit pass checked every page of the 8 MB data files (1024 each).
    uint64_t audited = 0;
    for (const auto& u : doc["users"]) {
      if (u["name"].get<std::string>().rfind("end-of-cycle audit", 0) == 0) {
        audited += u["pages_checked"].get<uint64_t>();
      }
    }
    EXPECT_GE(audited, 1024u * doc["files"].size() * doc["cycles"].get<uint64_t>()) << r.out;
    // The sparse sample runs three cycles.
    if (std::string(sample.name) == "sparse") {
      EXPECT_EQ(IoOf(doc, "random user").found, 3) << r.out;
      // Its third file is SQLIOSim's second stream of the data file, named
      // as SQLIOSim names it (a file of that name where there are no streams).
      bool stream_file = false;
      for (const auto& f : doc["files"]) {
        stream_file |= f["name"] == "sqliosim.mdx:replica" && f["sparse"] == true;
      }
      EXPECT_TRUE(stream_file) << r.out;
    }
  }
}

}  // namespace
}  // namespace loadcell::testing
