// SQLIOSim's sample configurations (default, hwcache, nothrottle,
// seqwrites, sparse), as tests/data/dbsim_samples/*.ini hold their
// settings, each run briefly through the binary (-d 1 -size 8: 8 MB data
// files, a 4 MB log) on a real file system (unbuffered, write-through as
// the samples ask): every user the sample enables runs, the end-of-cycle
// audit reads every page, and no page fails its check.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
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

// Whether the report has a user `name` ("name (N threads)", or with
// several cycles "name, cycle N (...)").
bool Ran(const std::string& out, const std::string& name) {
  return out.find("  " + name + " (") != std::string::npos ||
         out.find("  " + name + ", cycle ") != std::string::npos;
}

// The pages the first end-of-cycle audit checked (0 when not found).
uint64_t AuditPassPages(const std::string& out) {
  const auto at = out.find("  end-of-cycle audit");
  if (at == std::string::npos) return 0;
  // Its own lines come first: the first "pages checked" after its name.
  const std::string block = out.substr(at, 1000);
  std::smatch m;
  if (!std::regex_search(block, m, std::regex("pages checked ([0-9]+)"))) return 0;
  return std::stoull(m[1]);
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
       {"random user, cycle 3", "log writer", "checkpoint", "read-ahead user", "audit user",
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
    const ProcessResult r =
        RunLoadcell({"dbsim", "-cfg", "sample.ini", "-dir", ".", "-d", "1", "-size", "8"}, w);
    ASSERT_EQ(r.exit_code, 0) << Show(r);
    EXPECT_NE(r.out.find("every page read back was the version last written"), std::string::npos)
        << r.out;
    for (const char* user : sample.users) {
      EXPECT_TRUE(Ran(r.out, user)) << user << "\n" << r.out;
    }
    for (const char* user : sample.absent) {
      EXPECT_FALSE(Ran(r.out, user)) << user << "\n" << r.out;
    }
    // The audit pass checked every page of the 8 MB data files (1024 each).
    EXPECT_GE(AuditPassPages(r.out), 1024u) << r.out;
  }
}

}  // namespace
}  // namespace loadcell::testing
