// Where fileio's planner puts requests: the default sysbench placement, and
// sqlio's start offset (-S), stripe factor (-f<N>, SQLIO's stripe pattern)
// and I/Os per run (-i), both straight from FileIoShared::Next and through a
// worker's real reads.

#include <gtest/gtest.h>

#include <fstream>
#include <mutex>
#include <string>
#include <vector>

#include "core/random.h"
#include "runner/run_config.h"
#include "runner/runner.h"
#include "testing/fileio_test_util.h"
#include "testing/status.h"
#include "testing/temp_dir.h"
#include "workloads/fileio/fileio_worker.h"
#include "workloads/sqlio/sqlio.h"

namespace loadcell {
namespace {

constexpr uint64_t kKiB = 1024;

// A sqlio plan over one file of `blocks` blocks of `block` bytes.
struct PlanCase {
  SqlioPlan plan;
  SqlioTarget target;
};

PlanCase Sqlio(bool random, uint64_t block, uint64_t blocks) {
  PlanCase c;
  c.plan.random = random;
  c.plan.block_size = block;
  c.target.path = "/nowhere/t.dat";
  c.target.size = block * blocks;
  return c;
}

// The offsets of the next `n` reads one thread gets (`lane`: its place in
// the stripe pattern, unused by shared sequences).
std::vector<uint64_t> Offsets(FileIoShared& shared, SeqLane* lane, int n, uint64_t seed = 1) {
  Random rng(seed);
  std::vector<uint64_t> out;
  for (int i = 0; i < n; ++i) out.push_back(shared.Next(false, rng, nullptr, lane).offset);
  return out;
}

std::vector<uint64_t> Blocks(std::initializer_list<uint64_t> b, uint64_t block) {
  std::vector<uint64_t> out;
  for (uint64_t x : b) out.push_back(x * block);
  return out;
}

// The lane of thread `index` of `threads` on a file, as sqlio sets it.
SeqLane Lane(uint64_t stripe, int index, int threads) {
  SeqLane lane;
  SqlioLane(stripe, index, threads, &lane.first, &lane.width);
  return lane;
}

TEST(SqlioPlacement, StartOffsetIsTheBaseOfSequentialIo) {
  PlanCase c = Sqlio(false, 16 * kKiB, 64);
  c.plan.start_block = 4;  // -fsequential -S4 -b16
  FileIoSettings s = SqlioTargetSettings(c.plan, c.target);
  EXPECT_FALSE(s.seq_lanes);
  FileIoShared shared(s, {});
  ASSERT_OK(shared.Init());
  const std::vector<uint64_t> first = Offsets(shared, nullptr, 3);
  EXPECT_EQ(first[0], 4 * 16 * kKiB);
  EXPECT_EQ(first, Blocks({4, 5, 6}, 16 * kKiB));
  // The file's threads share one sequence (the block after the previous
  // I/O on the file), which runs to the end of the file and wraps to -S.
  EXPECT_EQ(shared.seq_pass(), 60u);
  std::vector<uint64_t> rest = Offsets(shared, nullptr, 57);
  EXPECT_EQ(rest.back(), 63 * 16 * kKiB);
  EXPECT_EQ(Offsets(shared, nullptr, 1), Blocks({4}, 16 * kKiB));
}

// SQLIO's readme: the blocks from -S on are rows of -f blocks; a run is -i
// I/Os down one column, the next run one block over.
TEST(SqlioPlacement, StripeFactorRunsDownColumnsOneBlockOverEachRun) {
  PlanCase c = Sqlio(false, 8 * kKiB, 18);
  c.plan.stripe = 4;
  c.plan.ios_per_run = 3;  // -f4 -i3 -b8 -t1
  FileIoSettings s = SqlioTargetSettings(c.plan, c.target);
  FileIoShared shared(s, {});
  ASSERT_OK(shared.Init());
  EXPECT_EQ(shared.seq_stride(), 4 * 8 * kKiB);
  SeqLane lane = Lane(4, 0, 1);
  EXPECT_EQ(Offsets(shared, &lane, 15),
            Blocks({0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11, 0, 4, 8}, 8 * kKiB));
  Random rng(3);
  const FileIoPlan p = shared.Next(false, rng, nullptr, &lane);
  EXPECT_EQ(p.length, 8 * kKiB);  // each I/O is one block, not the stride
}

TEST(SqlioPlacement, StripeStartsAtTheStartOffset) {
  PlanCase c = Sqlio(false, 4 * kKiB, 100);
  c.plan.start_block = 2;
  c.plan.stripe = 4;
  c.plan.ios_per_run = 3;  // -S2 -f4 -i3
  FileIoSettings s = SqlioTargetSettings(c.plan, c.target);
  FileIoShared shared(s, {});
  ASSERT_OK(shared.Init());
  SeqLane lane = Lane(4, 0, 1);
  const std::vector<uint64_t> got = Offsets(shared, &lane, 6);
  EXPECT_EQ(got[0], 2 * 4 * kKiB);
  EXPECT_EQ(got, Blocks({2, 6, 10, 3, 7, 11}, 4 * kKiB));
}

TEST(SqlioPlacement, ThreadsSplitTheColumnsOfEachRow) {
  PlanCase c = Sqlio(false, 4 * kKiB, 64);
  c.plan.stripe = 4;
  c.plan.ios_per_run = 3;  // -f4 -i3 -t2
  FileIoSettings s = SqlioTargetSettings(c.plan, c.target);
  FileIoShared shared(s, {});
  ASSERT_OK(shared.Init());
  SeqLane t0 = Lane(4, 0, 2), t1 = Lane(4, 1, 2);
  EXPECT_EQ(t0.first, 0u);
  EXPECT_EQ(t0.width, 2u);
  EXPECT_EQ(t1.first, 2u);
  EXPECT_EQ(t1.width, 2u);
  EXPECT_EQ(Offsets(shared, &t0, 9), Blocks({0, 4, 8, 1, 5, 9, 0, 4, 8}, 4 * kKiB));
  EXPECT_EQ(Offsets(shared, &t1, 9), Blocks({2, 6, 10, 3, 7, 11, 2, 6, 10}, 4 * kKiB));
  // Uneven splits cover every column once.
  uint64_t covered = 0;
  for (int k = 0; k < 3; ++k) {
    const SeqLane l = Lane(64, k, 3);
    EXPECT_EQ(l.first, covered);
    covered += l.width;
  }
  EXPECT_EQ(covered, 64u);
}

TEST(SqlioPlacement, Version111RunsReuseTheSameBlocks) {
  PlanCase c = Sqlio(false, 4 * kKiB, 64);
  c.plan.stripe = 4;
  c.plan.ios_per_run = 3;
  c.plan.same_runs = true;  // -f4 -i3 -v1.1.1
  FileIoSettings s = SqlioTargetSettings(c.plan, c.target);
  FileIoShared shared(s, {});
  ASSERT_OK(shared.Init());
  SeqLane lane = Lane(4, 0, 1);
  EXPECT_EQ(Offsets(shared, &lane, 7), Blocks({0, 4, 8, 0, 4, 8, 0}, 4 * kKiB));
}

TEST(SqlioPlacement, RunsStopAtTheLastWholeRow) {
  PlanCase c = Sqlio(false, 4 * kKiB, 18);  // rows of 4: blocks 0..15 (16, 17 left out)
  c.plan.stripe = 4;
  c.plan.ios_per_run = 1000;
  FileIoSettings s = SqlioTargetSettings(c.plan, c.target);
  FileIoShared shared(s, {});
  ASSERT_OK(shared.Init());
  EXPECT_EQ(shared.seq_pass(), 4u);
  SeqLane lane = Lane(4, 0, 1);
  EXPECT_EQ(Offsets(shared, &lane, 6), Blocks({0, 4, 8, 12, 1, 5}, 4 * kKiB));
}

TEST(SqlioPlacement, RandomBlocksStayFromTheStartOffsetToTheEnd) {
  PlanCase c = Sqlio(true, 4 * kKiB, 16);
  c.plan.start_block = 12;
  FileIoSettings s = SqlioTargetSettings(c.plan, c.target);
  FileIoShared shared(s, {});
  ASSERT_OK(shared.Init());
  EXPECT_EQ(shared.random_blocks(), 4u);
  std::vector<int> seen(16, 0);
  for (uint64_t off : Offsets(shared, nullptr, 400, 9)) {
    ASSERT_EQ(off % (4 * kKiB), 0u);
    ASSERT_LT(off / (4 * kKiB), 16u);
    ++seen[off / (4 * kKiB)];
  }
  for (int b = 0; b < 12; ++b) EXPECT_EQ(seen[b], 0) << "block " << b;
  for (int b = 12; b < 16; ++b) EXPECT_GT(seen[b], 0) << "block " << b;
}

TEST(SqlioPlacement, PlacementOutsideTheFileIsRefused) {
  PlanCase c = Sqlio(false, 4 * kKiB, 8);
  FileIoSettings s = SqlioTargetSettings(c.plan, c.target);
  s.seq_start = 8 * 4 * kKiB;
  FileIoShared past(s, {});
  EXPECT_EQ(past.Init().code(), StatusCode::kInvalidArgument);
  s.seq_start = 4 * kKiB + 1;  // not a whole block
  FileIoShared odd(s, {});
  EXPECT_EQ(odd.Init().code(), StatusCode::kInvalidArgument);
  c.plan.stripe = 4;
  c.plan.start_block = 5;  // blocks 5..7: no whole row of 4
  FileIoSettings st = SqlioTargetSettings(c.plan, c.target);
  FileIoShared row(st, {});
  EXPECT_EQ(row.Init().code(), StatusCode::kInvalidArgument);
}

// fileio without these settings: one sequence shared by every thread, over
// every file in turn, with sysbench's merged requests and short last one.
TEST(FileIoPlacement, DefaultSequenceIsSharedAndUnchanged) {
  FileIoSettings s;
  s.mode = FileTestMode::kSeqRead;
  s.num_files = 2;
  s.block_size = 4 * kKiB;
  s.request_size = 12 * kKiB;  // 3 merged blocks
  s.file_size = 40 * kKiB;     // 10 blocks: requests at 0, 12, 24, 36 (4 KiB long)
  s.blocks_per_file = 10;
  s.total_blocks = 20;
  s.seq_requests_per_file = 4;
  FileIoShared shared(s, {});
  ASSERT_OK(shared.Init());
  Random rng(1);
  SeqLane a, b;
  std::vector<std::pair<uint32_t, uint64_t>> got;
  std::vector<uint32_t> lengths;
  for (int i = 0; i < 9; ++i) {
    // Alternate two threads: they take turns on the one shared sequence.
    const FileIoPlan p = shared.Next(false, rng, nullptr, i % 2 == 0 ? &a : &b);
    got.emplace_back(p.file, p.offset / kKiB);
    lengths.push_back(p.length);
  }
  const std::vector<std::pair<uint32_t, uint64_t>> want = {
      {0, 0}, {0, 12}, {0, 24}, {0, 36}, {1, 0}, {1, 12}, {1, 24}, {1, 36}, {0, 0}};
  EXPECT_EQ(got, want);
  EXPECT_EQ(lengths[3], 4 * kKiB);
  EXPECT_EQ(lengths[2], 12 * kKiB);
  EXPECT_EQ(a.n, 0u);  // the threads' lanes are not used
  EXPECT_EQ(b.n, 0u);
  EXPECT_EQ(shared.seq_issued(), 9u);
}

TEST(FileIoPlacement, DefaultRandomBlocksCoverEveryFile) {
  FileIoSettings s;
  s.mode = FileTestMode::kRndRead;
  s.num_files = 3;
  s.block_size = 4 * kKiB;
  s.request_size = 4 * kKiB;
  s.file_size = 16 * kKiB;
  s.blocks_per_file = 4;
  s.total_blocks = 12;
  s.seq_requests_per_file = 4;
  FileIoShared shared(s, {});
  ASSERT_OK(shared.Init());
  EXPECT_EQ(shared.random_blocks(), 12u);
  Random rng(5);
  std::vector<int> seen(12, 0);
  for (int i = 0; i < 600; ++i) {
    const FileIoPlan p = shared.Next(false, rng, nullptr, nullptr);
    ASSERT_LT(p.file, 3u);
    ASSERT_LT(p.offset, 16 * kKiB);
    ++seen[p.file * 4 + p.offset / (4 * kKiB)];
  }
  for (int b = 0; b < 12; ++b) EXPECT_GT(seen[b], 0) << "block " << b;
}

// Forwards to the real file system and records every read's offset.
class RecordingFileSystem final : public FileSystemWrapper {
 public:
  RecordingFileSystem() : FileSystemWrapper(DefaultFileSystem()) {}

