// The compression facts of a file in the build tree, read for real: the
// file system of its mount, and the file's FS_COMPR_FL attribute, set here
// with FS_IOC_SETFLAGS (`chattr +c`) where the file system keeps it.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <string>

#include "os/storage_savings.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::BuildTree;
using testing::TempDir;

TEST(StorageSavingsPosixTest, TheMountIsNamedAndTheFilesAttributeIsRead) {
  TempDir dir(BuildTree());
  const std::string path = dir.Write("data", "x");
  const MountFacts mount = ReadMountFacts(path);
  if (mount.file_system.empty()) GTEST_SKIP() << "no mount information here";
  const StorageSavings before = ReadStorageSavings(path);
  ASSERT_TRUE(before.known);
  EXPECT_NE(before.how.find(mount.file_system), std::string::npos) << before.how;
  EXPECT_FALSE(FileCompressAttribute(path));

  const int fd = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  int flags = 0;
  bool set = ::ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0;
  flags |= FS_COMPR_FL;
  set = set && ::ioctl(fd, FS_IOC_SETFLAGS, &flags) == 0;
  ::close(fd);
  if (!set) GTEST_SKIP() << mount.file_system << " keeps no compression attribute";
  EXPECT_TRUE(FileCompressAttribute(path));
  // Whether it compresses is the file system's: the same answer as its
  // parse gives for the flag.
  const StorageSavings after = ReadStorageSavings(path);
  EXPECT_EQ(after.compresses, SavingsOf(mount, true).compresses);
  EXPECT_EQ(after.how, SavingsOf(mount, true).how);
}

}  // namespace
}  // namespace loadcell
