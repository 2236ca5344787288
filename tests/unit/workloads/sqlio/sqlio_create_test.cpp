// SQLIO's file creation: a file is listed as created in the folder's
// manifest only once it is completely written and fsynced (as being created
// before its first byte).

#include <fcntl.h>
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cerrno>
#include <string>
#include <vector>

#include "os/file_system.h"
#include "testing/status.h"
#include "testing/temp_dir.h"
#include "workloads/sqlio/sqlio.h"
#include "workloads/sqlio/sqlio_manifest.h"

namespace loadcell {
namespace {

using testing::TempDir;

// Notes, at every data write and at the data file's fsync, whether the
// manifest already names the file.
class WatchingFileSystem final : public FileSystemWrapper {
 public:
  explicit WatchingFileSystem(const TempDir& dir)
      : FileSystemWrapper(DefaultFileSystem()), dir_(dir) {}

  Result<size_t> PWrite(int fd, const void* buf, size_t len, uint64_t offset) override {
    if (len > 1000) Look();  // a data write, not the manifest's line
    return FileSystemWrapper::PWrite(fd, buf, len, offset);
  }
  Status Fsync(int fd) override {
    if (fsyncs_++ == 0) Look();  // the data file's (the manifest's comes after)
    return FileSystemWrapper::Fsync(fd);
  }
  bool listed_early() const { return listed_early_; }

