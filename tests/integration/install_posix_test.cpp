// `cmake --install` of this build into a DESTDIR (what `make install` runs):
// the binary and, beside it, the `sysbench` link that starts sysbench mode
// (CMakeLists.txt's install rules; docs/sysbench-mode.md). POSIX only: the
// Windows build's copy, sysbench.exe, is checked by scripts/test-windows.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::ChildWatch;
using testing::ProcessResult;
using testing::RunCommand;
using testing::Show;
using testing::TempDir;

// `cmake --install` of the build under test into `destdir`, prefix /usr/local.
ProcessResult InstallInto(const std::string& destdir) {
  ChildWatch watch;
  watch.timeout_s = 120;
  watch.env = {{"DESTDIR", destdir}};
  return RunCommand(
      {LOADCELL_CMAKE_COMMAND, "--install", LOADCELL_BUILD_DIR, "--prefix", "/usr/local"}, watch);
}

TEST(Install, PutsTheBinaryAndASysbenchLinkInTheDestdir) {
  TempDir dest;
  const ProcessResult install = InstallInto(dest.path());
  ASSERT_EQ(install.exit_code, 0) << Show(install);
  const std::string bin = dest.path() + "/usr/local/bin";
  ASSERT_TRUE(std::filesystem::is_regular_file(bin + "/loadcell")) << Show(install);
  ASSERT_TRUE(std::filesystem::is_symlink(bin + "/sysbench")) << Show(install);
  // Relative, so that the staged tree works wherever it is copied.
  EXPECT_EQ(std::filesystem::read_symlink(bin + "/sysbench").string(), "loadcell");

  const ProcessResult sysbench = RunCommand({bin + "/sysbench", "--version"}, ChildWatch{});
  EXPECT_EQ(sysbench.exit_code, 0) << Show(sysbench);
  EXPECT_EQ(sysbench.out, "sysbench 1.0.20\n");

  const ProcessResult loadcell = RunCommand({bin + "/loadcell", "--version"}, ChildWatch{});
  EXPECT_EQ(loadcell.exit_code, 0) << Show(loadcell);
  EXPECT_EQ(loadcell.out.rfind("loadcell ", 0), 0u) << Show(loadcell);
}

TEST(Install, InstallingAgainReplacesTheLink) {
  TempDir dest;
  const std::string bin = dest.path() + "/usr/local/bin";
  std::filesystem::create_directories(bin);
  // A stale link from an earlier install, pointing elsewhere.
  std::filesystem::create_symlink("/nonexistent/loadcell", bin + "/sysbench");
  const ProcessResult install = InstallInto(dest.path());
  ASSERT_EQ(install.exit_code, 0) << Show(install);
  EXPECT_EQ(std::filesystem::read_symlink(bin + "/sysbench").string(), "loadcell");
  const ProcessResult again = InstallInto(dest.path());
  ASSERT_EQ(again.exit_code, 0) << Show(again);
  const ProcessResult sysbench = RunCommand({bin + "/sysbench", "--version"}, ChildWatch{});
  EXPECT_EQ(sysbench.out, "sysbench 1.0.20\n") << Show(sysbench);
}

}  // namespace
}  // namespace loadcell
