// sqlio's use of fileio: the settings each target's workers get, and the
// creation of a missing test file (whole, recorded, removed on failure).

#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "os/file_system.h"
#include "testing/status.h"
#include "testing/temp_dir.h"
#include "workloads/sqlio/sqlio.h"

namespace loadcell {
namespace {

TEST(SqlioTargetSettings, ModesSizesAndDepth) {
  SqlioPlan plan;
  plan.block_size = 64 << 10;
  plan.outstanding = 8;
  plan.open_flags = O_DIRECT;
  SqlioTarget t;
  t.path = "/data/t.dat";
  t.size = (1 << 20) + 1000;  // a partial block at the end is left out

  plan.random = true;
  plan.write = false;
  plan.engine = "io_uring";
  FileIoSettings s = SqlioTargetSettings(plan, t);
  EXPECT_EQ(s.mode, FileTestMode::kRndRead);
  EXPECT_EQ(s.file_size, 1u << 20);
  EXPECT_EQ(s.total_blocks, 16u);
  EXPECT_EQ(s.num_files, 1u);
  EXPECT_EQ(s.queue_depth, 8u);
  EXPECT_TRUE(s.direct);
  EXPECT_EQ(s.fsync_freq, 0u);  // SQLIO never fsyncs
  EXPECT_FALSE(s.fsync_end);
  EXPECT_FALSE(s.fsync_all);
  EXPECT_EQ(s.dir, "/data");

  plan.random = false;
  plan.write = true;
  plan.engine = "sync";
  s = SqlioTargetSettings(plan, t);
  EXPECT_EQ(s.mode, FileTestMode::kSeqRewrite);  // in place, never re-created
  EXPECT_EQ(s.queue_depth, 1u);                  // a synchronous engine
  EXPECT_EQ(s.request_size, 64u << 10);
}

class SqlioCreate : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = tmp_.path();
    ASSERT_FALSE(dir_.empty());
  }
  testing::TempDir tmp_;
  std::string dir_;  // tmp_.path()
};

TEST_F(SqlioCreate, WritesTheWholeFileAndRecordsIt) {
  const std::string path = dir_ + "/t.dat";
  const uint64_t size = (3 << 20) + 4096;
  ASSERT_OK(CreateSqlioFile(DefaultFileSystem(), path, size, nullptr, false));
  EXPECT_EQ(std::filesystem::file_size(path), size);
  // Written, not sparse: the blocks allocated cover the size.
  Result<FileInfo> info = DefaultFileSystem().Stat(path);
  ASSERT_OK(info);
  EXPECT_GE(info->allocated_bytes, size);
  std::ifstream in(path, std::ios::binary);
  std::string head(4096, '\0');
  in.read(head.data(), 4096);
  EXPECT_NE(head, std::string(4096, '\0'));  // random bytes, not zeros
  const std::string text = tmp_.Read(kSqlioManifestName);
  EXPECT_NE(text.find("created t.dat " + std::to_string(size)), std::string::npos);
  // An existing file is never overwritten.
  EXPECT_FALSE(CreateSqlioFile(DefaultFileSystem(), path, size, nullptr, false).ok());
}

TEST_F(SqlioCreate, FullDiskRemovesThePartialFile) {
  FaultInjectingFileSystem fs(DefaultFileSystem());
  fs.FailWritesAfter(2, ENOSPC);
  const std::string path = dir_ + "/t.dat";
  Status st = CreateSqlioFile(fs, path, 8 << 20, nullptr, false);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.err(), ENOSPC);
  EXPECT_FALSE(std::filesystem::exists(path));
}

}  // namespace
}  // namespace loadcell
