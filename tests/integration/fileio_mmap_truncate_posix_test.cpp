// fileio's mmap engine under a file another process truncates, through the
// real binary: POSIX only (Windows refuses to shrink a mapped file,
// ERROR_USER_MAPPED_FILE; docs/windows.md).

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::BuildTree;
using testing::FileIoCommand;
using testing::ProcessResult;
using testing::RunLoadcell;
using testing::TempDir;

// Another process truncating a test file while the mmap engine reads it:
// the access faults (SIGBUS), and the run ends as a failed run (exit 1) with
// its report and the error, not as a crash without one.
TEST(FileIoBinary, MmapFileTruncatedMidRunIsAFailedRunWithAReport) {
  TempDir dir(BuildTree());
  ASSERT_EQ(RunLoadcell(FileIoCommand(dir, {"prepare"})).exit_code, 0);
  std::thread truncator([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(700));
    for (int i = 0; i < 4; ++i) {
      const std::string file = dir.File("test_file." + std::to_string(i));
      EXPECT_EQ(::truncate(file.c_str(), 0), 0) << file;
    }
  });
  ProcessResult r = RunLoadcell(
      FileIoCommand(dir, {"--file-io-mode=mmap", "--file-test-mode=rndrd", "--time=20", "run"}));
  truncator.join();
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("total number of events:"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("Input/output error"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace loadcell
