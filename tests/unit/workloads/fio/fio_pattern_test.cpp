#include "workloads/fio/fio_pattern.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace loadcell {
namespace {

FioPatternSettings Base(uint64_t region, uint32_t bs) {
  FioPatternSettings s;
  s.region_length = region;
  for (FioBlockSizes& b : s.bs) b.min = b.max = bs;
  s.seed = 42;
  return s;
}

TEST(FioPatternTest, RandomMapUsesEveryBlockOncePerPass) {
  FioPatternSettings s = Base(1000 * 4096, 4096);
  s.random = true;
  FioPattern p(s);
  for (int pass = 0; pass < 2; ++pass) {
    std::set<uint64_t> seen;
    for (int i = 0; i < 1000; ++i) {
      FioIo io = p.Next();
      EXPECT_EQ(io.offset % 4096, 0u);
      EXPECT_LT(io.offset, 1000u * 4096);
      seen.insert(io.offset);
    }
    EXPECT_EQ(seen.size(), 1000u) << "pass " << pass;
  }
}

TEST(FioPatternTest, NoRandomMapRepeatsOffsets) {
  FioPatternSettings s = Base(64 * 4096, 4096);
  s.random = true;
  s.norandommap = true;
  FioPattern p(s);
  std::set<uint64_t> seen;
  for (int i = 0; i < 64; ++i) seen.insert(p.Next().offset);
  EXPECT_LT(seen.size(), 64u);
}

TEST(FioPatternTest, SequentialOffsetsWrapAtTheRegionEnd) {
  FioPatternSettings s = Base(4 * 4096, 4096);
  s.region_offset = 1 << 20;
  FioPattern p(s);
  for (uint64_t expect : {0, 1, 2, 3, 0, 1}) {
    FioIo io = p.Next();
    EXPECT_EQ(io.offset, (1u << 20) + expect * 4096);
    EXPECT_EQ(io.length, 4096u);
    EXPECT_EQ(io.dir, FioDir::kRead);
  }
}

TEST(FioPatternTest, SkipModifierSkipsForwardAndBackward) {
  FioPatternSettings fwd = Base(64 * 1024, 4096);
  fwd.seq_skip = 8192;
  FioPattern f(fwd);
  EXPECT_EQ(f.Next().offset, 0u);
  EXPECT_EQ(f.Next().offset, 12288u);
  EXPECT_EQ(f.Next().offset, 24576u);

  FioPatternSettings back = Base(64 * 1024, 4096);
  back.seq_skip = -8192;
  FioPattern b(back);
  // fio 3.33's offsets for rw=read:-8k, bs=4k, size=64k (its write_iolog):
  // backwards past the start goes on 8k before the end, then 4k back each.
  for (const uint64_t want : {0u, 57344u, 53248u, 49152u}) EXPECT_EQ(b.Next().offset, want);
  // ... down to the start, and from the end again.
  for (int i = 0; i < 11; ++i) b.Next();  // 45056 down to 4096
  EXPECT_EQ(b.Next().offset, 0u);
  EXPECT_EQ(b.Next().offset, 57344u);
}

// The offsets (in KiB) of a holed pattern's I/Os until it is exhausted (at
// most `max`), with their directions ('r', 'w') and lengths in KiB.
std::vector<std::string> HoledPass(FioPattern& p, int max) {
  std::vector<std::string> out;
  for (int i = 0; i < max; ++i) {
    const FioIo io = p.Next();
    if (p.Exhausted()) break;
    out.push_back(std::string(1, io.dir == FioDir::kRead ? 'r' : 'w') +
                  std::to_string(io.length / 1024) + "@" + std::to_string(io.offset / 1024));
  }
  return out;
}

using Ios = std::vector<std::string>;

// fio 3.33's offsets (its per-I/O latency log with log_offset=1) for
// rw=MODE:N, N > 0: the pass ends when the next offset is past the region
// or the block no longer fits before its end; an offset past the file's end
// goes back to the start instead.
TEST(FioPatternTest, AForwardSkipEndsThePassWhereFioDoes) {
  FioPatternSettings s = Base(64 * 1024, 4096);
  s.seq_skip = 8192;  // rw=read:8k bs=4k size=64k: 6 reads, the last ends at 64k
  FioPattern a(s);
  EXPECT_TRUE(a.Holed());
  EXPECT_EQ(HoledPass(a, 100), (Ios{"r4@0", "r4@12", "r4@24", "r4@36", "r4@48", "r4@60"}));
  EXPECT_TRUE(a.Exhausted());
  EXPECT_EQ(a.Next().length, 0u);
  a.NewPass();  // loops=2: the same pass again
  EXPECT_FALSE(a.Exhausted());
  EXPECT_EQ(HoledPass(a, 100).size(), 6u);

  s.seq_skip = 12288;  // rw=read:12k: 48k ends at 52k, 64k is past the file: from 0 again
  FioPattern b(s);
  EXPECT_EQ(HoledPass(b, 6), (Ios{"r4@0", "r4@16", "r4@32", "r4@48", "r4@0", "r4@16"}));
  EXPECT_FALSE(b.Exhausted());

  FioPatternSettings w = Base(64 * 1024, 8192);  // rw=write:12k bs=8k: 60k+8k does not fit
  w.dirs = {false, true, false};
  w.seq_skip = 12288;
  FioPattern c(w);
  EXPECT_EQ(HoledPass(c, 100), (Ios{"w8@0", "w8@20", "w8@40"}));
  EXPECT_TRUE(c.Exhausted());

  // offset=16k, rw=read:76k: the region's 80k is past the 80k file, and fio
  // goes on from 16k into the region (32k in the file), again and again.
  FioPatternSettings o = Base(64 * 1024, 4096);
  o.region_offset = 16 * 1024;
  o.seq_skip = 76 * 1024;
  FioPattern d(o);
  EXPECT_EQ(HoledPass(d, 4), (Ios{"r4@16", "r4@32", "r4@32", "r4@32"}));
  // offset=16k, rw=read:12k: 64k into the region is past it: 4 reads.
  o.seq_skip = 12288;
  FioPattern e(o);
  EXPECT_EQ(HoledPass(e, 100), (Ios{"r4@16", "r4@32", "r4@48", "r4@64"}));
}

TEST(FioPatternTest, AForwardSkipKeepsAPositionPerDirectionAndFile) {
  // rw=rw:8k: reads and writes each 0, 12k, ..., 60k; the pass ends at the
  // first draw of a direction that has done its six (fio: 6 reads, 5 writes
  // with its draws).
  FioPatternSettings s = Base(64 * 1024, 4096);
  s.dirs = {true, true, false};
  s.seq_skip = 8192;
  FioPattern p(s);
  std::map<char, std::vector<uint64_t>> offsets;
  int n = 0;
  for (const std::string& io : HoledPass(p, 100)) {
    offsets[io[0]].push_back(std::stoull(io.substr(io.find('@') + 1)));
    ++n;
  }
  ASSERT_TRUE(p.Exhausted());
  const std::vector<uint64_t> full = {0, 12, 24, 36, 48, 60};
  for (const auto& [dir, seq] : offsets) {
    ASSERT_LE(seq.size(), full.size()) << dir;
    EXPECT_TRUE(std::equal(seq.begin(), seq.end(), full.begin())) << dir;
  }
  EXPECT_TRUE(offsets['r'].size() == 6 || offsets['w'].size() == 6);
  EXPECT_LT(n, 12);

  // nrfiles=2 of 32k: files in turn, each from 0; 24k ends at 28k and 36k is
  // past the file: from 0 again (fio: 16 reads for size=64k, wrapping).
  FioPatternSettings f = Base(32 * 1024, 4096);
  f.files = 2;
  f.seq_skip = 8192;
  FioPattern q(f);
  std::vector<std::pair<uint32_t, uint64_t>> got;
  for (int i = 0; i < 8; ++i) {
    const FioIo io = q.Next();
    got.emplace_back(io.file, io.offset / 1024);
  }
  EXPECT_EQ(got, (std::vector<std::pair<uint32_t, uint64_t>>{
                     {0, 0}, {1, 0}, {0, 12}, {1, 12}, {0, 24}, {1, 24}, {0, 0}, {1, 0}}));
  EXPECT_FALSE(q.Exhausted());
}

TEST(FioPatternTest, AForwardSkipDrawsSizesThatFitAndWrapsWhenTimeBased) {
  // bsrange=4k-8k, rw=read:8k on 64k: every request fits before the end;
  // with this seed the last one ends at the end, which ends the pass (an
  // offset past the end would go back to the start).
  FioPatternSettings s = Base(64 * 1024, 4096);
  s.bs[0].max = 8192;
  s.seq_skip = 8192;
  FioPattern p(s);
  uint64_t end = 0;
  int n = 0;
  for (const std::string& io : HoledPass(p, 100)) {
    const uint64_t len = std::stoull(io.substr(1, io.find('@') - 1));
    const uint64_t off = std::stoull(io.substr(io.find('@') + 1));
    if (n++ > 0) {
      EXPECT_EQ(off, end + 8);
    }
    EXPECT_LE(off + len, 64u);
    end = off + len;
  }
  EXPECT_TRUE(p.Exhausted());
  EXPECT_EQ(end, 64u);

  // time_based: a direction whose last I/O reached the end starts again.
  s = Base(64 * 1024, 4096);
  s.seq_skip = 8192;
  s.time_based = true;
  FioPattern t(s);
  const Ios pass = HoledPass(t, 8);
  EXPECT_EQ(pass, (Ios{"r4@0", "r4@12", "r4@24", "r4@36", "r4@48", "r4@60", "r4@0", "r4@12"}));
  // Not holed: random modes (N repeats), backwards skips, trimwrite.
  s.random = true;
  EXPECT_FALSE(FioPattern(s).Holed());
  s.random = false;
  s.seq_skip = -8192;
  EXPECT_FALSE(FioPattern(s).Holed());
}

TEST(FioPatternTest, RandomWithRepeatModifierRunsOnFromEachOffset) {
  FioPatternSettings s = Base(1024 * 4096, 4096);
  s.random = true;
  s.seq_skip = 4;
  FioPattern p(s);
  for (int group = 0; group < 5; ++group) {
    const uint64_t first = p.Next().offset;
    for (uint64_t k = 1; k < 4; ++k) EXPECT_EQ(p.Next().offset, first + k * 4096);
  }
}

TEST(FioPatternTest, MixAndSplitKeepTheirShares) {
  FioPatternSettings s = Base(uint64_t{1} << 30, 4096);
  s.random = true;
  s.dirs = {true, true, false};
  s.read_pct = 70;
  s.norandommap = true;  // under the map, sizes are cut to the free runs
  s.bs[0].split = {{4096, 50}, {65536, 40}, {1 << 20, 10}};
  FioPattern p(s);
  constexpr int kDraws = 200000;
  int reads = 0;
  std::map<uint32_t, int> read_sizes;
  for (int i = 0; i < kDraws; ++i) {
    FioIo io = p.Next();
    ASSERT_LE(io.offset + io.length, uint64_t{1} << 30);
    if (io.dir == FioDir::kRead) {
      ++reads;
      ++read_sizes[io.length];
    } else {
      EXPECT_EQ(io.length, 4096u);
    }
  }
  EXPECT_NEAR(reads * 100.0 / kDraws, 70, 1);
  EXPECT_NEAR(read_sizes[4096] * 100.0 / reads, 50, 1);
  EXPECT_NEAR(read_sizes[65536] * 100.0 / reads, 40, 1);
  EXPECT_NEAR(read_sizes[1 << 20] * 100.0 / reads, 10, 1);
  EXPECT_EQ(p.MaxBlockSize(), 1u << 20);
}

TEST(FioPatternTest, RangeSizesAreAlignedAndInRange) {
  FioPatternSettings s = Base(1 << 24, 4096);
  s.bs[0].min = 4096;
  s.bs[0].max = 16384;
  s.bs[0].align = 4096;
  FioPattern p(s);
  std::set<uint32_t> sizes;
  for (int i = 0; i < 1000; ++i) sizes.insert(p.Next().length);
  EXPECT_EQ(sizes, (std::set<uint32_t>{4096, 8192, 12288, 16384}));
}

TEST(FioPatternTest, BlockalignAlignsOffsetsNotTheRangesSizes) {
  // bsrange=4k-16k blockalign=512: fio 3.33 issues only 4k, 8k, 12k and 16k
  // requests, at offsets that are multiples of 512 only.
  FioPatternSettings s = Base(1 << 24, 4096);
  s.random = true;
  s.norandommap = true;
  s.bs[0].min = 4096;
  s.bs[0].max = 16384;
  s.bs[0].align = 512;
  FioPattern p(s);
  std::set<uint32_t> sizes;
  bool off_4k = false;
  for (int i = 0; i < 1000; ++i) {
    const FioIo io = p.Next();
    sizes.insert(io.length);
    EXPECT_EQ(io.offset % 512, 0u);
    off_4k = off_4k || io.offset % 4096 != 0;
  }
  EXPECT_EQ(sizes, (std::set<uint32_t>{4096, 8192, 12288, 16384}));
  EXPECT_TRUE(off_4k);
  // With the random map the requests cut to its free runs stay whole 4k
  // blocks: a whole pass of a 1 MiB region.
  s.region_length = 1 << 20;
  s.norandommap = false;
  FioPattern m(s);
  uint64_t bytes = 0;
  while (bytes < (1u << 20)) {
    const FioIo io = m.Next();
    EXPECT_EQ(io.length % 4096, 0u) << io.offset;
    bytes += io.length;
  }
}

TEST(FioPatternTest, PercentageRandomIsPerDirection) {
  // rw=randrw percentage_random=0,100: reads sequential, writes random.
  FioPatternSettings s = Base(1 << 24, 4096);
  s.random = true;
  s.dirs = {true, true, false};
  s.random_pct = {0, 100, 100};
  FioPattern p(s);
  uint64_t next_read = 0;
  int writes_in_sequence = 0, writes = 0;
  uint64_t next_write = 0;
  for (int i = 0; i < 400; ++i) {
    const FioIo io = p.Next();
    if (io.dir == FioDir::kRead) {
      EXPECT_EQ(io.offset, next_read);
      next_read = io.offset + io.length;
    } else {
      ++writes;
      writes_in_sequence += io.offset == next_write;
      next_write = io.offset + io.length;
    }
  }
  EXPECT_GT(writes, 100);
  EXPECT_LT(writes_in_sequence, 5);
}

TEST(FioPatternTest, FilesTakeTurnsEachWithItsOwnPosition) {
  FioPatternSettings s = Base(8 * 4096, 4096);
  s.files = 3;
  FioPattern p(s);
  for (uint64_t round = 0; round < 2; ++round) {
    for (uint32_t f = 0; f < 3; ++f) {
      FioIo io = p.Next();
      EXPECT_EQ(io.file, f);
      EXPECT_EQ(io.offset, round * 4096);
    }
  }
}

TEST(FioPatternTest, FilesOfSeveralSizesAreEachDoneOncePerPass) {
  // filesize=LOW-HIGH: two blocks in file 0, four in file 1; file 0 waits
  // once its pass is done, until file 1's is.
  FioPatternSettings s = Base(2 * 4096, 4096);
  s.files = 2;
  s.region_lengths = {2 * 4096, 4 * 4096};
  FioPattern seq(s);
  const std::vector<std::pair<uint32_t, uint64_t>> expect = {{0, 0}, {1, 0}, {0, 1}, {1, 1},
                                                             {1, 2}, {1, 3}, {0, 0}, {1, 0}};
  for (const auto& [file, block] : expect) {
    const FioIo io = seq.Next();
    EXPECT_EQ(io.file, file);
    EXPECT_EQ(io.offset, block * 4096);
  }
  // Random, under the map: each block of each file once per pass.
  s.random = true;
  s.region_lengths = {3 * 4096, 5 * 4096};
  FioPattern rnd(s);
  for (int pass = 0; pass < 2; ++pass) {
    std::set<std::pair<uint32_t, uint64_t>> seen;
    for (int i = 0; i < 8; ++i) {
      const FioIo io = rnd.Next();
      EXPECT_LT(io.offset, (io.file == 0 ? 3u : 5u) * 4096);
      seen.insert({io.file, io.offset});
    }
    EXPECT_EQ(seen.size(), 8u) << "pass " << pass;
  }
}

TEST(FioPatternTest, TrimWriteTrimsThenWritesEachBlock) {
  FioPatternSettings s = Base(8 * 4096, 4096);
  s.dirs = {false, true, true};
  s.trim_then_write = true;
  FioPattern p(s);
  for (uint64_t b = 0; b < 3; ++b) {
    FioIo t = p.Next();
    FioIo w = p.Next();
    EXPECT_EQ(t.dir, FioDir::kTrim);
    EXPECT_EQ(w.dir, FioDir::kWrite);
    EXPECT_EQ(t.offset, b * 4096);
    EXPECT_EQ(w.offset, t.offset);
  }
}

}  // namespace
}  // namespace loadcell

