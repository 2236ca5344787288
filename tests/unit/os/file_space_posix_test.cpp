// os/file_space.h on a real file: space reserved as each mode says, a
// punched hole that reads as zeros and frees its blocks.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "os/file_space.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

struct Facts {
  int64_t size = 0;
  int64_t allocated = 0;
};

Facts FactsOf(int fd) {
  struct stat st {};
  EXPECT_EQ(fstat(fd, &st), 0);
  return {static_cast<int64_t>(st.st_size), static_cast<int64_t>(st.st_blocks) * 512};
}

constexpr int64_t kMiB = int64_t{1} << 20;

TEST(FileSpaceTest, ReservesAsEachModeSays) {
  if (!CanPunchHoles()) GTEST_SKIP() << "not Linux";
  testing::TempDir dir(testing::BuildTree());
  const int posix = open((dir / "p").c_str(), O_RDWR | O_CREAT, 0644);
  const int keep = open((dir / "k").c_str(), O_RDWR | O_CREAT, 0644);
  ASSERT_GE(posix, 0);
  ASSERT_GE(keep, 0);
  ASSERT_TRUE(ReserveSpace(posix, SpaceReservation::kPosix, kMiB).ok());
  ASSERT_TRUE(ReserveSpace(keep, SpaceReservation::kKeepSize, kMiB).ok());
  EXPECT_EQ(FactsOf(posix).size, kMiB);
  EXPECT_GE(FactsOf(posix).allocated, kMiB);
  // keep: the blocks reserved, the size still 0.
  EXPECT_EQ(FactsOf(keep).size, 0);
  EXPECT_GE(FactsOf(keep).allocated, kMiB);
  close(posix);
  close(keep);
}

TEST(FileSpaceTest, APunchedHoleReadsAsZerosAndHoldsNoBlocks) {
  if (!CanPunchHoles()) GTEST_SKIP() << "not Linux";
  testing::TempDir dir(testing::BuildTree());
  const int fd = open((dir / "h").c_str(), O_RDWR | O_CREAT, 0644);
  ASSERT_GE(fd, 0);
  const std::vector<char> data(kMiB, 'x');
  ASSERT_EQ(pwrite(fd, data.data(), data.size(), 0), static_cast<ssize_t>(data.size()));
  ASSERT_EQ(fsync(fd), 0);
  const int64_t before = FactsOf(fd).allocated;
  ASSERT_TRUE(PunchHole(fd, 256 * 1024, 512 * 1024).ok());
  EXPECT_EQ(FactsOf(fd).size, kMiB);
  EXPECT_LE(FactsOf(fd).allocated, before - 512 * 1024);
  std::vector<char> back(kMiB);
  ASSERT_EQ(pread(fd, back.data(), back.size(), 0), static_cast<ssize_t>(back.size()));
  EXPECT_EQ(back[256 * 1024 - 1], 'x');
  EXPECT_EQ(back[256 * 1024], 0);
  EXPECT_EQ(back[768 * 1024 - 1], 0);
  EXPECT_EQ(back[768 * 1024], 'x');
  // A bad descriptor is an error with the system's reason.
  EXPECT_FALSE(PunchHole(-1, 0, 4096).ok());
  close(fd);
}

}  // namespace
}  // namespace loadcell
