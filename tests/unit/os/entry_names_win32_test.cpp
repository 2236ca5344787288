// Windows only (the Windows build's unit_os): the directory-relative calls
// of the Windows FileSystem take FILE:STREAM as a name inside the folder (a
// named stream of FILE on NTFS, a file of that name under Wine), and refuse
// every other name with a colon, which would name a drive, a stream type or
// an unnamed part.
#include <fcntl.h>
#include <gtest/gtest.h>

#include <memory>

#include "os/file_system.h"
#include "testing/status.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

TEST(EntryNamesWin32Test, AStreamOfAFileInTheFolderIsTheOnlyNameWithAColon) {
  testing::TempDir dir;
  FileSystem& fs = DefaultFileSystem();
  Result<ScopedDir> folder = OpenScopedDir(fs, dir.path());
  ASSERT_OK(folder);
  Result<int> fd = fs.OpenAt(folder->get(), "data:replica", O_RDWR | O_CREAT | O_EXCL);
  ASSERT_OK(fd.status());
  ASSERT_OK(fs.Close(*fd));
  EXPECT_TRUE(fs.StatAt(folder->get(), "data:replica")->exists);
  ASSERT_OK(fs.UnlinkAt(folder->get(), "data:replica"));
  EXPECT_FALSE(fs.StatAt(folder->get(), "data:replica")->exists);
  for (const char* name : {":x", "x:", "data::$DATA", "a:b:c", "C:\\x"}) {
    SCOPED_TRACE(name);
    EXPECT_EQ(fs.OpenAt(folder->get(), name, O_RDWR | O_CREAT).status().code(),
              StatusCode::kInvalidArgument);
    EXPECT_EQ(fs.UnlinkAt(folder->get(), name).code(), StatusCode::kInvalidArgument);
  }
}

}  // namespace
}  // namespace loadcell
