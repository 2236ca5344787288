// workloads/fio/fio_buffers.h: what fio's buffer options put in the write
// buffers, measured on the buffers themselves.

#include "workloads/fio/fio_buffers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <string>
#include <vector>

namespace loadcell {
namespace {

constexpr size_t kBlock = 4096;

std::vector<unsigned char> Written(FioBufferFill& fill, std::vector<unsigned char>& buf,
                                   uint64_t tag) {
  fill.ForWrite(buf.data(), buf.size(), tag);
  return buf;
}

TEST(FioBuffersTest, PatternRepeatsFromEachBuffersStart) {
  FioBufferSettings s;
  s.pattern = "abc";
  FioBufferFill fill(s, 1);
  std::vector<unsigned char> buf(kBlock);
  fill.Initial(buf.data(), buf.size());
  for (uint64_t tag = 1; tag <= 3; ++tag) {
    const std::vector<unsigned char> w = Written(fill, buf, tag);
    for (size_t i = 0; i < w.size(); ++i) ASSERT_EQ(w[i], "abc"[i % 3]) << i;
  }
  EXPECT_EQ(fill.Describe(), "pattern");
  // Refilled for every write (refill_buffers, or verify): still the pattern.
  s.refill = true;
  FioBufferFill refill(s, 1);
  refill.Initial(buf.data(), buf.size());
  const std::vector<unsigned char> r = Written(refill, buf, 1);
  for (size_t i = 0; i < r.size(); ++i) ASSERT_EQ(r[i], "abc"[i % 3]) << i;
  // A pattern longer than the buffer is cut.
  std::vector<unsigned char> small(2);
  FillPattern(small.data(), small.size(), "xyz");
  EXPECT_EQ(small[0], 'x');
  EXPECT_EQ(small[1], 'y');
}

TEST(FioBuffersTest, ZeroBuffersAreZerosAndStayZeros) {
  FioBufferSettings s;
  s.zero = true;
  FioBufferFill fill(s, 1);
  std::vector<unsigned char> buf(kBlock, 0xAA);
  fill.Initial(buf.data(), buf.size());
  const std::vector<unsigned char> w = Written(fill, buf, 7);
  EXPECT_EQ(std::count(w.begin(), w.end(), 0), static_cast<long>(kBlock));
}

// The share of words equal to an earlier word, counted exactly: zeros
// (kept apart from the table's empty slots), repeats of other words, words
// that collide in the table but differ, a tail shorter than a word.
TEST(FioBuffersTest, RepeatedWordFractionCountsEveryRepeatExactly) {
  auto fraction = [](const std::vector<uint64_t>& words, size_t tail = 0) {
    std::vector<unsigned char> bytes(words.size() * 8 + tail, 0xAB);
    std::memcpy(bytes.data(), words.data(), words.size() * 8);
    return RepeatedWordFraction(bytes.data(), bytes.size());
  };
  std::vector<uint64_t> cycle(1024);
  for (size_t i = 0; i < cycle.size(); ++i) cycle[i] = i % 100;  // 0..99 again and again
  EXPECT_DOUBLE_EQ(fraction(cycle, 5), 924.0 / 1024);
  std::vector<uint64_t> zeros(300, 0);
  EXPECT_DOUBLE_EQ(fraction(zeros), 299.0 / 300);
  // 1,000 distinct words in a table of 2,048 slots: some share a slot (and
  // are told apart), none repeats; then ten of them again.
  std::vector<uint64_t> distinct;
  for (uint64_t i = 1; i <= 1000; ++i) distinct.push_back(i * 0xD1B54A32D192ED03ULL);
  EXPECT_DOUBLE_EQ(fraction(distinct), 0.0);
  for (size_t i = 0; i < 10; ++i) distinct.push_back(distinct[i * 7]);
  EXPECT_DOUBLE_EQ(fraction(distinct), 10.0 / 1010);
  const unsigned char less_than_a_word[7] = {};
  EXPECT_DOUBLE_EQ(RepeatedWordFraction(less_than_a_word, sizeof less_than_a_word), 0.0);
}

TEST(FioBuffersTest, RandomBuffersAreScrambledPerWriteUnlessTurnedOff) {
  FioBufferSettings s;
  FioBufferFill fill(s, 1);
  std::vector<unsigned char> buf(kBlock);
  fill.Initial(buf.data(), buf.size());
  const std::vector<unsigned char> a = Written(fill, buf, 1);
  const std::vector<unsigned char> b = Written(fill, buf, 2);
  EXPECT_NE(a, b);
  EXPECT_LT(RepeatedWordFraction(a.data(), a.size()), 0.01);

  s.scramble = false;
  FioBufferFill same(s, 1);
  same.Initial(buf.data(), buf.size());
  EXPECT_EQ(Written(same, buf, 1), Written(same, buf, 2));
  EXPECT_EQ(same.Describe(), "random, not scrambled");
}

TEST(FioBuffersTest, CompressPercentageMakesThatShareOfEachChunkRepeat) {
  for (const double fraction : {0.25, 0.5, 0.75}) {
    FioBufferSettings s;
    s.compress_fraction = fraction;
    s.compress_chunk = 512;
    FioBufferFill fill(s, 3);
    std::vector<unsigned char> buf(65536);
    fill.Initial(buf.data(), buf.size());
    const std::vector<unsigned char> a = Written(fill, buf, 1);
    EXPECT_NEAR(RepeatedWordFraction(a.data(), a.size()), fraction, 0.02) << fraction;
    // Each chunk: random bytes, then zeros for `fraction` of it.
    const size_t random = static_cast<size_t>(512 * (1 - fraction));
    for (size_t at = 0; at < a.size(); at += 512) {
      for (size_t i = random; i < 512; ++i) ASSERT_EQ(a[at + i], 0) << at + i;
    }
    // Refilled per write (fio's rule): the next write's random part differs.
    EXPECT_NE(Written(fill, buf, 2), a);
  }
}

TEST(FioBuffersTest, CompressChunkZeroIsOneRegionPerBufferAndUsesThePattern) {
  FioBufferSettings s;
  s.compress_fraction = 0.5;
  s.compress_chunk = 0;
  s.pattern = "\x01\x02";
  FioBufferFill fill(s, 3);
  std::vector<unsigned char> buf(kBlock);
  fill.Initial(buf.data(), buf.size());
  const std::vector<unsigned char> a = Written(fill, buf, 1);
  for (size_t i = kBlock / 2; i < kBlock; ++i) ASSERT_EQ(a[i], (i - kBlock / 2) % 2 + 1) << i;
  EXPECT_NEAR(RepeatedWordFraction(a.data(), a.size()), 0.5, 0.01);
}

TEST(FioBuffersTest, DedupePercentageRepeatsAboutThatShareOfWrites) {
  FioBufferSettings s;
  s.dedupe_fraction = 0.5;
  FioBufferFill fill(s, 5);
  std::vector<unsigned char> buf(kBlock);
  fill.Initial(buf.data(), buf.size());
  std::set<std::vector<unsigned char>> seen;
  const int writes = 2000;
  int repeats = 0;
  for (int i = 0; i < writes; ++i) {
    if (!seen.insert(Written(fill, buf, static_cast<uint64_t>(i) + 1)).second) ++repeats;
  }
  EXPECT_NEAR(static_cast<double>(repeats) / writes, 0.5, 0.05);
  // Buffers not repeated are random.
  EXPECT_LT(RepeatedWordFraction(buf.data(), buf.size()), 0.01);
}

TEST(FioBuffersTest, TheEstimateSeesWhatTheOptionsAskFor) {
  FioBufferSettings s;
  FioWriteDataEstimate e = EstimateWriteData(s, kBlock, 64, 1);
  EXPECT_LT(e.compressible, 0.01);
  EXPECT_EQ(e.duplicate, 0);
  s.compress_fraction = 0.5;
  s.dedupe_fraction = 0.3;
  e = EstimateWriteData(s, kBlock, 256, 1);
  EXPECT_NEAR(e.compressible, 0.5, 0.03);
  EXPECT_NEAR(e.duplicate, 0.3, 0.1);
  FioBufferSettings zero;
  zero.zero = true;
  e = EstimateWriteData(zero, kBlock, 64, 1);
  EXPECT_GT(e.compressible, 0.99);
  EXPECT_GT(e.duplicate, 0.9);
}

}  // namespace
}  // namespace loadcell
