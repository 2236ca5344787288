// A file's unwritten extents on the file system of the build tree: what
// fallocate leaves is unwritten, and stays so after a buffered read of it
// (which hides it from SEEK_HOLE); writing it makes it written.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <vector>

#include "os/file_extents.h"
#include "testing/status.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::BuildTree;
using testing::TempDir;

TEST(FileExtentsPosixTest, FallocatedBytesAreUnwrittenUntilWritten) {
  TempDir dir(BuildTree());
  const std::string path = dir.File("reserved");
  constexpr off_t kSize = 1 << 20;
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT, 0644);
  ASSERT_GE(fd, 0);
  if (::fallocate(fd, 0, 0, kSize) != 0) {
    const int err = errno;
    ::close(fd);
    GTEST_SKIP() << "no fallocate here: errno " << err;
  }
  Result<FileZeroRanges> before = ReadFileZeroRanges(path);
  ASSERT_OK(before);
  if (!before->unwritten_unknown.empty()) GTEST_SKIP() << before->unwritten_unknown;
  if (before->unwritten_bytes == 0) GTEST_SKIP() << "this file system writes fallocate's zeros";
  EXPECT_EQ(before->unwritten_bytes, static_cast<uint64_t>(kSize));
  EXPECT_EQ(before->never_written_bytes, static_cast<uint64_t>(kSize));

  // A buffered read puts zero pages in the cache: the extent map still says
  // unwritten, whatever SEEK_HOLE says now.
  std::vector<char> buf(kSize);
  ASSERT_EQ(::pread(fd, buf.data(), buf.size(), 0), kSize);
  Result<FileZeroRanges> read = ReadFileZeroRanges(path);
  ASSERT_OK(read);
  EXPECT_EQ(read->unwritten_bytes, static_cast<uint64_t>(kSize));
  EXPECT_EQ(read->never_written_bytes, static_cast<uint64_t>(kSize));

  // The first half written and flushed is written.
  std::fill(buf.begin(), buf.end(), 'x');
  ASSERT_EQ(::pwrite(fd, buf.data(), kSize / 2, 0), kSize / 2);
  ASSERT_EQ(::fsync(fd), 0);
  ::close(fd);
  Result<FileZeroRanges> half = ReadFileZeroRanges(path);
  ASSERT_OK(half);
  EXPECT_EQ(half->unwritten_bytes, static_cast<uint64_t>(kSize / 2));
  EXPECT_EQ(half->never_written_bytes, static_cast<uint64_t>(kSize / 2));
  EXPECT_EQ(half->hole_bytes, 0u);
}

TEST(FileExtentsPosixTest, AMissingFileIsAnErrorNamingIt) {
  Result<FileZeroRanges> r = ReadFileZeroRanges("/nonexistent/loadcell-file");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("/nonexistent/loadcell-file"), std::string::npos);
}

}  // namespace
}  // namespace loadcell
