// --mpi-files=shared: each rank's segment of the sequential requests
// (SeqSegment) and the requests FileIoShared hands a rank out of it.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/random.h"
#include "testing/status.h"
#include "workloads/fileio/fileio_options.h"
#include "workloads/fileio/fileio_worker.h"
#include "workloads/sqlio/sqlio.h"

namespace loadcell {
namespace {

constexpr uint64_t kSegmentBlock = 4096;

TEST(FileIoSegment, SegmentsAreContiguousDisjointAndCoverTheSequence) {
  for (const uint64_t count : {1u, 7u, 1000u, 1024u}) {
    for (uint32_t ranks = 1; ranks <= 5; ++ranks) {
      uint64_t next = 0;
      for (uint32_t r = 0; r < ranks; ++r) {
        const SeqRange seg = SeqSegment(count, r, ranks);
        EXPECT_EQ(seg.first, next) << count << " " << r << "/" << ranks;
        EXPECT_LE(seg.first, seg.end);
        // Sizes differ by one at most.
        EXPECT_LE(seg.end - seg.first, count / ranks + 1);
        next = seg.end;
      }
      EXPECT_EQ(next, count) << count << " over " << ranks;
    }
  }
}

// One file of `blocks` blocks, read in sequence, as rank `rank` of `ranks`.
FileIoSettings Sequential(uint64_t blocks, uint64_t start_block, uint32_t rank, uint32_t ranks) {
  SqlioPlan plan;
  plan.random = false;
  plan.block_size = kSegmentBlock;
  plan.start_block = start_block;
  plan.share_rank = rank;
  plan.share_ranks = ranks;
  SqlioTarget target;
  target.path = "/nowhere/t.dat";
  target.size = blocks * kSegmentBlock;
  return SqlioTargetSettings(plan, target);
}

std::vector<uint64_t> NextBlocks(FileIoShared& shared, int n) {
  Random rng(1);
  std::vector<uint64_t> out(static_cast<size_t>(n));
  for (uint64_t& b : out) b = shared.Next(false, rng, nullptr).offset / kSegmentBlock;
  return out;
}

TEST(FileIoSegment, ARankGoesRoundItsOwnSegmentOnly) {
  // 10 blocks over 3 ranks: [0, 3), [3, 6), [6, 10).
  const FileIoSettings s = Sequential(10, 0, 1, 3);
  FileIoShared shared(s, {});
  ASSERT_OK(shared.Init());
  EXPECT_EQ(NextBlocks(shared, 7), (std::vector<uint64_t>{3, 4, 5, 3, 4, 5, 3}));
  const FileIoSettings last = Sequential(10, 0, 2, 3);
  FileIoShared tail(last, {});
  ASSERT_OK(tail.Init());
  EXPECT_EQ(NextBlocks(tail, 5), (std::vector<uint64_t>{6, 7, 8, 9, 6}));
}

TEST(FileIoSegment, SegmentsCountFromTheStartOffset) {
  // -S2 on 10 blocks: the sequence is blocks 2..9; rank 1 of 2 has 6..9.
  const FileIoSettings s = Sequential(10, 2, 1, 2);
  FileIoShared shared(s, {});
  ASSERT_OK(shared.Init());
  EXPECT_EQ(NextBlocks(shared, 5), (std::vector<uint64_t>{6, 7, 8, 9, 6}));
}

TEST(FileIoSegment, FewerRequestsThanRanksAreRefused) {
  const FileIoSettings s = Sequential(3, 0, 0, 4);
  FileIoShared shared(s, {});
  const Status st = shared.Init();
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("fewer than the 4 ranks"), std::string::npos) << st.ToString();
}

}  // namespace
}  // namespace loadcell
