// fileio's prepare stopped by the stop request, raised as SIGINT: POSIX
// only (on Windows the request comes from the console's control handler).

#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <string>

#include "runner/stop_signal.h"
#include "testing/fileio_test_util.h"
#include "testing/status.h"

namespace loadcell {
namespace {

using testing::Configure;
using testing::PrepareWith;
using testing::QuietConsole;
using testing::TempDir;
using testing::WithSmallFiles;

TEST(FileIoPrepare, InterruptRemovesThePartialFileAndSaysHowToResume) {
  TempDir dir;
  FileIoWorkload w;
  ASSERT_OK(Configure(w, WithSmallFiles(dir.path(), {})));
  InstallStopSignalHandlers();
  ASSERT_EQ(raise(SIGINT), 0);
  QuietConsole console;
  Status s = PrepareWith(w, console);
  ResetStopRequested();
  EXPECT_EQ(s.code(), StatusCode::kCancelled);
  EXPECT_NE(s.message().find("again to resume"), std::string::npos) << s.message();
  EXPECT_FALSE(std::filesystem::exists(dir.File("test_file.0")));
}

}  // namespace
}  // namespace loadcell
