// Windows only (the Windows build's unit_os): DiskSpd's -ft and -Sr as the
// Win32 seams take them: -ft's words, -Sr only for a file on a network
// share, and a file opened with O_LOCAL_CACHE_OFF gets
// FSCTL_DISABLE_LOCAL_BUFFERING, which a local file refuses (as DiskSpd
// fails to open a local target with -Sr).
#include <gtest/gtest.h>

#include <string>

#include "os/file_cache.h"
#include "os/file_system.h"
#include "os/open_flags.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

TEST(FileCacheWin32Test, TemporaryHintIsAnOpenAttribute) {
  Result<std::string> effect = TemporaryFileHintEffect();
  ASSERT_TRUE(effect.ok()) << effect.status().message();
  EXPECT_NE(effect->find("FILE_ATTRIBUTE_TEMPORARY"), std::string::npos) << *effect;
  EXPECT_NE(O_TEMPORARY_HINT, 0);
  EXPECT_NE(O_LOCAL_CACHE_OFF, 0);
  EXPECT_EQ(O_TEMPORARY_HINT & (O_DIRECT | O_DSYNC | O_SYNC | O_NOFOLLOW | O_LOCAL_CACHE_OFF), 0);
}

TEST(FileCacheWin32Test, LocalCacheOffOnlyOnANetworkShare) {
  testing::TempDir dir;
  const std::string local = dir.Write("t.dat", "x");
  Result<int> flags = RemoteCacheOnlyOpenFlags(local, "NTFS");
  ASSERT_FALSE(flags.ok());
  EXPECT_EQ(flags.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(flags.status().message().find("a local drive, not a network share"), std::string::npos)
      << flags.status().message();
  EXPECT_EQ(flags.status().message().find('\n'), std::string::npos);
  // A UNC path is a share, whatever answers for it.
  Result<int> share = RemoteCacheOnlyOpenFlags("\\\\server\\share\\t.dat", "NTFS");
  ASSERT_TRUE(share.ok()) << share.status().message();
  EXPECT_EQ(*share, O_LOCAL_CACHE_OFF);
}

TEST(FileCacheWin32Test, ALocalFileRefusesTheLocalCacheOff) {
  testing::TempDir dir;
  const std::string local = dir.Write("t.dat", "x");
  Result<int> fd = DefaultFileSystem().Open(local, O_RDONLY | O_LOCAL_CACHE_OFF);
  if (fd.ok()) {
    (void)DefaultFileSystem().Close(*fd);
    GTEST_SKIP() << "this system accepts FSCTL_DISABLE_LOCAL_BUFFERING on a local file";
  }
  EXPECT_NE(fd.status().message().find("FSCTL_DISABLE_LOCAL_BUFFERING"), std::string::npos)
      << fd.status().message();
  EXPECT_NE(fd.status().message().find("t.dat"), std::string::npos) << fd.status().message();
  // Without it the same file opens.
  Result<int> plain = DefaultFileSystem().Open(local, O_RDONLY);
  ASSERT_TRUE(plain.ok()) << plain.status().message();
  EXPECT_TRUE(DefaultFileSystem().Close(*plain).ok());
}

}  // namespace
}  // namespace loadcell
