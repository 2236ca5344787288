#include "os/file_system.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "testing/status.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::TempDir;

std::vector<char> Pattern(size_t n, char seed) {
  std::vector<char> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<char>(seed + static_cast<char>(i * 7));
  return v;
}

TEST(PosixFileSystemTest, WriteReadStatTruncateRenameUnlink) {
  TempDir dir;
  FileSystem& fs = PosixFileSystem();
  const std::string path = dir.File("a");
  Result<int> fd = fs.Open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
  ASSERT_OK(fd);
  EXPECT_NE(::fcntl(*fd, F_GETFD) & FD_CLOEXEC, 0);

  std::vector<char> data = Pattern(10000, 'a');
  ASSERT_OK(WriteFully(fs, *fd, data.data(), data.size(), 100, path));
  std::vector<char> back(data.size());
  ASSERT_OK(ReadFully(fs, *fd, back.data(), back.size(), 100, path));
  EXPECT_EQ(back, data);
  ASSERT_OK(fs.Fsync(*fd));
  ASSERT_OK(fs.Fdatasync(*fd));

  Result<FileInfo> info = fs.Stat(path);
  ASSERT_OK(info);
  EXPECT_TRUE(info->exists);
  EXPECT_TRUE(info->is_regular);
  EXPECT_FALSE(info->is_directory);
  EXPECT_EQ(info->size, 10100u);
  EXPECT_GT(info->inode, 0u);

  ASSERT_OK(fs.Truncate(*fd, 4096));
  EXPECT_EQ(fs.Stat(path)->size, 4096u);
  ASSERT_OK(fs.Close(*fd));

  ASSERT_OK(fs.Rename(path, dir.File("b")));
  EXPECT_FALSE(fs.Stat(path)->exists);
  EXPECT_TRUE(fs.Stat(dir.File("b"))->exists);
  ASSERT_OK(fs.Unlink(dir.File("b")));
  EXPECT_FALSE(fs.Stat(dir.File("b"))->exists);
}

TEST(PosixFileSystemTest, ErrnoBecomesStatus) {
  TempDir dir;
  FileSystem& fs = PosixFileSystem();
  Result<int> fd = fs.Open(dir.File("missing/x"), O_RDONLY);
  ASSERT_FALSE(fd.ok());
  EXPECT_EQ(fd.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(fd.status().err(), ENOENT);
  EXPECT_NE(fd.status().message().find("missing/x"), std::string::npos);

  Status s = fs.Unlink(dir.File("nothing"));
  EXPECT_EQ(s.err(), ENOENT);

  char buf[16];
  Result<size_t> r = fs.PRead(-1, buf, sizeof buf, 0);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().err(), EBADF);
  EXPECT_EQ(r.status().code(), StatusCode::kIoError);
}

TEST(PosixFileSystemTest, ReadFullyPastEndIsUnexpectedEof) {
  TempDir dir;
  FileSystem& fs = PosixFileSystem();
  const std::string path = dir.File("short");
  Result<int> fd = fs.Open(path, O_RDWR | O_CREAT, 0644);
  ASSERT_OK(fd);
  std::vector<char> data = Pattern(100, 'x');
  ASSERT_OK(WriteFully(fs, *fd, data.data(), data.size(), 0, path));
  std::vector<char> back(200);
  Status s = ReadFully(fs, *fd, back.data(), back.size(), 0, path);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kIoError);
  EXPECT_NE(s.message().find("unexpected end of file"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find(path), std::string::npos);
  // The bytes that were there were read.
  EXPECT_EQ(0, std::memcmp(back.data(), data.data(), data.size()));
  ASSERT_OK(fs.Close(*fd));
}

TEST(PosixFileSystemTest, CheckWritableDir) {
  TempDir dir;
  FileSystem& fs = PosixFileSystem();
  EXPECT_OK(fs.CheckWritableDir(dir.path()));
  Status missing = fs.CheckWritableDir(dir.File("nope"));
  EXPECT_EQ(missing.err(), ENOENT);
  Result<int> fd = fs.Open(dir.File("f"), O_RDWR | O_CREAT, 0644);
  ASSERT_OK(fd);
  ASSERT_OK(fs.Close(*fd));
  EXPECT_EQ(fs.CheckWritableDir(dir.File("f")).err(), ENOTDIR);
}

