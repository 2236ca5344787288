// `loadcell compare` through the real binary on real runs: results that
// differ in a fact that changes what is measured (the engine, the caching)
// are "not comparable" naming it, identical settings are comparable, single
// runs have "too few runs to call a difference", and each result's own
// verdict is shown (docs/validity.md, "Comparing results").

#include <fcntl.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "os/file_system.h"
#include "os/open_flags.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::BuildTree;
using testing::FileIoCommand;
using testing::ProcessResult;
using testing::RunLoadcell;
using testing::Show;
using testing::TempDir;

// What follows a result's comparability: Windows has no mount table, so the
// mount options are not recorded there (docs/validity.md).
std::string Unrecorded() { return PathsHaveDriveLetters() ? "; not recorded: mount options" : ""; }

// A short random-read run over the prepared files of `dir`, saved as JSON
// in `out`, with `extra` options.
void SaveReadRun(const TempDir& dir, const std::string& out,
                 const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"--file-test-mode=rndrd", "--events=400", "--format=json",
                                   "--output-file=" + out};
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back("run");
  const ProcessResult r = RunLoadcell(FileIoCommand(dir, args));
  ASSERT_EQ(r.exit_code, 0) << Show(r);
}

bool CompareDirectWorks(const std::string& dir) {
  const std::string probe = dir + "/.direct-probe";
  FileSystem& fs = DefaultFileSystem();
  Result<int> fd = fs.Open(probe, O_CREAT | O_RDWR | O_DIRECT, 0644);
  if (fd.ok()) (void)fs.Close(*fd);
  (void)fs.Unlink(probe);
  return fd.ok();
}

class CompareVerdict : public ::testing::Test {
 protected:
  void SetUp() override {
    const ProcessResult r = RunLoadcell(FileIoCommand(dir_, {"prepare"}));
    ASSERT_EQ(r.exit_code, 0) << Show(r);
  }
  TempDir dir_{BuildTree()};
};

