// cli/report_file.h on what a report's path may name besides a plain file:
// a FIFO or a device is written directly and stays what it was (renaming a
// file over /dev/null as root replaced the system's /dev/null), a symbolic
// link stays a link and its file gets the report, and a plain file is
// replaced whole as before.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <thread>

#include "cli/report_file.h"
#include "testing/status.h"
#include "testing/temp_dir.h"

namespace loadcell {
// Named, not anonymous: a unity build joins this file with the other CLI
// tests.
namespace report_file_posix_test {

using testing::TempDir;
namespace fs = std::filesystem;

Status WriteReport(const std::string& path, const std::string& text) {
  ReportFile f;
  LC_RETURN_IF_ERROR(f.Open("--output", path));
  f.stream() << text;
  return f.Commit();
}

// The names in `folder`.
size_t Entries(const std::string& folder) {
  size_t n = 0;
  for (const auto& e : fs::directory_iterator(folder)) {
    (void)e;
    ++n;
  }
  return n;
}

TEST(ReportFileTest, APlainFileIsReplacedWholeAndNoTemporaryIsLeft) {
  TempDir dir;
  dir.Write("out.json", "old");
  ASSERT_OK(WriteReport(dir.File("out.json"), "new"));
  EXPECT_EQ(dir.Read("out.json"), "new");
  EXPECT_EQ(Entries(dir.path()), 1u);
}

TEST(ReportFileTest, AFifoIsWrittenThroughAndStaysAFifo) {
  TempDir dir;
  const std::string fifo = dir.File("pipe");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::string got;
  std::thread reader([&] { got = testing::ReadFile(fifo); });
  const Status st = WriteReport(fifo, "through the pipe");
  reader.join();
  ASSERT_OK(st);
  EXPECT_EQ(got, "through the pipe");
  EXPECT_TRUE(fs::is_fifo(fs::symlink_status(fifo)));
}

// A character device of its own (the null device's numbers, made in the
// test's folder): written to, never replaced by a regular file. Making a
// device node needs root, which the tests run as; elsewhere the FIFO test
// above covers the same rule.
TEST(ReportFileTest, ADeviceIsWrittenToAndStaysADevice) {
  TempDir dir;
  const std::string dev = dir.File("null");
  if (mknod(dev.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) {
    ASSERT_NE(geteuid(), 0u) << "root could not make a device node in " << dir.path();
    GTEST_SKIP() << "making a device node needs root";
  }
  ASSERT_OK(WriteReport(dev, "into the null device"));
  struct stat st {};
  ASSERT_EQ(lstat(dev.c_str(), &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  EXPECT_EQ(st.st_rdev, makedev(1, 3));
  // Nothing beside it: no temporary made or left.
  EXPECT_EQ(Entries(dir.path()), 1u);
}

TEST(ReportFileTest, ALinkStaysALinkAndItsFileGetsTheReport) {
  TempDir dir;
  fs::create_directory(dir.File("real"));
  dir.Write("real/out.json", "old");
  fs::create_symlink("real/out.json", dir.File("link.json"));
  ASSERT_OK(WriteReport(dir.File("link.json"), "new"));
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(dir.File("link.json"))));
  EXPECT_EQ(dir.Read("real/out.json"), "new");
  // A link to a file not there yet: the file is made where the link points.
  fs::create_symlink("real/later.json", dir.File("dangling.json"));
  ASSERT_OK(WriteReport(dir.File("dangling.json"), "made"));
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(dir.File("dangling.json"))));
  EXPECT_EQ(dir.Read("real/later.json"), "made");
}

}  // namespace report_file_posix_test
}  // namespace loadcell
