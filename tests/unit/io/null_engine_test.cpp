// The null engine: every request completes at once, nothing is touched.

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <memory>
#include <vector>

#include "io/io_engine.h"
#include "os/file_system.h"
#include "testing/status.h"

namespace loadcell {
namespace {

std::unique_ptr<IoEngine> OpenNull(size_t files, uint32_t depth) {
  Result<std::unique_ptr<IoEngine>> e = MakeIoEngine("null", DefaultFileSystem());
  EXPECT_OK(e);
  if (!e.ok()) return nullptr;
  std::vector<IoFile> fs(files);  // fd -1: never used
  EngineOptions opts;
  opts.queue_depth = depth;
  EXPECT_OK((*e)->Open(fs, opts));
  return std::move(*e);
}

TEST(NullEngineTest, IsListedAndAsynchronousInForm) {
  const std::vector<std::string> names = IoEngineNames();
  EXPECT_NE(std::find(names.begin(), names.end(), "null"), names.end());
  EXPECT_OK(CheckIoEngine("null", "--file-io-mode=null"));
  std::unique_ptr<IoEngine> e = OpenNull(1, 4);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->Name(), "null");
  EXPECT_TRUE(e->Capabilities().asynchronous);
  EXPECT_GE(e->Capabilities().max_queue_depth, 4096u);
}

TEST(NullEngineTest, CompletesEveryRequestWholeWithoutTouchingTheBuffer) {
  std::unique_ptr<IoEngine> e = OpenNull(2, 4);
  ASSERT_NE(e, nullptr);
  unsigned char buf[64];
  for (unsigned char& c : buf) c = 0xA5;
  std::vector<IoRequest> reqs(4);
  const IoOp ops[] = {IoOp::kRead, IoOp::kWrite, IoOp::kFsync, IoOp::kRead};
  for (size_t i = 0; i < reqs.size(); ++i) {
    reqs[i].op = ops[i];
    reqs[i].file = i == 3 ? 7 : static_cast<int>(i % 2);  // 7: no such file
    reqs[i].length = 64;
    reqs[i].buffer = buf;
    reqs[i].user_data = 100 + i;
  }
  Result<size_t> took = e->Submit(reqs);
  ASSERT_OK(took);
  EXPECT_EQ(*took, 4u);
  EXPECT_EQ(e->InFlight(), 4u);
  // The queue is full at depth 4: a fifth waits.
  Result<size_t> more = e->Submit(std::span<IoRequest>(reqs).first(1));
  ASSERT_OK(more);
  EXPECT_EQ(*more, 0u);
  std::vector<IoCompletion> out(8);
  Result<size_t> got = e->Reap(1, out, 0);
  ASSERT_OK(got);
  ASSERT_EQ(*got, 4u);
  EXPECT_EQ(out[0].user_data, 100u);
  EXPECT_EQ(out[0].result, 64);  // read: the whole length
  EXPECT_EQ(out[1].result, 64);  // write
  EXPECT_EQ(out[2].result, 0);   // fsync
  EXPECT_EQ(out[3].result, -EBADF);
  EXPECT_EQ(e->InFlight(), 0u);
  for (unsigned char c : buf) ASSERT_EQ(c, 0xA5);
  Result<size_t> none = e->Reap(1, out, -1);  // never waits with nothing in flight
  ASSERT_OK(none);
  EXPECT_EQ(*none, 0u);
  EXPECT_OK(e->Close());
  EXPECT_FALSE(e->Submit(reqs).ok());
}

}  // namespace
}  // namespace loadcell
