// SQLIO's file creation: a file is listed in the folder's manifest only
// once it is completely written and fsynced.

#include <fcntl.h>
#include <gtest/gtest.h>

#include <cerrno>
#include <string>

#include "os/file_system.h"
#include "testing/status.h"
#include "testing/temp_dir.h"
#include "workloads/sqlio/sqlio.h"

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
    if (dir_.Read(kSqlioManifestName).find("data.dat") != std::string::npos) {
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
  EXPECT_EQ(dir.Read(kSqlioManifestName), "created data.dat 3145728 bytes by loadcell sqlio\n");
  EXPECT_EQ(dir.Read("data.dat").size(), 3u << 20);
}

TEST(SqlioCreateTest, AFailedCreationLeavesNeitherFileNorLine) {
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
  EXPECT_FALSE(fs.Stat(dir.File(kSqlioManifestName))->exists);
}

}  // namespace
}  // namespace loadcell
