// dbsim's output temporaries (-log, -save) recorded in the folder's
// manifest: their lines read back among the manifest's other lines, and a
// later run removes one still there as recorded, never a file that is not
// the one recorded nor one never recorded.
#include "cli/dbsim/dbsim_outputs.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "testing/status.h"
#include "testing/temp_dir.h"
#include "workloads/sqlio/sqlio_manifest.h"

namespace loadcell {
// Named, not anonymous: a unity build joins this file with the other CLI
// tests.
namespace dbsim_outputs_test {

using testing::TempDir;

TEST(DbsimOutputsTest, TemporaryLinesReadBackAmongTheManifestsOthers) {
  const DbsimTemporary t{"/a folder/.e x.xml.loadcell-0000abcd", FileId{2049, 131}};
  const std::string line = FormatDbsimTemporaryLine(t);
  EXPECT_EQ(line,
            "temporary /a folder/.e x.xml.loadcell-0000abcd by loadcell dbsim device=2049 "
            "inode=131\n");
  const std::string manifest =
      "created data.mdx 4194304 bytes by loadcell sqlio device=1 inode=2\n" + line +
      "temporary /x by loadcell dbsim device=1\n"  // no inode: not a record
      "temporary  by loadcell dbsim device=1 inode=2\n" +
      "temporary /y";
  const std::vector<DbsimTemporary> read = ParseDbsimTemporaries(manifest);
  ASSERT_EQ(read.size(), 1u);
  EXPECT_EQ(read[0].path, t.path);
  EXPECT_EQ(read[0].id, t.id);
  // With the file's birth, read back; a line without one still reads.
  const DbsimTemporary born{"/b", FileId{2049, 131, 1765080000123456789}};
  EXPECT_EQ(FormatDbsimTemporaryLine(born),
            "temporary /b by loadcell dbsim device=2049 inode=131 birth=1765080000123456789\n");
  const std::vector<DbsimTemporary> both =
      ParseDbsimTemporaries(FormatDbsimTemporaryLine(born) + line +
                            "temporary /c by loadcell dbsim device=1 inode=2 birth=x\n");
  ASSERT_EQ(both.size(), 2u);
  EXPECT_EQ(both[0].id.birth_ns, born.id.birth_ns);
  EXPECT_NE(both[0].id, (FileId{2049, 131, 1765080000123456790}));
  EXPECT_EQ(both[1].id.birth_ns, 0u);
  // The manifest's own entries do not see the new kind of line.
  const std::vector<SqlioManifestEntry> files = ParseSqlioManifest(manifest);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].name, "data.mdx");
}

TEST(DbsimOutputsTest, ALaterRunRemovesOnlyTheTemporariesStillThereAsRecorded) {
  TempDir dir;
  const std::string stale = dir.Write(".e.xml.loadcell-00000001", "a killed run's");
  const std::string replaced = dir.Write(".e.xml.loadcell-00000002", "recorded");
  const std::string never = dir.Write(".e.xml.loadcell-00000003", "the user's");
  ASSERT_OK(RecordDbsimTemporaries(DefaultFileSystem(), dir.path(), {stale, "", replaced}));
  // Another file in the recorded one's place (made while the first exists,
  // so that it cannot take its inode).
  dir.Write("new", "the user's");
  std::filesystem::rename(dir / "new", replaced);
  const std::string manifest = dir.Read(kSqlioManifestName);
  ASSERT_EQ(ParseDbsimTemporaries(manifest).size(), 2u) << manifest;

  ASSERT_OK(RemoveStaleDbsimTemporaries(DefaultFileSystem(), dir.path()));
  EXPECT_FALSE(std::filesystem::exists(stale));
  EXPECT_EQ(testing::ReadFile(replaced), "the user's");
  EXPECT_EQ(testing::ReadFile(never), "the user's");
  // Again: nothing more to do, nothing else removed.
  ASSERT_OK(RemoveStaleDbsimTemporaries(DefaultFileSystem(), dir.path()));
  EXPECT_TRUE(std::filesystem::exists(replaced));
  // A folder without a manifest has none to remove.
  TempDir empty;
  ASSERT_OK(RemoveStaleDbsimTemporaries(DefaultFileSystem(), empty.path()));
  EXPECT_TRUE(empty.IsEmpty());
}

}  // namespace dbsim_outputs_test
}  // namespace loadcell
