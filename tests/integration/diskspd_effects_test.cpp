// What DiskSpd's switches do to a run, seen from outside the binary: where
// writes land in a target (-B, -f, -r, -rs, -rd, -z), what they write (-Zr,
// -Z<size>,<file>), what is measured (-W) and what is said on stderr (-v,
// -c's progress). Each run is short (-d1, -W0 unless the test is of -W) on
// small files that loadcell makes zeroed (-Z -c), so that a written block
// is one that is no longer all zeros (the default write buffer, 0..255
// repeated, has no zero block).

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "testing/diskspd_run.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell::testing {
namespace {

using diskspd::XmlElement;

constexpr size_t kBlock = 4096;

// The numbers of the blocks of `bytes` that are not all zeros.
std::set<size_t> WrittenBlocks(const std::string& bytes) {
  std::set<size_t> out;
  const std::string zeros(kBlock, '\0');
  for (size_t at = 0; at + kBlock <= bytes.size(); at += kBlock) {
    if (bytes.compare(at, kBlock, zeros) != 0) out.insert(at / kBlock);
  }
  return out;
}

// Zeroed files of `size` made by loadcell (so that later runs may write them).
void MakeZeroed(const TempDir& dir, const std::string& size,
                const std::vector<std::string>& names) {
  std::vector<std::string> args = {"-d1", "-W0", "-b4K", "-Z", "-c" + size};
  args.insert(args.end(), names.begin(), names.end());
  ProcessResult r = RunDiskspd(dir, args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
}

// A run of 4 KiB writes on `target`, with `more` switches.
void WriteRun(const TempDir& dir, std::vector<std::string> more, const std::string& target) {
  std::vector<std::string> args = {"-d1", "-W0", "-b4K", "-w100"};
  args.insert(args.end(), more.begin(), more.end());
  args.push_back(target);
  ProcessResult r = RunDiskspd(dir, args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
}

// The written blocks that follow a written block: the writes that went on
// sequentially from the one before (and random ones that fell next to one).
size_t Followers(const std::set<size_t>& written) {
  size_t n = 0;
  for (size_t b : written) n += b > 0 && written.contains(b - 1) ? 1 : 0;
  return n;
}

size_t Common(const std::set<size_t>& a, const std::set<size_t>& b) {
  size_t n = 0;
  for (size_t x : a) n += b.contains(x) ? 1 : 0;
  return n;
}

const XmlElement* FirstTimeSpan(const Result<XmlElement>& doc) {
  return doc.ok() ? DiskspdXmlChild(&doc.value(), "TimeSpan") : nullptr;
}

uint64_t XmlIoCount(const XmlElement* span) {
  uint64_t n = 0;
  for (const XmlElement* t : DiskspdXmlChildren(span, "Thread")) {
    for (const XmlElement* target : DiskspdXmlChildren(t, "Target")) {
      const XmlElement* c = DiskspdXmlChild(target, "IOCount");
      n += c == nullptr ? 0 : std::stoull(c->text);
    }
  }
  return n;
}

// A -Rxml run's first timespan: its measured seconds and I/Os (seconds -1
// when the run failed or its XML has no timespan).
struct MeasuredSpan {
  double seconds = -1;
  uint64_t ios = 0;
};

MeasuredSpan SpanOf(const ProcessResult& r) {
  MeasuredSpan m;
  if (r.exit_code != 0) return m;
  Result<XmlElement> doc = diskspd::ReadXmlDocument(r.out);
  const XmlElement* span = FirstTimeSpan(doc);
  const XmlElement* time = span == nullptr ? nullptr : DiskspdXmlChild(span, "TestTimeSeconds");
  if (time == nullptr) return m;
  m.seconds = std::stod(time->text);
  m.ios = XmlIoCount(span);
  return m;
}

TEST(DiskspdEffectsTest, BaseLengthAndMaxSizeKeepEveryWriteInTheirRange) {
  TempDir dir;
  MakeZeroed(dir, "1M", {"b.dat", "f.dat"});
  // -B256K:256K, random: blocks 64..127 only.
  WriteRun(dir, {"-r", "-B256K:256K"}, "b.dat");
  const std::set<size_t> b = WrittenBlocks(dir.Read("b.dat"));
  ASSERT_FALSE(b.empty());
  EXPECT_GE(*b.begin(), 64u);
  EXPECT_LE(*b.rbegin(), 127u);
  // -B128K -f256K, sequential from the base: blocks 32..63, the first first.
  WriteRun(dir, {"-B128K", "-f256K"}, "f.dat");
  const std::set<size_t> f = WrittenBlocks(dir.Read("f.dat"));
  ASSERT_FALSE(f.empty());
  EXPECT_EQ(*f.begin(), 32u);
  EXPECT_LE(*f.rbegin(), 63u);
}

TEST(DiskspdEffectsTest, RandomShareMixesRandomAndSequentialWrites) {
  TempDir dir;
  MakeZeroed(dir, "16M", {"r.dat", "rs.dat"});
  // About 100 writes over 4096 blocks (-g100i for the 1 s): random ones
  // rarely fall next to another; with -rs50 about half go on from the one
  // before. -rs without -r: aligned to the block size, as DiskSpd's.
  WriteRun(dir, {"-r", "-g100i"}, "r.dat");
  WriteRun(dir, {"-rs50", "-g100i"}, "rs.dat");
  const std::set<size_t> r = WrittenBlocks(dir.Read("r.dat"));
  const std::set<size_t> rs = WrittenBlocks(dir.Read("rs.dat"));
  ASSERT_GE(r.size(), 40u);
  ASSERT_GE(rs.size(), 40u);
  EXPECT_LT(Followers(r), r.size() / 8) << r.size();
  EXPECT_GT(Followers(rs), rs.size() / 4) << rs.size();
  EXPECT_LT(Followers(rs), rs.size() * 3 / 4) << rs.size();
}

TEST(DiskspdEffectsTest, AbsoluteDistributionKeepsWritesInItsRange) {
  TempDir dir;
  MakeZeroed(dir, "1M", {"d.dat"});
  // Every random I/O in the first 128 KiB.
  WriteRun(dir, {"-r", "-rdabs100/128K"}, "d.dat");
  const std::set<size_t> d = WrittenBlocks(dir.Read("d.dat"));
  ASSERT_FALSE(d.empty());
  EXPECT_LE(*d.rbegin(), 31u);
}

TEST(DiskspdEffectsTest, SeedReproducesOffsetsAndAnotherSeedChangesThem) {
  TempDir dir;
  MakeZeroed(dir, "16M", {"a.dat", "b.dat", "c.dat"});
  WriteRun(dir, {"-r", "-g50i", "-z7"}, "a.dat");
  WriteRun(dir, {"-r", "-g50i", "-z7"}, "b.dat");
  WriteRun(dir, {"-r", "-g50i", "-z8"}, "c.dat");
  const std::set<size_t> a = WrittenBlocks(dir.Read("a.dat"));
  const std::set<size_t> b = WrittenBlocks(dir.Read("b.dat"));
  const std::set<size_t> c = WrittenBlocks(dir.Read("c.dat"));
  ASSERT_GE(a.size(), 20u);
  ASSERT_GE(b.size(), 20u);
  // The same sequence of offsets; the runs may differ by the last few.
  const size_t same = Common(a, b);
  EXPECT_EQ(same, std::min(a.size(), b.size()));
  EXPECT_LT(Common(a, c), a.size() / 4);
}

TEST(DiskspdEffectsTest, BareSeedSwitchTakesTheClock) {
  TempDir dir;
  MakeZeroed(dir, "256K", {"z.dat"});
  std::set<std::string> seeds;
  for (int i = 0; i < 2; ++i) {
    ProcessResult r = RunDiskspd(dir, {"-d1", "-W0", "-b4K", "-r", "-z", "-Rxml", "z.dat"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    Result<XmlElement> doc = diskspd::ReadXmlDocument(r.out);
    ASSERT_TRUE(doc.ok()) << r.out;
    const XmlElement* seed = DiskspdXmlChild(
        DiskspdXmlChild(DiskspdXmlChild(DiskspdXmlChild(&*doc, "Profile"), "TimeSpans"),
                        "TimeSpan"),
        "RandSeed");
    ASSERT_NE(seed, nullptr) << r.out;
    seeds.insert(seed->text);
  }
  EXPECT_EQ(seeds.size(), 2u);
}

TEST(DiskspdEffectsTest, WriteBufferContentComesFromTheSwitch) {
  TempDir dir;
  MakeZeroed(dir, "1M", {"seq.dat", "zr.dat", "src_made.dat"});
  // The default: every write the 0..255 sequence.
  WriteRun(dir, {"-r", "-g200i"}, "seq.dat");
  const std::string seq = dir.Read("seq.dat");
  std::string sequence(kBlock, '\0');
  for (size_t i = 0; i < kBlock; ++i) sequence[i] = static_cast<char>(i & 0xFF);
  for (size_t blk : WrittenBlocks(seq)) EXPECT_EQ(seq.substr(blk * kBlock, kBlock), sequence);
  // -Zr: each write's own random bytes.
  WriteRun(dir, {"-r", "-g200i", "-Zr"}, "zr.dat");
  const std::string zr = dir.Read("zr.dat");
  const std::set<size_t> zr_blocks = WrittenBlocks(zr);
  ASSERT_GE(zr_blocks.size(), 20u);
  std::set<std::string> contents;
  for (size_t blk : zr_blocks) contents.insert(zr.substr(blk * kBlock, kBlock));
  EXPECT_EQ(contents.size(), zr_blocks.size());
  EXPECT_FALSE(contents.contains(sequence));
  // -Z<size>,<file>: the file's first block, in what -c makes and in every write.
  std::string source(8192, '\0');
  for (size_t i = 0; i < source.size(); ++i) source[i] = static_cast<char>('A' + (i * 7) % 26);
  dir.Write("source.bin", source);
  const std::string first = source.substr(0, kBlock);
  ProcessResult made = RunDiskspd(dir, {"-d1", "-W0", "-b4K", "-Z8K,source.bin", "-c64K", "m.dat"});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  const std::string m = dir.Read("m.dat");
  ASSERT_EQ(m.size(), 65536u);
  for (size_t at = 0; at < m.size(); at += kBlock) EXPECT_EQ(m.substr(at, kBlock), first) << at;
  WriteRun(dir, {"-r", "-g200i", "-Z8K,source.bin"}, "src_made.dat");
  const std::string s = dir.Read("src_made.dat");
  const std::set<size_t> s_blocks = WrittenBlocks(s);
  ASSERT_FALSE(s_blocks.empty());
  for (size_t blk : s_blocks) EXPECT_EQ(s.substr(blk * kBlock, kBlock), first) << blk;
}

TEST(DiskspdEffectsTest, VerboseSaysEachStepOnStderr) {
  TempDir dir;
  ProcessResult v = RunDiskspd(dir, {"-d1", "-W0", "-b4K", "-t2", "-v", "-c256K", "v.dat"});
  ASSERT_EQ(v.exit_code, 0) << v.err;
  for (const char* line :
       {"diskspd: thread 0: target 'v.dat', engine ", "diskspd: thread 1: target 'v.dat', engine ",
        "diskspd: starting: warm-up 0s, measured 1s, cool-down 0s\n", "diskspd: finished\n"}) {
    EXPECT_NE(v.err.find(line), std::string::npos) << line << "\n" << v.err;
  }
  EXPECT_NE(v.out.find("\tusing verbose mode\n"), std::string::npos);
  EXPECT_EQ(v.out.find("diskspd: thread"), std::string::npos);  // stdout: the report alone
  ProcessResult quiet = RunDiskspd(dir, {"-d1", "-W0", "-b4K", "v.dat"});
  ASSERT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_EQ(quiet.err.find("diskspd: "), std::string::npos) << quiet.err;
}

TEST(DiskspdEffectsTest, WarmUpRunsAndIsNotMeasured) {
  TempDir dir;
  MakeZeroed(dir, "256K", {"w.dat"});
  // 50 I/Os a second: a measured second holds about 50, not the warm-up's too.
  const auto start = std::chrono::steady_clock::now();
  ProcessResult r = RunDiskspd(dir, {"-d1", "-W1", "-b4K", "-r", "-g50i", "-Rxml", "w.dat"});
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const MeasuredSpan m = SpanOf(r);
  ASSERT_GT(m.seconds, 0) << r.err << r.out;
  EXPECT_GE(m.seconds, 0.9);
  EXPECT_LT(m.seconds, 1.5);  // -d, not -d + -W
  EXPECT_GE(wall, 1.9);       // the warm-up ran before it
  EXPECT_GT(m.ios, 25u);
  EXPECT_LT(m.ios, 75u);
  EXPECT_NE(r.out.find("<Warmup>1</Warmup>"), std::string::npos);
}

// -g<bytes/ms>: the target's throughput held at the limit. 200 bytes per ms
// of 4 KiB I/Os is 48.8 a second: a measured second holds about that many,
// far fewer than an unlimited run's thousands; -g<n>i is the warm-up test's.
TEST(DiskspdEffectsTest, ThroughputLimitHoldsTheRate) {
  TempDir dir;
  MakeZeroed(dir, "256K", {"g.dat"});
  ProcessResult r = RunDiskspd(dir, {"-d1", "-W0", "-b4K", "-r", "-g200", "-Rxml", "g.dat"});
  const MeasuredSpan m = SpanOf(r);
  ASSERT_GT(m.seconds, 0.5) << r.err << r.out;
  EXPECT_GT(static_cast<double>(m.ios) / m.seconds, 20.0) << r.out;
  EXPECT_LT(static_cast<double>(m.ios) / m.seconds, 75.0) << r.out;
}

TEST(DiskspdEffectsTest, CreatingATargetShowsItsProgress) {
  TempDir dir;
  ProcessResult r = RunDiskspd(dir, {"-d1", "-W0", "-b4K", "-c8M", "p.dat"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Not a terminal: the 10% lines, the last at 100%; stdout keeps the report.
  EXPECT_NE(r.err.find("creating p.dat: 100%"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("creating p.dat"), std::string::npos);
}

}  // namespace
}  // namespace loadcell::testing