 private:
  void Look() {
    if (dir_.Read(kSqlioManifestName).find("created data.dat") != std::string::npos) {
      listed_early_ = true;
    }
  }
  const TempDir& dir_;
  bool listed_early_ = false;
  int fsyncs_ = 0;
};

TEST(SqlioCreateTest, ListedOnlyOnceWhole) {
  TempDir dir;
  WatchingFileSystem fs(dir);
  ASSERT_OK(CreateSqlioFile(fs, dir.File("data.dat"), 3 << 20, nullptr, false));
  EXPECT_FALSE(fs.listed_early());
  Result<FileInfo> made = fs.Stat(dir.File("data.dat"));
  ASSERT_OK(made);
  std::string id = fmt::format("device={} inode={}", made->device, made->inode);
  if (made->birth_ns != 0) id += fmt::format(" birth={}", made->birth_ns);
  EXPECT_EQ(dir.Read(kSqlioManifestName),
            "creating data.dat 3145728 bytes by loadcell sqlio " + id +
                "\ncreated data.dat 3145728 bytes by loadcell sqlio " + id + "\n");
  EXPECT_EQ(dir.Read("data.dat").size(), 3u << 20);
}

TEST(SqlioCreateTest, AFailedCreationLeavesNoFileListedAsCreated) {
  TempDir dir;
  FaultInjectingFileSystem fs(DefaultFileSystem());
  fs.FailWritesAfter(1, ENOSPC);
  Status st = CreateSqlioFile(fs, dir.File("data.dat"), 3 << 20, nullptr, false);
  // A full volume is the user's setup: exit 2, the errno kept.
  EXPECT_EQ(st.code(), StatusCode::kFailedPrecondition) << st.ToString();
  EXPECT_EQ(st.err(), ENOSPC) << st.ToString();
  Result<FileInfo> info = fs.Stat(dir.File("data.dat"));
  ASSERT_OK(info);
  EXPECT_FALSE(info->exists);
  EXPECT_EQ(dir.Read(kSqlioManifestName).find("created data.dat"), std::string::npos);
  // The folder had no manifest before: it has none after (nothing left behind).
  Result<FileInfo> manifest = fs.Stat(dir.File(kSqlioManifestName));
  ASSERT_OK(manifest);
  EXPECT_FALSE(manifest->exists);
}

TEST(SqlioCreateTest, AFailedCreationKeepsTheManifestOfFilesMadeBefore) {
  TempDir dir;
  ASSERT_OK(CreateSqlioFile(DefaultFileSystem(), dir.File("first.dat"), 1 << 20, nullptr, false));
  FaultInjectingFileSystem fs(DefaultFileSystem());
  fs.FailWritesAfter(1, ENOSPC);
  EXPECT_FALSE(CreateSqlioFile(fs, dir.File("second.dat"), 3 << 20, nullptr, false).ok());
  EXPECT_NE(dir.Read(kSqlioManifestName).find("created first.dat"), std::string::npos);
}

TEST(SqlioManifestTest, TheLastLineOfANameSaysWhatItIs) {
  const std::vector<SqlioManifestEntry> e = ParseSqlioManifest(
      "created old.dat 8388608 bytes by loadcell sqlio\n"  // an older line: no identity
      "creating a b.dat 1048576 bytes by loadcell sqlio device=5 inode=7\n"
      "created a b.dat 1048576 bytes by loadcell sqlio device=5 inode=7\n"
      "created x.dat 12 bytes by loadcell sqlio device=5\n"  // a cut identity: not ours
      "someone else's line\n");
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e[0].name, "old.dat");
  EXPECT_FALSE(e[0].id.has_value());
  EXPECT_EQ(e[1].name, "a b.dat");
  EXPECT_FALSE(e[1].complete);
  EXPECT_TRUE(e[2].complete);
  EXPECT_EQ(e[2].size, 1048576u);
  ASSERT_TRUE(e[2].id.has_value());
  EXPECT_EQ(e[2].id->device, 5u);
  EXPECT_EQ(e[2].id->inode, 7u);
  EXPECT_EQ(FormatSqlioManifestLine(e[2]),
            "created a b.dat 1048576 bytes by loadcell sqlio device=5 inode=7\n");
}

TEST(SqlioManifestTest, ABirthIsReadBackAndALineWithoutOneMatchesOnDeviceAndInode) {
  const std::string born =
      "created b.dat 10 bytes by loadcell sqlio device=5 inode=7 birth=1765080000123456789\n";
  const std::vector<SqlioManifestEntry> e = ParseSqlioManifest(
      born +
      "created c.dat 10 bytes by loadcell sqlio device=5 inode=7\n"
      "created d.dat 10 bytes by loadcell sqlio device=5 inode=7 birth=0\n"  // never written
      "created d.dat 10 bytes by loadcell sqlio device=5 inode=7 birth=x\n"
      "created d.dat 10 bytes by loadcell sqlio device=5 inode=7 birth=\n"
      "created d.dat 10 bytes by loadcell sqlio device=5 inode=7 birth=9 more\n"
      "created d.dat 10 bytes by loadcell sqlio device=5 birth=9 inode=7\n");
  ASSERT_EQ(e.size(), 2u);
  ASSERT_TRUE(e[0].id.has_value());
  EXPECT_EQ(e[0].id->birth_ns, 1765080000123456789u);
  EXPECT_EQ(FormatSqlioManifestLine(e[0]), born);
  // The file with that inode, made at another time: not the one listed.
  EXPECT_NE(*e[0].id, (FileId{5, 7, 1765080000123456790}));
  EXPECT_EQ(*e[0].id, (FileId{5, 7, 1765080000123456789}));
  ASSERT_TRUE(e[1].id.has_value());
  EXPECT_EQ(e[1].id->birth_ns, 0u);
  EXPECT_EQ(*e[1].id, (FileId{5, 7, 1765080000123456790}));
  EXPECT_EQ(FormatSqlioManifestLine(e[1]),
            "created c.dat 10 bytes by loadcell sqlio device=5 inode=7\n");
}

// The file made is SQLIO's own by its recorded identity: with another birth
// it is not; a line of an older loadcell, without one, still proves it.
TEST(SqlioManifestTest, AFileIsItsOwnOnlyWithTheBirthRecorded) {
  TempDir dir;
  ASSERT_OK(CreateSqlioFile(DefaultFileSystem(), dir.File("data.dat"), 1 << 20, nullptr, false));
  EXPECT_TRUE(SqlioMadeFile(DefaultFileSystem(), dir.File("data.dat")).value());
  const FileInfo made = DefaultFileSystem().Stat(dir.File("data.dat")).value();
  if (made.birth_ns == 0) {
    GTEST_SKIP() << "this file system gives no birth times";
  }
  SqlioManifestEntry e{"data.dat", 1 << 20, true, made.id()};
  const auto made_at = [&](uint64_t birth) {
    e.id->birth_ns = birth;
    dir.Write(kSqlioManifestName, FormatSqlioManifestLine(e));
    return SqlioMadeFile(DefaultFileSystem(), dir.File("data.dat")).value();
  };
  EXPECT_TRUE(made_at(made.birth_ns));
  EXPECT_FALSE(made_at(made.birth_ns + 1));
  EXPECT_TRUE(made_at(0));
}

}  // namespace
}  // namespace loadcell