TEST(PosixFileSystemTest, FsTypeNamesTheMount) {
  TempDir dir;
  FileSystem& fs = PosixFileSystem();
  std::string type = fs.FsType(dir.path());
  EXPECT_FALSE(type.empty());
  EXPECT_NE(type, "unknown");
  // A file not created yet is looked up through its directory.
  EXPECT_EQ(fs.FsType(dir.File("not/yet/there")), type);
  EXPECT_EQ(fs.FsType("/proc/self"), "proc");
}

class FaultInjectingFileSystemTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = dir_.File("f");
    Result<int> fd = fault_.Open(path_, O_RDWR | O_CREAT, 0644);
    ASSERT_OK(fd);
    fd_ = *fd;
  }
  void TearDown() override { EXPECT_OK(fault_.Close(fd_)); }

  TempDir dir_;
  FaultInjectingFileSystem fault_{PosixFileSystem()};
  std::string path_;
  int fd_ = -1;
};

TEST_F(FaultInjectingFileSystemTest, EnospcAfterNWritesKeepsErrno) {
  fault_.FailWritesAfter(2, ENOSPC);
  std::vector<char> block = Pattern(4096, 'q');
  EXPECT_OK(WriteFully(fault_, fd_, block.data(), block.size(), 0, path_));
  EXPECT_OK(WriteFully(fault_, fd_, block.data(), block.size(), 4096, path_));
  Status s = WriteFully(fault_, fd_, block.data(), block.size(), 8192, path_ + " at 8192");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(s.err(), ENOSPC);
  EXPECT_NE(s.message().find(path_ + " at 8192"), std::string::npos) << s.message();
  // Every later write fails too; nothing past the second block was written.
  EXPECT_EQ(fault_.PWrite(fd_, block.data(), 1, 0).status().err(), ENOSPC);
  EXPECT_EQ(fault_.Stat(path_)->size, 8192u);

  fault_.Clear();
  EXPECT_OK(WriteFully(fault_, fd_, block.data(), block.size(), 8192, path_));
}

TEST_F(FaultInjectingFileSystemTest, EioAndEfbigMapToTheirCodes) {
  fault_.FailWritesAfter(0, EIO);
  char c = 'x';
  Result<size_t> w = fault_.PWrite(fd_, &c, 1, 0);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().code(), StatusCode::kIoError);
  EXPECT_EQ(w.status().err(), EIO);
  fault_.FailWritesAfter(0, EFBIG);
  EXPECT_EQ(fault_.PWrite(fd_, &c, 1, 0).status().code(), StatusCode::kResourceExhausted);
}

TEST_F(FaultInjectingFileSystemTest, ShortWritesAreCompletedByWriteFully) {
  fault_.FailWritesAfter(0, -1);
  std::vector<char> data = Pattern(10001, 'k');
  // A single call is short...
  Result<size_t> one = fault_.PWrite(fd_, data.data(), data.size(), 0);
  ASSERT_OK(one);
  EXPECT_EQ(*one, data.size() / 2);
  // ...and WriteFully loops until all of it is there.
  ASSERT_OK(WriteFully(fault_, fd_, data.data(), data.size(), 0, path_));
  fault_.Clear();
  std::vector<char> back(data.size());
  ASSERT_OK(ReadFully(fault_, fd_, back.data(), back.size(), 0, path_));
  EXPECT_EQ(back, data);
}

TEST_F(FaultInjectingFileSystemTest, ReadErrorsAndShortReads) {
  std::vector<char> data = Pattern(8192, 'r');
  ASSERT_OK(WriteFully(fault_, fd_, data.data(), data.size(), 0, path_));
  std::vector<char> back(data.size());

  fault_.FailReadsAfter(1, EIO);
  EXPECT_OK(ReadFully(fault_, fd_, back.data(), 4096, 0, path_));
  Status s = ReadFully(fault_, fd_, back.data(), 4096, 4096, path_);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kIoError);
  EXPECT_EQ(s.err(), EIO);

  fault_.FailReadsAfter(0, -1);
  Result<size_t> one = fault_.PRead(fd_, back.data(), back.size(), 0);
  ASSERT_OK(one);
  EXPECT_EQ(*one, back.size() / 2);
  ASSERT_OK(ReadFully(fault_, fd_, back.data(), back.size(), 0, path_));
  EXPECT_EQ(back, data);
}

TEST_F(FaultInjectingFileSystemTest, FsyncErrors) {
  fault_.FailFsync(EIO);
  Status s = fault_.Fsync(fd_);
  EXPECT_EQ(s.err(), EIO);
  EXPECT_EQ(fault_.Fdatasync(fd_).err(), EIO);
  fault_.FailFsync(0);
  EXPECT_OK(fault_.Fsync(fd_));
  EXPECT_OK(fault_.Fdatasync(fd_));
}

