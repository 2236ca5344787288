// CheckFolderTakesFiles: each reason a folder cannot take files, in words,
// as a usage error; a folder that can is left as it was.

#include "os/folder_check.h"

#include <fcntl.h>
#include <gtest/gtest.h>

#include <cerrno>
#include <filesystem>
#include <string>

#include "testing/status.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

// Every file creation fails with `err`, as on a read-only or full file
// system, or without permission (which root does not have to ask for).
class CreateFailsFileSystem final : public FileSystemWrapper {
 public:
  CreateFailsFileSystem(FileSystem& base, int err) : FileSystemWrapper(base), err_(err) {}
  Result<int> Open(const std::string& path, int flags, mode_t mode) override {
    if ((flags & O_CREAT) != 0) return PosixError("open '" + path + "'", err_);
    return FileSystemWrapper::Open(path, flags, mode);
  }

 private:
  int err_;
};

struct CreateFailure {
  const char* name;
  int err;
  const char* words;
};

const CreateFailure kCreateFailures[] = {
    {"read_only", EROFS, "the file system is read-only"},
    {"no_permission", EACCES, "permission denied (loadcell runs as user "},
    {"not_permitted", EPERM, "permission denied (loadcell runs as user "},
    {"no_inode_left", ENOSPC, "no space left on the device"},
    {"quota", EDQUOT, "the disk quota is used up"},
    {"not_a_folder", ENOTDIR, "a part of the path is not a folder"},
};

void PrintTo(const CreateFailure& f, std::ostream* os) { *os << f.name; }

class FolderCheckTest : public ::testing::TestWithParam<CreateFailure> {};

TEST_P(FolderCheckTest, SaysWhyInWordsAsAUsageError) {
  testing::TempDir dir;
  CreateFailsFileSystem fs(DefaultFileSystem(), GetParam().err);
  const Status s = CheckFolderTakesFiles(fs, dir.path(), "--file-dir=" + dir.path());
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition) << s.ToString();
  EXPECT_TRUE(s.IsUsageError());
  EXPECT_EQ(s.ToString().rfind("--file-dir=" + dir.path() + ": cannot create files in " +
                                   dir.path() + ": " + GetParam().words,
                               0),
            0u)
      << s.ToString();
  EXPECT_EQ(s.ToString().find('\n'), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Errnos, FolderCheckTest, ::testing::ValuesIn(kCreateFailures),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(FolderCheck, AFolderThatTakesFilesIsLeftAsItWas) {
  testing::TempDir dir;
  ASSERT_OK(CheckFolderTakesFiles(DefaultFileSystem(), dir.path(), "--file-dir"));
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(FolderCheck, AMissingFolderIsSaidSo) {
  testing::TempDir dir;
  const Status s = CheckFolderTakesFiles(DefaultFileSystem(), dir.File("missing"), "--x");
  EXPECT_TRUE(s.IsUsageError());
  EXPECT_NE(s.ToString().find("the folder does not exist"), std::string::npos) << s.ToString();
}

TEST(FolderCheck, AFileSystemThatTakesNoNewFilesIsSaidSo) {
  // /proc exists and refuses new files (ENOENT), also to root.
  const Status s = CheckFolderTakesFiles(DefaultFileSystem(), "/proc", "--x");
  EXPECT_TRUE(s.IsUsageError());
  EXPECT_NE(s.ToString().find("the file system takes no new files"), std::string::npos)
      << s.ToString();
}

}  // namespace
}  // namespace loadcell
