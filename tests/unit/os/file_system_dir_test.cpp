// The directory-relative, no-follow calls of the FileSystem seam: every
// entry that is not a regular file (or not the one expected) is refused in
// one line and left exactly as it was.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <functional>
#include <string>

#include "os/file_system.h"
#include "testing/status.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::ReadFile;
using testing::TempDir;

// A folder for the seam to work in, and one beside it whose file a link
// points at ("the user's file": it must never change).
class DirCallsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    outside_ = other_.Write("user.txt", "the user's own bytes\n");
    Result<ScopedDir> d = OpenScopedDir(fs_, dir_.path());
    ASSERT_OK(d);
    scoped_ = std::make_unique<ScopedDir>(std::move(*d));
  }
  const DirHandle& dir() const { return scoped_->get(); }
  void ExpectOutsideUnchanged() const { EXPECT_EQ(ReadFile(outside_), "the user's own bytes\n"); }

  FileSystem& fs_ = PosixFileSystem();
  TempDir dir_;
  TempDir other_;
  std::string outside_;
  std::unique_ptr<ScopedDir> scoped_;
};

TEST_F(DirCallsTest, CreateWriteStatRenameUnlink) {
  Result<int> fd = fs_.OpenAt(dir(), "a", O_RDWR | O_CREAT | O_EXCL);
  ASSERT_OK(fd);
  EXPECT_NE(::fcntl(*fd, F_GETFD) & FD_CLOEXEC, 0);
  EXPECT_EQ(::fcntl(*fd, F_GETFL) & O_NONBLOCK, 0);
  ASSERT_OK(WriteFully(fs_, *fd, "hello", 5, 0, "a"));
  Result<FileInfo> by_fd = fs_.Fstat(*fd);
  ASSERT_OK(by_fd);
  ASSERT_OK(fs_.Close(*fd));

  Result<FileInfo> info = fs_.StatAt(dir(), "a");
  ASSERT_OK(info);
  EXPECT_TRUE(info->exists && info->is_regular);
  EXPECT_FALSE(info->is_symlink);
  EXPECT_EQ(info->size, 5u);
  EXPECT_EQ(info->id(), by_fd->id());

  // O_EXCL on an existing name.
  EXPECT_EQ(fs_.OpenAt(dir(), "a", O_RDWR | O_CREAT | O_EXCL).status().code(),
            StatusCode::kAlreadyExists);
  ASSERT_OK(fs_.RenameAt(dir(), "a", "b"));
  EXPECT_FALSE(fs_.StatAt(dir(), "a")->exists);
  const FileId id = info->id();
  ASSERT_OK(fs_.UnlinkAt(dir(), "b", &id));
  EXPECT_FALSE(fs_.StatAt(dir(), "b")->exists);
  EXPECT_EQ(fs_.UnlinkAt(dir(), "b").code(), StatusCode::kNotFound);
}

