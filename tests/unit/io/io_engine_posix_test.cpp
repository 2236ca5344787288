// The mmap engine when another process truncates its file: POSIX only (the
// access raises SIGBUS there; Windows refuses to truncate a mapped file).

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <memory>
#include <vector>

#include "io/io_engine.h"
#include "os/file_system.h"
#include "testing/temp_dir.h"
#include "unit/io/engine_test_util.h"

namespace loadcell {
namespace {

using testing::Buffer;
using testing::kBlock;
using testing::NewBuffer;
using testing::ResultFor;
using testing::RunAll;
using testing::TempDir;

// Another process truncating a file under the mapping makes the next access
// raise SIGBUS; the engine turns it into a failed request (-EIO) instead of
// dying, and the mapping works again once the file has its size back.
TEST(MmapEngineFaultTest, TruncatedFileIsAFailedRequestNotACrash) {
  TempDir dir;
  IoFile f;
  f.path = dir.File("f");
  f.fd = ::open(f.path.c_str(), O_RDWR | O_CREAT, 0644);
  ASSERT_GE(f.fd, 0);
  ASSERT_EQ(::ftruncate(f.fd, off_t{16} * kBlock), 0);
  f.size = uint64_t{16} * kBlock;
  Result<std::unique_ptr<IoEngine>> e = MakeIoEngine("mmap", DefaultFileSystem());
  ASSERT_TRUE(e.ok());
  std::vector<IoFile> files{f};
  ASSERT_TRUE((*e)->Open(files, EngineOptions{}).ok());

  Buffer buf = NewBuffer(kBlock);
  std::vector<IoRequest> reqs(2);
  for (int i = 0; i < 2; ++i) {
    reqs[i].op = i == 0 ? IoOp::kRead : IoOp::kWrite;
    reqs[i].offset = uint64_t{8} * kBlock;
    reqs[i].length = kBlock;
    reqs[i].buffer = buf.get();
    reqs[i].user_data = static_cast<uint64_t>(i);
  }
  ASSERT_EQ(::ftruncate(f.fd, 0), 0);
  std::vector<IoCompletion> done = RunAll(**e, reqs);
  ASSERT_EQ(done.size(), 2u);
  EXPECT_EQ(ResultFor(done, 0), -EIO);
  EXPECT_EQ(ResultFor(done, 1), -EIO);

  ASSERT_EQ(::ftruncate(f.fd, off_t{16} * kBlock), 0);
  done = RunAll(**e, reqs);
  ASSERT_EQ(done.size(), 2u);
  EXPECT_EQ(ResultFor(done, 0), kBlock);
  EXPECT_EQ(ResultFor(done, 1), kBlock);
  EXPECT_TRUE((*e)->Close().ok());
  ::close(f.fd);
}

}  // namespace
}  // namespace loadcell
