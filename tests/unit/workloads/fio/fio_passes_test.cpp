#include "workloads/fio/fio_passes.h"

#include <gtest/gtest.h>

namespace loadcell {
namespace {

// Runs a job of `bs`-byte requests whose pattern is exhausted after
// `per_pass` of them in each pass (0: never), until the job is done;
// returns the requests issued.
uint64_t PassedIos(const FioPassRule& r, uint32_t bs, uint64_t per_pass) {
  FioPasses p(r, bs);
  uint64_t ios = 0;
  for (int pass = 0; pass < 1000; ++pass) {
    uint64_t n = 0;
    while (!p.Done() && (per_pass == 0 || n < per_pass)) {
      p.Issued(bs);
      ++n;
      ++ios;
    }
    if (!p.Another()) return ios;
    p.Begin();
  }
  return ios;
}

// The counts fio 3.33 gives for the same jobs (size=64k, bs=4k; rw=read:8k
// is exhausted after 6 reads, rw=read:12k wraps within the file).
TEST(FioPassesTest, TheJobEndsAndPassesBeginAsFios) {
  FioPassRule r;
  r.on = true;
  r.pass_bytes = 64 << 10;
  EXPECT_EQ(PassedIos(r, 4096, 6), 6u);
  r.loops = 2;
  EXPECT_EQ(PassedIos(r, 4096, 6), 12u);
  EXPECT_EQ(PassedIos(r, 4096, 0), 32u);
  // number_ios counts over the loops: 10 and loops=2 stop at 20; 20 and
  // loops=2 at the bytes (32); 4 and loops=3 at 12 (6 a pass).
  r.number_ios = 10;
  EXPECT_EQ(PassedIos(r, 4096, 0), 20u);
  r.number_ios = 20;
  EXPECT_EQ(PassedIos(r, 4096, 0), 32u);
  EXPECT_EQ(PassedIos(r, 4096, 6), 12u);
  r.number_ios = 4;
  r.loops = 3;
  EXPECT_EQ(PassedIos(r, 4096, 6), 12u);
  // io_size=96k: passes of 6 until 96k (24); io_size=30k: 8, the last
  // request whole past it; io_size=40k with loops=2: the two passes' 48k
  // pass it (12); number_ios=8 first: 8.
  r = FioPassRule{};
  r.on = true;
  r.io_size_given = true;
  r.pass_bytes = 96 << 10;
  EXPECT_EQ(PassedIos(r, 4096, 6), 24u);
  r.number_ios = 8;
  EXPECT_EQ(PassedIos(r, 4096, 6), 8u);
  r.number_ios = 0;
  r.pass_bytes = 30 << 10;
  EXPECT_EQ(PassedIos(r, 4096, 6), 8u);
  r.pass_bytes = 40 << 10;
  r.loops = 2;
  EXPECT_EQ(PassedIos(r, 4096, 6), 12u);
  // A job that verifies: files done do not end it, the verification's
  // reads count (rw=write:8k with verify: 6 writes, 6 reads, 6 writes).
  r = FioPassRule{};
  r.on = true;
  r.pass_bytes = 64 << 10;
  r.verifies = true;
  {
    FioPasses p(r, 4096);
    for (int i = 0; i < 6; ++i) p.Issued(4096);
    EXPECT_FALSE(p.Done());
    for (int i = 0; i < 6; ++i) p.Verified(4096);
    EXPECT_TRUE(p.Another());  // 48k of 64k
    p.Begin();
    for (int i = 0; i < 6; ++i) p.Issued(4096);
    EXPECT_FALSE(p.Another());  // 72k
  }
  r.verifies = false;
  r.io_size_given = true;
  // Fewer bytes left than the largest request: no new pass.
  r.loops = 1;
  r.pass_bytes = 26 << 10;
  EXPECT_EQ(PassedIos(r, 4096, 6), 6u);
}

TEST(FioPassesTest, ATimeBasedJobBeginsPassesUntilItsTimeIsUp) {
  FioPassRule r;
  r.on = true;
  r.time_based = true;
  FioPasses p(r, 4096);
  for (int i = 0; i < 100; ++i) p.Issued(4096);
  EXPECT_FALSE(p.Done());
  EXPECT_TRUE(p.Another());
}

}  // namespace
}  // namespace loadcell