  Result<size_t> PRead(int fd, void* buf, size_t len, uint64_t offset) override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      reads_.push_back(offset);
    }
    return FileSystemWrapper::PRead(fd, buf, len, offset);
  }

  std::vector<uint64_t> reads() {
    std::lock_guard<std::mutex> lock(mu_);
    return reads_;
  }

 private:
  std::mutex mu_;
  std::vector<uint64_t> reads_;  // guarded by mu_
};

TEST(SqlioPlacement, TheWorkersReadWhereThePlanSays) {
  testing::TempDir dir;
  const std::string path = dir.File("t.dat");
  constexpr uint64_t kBlock = 4 * kKiB;
  {
    std::ofstream out(path, std::ios::binary);
    out << std::string(32 * kBlock, 'x');
  }
  SqlioPlan plan;
  plan.random = false;
  plan.block_size = kBlock;
  plan.start_block = 3;
  plan.stripe = 5;
  plan.ios_per_run = 4;  // -S3 -f5 -i4: rows of 5 from block 3; runs down columns
  SqlioTarget t;
  t.shown = path;
  t.path = path;
  t.threads = 1;
  t.size = 32 * kBlock;
  plan.targets = {t};
  RecordingFileSystem fs;
  SqlioWorkload w(plan, fs);
  Result<RunResult> r = testing::RunEvents(w, 10);
  ASSERT_OK(r);
  ASSERT_OK(r->failure);
  std::vector<uint64_t> reads = fs.reads();
  ASSERT_GE(reads.size(), 10u);
  reads.resize(10);
  EXPECT_EQ(reads, Blocks({3, 8, 13, 18, 4, 9, 14, 19, 5, 10}, kBlock));
  std::string described;
  for (const auto& [k, v] : w.Describe()) {
    if (k == "File " + path) described = v;
  }
  EXPECT_NE(described.find(" bytes, 1 thread, mask "), std::string::npos) << described;
}

}  // namespace
}  // namespace loadcell