TEST_F(DirCallsTest, EntryNamesStayInsideTheFolder) {
  for (const char* name : {"", ".", "..", "../x", "sub/x", "/etc/passwd"}) {
    SCOPED_TRACE(name);
    EXPECT_EQ(fs_.OpenAt(dir(), name, O_RDONLY).status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(fs_.StatAt(dir(), name).status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(fs_.UnlinkAt(dir(), name).code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(fs_.RenameAt(dir(), "x", name).code(), StatusCode::kInvalidArgument);
  }
}

// FILE:STREAM (SQLIOSim's sparse sample names one) is a name inside the
// folder: on POSIX a file of that name. Windows: entry_names_win32_test.cpp.
TEST_F(DirCallsTest, AStreamOfAFileInTheFolderIsANameInsideIt) {
  Result<int> fd = fs_.OpenAt(dir(), "data:replica", O_RDWR | O_CREAT | O_EXCL);
  ASSERT_OK(fd.status());
  ASSERT_OK(fs_.Close(*fd));
  EXPECT_TRUE(fs_.StatAt(dir(), "data:replica")->exists);
  ASSERT_OK(fs_.UnlinkAt(dir(), "data:replica"));
  EXPECT_FALSE(fs_.StatAt(dir(), "data:replica")->exists);
}

// "'PATH' WHAT": the one line a refused entry gets.
std::string Refusal(const std::string& path, const char* what) {
  std::string line = "'";
  line.append(path).append("' ").append(what);
  return line;
}

// Each kind of entry that is not a regular file, made at "e".
struct Intruder {
  const char* kind;
  std::function<void(const std::string& at, const std::string& outside)> make;
  const char* says;
};

TEST_F(DirCallsTest, LinksAndSpecialFilesAreRefusedAndLeftAlone) {
  const Intruder intruders[] = {
      {"link to a file outside",
       [](const std::string& at, const std::string& out) {
         ASSERT_EQ(::symlink(out.c_str(), at.c_str()), 0);
       },
       "is a symbolic link"},
      {"dangling link",
       [](const std::string& at, const std::string& out) {
         ASSERT_EQ(::symlink((out + ".none").c_str(), at.c_str()), 0);
       },
       "is a symbolic link"},
      {"link to a folder",
       [](const std::string& at, const std::string& out) {
         ASSERT_EQ(::symlink(Dirname(out).c_str(), at.c_str()), 0);
       },
       "is a symbolic link"},
      {"fifo",
       [](const std::string& at, const std::string&) { ASSERT_EQ(::mkfifo(at.c_str(), 0644), 0); },
       "is not a regular file (it is a fifo)"},
      {"folder",
       [](const std::string& at, const std::string&) { ASSERT_EQ(::mkdir(at.c_str(), 0755), 0); },
       "is not a regular file (it is a directory)"},
  };
  for (const Intruder& in : intruders) {
    SCOPED_TRACE(in.kind);
    const std::string at = dir_.File("e");
    in.make(at, outside_);
    struct stat before;
    ASSERT_EQ(::lstat(at.c_str(), &before), 0);
    for (int flags :
         {O_RDONLY, O_RDWR, O_WRONLY | O_CREAT | O_TRUNC, O_WRONLY | O_CREAT | O_EXCL}) {
      Result<int> fd = fs_.OpenAt(dir(), "e", flags);
      ASSERT_FALSE(fd.ok()) << flags;
      EXPECT_EQ(fd.status().code(), StatusCode::kFailedPrecondition) << fd.status().ToString();
      EXPECT_EQ(fd.status().message(), Refusal(at, in.says));
    }
    EXPECT_EQ(fs_.UnlinkAt(dir(), "e").message(), Refusal(at, in.says));
    EXPECT_EQ(fs_.RenameAt(dir(), "e", "f").message(), Refusal(at, in.says));
    Result<FileInfo> info = fs_.StatAt(dir(), "e");
    ASSERT_OK(info);
    EXPECT_TRUE(info->exists);
    EXPECT_FALSE(info->is_regular);
    EXPECT_EQ(info->is_symlink, S_ISLNK(before.st_mode));
    struct stat after;
    ASSERT_EQ(::lstat(at.c_str(), &after), 0);
    EXPECT_EQ(after.st_ino, before.st_ino);
    EXPECT_FALSE(fs_.StatAt(dir(), "f")->exists);
    ExpectOutsideUnchanged();
    if (S_ISDIR(after.st_mode)) {
      ASSERT_EQ(::rmdir(at.c_str()), 0);
    } else {
      ASSERT_EQ(::unlink(at.c_str()), 0);
    }
  }
}

TEST_F(DirCallsTest, AFileReplacedSinceItWasSeenIsRefusedWithItsBytes) {
  Result<int> fd = fs_.OpenAt(dir(), "t", O_WRONLY | O_CREAT | O_EXCL);
  ASSERT_OK(fd);
  const FileId ours = fs_.Fstat(*fd)->id();
  ASSERT_OK(fs_.Close(*fd));
  // The user puts a file of their own under its name (made before ours is
  // gone, so that it cannot get the freed inode number).
  dir_.Write("x", "mine\n");
  ASSERT_EQ(::unlink(dir_.File("t").c_str()), 0);
  ASSERT_EQ(::rename(dir_.File("x").c_str(), dir_.File("t").c_str()), 0);
  ASSERT_NE(fs_.StatAt(dir(), "t")->id(), ours);

  const std::string says = Refusal(dir_.File("t"), "was replaced: it is not the file expected");
  Result<int> again = fs_.OpenAt(dir(), "t", O_WRONLY | O_TRUNC, 0644, &ours);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(again.status().message(), says);
  EXPECT_EQ(fs_.UnlinkAt(dir(), "t", &ours).message(), says);
  EXPECT_EQ(dir_.Read("t"), "mine\n");  // neither truncated nor removed
}

TEST(FileIdTest, KnownBirthsTellFilesOfOneInodeApart) {
  const FileId born{2049, 131, 1765080000123456789};
  EXPECT_EQ(born, (FileId{2049, 131, 1765080000123456789}));
  EXPECT_NE(born, (FileId{2049, 131, 1765080000123456790}));  // the inode reused
  EXPECT_NE(born, (FileId{2049, 132, 1765080000123456789}));
  EXPECT_NE(born, (FileId{2050, 131, 1765080000123456789}));
  // A birth not known (an older manifest's line, a file system without
  // one) leaves device and inode to tell.
  EXPECT_EQ(born, (FileId{2049, 131}));
  EXPECT_EQ((FileId{2049, 131}), born);
  EXPECT_EQ((FileId{2049, 131}), (FileId{2049, 131}));
  EXPECT_NE((FileId{2049, 132}), born);
}

// ext4 gives a removed file's inode number to a later file: new files are
// made under the name (the others kept aside) until one has it.
TEST_F(DirCallsTest, AFileMadeAgainWithTheFreedInodeIsAnotherFile) {
  Result<int> fd = fs_.OpenAt(dir(), "t", O_WRONLY | O_CREAT | O_EXCL);
  ASSERT_OK(fd);
  const FileId ours = fs_.Fstat(*fd)->id();
  ASSERT_OK(fs_.Close(*fd));
  if (fs_.FsType(dir_.path()) == "ext4") {
    EXPECT_NE(ours.birth_ns, 0u);
  }
  TempDir aside;  // made first: a folder made now could take the inode
  ASSERT_OK(fs_.UnlinkAt(dir(), "t", &ours));
  for (int i = 0;; ++i) {
    dir_.Write("t", "mine\n");
    if (fs_.StatAt(dir(), "t")->inode == ours.inode || i == 64) break;
    ASSERT_EQ(::rename(dir_.File("t").c_str(), aside.File(std::to_string(i)).c_str()), 0);
  }
  const FileId now = fs_.StatAt(dir(), "t")->id();
  if (now.inode != ours.inode) {
    GTEST_SKIP() << "this file system does not reuse inode numbers";
  }
  if (ours.birth_ns == 0) {
    GTEST_SKIP() << "this file system gives no birth times";
  }
  EXPECT_NE(now, ours);
  const std::string says = Refusal(dir_.File("t"), "was replaced: it is not the file expected");
  EXPECT_EQ(fs_.OpenAt(dir(), "t", O_WRONLY | O_TRUNC, 0644, &ours).status().message(), says);
  EXPECT_EQ(fs_.UnlinkAt(dir(), "t", &ours).message(), says);
  EXPECT_EQ(dir_.Read("t"), "mine\n");
}

TEST_F(DirCallsTest, TruncateOnlyAfterTheChecks) {
  dir_.Write("t", "12345");
  Result<int> fd = fs_.OpenAt(dir(), "t", O_WRONLY | O_TRUNC);
  ASSERT_OK(fd);
  ASSERT_OK(fs_.Close(*fd));
  EXPECT_EQ(fs_.StatAt(dir(), "t")->size, 0u);
}

TEST_F(DirCallsTest, RenameReplacesALinkAtTheTargetWithoutFollowingIt) {
  ASSERT_EQ(::symlink(outside_.c_str(), dir_.File("to").c_str()), 0);
  dir_.Write("from", "new");
  ASSERT_OK(fs_.RenameAt(dir(), "from", "to"));
  EXPECT_FALSE(fs_.StatAt(dir(), "to")->is_symlink);
  EXPECT_EQ(dir_.Read("to"), "new");
  ExpectOutsideUnchanged();
}

TEST(OpenDirTest, ALinkToAFolderIsRefusedAsTheFolder) {
  TempDir dir;
  TempDir real;
  FileSystem& fs = PosixFileSystem();
  const std::string link = dir.File("l");
  ASSERT_EQ(::symlink(real.path().c_str(), link.c_str()), 0);
  for (const std::string& path : {link, link + "/"}) {
    Result<DirHandle> d = fs.OpenDir(path);
    ASSERT_FALSE(d.ok()) << path;
    EXPECT_EQ(d.status().code(), StatusCode::kFailedPrecondition);
    EXPECT_NE(d.status().message().find("is a symbolic link"), std::string::npos);
  }
  EXPECT_EQ(fs.OpenDir(dir.File("none")).status().code(), StatusCode::kNotFound);
  dir.Write("f", "x");
  EXPECT_EQ(fs.OpenDir(dir.File("f")).status().err(), ENOTDIR);
  Result<DirHandle> ok = fs.OpenDir(real.path());
  ASSERT_OK(ok);
  EXPECT_EQ(ok->path, real.path());
  EXPECT_OK(fs.CloseDir(*ok));
}

TEST(LockTest, ASecondDescriptorCannotTakeTheLock) {
  TempDir dir;
  FileSystem& fs = PosixFileSystem();
  Result<ScopedDir> d = OpenScopedDir(fs, dir.path());
  ASSERT_OK(d);
  Result<int> a = fs.OpenAt(d->get(), "lock", O_RDWR | O_CREAT);
  ASSERT_OK(a);
  Result<int> b = fs.OpenAt(d->get(), "lock", O_RDWR);
  ASSERT_OK(b);
  EXPECT_TRUE(fs.TryLock(*a).value());
  EXPECT_FALSE(fs.TryLock(*b).value());
  ASSERT_OK(fs.Unlock(*a));
  EXPECT_TRUE(fs.TryLock(*b).value());
  ASSERT_OK(fs.Close(*b));  // closing releases it
  EXPECT_TRUE(fs.TryLock(*a).value());
  ASSERT_OK(fs.Close(*a));
}

TEST(FileSystemWrapperTest, ForwardsTheDirectoryCalls) {
  TempDir dir;
  FaultInjectingFileSystem fs(PosixFileSystem());
  Result<ScopedDir> d = OpenScopedDir(fs, dir.path());
  ASSERT_OK(d);
  Result<int> fd = fs.OpenAt(d->get(), "w", O_RDWR | O_CREAT | O_EXCL);
  ASSERT_OK(fd);
  EXPECT_TRUE(fs.TryLock(*fd).value());
  ASSERT_OK(fs.Unlock(*fd));
  const FileId id = fs.Fstat(*fd)->id();
  ASSERT_OK(fs.Close(*fd));
  EXPECT_EQ(fs.StatAt(d->get(), "w")->id(), id);
  ASSERT_OK(fs.RenameAt(d->get(), "w", "v"));
  ASSERT_OK(fs.UnlinkAt(d->get(), "v", &id));
  EXPECT_FALSE(fs.StatAt(d->get(), "v")->exists);
}

}  // namespace
}  // namespace loadcell