TEST(FileContentsTest, ReadFileToStringReadsToTheEnd) {
  TempDir dir;
  const std::string big(200 * 1024 + 3, 'z');  // more than one read
  const std::string path = dir.Write("big", big);
  Result<std::string> back = ReadFileToString(PosixFileSystem(), path);
  ASSERT_OK(back);
  EXPECT_EQ(*back, big);
  // /proc files report size 0 but have contents.
  Result<std::string> self = ReadFileToString(PosixFileSystem(), "/proc/self/status");
  ASSERT_OK(self);
  EXPECT_NE(self->find("Pid:"), std::string::npos);
}

TEST(FileContentsTest, ReadFileToStringOfAMissingFileNamesIt) {
  TempDir dir;
  Result<std::string> r = ReadFileToString(PosixFileSystem(), dir.File("none"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
  EXPECT_NE(r.status().message().find(dir.File("none")), std::string::npos);
}

TEST(FileContentsTest, AppendToFileCreatesThenAppends) {
  TempDir dir;
  const std::string path = dir.File("log");
  ASSERT_OK(AppendToFile(PosixFileSystem(), path, "one\n"));
  ASSERT_OK(AppendToFile(PosixFileSystem(), path, "two\n"));
  EXPECT_EQ(dir.Read("log"), "one\ntwo\n");
}

TEST(FileContentsTest, ReadAndAppendGoThroughTheFileSystemGiven) {
  TempDir dir;
  FaultInjectingFileSystem fault(PosixFileSystem());
  fault.FailWritesAfter(0, ENOSPC);
  Status st = AppendToFile(fault, dir.File("log"), "x");
  EXPECT_EQ(st.code(), StatusCode::kResourceExhausted) << st.ToString();
  fault.Clear();
  const std::string path = dir.Write("r", "abc");
  fault.FailReadsAfter(0, EIO);
  EXPECT_EQ(ReadFileToString(fault, path).status().err(), EIO);
}

// A wrapper that changes one call: every other call reaches the target.
class CountingStats final : public FileSystemWrapper {
 public:
  CountingStats() : FileSystemWrapper(PosixFileSystem()) {}
  Result<FileInfo> Stat(const std::string& path) override {
    ++stats_;
    return FileSystemWrapper::Stat(path);
  }
  int stats() const { return stats_; }

 private:
  int stats_ = 0;
};

TEST(FileSystemWrapperTest, ForwardsWhatItDoesNotOverride) {
  TempDir dir;
  CountingStats fs;
  EXPECT_EQ(&fs.target(), &PosixFileSystem());
  const std::string path = dir.File("w");
  Result<int> fd = fs.Open(path, O_RDWR | O_CREAT, 0644);
  ASSERT_OK(fd);
  ASSERT_OK(WriteFully(fs, *fd, "hello", 5, 0, path));
  ASSERT_OK(fs.Close(*fd));
  Result<FileInfo> info = fs.Stat(path);
  ASSERT_OK(info);
  EXPECT_EQ(info->size, 5u);
  EXPECT_EQ(fs.stats(), 1);
  ASSERT_OK(fs.Rename(path, path + "2"));
  ASSERT_OK(fs.Unlink(path + "2"));
  EXPECT_FALSE(fs.Stat(path + "2")->exists);
  EXPECT_EQ(fs.FsType(dir.path()), PosixFileSystem().FsType(dir.path()));
}

TEST(PathTest, DirnameAndBasename) {
  EXPECT_EQ(Dirname("dir/f"), "dir");
  EXPECT_EQ(Dirname("/a/b/f"), "/a/b");
  EXPECT_EQ(Dirname("/f"), "/");
  EXPECT_EQ(Dirname("f"), ".");
  EXPECT_EQ(Basename("/a/b/f"), "f");
  EXPECT_EQ(Basename("f"), "f");
}

TEST(FileContentsTest, ReadFailureTextTellsOpenFromRead) {
  TempDir dir;
  Result<std::string> missing = ReadFileToString(PosixFileSystem(), dir.File("none"));
  EXPECT_EQ(ReadFailureText(missing.status()),
            std::string("cannot open: ") + std::strerror(ENOENT));
  Result<std::string> folder = ReadFileToString(PosixFileSystem(), dir.path());
  EXPECT_EQ(ReadFailureText(folder.status()), std::string("cannot read: ") + std::strerror(EISDIR));
}

}  // namespace
}  // namespace loadcell
