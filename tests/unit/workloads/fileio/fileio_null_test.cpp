// fileio with --file-io-mode=null: the same worker loop, counters and
// latency recording as the real engines, over files that are never opened.

#include <gtest/gtest.h>

#include <string>

#include "testing/fileio_test_util.h"
#include "testing/status.h"

namespace loadcell {
namespace {

using testing::Configure;
using testing::Counter;
using testing::KindCount;
using testing::QuietConsole;
using testing::RunEvents;
using testing::TempDir;
using testing::WithSmallFiles;

TEST(FileIoNull, NeedsNoPreparedFilesAndTouchesNone) {
  TempDir dir;
  for (const char* depth : {"1", "32"}) {
    FileIoWorkload w;
    ASSERT_OK(Configure(w, WithSmallFiles(dir.path(), {{"file-test-mode", "rndrd"},
                                                       {"file-io-mode", "null"},
                                                       {"file-queue-depth", depth}})));
    Result<RunResult> r = RunEvents(w, 1000, 2);
    ASSERT_OK(r);
    ASSERT_OK(r->failure) << r->failure.ToString();
    EXPECT_EQ(r->events, 1000u) << depth;
    EXPECT_EQ(Counter(*r, "reads"), 1000u) << depth;
    EXPECT_EQ(KindCount(*r, "read"), 1000u) << depth;
    EXPECT_EQ(Counter(*r, "bytes_read"), 1000u * 4096) << depth;
    EXPECT_EQ(w.settings().queue_depth, static_cast<uint32_t>(std::stoi(depth)));
    EXPECT_TRUE(dir.IsEmpty()) << "no file, no lock, no manifest";
  }
}

TEST(FileIoNull, EveryModeCountsItsRequestsAndFsyncs) {
  TempDir dir;
  for (const char* mode : {"seqwr", "seqrewr", "seqrd", "rndrd", "rndwr", "rndrw"}) {
    FileIoWorkload w;
    ASSERT_OK(Configure(w, WithSmallFiles(dir.path(), {{"file-test-mode", mode},
                                                       {"file-io-mode", "null"},
                                                       {"file-queue-depth", "8"},
                                                       {"file-fsync-freq", "10"}})));
    Result<RunResult> r = RunEvents(w, 500);
    ASSERT_OK(r);
    ASSERT_OK(r->failure) << mode << ": " << r->failure.ToString();
    // Every event is one read, one write or one fsync event, counted once.
    const uint64_t writes = Counter(*r, "writes"), fsyncs = KindCount(*r, "fsync");
    EXPECT_EQ(Counter(*r, "reads") + writes + fsyncs, r->events) << mode;
    EXPECT_EQ(r->events, 500u) << mode;
    const bool writing = std::string(mode) != "seqrd" && std::string(mode) != "rndrd";
    EXPECT_EQ(writes > 0, writing) << mode;
    EXPECT_EQ(fsyncs > 0, writing) << mode;
    EXPECT_EQ(Counter(*r, "bytes_written"), writes * 4096) << mode;
    EXPECT_TRUE(dir.IsEmpty()) << mode;
  }
}

TEST(FileIoNull, PrepareWritesNothingAndValidateIsRefused) {
  TempDir dir;
  FileIoWorkload w;
  ASSERT_OK(Configure(w, WithSmallFiles(dir.path(), {{"file-io-mode", "null"}})));
  QuietConsole console;
  console.Attach(w);
  PrepareContext ctx;
  ASSERT_OK(w.Prepare(ctx));
  w.SetConsole(nullptr, nullptr, false);
  EXPECT_NE(console.out.str().find("nothing to prepare"), std::string::npos) << console.out.str();
  EXPECT_TRUE(dir.IsEmpty());

  FileIoWorkload v;
  Status s = Configure(v, WithSmallFiles(dir.path(), {{"file-test-mode", "rndrd"},
                                                      {"file-io-mode", "null"},
                                                      {"validate", "on"}}));
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("--file-io-mode=null"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace loadcell