namespace loadcell {
namespace {

TEST(FioBlockMapTest, TakesFreeRunsAndWrapsToTheFirstFreeBlock) {
  FioBlockMap m;
  m.Reset(130);
  EXPECT_EQ(m.Take(10, 4), (std::pair<uint64_t, uint64_t>{10, 4}));
  // From inside the used run: the first free block after it.
  EXPECT_EQ(m.Take(11, 2), (std::pair<uint64_t, uint64_t>{14, 2}));
  // Cut at the next used block.
  EXPECT_EQ(m.Take(8, 5), (std::pair<uint64_t, uint64_t>{8, 2}));
  // Cut at the end; then wraps to the start.
  EXPECT_EQ(m.Take(128, 5), (std::pair<uint64_t, uint64_t>{128, 2}));
  EXPECT_EQ(m.Take(129, 1), (std::pair<uint64_t, uint64_t>{0, 1}));
  uint64_t total = 4 + 2 + 2 + 2 + 1;
  while (!m.Full()) total += m.Take(5, 3).second;
  EXPECT_EQ(total, 130u);
}

TEST(FioPatternTest, SeveralSizesUnderTheMapAreCutToFitAsFiosAre) {
  FioPatternSettings s = Base(64 << 20, 4096);
  s.random = true;
  s.bs[0].split = {{4096, 50}, {65536, 40}, {1 << 20, 10}};
  FioPattern p(s);
  // One pass covers the region exactly once: no byte twice.
  uint64_t bytes = 0;
  std::set<uint64_t> starts;
  while (bytes < (64u << 20)) {
    FioIo io = p.Next();
    ASSERT_EQ(io.offset % 4096, 0u);
    ASSERT_LE(io.offset + io.length, 64u << 20);
    ASSERT_TRUE(starts.insert(io.offset).second) << io.offset;
    bytes += io.length;
  }
  EXPECT_EQ(bytes, 64u << 20);
}

// random_generator=lfsr: each block's offset once per pass from a full
// cycle, in the same order each pass, with no map: requests of several
// sizes keep their size (only the region's end cuts one) and overlap, where
// the map above cuts them so that no byte is used twice.
TEST(FioPatternTest, FullCycleGivesEachBlockOncePerPassWithoutTheMap) {
  constexpr uint64_t kBlocks = 1000;  // not a power of two: the cycle steps over 24
  FioPatternSettings s = Base(kBlocks * 4096, 4096);
  s.random = true;
  s.full_cycle = true;
  s.bs[0].split = {{4096, 50}, {16384, 50}};
  FioPattern p(s);
  std::vector<uint64_t> first_pass;
  uint64_t bytes = 0;
  int whole_16k = 0;
  for (uint64_t i = 0; i < kBlocks; ++i) {
    const FioIo io = p.Next();
    ASSERT_EQ(io.offset % 4096, 0u);
    ASSERT_LE(io.offset + io.length, kBlocks * 4096);
    if (io.length == 16384) ++whole_16k;
    if (io.length != 16384 && io.length != 4096) {
      EXPECT_EQ(io.offset + io.length, kBlocks * 4096) << "only the end cuts a request";
    }
    first_pass.push_back(io.offset / 4096);
    bytes += io.length;
  }
  std::vector<uint64_t> sorted = first_pass;
  std::sort(sorted.begin(), sorted.end());
  for (uint64_t b = 0; b < kBlocks; ++b) ASSERT_EQ(sorted[b], b) << "each block once";
  EXPECT_GT(bytes, kBlocks * 4096) << "requests overlap: no map";
  EXPECT_GT(whole_16k, 400);
  // Not the identity order, and the next pass repeats it.
  EXPECT_FALSE(std::is_sorted(first_pass.begin(), first_pass.end()));
  for (uint64_t i = 0; i < kBlocks; ++i) ASSERT_EQ(p.Next().offset / 4096, first_pass[i]) << i;

  // With norandommap too: the generator, not the map, makes offsets unique.
  s.norandommap = true;
  FioPattern q(s);
  std::set<uint64_t> seen;
  for (uint64_t i = 0; i < kBlocks; ++i) seen.insert(q.Next().offset);
  EXPECT_EQ(seen.size(), kBlocks);

  // One size: a permutation too, in an order other than the map's.
  FioPatternSettings one = Base(kBlocks * 4096, 4096);
  one.random = true;
  FioPattern mapped(one);
  one.full_cycle = true;
  FioPattern cycled(one);
  std::set<uint64_t> cycled_seen;
  int same = 0;
  for (uint64_t i = 0; i < kBlocks; ++i) {
    const uint64_t c = cycled.Next().offset;
    cycled_seen.insert(c);
    if (c == mapped.Next().offset) ++same;
  }
  EXPECT_EQ(cycled_seen.size(), kBlocks);
  EXPECT_LT(same, 10);
}

// The share of `n` random offsets of `s` in [lo, hi) of the region.
double ShareIn(const FioPatternSettings& s, int n, double lo, double hi) {
  FioPattern p(s);
  int in = 0;
  for (int i = 0; i < n; ++i) {
    const double at = static_cast<double>(p.Next().offset) / static_cast<double>(s.region_length);
    if (at >= lo && at < hi) ++in;
  }
  return static_cast<double>(in) / n;
}

TEST(FioPatternTest, ZonedOffsetsHitEachZoneInItsShare) {
  // fio's example: 60% of the I/Os to the first 10%, 30% to the next 20%,
  // 8% to the next 30%, 2% to the last 40%.
  FioPatternSettings s = Base(10000 * 4096, 4096);
  s.random = true;
  s.norandommap = true;
  s.distribution.law = FioOffsetLaw::kZoned;
  s.distribution.zones[0] = {{60, 10, 0}, {30, 20, 0}, {8, 30, 0}, {2, 40, 0}};
  const int n = 100000;
  EXPECT_NEAR(ShareIn(s, n, 0, 0.1), 0.60, 0.01);
  EXPECT_NEAR(ShareIn(s, n, 0.1, 0.3), 0.30, 0.01);
  EXPECT_NEAR(ShareIn(s, n, 0.3, 0.6), 0.08, 0.01);
  EXPECT_NEAR(ShareIn(s, n, 0.6, 1.0), 0.02, 0.005);
  // Uniform within a zone: each half of the first zone takes half its share.
  EXPECT_NEAR(ShareIn(s, n, 0, 0.05), 0.30, 0.01);
}

TEST(FioPatternTest, ZonesArePerDirectionAndAbsoluteZonesAreBytes) {
  FioPatternSettings s = Base(1000 * 4096, 4096);
  s.random = true;
  s.norandommap = true;
  s.dirs = {true, true, false};
  s.distribution.law = FioOffsetLaw::kZoned;
  s.distribution.zones[0] = {{100, 10, 0}, {0, 90, 0}};  // reads: the first 10%
  s.distribution.zones[1] = {{0, 90, 0}, {100, 10, 0}};  // writes: the last 10%
  FioPattern p(s);
  int reads = 0, writes = 0;
  for (int i = 0; i < 20000; ++i) {
    const FioIo io = p.Next();
    if (io.dir == FioDir::kRead) {
      ++reads;
      EXPECT_LT(io.offset, 100u * 4096);
    } else {
      ++writes;
      EXPECT_GE(io.offset, 900u * 4096);
    }
  }
  EXPECT_GT(reads, 0);
  EXPECT_GT(writes, 0);

  // zoned_abs: 50% to the first 64 KiB, 50% to the next 1 MiB; nothing beyond.
  FioPatternSettings a = Base(1000 * 4096, 4096);
  a.random = true;
  a.norandommap = true;
  a.distribution.law = FioOffsetLaw::kZoned;
  a.distribution.absolute = true;
  a.distribution.zones[0] = {{50, 0, 64 << 10}, {50, 0, 1 << 20}};
  const double region = 1000.0 * 4096;
  EXPECT_NEAR(ShareIn(a, 40000, 0, (64 << 10) / region), 0.5, 0.015);
  EXPECT_DOUBLE_EQ(ShareIn(a, 40000, ((64 << 10) + (1 << 20)) / region, 1.0), 0.0);
}

TEST(FioPatternTest, ZipfAndParetoConcentrateOnFewBlocksScatteredUnlessCentred) {
  FioPatternSettings s = Base(10000 * 4096, 4096);
  s.random = true;
  s.norandommap = true;
  s.distribution.law = FioOffsetLaw::kZipf;
  s.distribution.parameter = 1.2;
  FioPattern p(s);
  std::map<uint64_t, int> hits;
  const int n = 100000;
  for (int i = 0; i < n; ++i) ++hits[p.Next().offset];
  std::vector<int> counts;
  for (const auto& [off, c] : hits) counts.push_back(c);
  std::sort(counts.rbegin(), counts.rend());
  // The 100 hottest of 10000 blocks (1%) take most of the I/Os (zipf 1.2:
  // about 70%); uniform offsets would give them about 1%.
  int top = 0;
  for (size_t i = 0; i < 100 && i < counts.size(); ++i) top += counts[i];
  EXPECT_GT(static_cast<double>(top) / n, 0.5);
  // Not centred: the hottest block is not at the region's start (scattered).
  const auto hottest = std::max_element(hits.begin(), hits.end(),
                                        [](auto& a, auto& b) { return a.second < b.second; });
  EXPECT_NE(hottest->first, 0u);

  // Centred on a quarter of the region: the hottest block is there.
  s.distribution.center = 0.25;
  FioPattern c(s);
  std::map<uint64_t, int> chits;
  for (int i = 0; i < 20000; ++i) ++chits[c.Next().offset];
  const auto chot = std::max_element(chits.begin(), chits.end(),
                                     [](auto& a, auto& b) { return a.second < b.second; });
  EXPECT_EQ(chot->first, 2500u * 4096);

  // pareto:0.2 centred at the start: about 80% of the I/Os in the first 20%.
  FioPatternSettings pa = Base(10000 * 4096, 4096);
  pa.random = true;
  pa.norandommap = true;
  pa.distribution.law = FioOffsetLaw::kPareto;
  pa.distribution.parameter = 0.2;
  pa.distribution.center = 0;
  EXPECT_NEAR(ShareIn(pa, 50000, 0, 0.2), 0.8, 0.02);
}

// The share of `n` offsets of `s` on the hottest fifth of the blocks hit.
double HottestFifthShare(const FioPatternSettings& s, int n) {
  FioPattern p(s);
  std::map<uint64_t, int> hits;
  for (int i = 0; i < n; ++i) ++hits[p.Next().offset];
  std::vector<int> counts;
  counts.reserve(hits.size());
  for (const auto& [off, c] : hits) counts.push_back(c);
  std::sort(counts.rbegin(), counts.rend());
  const uint64_t blocks = s.region_length / 4096;
  int top = 0;
  for (size_t i = 0; i < blocks / 5 && i < counts.size(); ++i) top += counts[i];
  return static_cast<double>(top) / n;
}

// fio 3.33's normal:DEV: the mean of 12 uniform draws over the blocks (a
// bell of deviation about a twelfth of them), moved by a uniform draw DEV
// percent of the region wide; scattered over the region by default,
// around the center when one is given. (fio on 1024 blocks, 10240 reads of
// normal:5: 0.756 of them on the hottest fifth of the blocks, 505 blocks,
// 0.096 in the middle tenth of the file.)
TEST(FioPatternTest, NormalIsFiosBellScatteredUnlessCentred) {
  FioPatternSettings s = Base(10000 * 4096, 4096);
  s.random = true;
  s.norandommap = true;
  s.distribution.law = FioOffsetLaw::kNormal;
  s.distribution.parameter = 0.05;  // normal:5
  s.distribution.center = 0.5;
  // The bell's shares (0.441 within 5% of the middle, 0.759 within 10%).
  EXPECT_NEAR(ShareIn(s, 50000, 0.45, 0.55), 0.441, 0.015);
  EXPECT_NEAR(ShareIn(s, 50000, 0.40, 0.60), 0.759, 0.015);
  s.distribution.center = 0.2;
  EXPECT_NEAR(ShareIn(s, 50000, 0.15, 0.25), 0.441, 0.015);
  // normal:20: a wider window, a flatter bell (0.370 within 5%).
  s.distribution.parameter = 0.2;
  EXPECT_NEAR(ShareIn(s, 50000, 0.15, 0.25), 0.370, 0.015);

  // No center: the same bell's blocks scattered over the region.
  s.distribution.parameter = 0.05;
  s.distribution.center = -1;
  EXPECT_NEAR(ShareIn(s, 50000, 0.45, 0.55), 0.10, 0.03);
  s.region_length = 1024 * 4096;
  EXPECT_NEAR(HottestFifthShare(s, 10240), 0.756, 0.03);
}

TEST(FioPatternTest, DiskspdSequenceStartsAtTheThreadStrideAndWrapsToItsRemainder) {
  // DiskSpd's -s8K -T12K, relative thread 1: from 12K by 8K; past the end
  // back to 12K % 8K = 4K; reads and writes share the one offset.
  FioPatternSettings s = Base(40 * 1024, 4096);
  s.dirs = {true, true, false};
  s.read_pct = 50;
  s.single_sequence.on = true;
  s.single_sequence.start = 12 * 1024;
  s.single_sequence.stride = 8 * 1024;
  FioPattern p(s);
  for (uint64_t expect_k : {12, 20, 28, 36, 4, 12, 20}) {
    EXPECT_EQ(p.Next().offset, expect_k * 1024);
  }
}

TEST(FioPatternTest, DiskspdInterlockedSequenceIsSharedByThePatterns) {
  FioPatternSettings s = Base(16 * 4096, 4096);
  s.single_sequence.on = true;
  s.single_sequence.shared = std::make_shared<std::atomic<uint64_t>>(0);
  FioPattern a(s);
  FioPattern b(s);
  std::vector<uint64_t> got;
  for (int i = 0; i < 9; ++i) got.push_back((i % 2 == 0 ? a : b).Next().offset / 4096);
  EXPECT_EQ(got, (std::vector<uint64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8}));
  for (int i = 9; i < 16; ++i) a.Next();
  EXPECT_EQ(b.Next().offset, 0u);  // the 17th wraps to the start
}

TEST(FioPatternTest, DiskspdParallelRequestsKeepTheirOwnPositions) {
  // -p: each request walks the sequence by itself from the thread's start
  // (12K here, stride 8K), wrapping to start % stride; the job's own
  // position is not moved.
  FioPatternSettings s = Base(40 * 1024, 4096);
  s.single_sequence.on = true;
  s.single_sequence.start = 12 * 1024;
  s.single_sequence.stride = 8 * 1024;
  s.single_sequence.per_request = true;
  FioPattern p(s);
  int64_t a = -1;
  int64_t b = -1;
  EXPECT_EQ(p.Next(&a).offset, 12u * 1024);
  EXPECT_EQ(p.Next(&b).offset, 12u * 1024);
  EXPECT_EQ(p.Next(&a).offset, 20u * 1024);
  EXPECT_EQ(p.Next(&a).offset, 28u * 1024);
  EXPECT_EQ(p.Next(&b).offset, 20u * 1024);
  EXPECT_EQ(p.NextIn(FioDir::kRead, &a).offset, 36u * 1024);
  EXPECT_EQ(p.Next(&a).offset, 4u * 1024);
  EXPECT_EQ(p.Next().offset, 12u * 1024);  // the job's own, untouched
}

}  // namespace
}  // namespace loadcell