TEST_F(CompareVerdict, AnotherEngineIsNotComparableAndNamed) {
  SaveReadRun(dir_, dir_ / "sync.json", {"--file-io-mode=sync"});
  SaveReadRun(dir_, dir_ / "mmap.json", {"--file-io-mode=mmap"});
  const ProcessResult r = RunLoadcell({"compare", dir_ / "sync.json", dir_ / "mmap.json"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_NE(r.out.find("  B: not comparable: engine sync vs mmap" + Unrecorded() + "\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("Overall: not comparable (B); too few runs to call a difference"),
            std::string::npos)
      << r.out;
  // The JSON holds what compare read.
  const nlohmann::json j = nlohmann::json::parse(testing::ReadFile(dir_ / "mmap.json"));
  ASSERT_EQ(j["manifest"]["targets"].size(), 1u) << j["manifest"].dump();
  EXPECT_EQ(j["manifest"]["targets"][0]["engine"], "mmap");
  EXPECT_EQ(j["manifest"]["targets"][0]["caching"], "buffered");
  EXPECT_EQ(j["manifest"]["targets"][0]["block_bytes"], 4096);
  EXPECT_EQ(j["manifest"]["targets"][0]["file_set_bytes"], 4 << 20);
  EXPECT_NE(j["manifest"]["targets"][0]["file_system"], "") << j["manifest"].dump();
  // CSV says the same in its columns.
  const ProcessResult csv =
      RunLoadcell({"compare", "--format=csv", dir_ / "sync.json", dir_ / "mmap.json"});
  ASSERT_EQ(csv.exit_code, 0) << Show(csv);
  EXPECT_NE(csv.out.find(",comparable,differences,noise,validity,checks_not_passed\n"),
            std::string::npos)
      << csv.out;
  EXPECT_NE(csv.out.find(",no,engine sync vs mmap,too few runs to call a difference,"),
            std::string::npos)
      << csv.out;
}

TEST_F(CompareVerdict, DirectAgainstBufferedIsNotComparableAndTheBufferedRunIsInvalid) {
  if (!CompareDirectWorks(dir_.path())) GTEST_SKIP() << "no O_DIRECT on " << dir_.path();
  SaveReadRun(dir_, dir_ / "direct.json", {"--file-extra-flags=direct"});
  SaveReadRun(dir_, dir_ / "buffered.json", {});
  const ProcessResult r = RunLoadcell({"compare", dir_ / "direct.json", dir_ / "buffered.json"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_NE(r.out.find("  B: not comparable: caching direct vs buffered" + Unrecorded() + "\n"),
            std::string::npos)
      << r.out;
  // 4 MiB of buffered reads: served from memory, the run's own verdict says
  // so in the comparison.
  EXPECT_NE(r.out.find("buffered.json): INVALID ("), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cache (INVALID)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("; INVALID: B"), std::string::npos) << r.out;
}

TEST_F(CompareVerdict, TheSameSettingsAreComparableButSingleRunsTooFew) {
  SaveReadRun(dir_, dir_ / "a.json", {});
  SaveReadRun(dir_, dir_ / "b.json", {});
  const ProcessResult r = RunLoadcell({"compare", dir_ / "a.json", dir_ / "b.json"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_NE(r.out.find("  B: comparable" + Unrecorded() + "\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("not comparable"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  B vs A: too few runs to call a difference (1 and 1 runs)\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("Overall: comparable; too few runs to call a difference"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("A (" + (dir_ / "a.json") + "): "), std::string::npos) << r.out;
}

TEST_F(CompareVerdict, TwoRunsASideAreStillTooFewThreeAreJudged) {
  for (const char* name : {"a1", "a2", "a3", "b1", "b2", "b3"}) {
    SaveReadRun(dir_, dir_ / (std::string(name) + ".json"), {});
  }
  const ProcessResult two = RunLoadcell(
      {"compare", dir_ / "a1.json", dir_ / "a2.json", "--", dir_ / "b1.json", dir_ / "b2.json"});
  ASSERT_EQ(two.exit_code, 0) << Show(two);
  EXPECT_NE(two.out.find("  B vs A: too few runs to call a difference (2 and 2 runs)\n"),
            std::string::npos)
      << two.out;
  const ProcessResult three =
      RunLoadcell({"compare", dir_ / "a1.json", dir_ / "a2.json", dir_ / "a3.json", "--",
                   dir_ / "b1.json", dir_ / "b2.json", dir_ / "b3.json"});
  ASSERT_EQ(three.exit_code, 0) << Show(three);
  EXPECT_EQ(three.out.find("B vs A: too few runs"), std::string::npos) << three.out;
  EXPECT_NE(three.out.find(" spread (3 and 3 runs)\n"), std::string::npos) << three.out;
}

// One fact of a saved result changed on one side: what `compare` names.
struct FactEdit {
  const char* name;
  // Sets the fact on A's copy and on B's (each given its whole JSON).
  std::function<void(nlohmann::json& target, nlohmann::json& doc, bool b)> set;
  std::string difference;  // the words compare prints
};

// Every file, tool and system fact compare weighs (docs/validity.md,
// "Comparing results"), each changed alone in a copy of one real result:
// the comparison names that one, with both values, and nothing else. The
// database's facts are compare_database_posix_test.cpp's.
TEST_F(CompareVerdict, EachFactThatDiffersIsNamedWithBothValues) {
  SaveReadRun(dir_, dir_ / "base.json", {});
  const nlohmann::json base = nlohmann::json::parse(testing::ReadFile(dir_ / "base.json"));
  ASSERT_EQ(base["manifest"]["targets"].size(), 1u) << base["manifest"].dump();
  const std::vector<FactEdit> edits = {
      {"engine",
       [](nlohmann::json& t, nlohmann::json&, bool b) { t["engine"] = b ? "mmap" : "sync"; },
       "engine sync vs mmap"},
      {"caching",
       [](nlohmann::json& t, nlohmann::json&, bool b) { t["caching"] = b ? "direct" : "buffered"; },
       "caching buffered vs direct"},
      {"block size",
       [](nlohmann::json& t, nlohmann::json&, bool b) { t["block_bytes"] = b ? 16384 : 4096; },
       "block size 4 KiB vs 16 KiB"},
      {"queue depth",
       [](nlohmann::json& t, nlohmann::json&, bool b) {
         t["queue_depth_asked"] = b ? 32 : 1;
         t["queue_depth"] = 1;
       },
       "queue depth 1 vs 32 (ran 1)"},
      {"write data",
       [](nlohmann::json& t, nlohmann::json&, bool b) {
         t["write_pattern"] = b ? "zero" : "random";
       },
       "write data random vs zero"},
      {"file set size",
       [](nlohmann::json& t, nlohmann::json&, bool b) {
         t["file_set_bytes"] = b ? (uint64_t{6} << 30) : (uint64_t{4} << 20);
       },
       "file set size 4 MiB vs 6 GiB"},
      {"tool version",
       [](nlohmann::json&, nlohmann::json& d, bool b) {
         d["manifest"]["tool_version"] = b ? "9.9.1" : "9.9.0";
       },
       "tool version 9.9.0 vs 9.9.1"},
      {"kernel",
       [](nlohmann::json&, nlohmann::json& d, bool b) {
         d["manifest"]["system"]["kernel"] = b ? "Linux 6.8.0" : "Linux 6.1.0";
       },
       "kernel Linux 6.1.0 vs Linux 6.8.0"},
      {"file system",
       [](nlohmann::json& t, nlohmann::json&, bool b) { t["file_system"] = b ? "xfs" : "ext4"; },
       "file system ext4 vs xfs"},
      {"mount options",
       [](nlohmann::json& t, nlohmann::json&, bool b) {
         t["mount_options"] = b ? "rw,noatime" : "rw,relatime";
       },
       "mount options rw,relatime vs rw,noatime"},
  };
  for (size_t i = 0; i < edits.size(); ++i) {
    const FactEdit& e = edits[i];
    SCOPED_TRACE(e.name);
    std::string paths[2];
    for (const bool b : {false, true}) {
      nlohmann::json doc = base;
      // Every fact recorded on both sides (Windows records no mount
      // options), the same but the one changed.
      doc["manifest"]["targets"][0]["mount_options"] = "rw,relatime";
      e.set(doc["manifest"]["targets"][0], doc, b);
      paths[b ? 1 : 0] =
          dir_.Write(std::string(b ? "b" : "a") + std::to_string(i) + ".json", doc.dump());
    }
    const ProcessResult r = RunLoadcell({"compare", paths[0], paths[1]});
    ASSERT_EQ(r.exit_code, 0) << Show(r);
    EXPECT_NE(r.out.find("  B: not comparable: " + e.difference + "\n"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("Overall: not comparable (B)"), std::string::npos) << r.out;
  }
}

}  // namespace
}  // namespace loadcell
