// The facts fileio and sqlio state for the validity checks.

#include <fcntl.h>
#include <gtest/gtest.h>

#include "os/open_flags.h"
#include "workloads/fileio/fileio_options.h"

namespace loadcell {
namespace {

FileIoSettings RandomRead() {
  FileIoSettings s;
  s.mode = FileTestMode::kRndRead;
  s.num_files = 4;
  s.file_size = 1 << 20;
  s.engine = "io_uring";
  s.queue_depth_asked = 8;
  s.queue_depth = 8;
  s.direct = true;
  s.dir = "/data";
  return s;
}

TEST(FileIoFactsTest, ADirectReadStatesItsEngineDepthAndFiles) {
  const IoTargetFacts t =
      TargetFactsOf(RandomRead(), 2, {"/data/test_file.0"}, true, "--file-queue-depth");
  EXPECT_EQ(t.engine, "io_uring");
  EXPECT_TRUE(t.asynchronous);
  EXPECT_TRUE(t.direct);
  EXPECT_TRUE(t.reads);
  EXPECT_FALSE(t.writes);
  EXPECT_EQ(t.queue_depth, 8u);
  EXPECT_EQ(t.threads, 2);
  EXPECT_EQ(t.file_set_bytes, 4u << 20);
  EXPECT_EQ(t.depth_option, "--file-queue-depth");
  ASSERT_EQ(t.paths.size(), 1u);
}

TEST(FileIoFactsTest, WriteThroughIsDsyncOrAFlushAfterEveryWrite) {
  FileIoSettings s = RandomRead();
  s.mode = FileTestMode::kRndWrite;
  s.fsync_freq = 0;
  s.pattern = WritePattern::kZero;
  IoTargetFacts t = TargetFactsOf(s, 1, {}, false, "-o");
  EXPECT_TRUE(t.writes);
  EXPECT_FALSE(t.write_through);
  EXPECT_FALSE(t.periodic_flush);
  EXPECT_EQ(t.write_pattern, "zero");
  s.open_flags = O_DSYNC;
  EXPECT_TRUE(TargetFactsOf(s, 1, {}, false, "-o").write_through);
  s.open_flags = 0;
  s.fsync_freq = 1;
  t = TargetFactsOf(s, 1, {}, false, "-o");
  EXPECT_TRUE(t.write_through);
  EXPECT_TRUE(t.periodic_flush);
}

}  // namespace
}  // namespace loadcell
