#include "fio/fio_values.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "testing/status.h"

namespace loadcell::fio {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr FioKbBase k1024 = FioKbBase::k1024;
constexpr FioKbBase k1000 = FioKbBase::k1000;

uint64_t Bytes(std::string_view text, FioKbBase base = k1024) {
  Result<uint64_t> r = ParseFioBytes(text, base);
  EXPECT_OK(r) << text;
  return r.ok() ? *r : 0;
}

template <typename T>
std::string ValueErrorOf(const Result<T>& r) {
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  return r.status().message();
}

TEST(ParseFioBytes, SuffixesWithTheDefaultKbBase) {
  // The HOWTO's examples for kb_base=1024.
  for (const char* four_kib : {"4096", "4096b", "4096B", "4k", "4kb", "4kB", "4K", "4KB"}) {
    EXPECT_EQ(Bytes(four_kib), 4096U) << four_kib;
  }
  EXPECT_EQ(Bytes("1m"), 1048576U);
  EXPECT_EQ(Bytes("1024k"), 1048576U);
  EXPECT_EQ(Bytes("1mi"), 1000000U);  // fio's "opposite" rule
  EXPECT_EQ(Bytes("1000ki"), 1000000U);
  EXPECT_EQ(Bytes("1t"), 1099511627776U);
  EXPECT_EQ(Bytes("1ti"), 1000000000000U);
  EXPECT_EQ(Bytes("2KiB"), 2000U);
  EXPECT_EQ(Bytes("1p"), 1125899906842624U);
  EXPECT_EQ(Bytes("0x10"), 16U);
  EXPECT_EQ(Bytes("(4*1024)"), 4096U);
  EXPECT_EQ(Bytes("(2*2)k"), 4096U);
}

TEST(ParseFioBytes, SuffixesWithKbBase1000) {
  for (const char* four_kib : {"4096", "4096b", "4ki", "4kib", "4kiB", "4Ki", "4KiB"}) {
    EXPECT_EQ(Bytes(four_kib, k1000), 4096U) << four_kib;
  }
  EXPECT_EQ(Bytes("1m", k1000), 1000000U);
  EXPECT_EQ(Bytes("1000k", k1000), 1000000U);
  EXPECT_EQ(Bytes("1mi", k1000), 1048576U);
  EXPECT_EQ(Bytes("1ti", k1000), 1099511627776U);
}

TEST(ParseFioBytes, RefusesWhatFioWouldMisread) {
  EXPECT_THAT(ValueErrorOf(ParseFioBytes("1.5g", k1024)), HasSubstr("whole number"));
  EXPECT_THAT(ValueErrorOf(ParseFioBytes("10x", k1024)), HasSubstr("unknown unit 'x'"));
  EXPECT_THAT(ValueErrorOf(ParseFioBytes("4z", k1024)), HasSubstr("unknown unit"));
  EXPECT_THAT(ValueErrorOf(ParseFioBytes("", k1024)), HasSubstr("empty"));
  EXPECT_THAT(ValueErrorOf(ParseFioBytes("-4k", k1024)), HasSubstr("signed"));
  EXPECT_THAT(ValueErrorOf(ParseFioBytes("k", k1024)), HasSubstr("not a number"));
  EXPECT_THAT(ValueErrorOf(ParseFioBytes("16384p", k1024)), HasSubstr("64 bits"));
  EXPECT_THAT(ValueErrorOf(ParseFioBytes("99999999999999999999", k1024)), HasSubstr("64 bits"));
}

TEST(ParseFioSignedBytes, AStepBack) {
  Result<int64_t> r = ParseFioSignedBytes("-8k", k1024);
  ASSERT_OK(r);
  EXPECT_EQ(*r, -8192);
  r = ParseFioSignedBytes("16k", k1024);
  ASSERT_OK(r);
  EXPECT_EQ(*r, 16384);
}

TEST(ParseFioSizeOrPercent, PercentIsAFraction) {
  Result<FioSize> r = ParseFioSizeOrPercent("50%", k1024);
  ASSERT_OK(r);
  EXPECT_TRUE(r->is_fraction);
  EXPECT_DOUBLE_EQ(r->fraction, 0.5);
  r = ParseFioSizeOrPercent("2g", k1024);
  ASSERT_OK(r);
  EXPECT_FALSE(r->is_fraction);
  EXPECT_EQ(r->bytes, uint64_t{2} << 30);
  EXPECT_THAT(ValueErrorOf(ParseFioSizeOrPercent("150%", k1024)), HasSubstr("0 to 100"));
}

TEST(ParseFioByteRange, BothSeparatorsAndASwappedPair) {
  Result<FioByteRange> r = ParseFioByteRange("4k-16k", k1024);
  ASSERT_OK(r);
  EXPECT_EQ(r->min, 4096U);
  EXPECT_EQ(r->max, 16384U);
  r = ParseFioByteRange("16k:4k", k1024);
  ASSERT_OK(r);
  EXPECT_EQ(r->min, 4096U);
  EXPECT_EQ(r->max, 16384U);
  r = ParseFioByteRange("8k", k1024);
  ASSERT_OK(r);
  EXPECT_EQ(r->min, 8192U);
  EXPECT_EQ(r->max, 8192U);
}

TEST(ParseFioTime, DefaultUnitPerOptionAndSuffixes) {
  auto ns = [](std::string_view text, FioTimeUnit unit) {
    Result<int64_t> r = ParseFioTime(text, unit);
    EXPECT_OK(r) << text;
    return r.ok() ? *r : -1;
  };
  EXPECT_EQ(ns("30", FioTimeUnit::kSeconds), 30'000'000'000);
  EXPECT_EQ(ns("30", FioTimeUnit::kMicroseconds), 30'000);
  EXPECT_EQ(ns("30", FioTimeUnit::kMilliseconds), 30'000'000);
  EXPECT_EQ(ns("10us", FioTimeUnit::kSeconds), 10'000);
  EXPECT_EQ(ns("10usec", FioTimeUnit::kSeconds), 10'000);
  EXPECT_EQ(ns("10MS", FioTimeUnit::kSeconds), 10'000'000);
  EXPECT_EQ(ns("10msec", FioTimeUnit::kSeconds), 10'000'000);
  EXPECT_EQ(ns("2s", FioTimeUnit::kMicroseconds), 2'000'000'000);
  EXPECT_EQ(ns("2sec", FioTimeUnit::kMicroseconds), 2'000'000'000);
  EXPECT_EQ(ns("2m", FioTimeUnit::kSeconds), 120'000'000'000);
  EXPECT_EQ(ns("1h", FioTimeUnit::kSeconds), 3'600'000'000'000);
  EXPECT_EQ(ns("1d", FioTimeUnit::kSeconds), 86'400'000'000'000);
  EXPECT_THAT(ValueErrorOf(ParseFioTime("10x", FioTimeUnit::kSeconds)), HasSubstr("unknown unit"));
  EXPECT_THAT(ValueErrorOf(ParseFioTime("1.5s", FioTimeUnit::kSeconds)), HasSubstr("whole number"));
  EXPECT_THAT(ValueErrorOf(ParseFioTime("-1", FioTimeUnit::kSeconds)), HasSubstr("negative"));
  EXPECT_THAT(ValueErrorOf(ParseFioTime("999999999999d", FioTimeUnit::kSeconds)),
              HasSubstr("too long"));
}

TEST(ParseFioTimeRange, StartDelayRange) {
  Result<FioTimeRange> r = ParseFioTimeRange("1-5", FioTimeUnit::kSeconds);
  ASSERT_OK(r);
  EXPECT_EQ(r->min_ns, 1'000'000'000);
  EXPECT_EQ(r->max_ns, 5'000'000'000);
}

TEST(ParseFioBool, ZeroOrOneAsFio) {
  Result<bool> r = ParseFioBool("1");
  ASSERT_OK(r);
  EXPECT_TRUE(*r);
  r = ParseFioBool("0");
  ASSERT_OK(r);
  EXPECT_FALSE(*r);
  EXPECT_THAT(ValueErrorOf(ParseFioBool("true")), HasSubstr("not a boolean: give 0 or 1"));
  EXPECT_THAT(ValueErrorOf(ParseFioBool("1k")), HasSubstr("give 0 or 1"));
  EXPECT_THAT(ValueErrorOf(ParseFioBool("2")), HasSubstr("give 0 or 1"));  // fio: max 1
}

TEST(ParseFioFlag, AnyIntegerAsFio) {
  Result<bool> r = ParseFioFlag("2");  // fio: stonewall=2 is a stonewall
  ASSERT_OK(r);
  EXPECT_TRUE(*r);
  r = ParseFioFlag("0");
  ASSERT_OK(r);
  EXPECT_FALSE(*r);
  EXPECT_THAT(ValueErrorOf(ParseFioFlag("yes")), HasSubstr("not 0 or 1"));
}

TEST(SplitFioPerDirection, TheHowtoExamples) {
  auto fields = [](std::string_view text) {
    Result<FioPerDirection<std::optional<std::string>>> r = SplitFioPerDirection(text);
    EXPECT_OK(r) << text;
    std::vector<std::string> out;
    if (!r.ok()) return out;
    for (const auto& f : *r) out.push_back(f.value_or("default"));
    return out;
  };
  EXPECT_THAT(fields("256k"), ElementsAre("256k", "256k", "256k"));
  EXPECT_THAT(fields("8k,32k"), ElementsAre("8k", "32k", "32k"));
  EXPECT_THAT(fields("8k,32k,"), ElementsAre("8k", "32k", "default"));
  EXPECT_THAT(fields(",8k"), ElementsAre("default", "8k", "8k"));
  EXPECT_THAT(fields(",8k,"), ElementsAre("default", "8k", "default"));
  EXPECT_THAT(fields("4k,8k,16k"), ElementsAre("4k", "8k", "16k"));
  EXPECT_THAT(ValueErrorOf(SplitFioPerDirection("1,2,3,4")), HasSubstr("more than three"));
}

TEST(ParseFioBlockSplit, EntriesWithoutAPercentageShareTheRest) {
  Result<FioPerDirection<std::vector<FioBlockSplit>>> r =
      ParseFioBlockSplit("4k/10:64k/50:32k", k1024);
  ASSERT_OK(r);
  for (const auto& dir : *r) {
    ASSERT_EQ(dir.size(), 3U);
    EXPECT_EQ(dir[0].block_size, 4096U);
    EXPECT_DOUBLE_EQ(dir[0].fraction, 0.10);
    EXPECT_EQ(dir[1].block_size, 65536U);
    EXPECT_DOUBLE_EQ(dir[1].fraction, 0.50);
    EXPECT_DOUBLE_EQ(dir[2].fraction, 0.40);
  }
  r = ParseFioBlockSplit("4k/50:8k/", k1024);
  ASSERT_OK(r);
  EXPECT_DOUBLE_EQ((*r)[0][1].fraction, 0.5);
  r = ParseFioBlockSplit("4k:8k:16k", k1024);
  ASSERT_OK(r);
  EXPECT_DOUBLE_EQ((*r)[0][0].fraction + (*r)[0][1].fraction + (*r)[0][2].fraction, 1.0);
}

TEST(ParseFioBlockSplit, PerDirection) {
  Result<FioPerDirection<std::vector<FioBlockSplit>>> r =
      ParseFioBlockSplit("4k/50:8k/50,16k/100", k1024);
  ASSERT_OK(r);
  EXPECT_EQ((*r)[0].size(), 2U);
  ASSERT_EQ((*r)[1].size(), 1U);
  EXPECT_EQ((*r)[1][0].block_size, 16384U);
  ASSERT_EQ((*r)[2].size(), 1U);  // trim takes write's
  r = ParseFioBlockSplit(",16k/100,", k1024);
  ASSERT_OK(r);
  EXPECT_TRUE((*r)[0].empty());
  EXPECT_EQ((*r)[1].size(), 1U);
  EXPECT_TRUE((*r)[2].empty());
}

TEST(ParseFioBlockSplit, Refusals) {
  EXPECT_EQ(ValueErrorOf(ParseFioBlockSplit("4k/50:8k/40", k1024)),
            "bssplit percentages add up to 90: they must add up to 100");
  EXPECT_EQ(ValueErrorOf(ParseFioBlockSplit("4k/60:8k/60:16k", k1024)),
            "bssplit percentages add up to 120, over 100");
  EXPECT_THAT(ValueErrorOf(ParseFioBlockSplit("4k/150", k1024)), HasSubstr("over 100"));
  EXPECT_THAT(ValueErrorOf(ParseFioBlockSplit("0/100", k1024)), HasSubstr("block size of 0"));
  EXPECT_THAT(ValueErrorOf(ParseFioBlockSplit("4q/100", k1024)), HasSubstr("unknown unit"));
}

TEST(ParseFioRw, ModesAndPostfixes) {
  Result<FioRw> r = ParseFioRw("read:-8k", k1024);
  ASSERT_OK(r);
  EXPECT_EQ(r->mode, FioRwMode::kRead);
  EXPECT_EQ(r->sequential_skip, -8192);
  r = ParseFioRw("randread:8", k1024);
  ASSERT_OK(r);
  EXPECT_EQ(r->mode, FioRwMode::kRandRead);
  EXPECT_EQ(r->random_sequence, 8U);
  r = ParseFioRw("readwrite", k1024);
  ASSERT_OK(r);
  EXPECT_EQ(r->mode, FioRwMode::kMixed);
  EXPECT_TRUE(RwModeReads(r->mode));
  EXPECT_TRUE(RwModeWrites(r->mode));
  EXPECT_FALSE(RwModeTrims(r->mode));
  r = ParseFioRw("trimwrite", k1024);
  ASSERT_OK(r);
  EXPECT_TRUE(RwModeTrims(r->mode));
  EXPECT_TRUE(RwModeWrites(r->mode));
  EXPECT_FALSE(IsRandomRwMode(r->mode));
  EXPECT_THAT(ValueErrorOf(ParseFioRw("randomread", k1024)),
              HasSubstr("is not a mode: read, write"));
  EXPECT_THAT(ValueErrorOf(ParseFioRw("randread:0", k1024)), HasSubstr("1 to"));
}

TEST(ParseFioDistribution, ParametricOnes) {
  Result<FioRandomDistribution> r = ParseFioDistribution("zipf:1.2", k1024);
  ASSERT_OK(r);
  EXPECT_EQ(r->kind, FioDistributionKind::kZipf);
  EXPECT_DOUBLE_EQ(r->parameter, 1.2);
  EXPECT_LT(r->center, 0);
  r = ParseFioDistribution("zipf", k1024);
  ASSERT_OK(r);
  EXPECT_DOUBLE_EQ(r->parameter, 1.1);
  r = ParseFioDistribution("pareto:0.9:0.5", k1024);
  ASSERT_OK(r);
  EXPECT_DOUBLE_EQ(r->parameter, 0.9);
  EXPECT_DOUBLE_EQ(r->center, 0.5);
  r = ParseFioDistribution("normal:5", k1024);
  ASSERT_OK(r);
  EXPECT_DOUBLE_EQ(r->parameter, 0.05);
  EXPECT_THAT(ValueErrorOf(ParseFioDistribution("zipf:1", k1024)), HasSubstr("not be 1"));
  EXPECT_THAT(ValueErrorOf(ParseFioDistribution("pareto:1.5", k1024)),
              HasSubstr("between 0 and 1"));
  EXPECT_THAT(ValueErrorOf(ParseFioDistribution("normal:100", k1024)), HasSubstr("0 to 100"));
  EXPECT_THAT(ValueErrorOf(ParseFioDistribution("zipf:1.2:2", k1024)), HasSubstr("outside 0 to 1"));
  EXPECT_THAT(ValueErrorOf(ParseFioDistribution("gauss", k1024)), HasSubstr("not a distribution"));
}

TEST(ParseFioDistribution, Zoned) {
  Result<FioRandomDistribution> r = ParseFioDistribution("zoned:60/10:30/20:8/30:2/40", k1024);
  ASSERT_OK(r);
  EXPECT_EQ(r->kind, FioDistributionKind::kZoned);
  ASSERT_EQ(r->zones[0].size(), 4U);
  EXPECT_DOUBLE_EQ(r->zones[0][0].access_fraction, 0.6);
  EXPECT_DOUBLE_EQ(r->zones[0][0].size_fraction, 0.1);
  EXPECT_DOUBLE_EQ(r->zones[2][3].size_fraction, 0.4);
  // An empty size after the '/' shares the rest, as fio reads it.
  r = ParseFioDistribution("zoned:50/5:30/15:20/", k1024);
  ASSERT_OK(r);
  EXPECT_DOUBLE_EQ(r->zones[0][2].size_fraction, 0.80);
  r = ParseFioDistribution("zoned_abs:60/20g:40/100g", k1024);
  ASSERT_OK(r);
  EXPECT_EQ(r->zones[1][1].size_bytes, uint64_t{100} << 30);
  EXPECT_EQ(ValueErrorOf(ParseFioDistribution("zoned:60/50:40/60", k1024)),
            "zone size percentages add up to 110, over 100");
  EXPECT_EQ(ValueErrorOf(ParseFioDistribution("zoned:60/10:30/20", k1024)),
            "zone access percentages add up to 90: they must add up to 100");
  EXPECT_THAT(ValueErrorOf(ParseFioDistribution("zoned_abs:100", k1024)), HasSubstr("has no size"));
  EXPECT_THAT(ValueErrorOf(ParseFioDistribution("zoned", k1024)), HasSubstr("needs its zones"));
}

TEST(SplitFioNames, ColonListsAndEscapes) {
  EXPECT_THAT(SplitFioNames("/dev/sdb:/dev/sdc"), ElementsAre("/dev/sdb", "/dev/sdc"));
  EXPECT_THAT(SplitFioNames("C\\:\\fio\\testfile"), ElementsAre("C:\\fio\\testfile"));
  EXPECT_THAT(SplitFioNames("a::b:"), ElementsAre("a", "b"));
  EXPECT_THAT(SplitFioNames("\\\\.\\PhysicalDrive1"), ElementsAre("\\\\.\\PhysicalDrive1"));
}

// Windows device paths: a disk \\.\PhysicalDriveN, a volume \\.\X: (its
// colon escaped in the job file), other device names as given; a volume
// whose colon was read as a separator, a disk without its number and a
// device as a folder are refused.
TEST(CheckFioDevicePaths, DisksAndVolumesAsWindowsNamesThem) {
  EXPECT_OK(CheckFioDevicePaths(SplitFioNames("\\\\.\\PhysicalDrive0:\\\\.\\E\\:"), false));
  EXPECT_OK(CheckFioDevicePaths({"//./physicaldrive12", "\\\\.\\CdRom0", "C:\\data\\f"}, false));
  EXPECT_OK(CheckFioDevicePaths({"C:\\data", "/mnt/d"}, true));
  const auto refusal = [](const std::vector<std::string>& names, bool dirs) {
    const Status st = CheckFioDevicePaths(names, dirs);
    return st.ok() ? std::string() : st.message();
  };
  EXPECT_THAT(refusal(SplitFioNames("\\\\.\\E:"), false), HasSubstr("written '\\\\.\\E\\:'"));
  EXPECT_THAT(refusal({"\\\\.\\PhysicalDrive"}, false), HasSubstr("PhysicalDriveN"));
  EXPECT_THAT(refusal({"\\\\.\\PhysicalDrive1x"}, false), HasSubstr("PhysicalDriveN"));
  EXPECT_THAT(refusal({"\\\\.\\PhysicalDrive1"}, true), HasSubstr("not a folder"));
}

TEST(ParseFioCpuList, RangesAndSingles) {
  Result<std::vector<int>> r = ParseFioCpuList("4-5,0,2-3,2");
  ASSERT_OK(r);
  EXPECT_THAT(*r, ElementsAre(0, 2, 3, 4, 5));
  EXPECT_THAT(ValueErrorOf(ParseFioCpuList("3-1")), HasSubstr("reversed"));
  EXPECT_THAT(ValueErrorOf(ParseFioCpuList("0,,1")), HasSubstr("empty entry"));
  EXPECT_THAT(ValueErrorOf(ParseFioCpuList("5000")), HasSubstr("over 4095"));
}

TEST(ParseFioPercentileList, Fractions) {
  Result<std::vector<double>> r = ParseFioPercentileList("99:99.9:99.99");
  ASSERT_OK(r);
  ASSERT_EQ(r->size(), 3U);
  EXPECT_DOUBLE_EQ((*r)[0], 0.99);
  EXPECT_DOUBLE_EQ((*r)[2], 0.9999);
  EXPECT_THAT(ValueErrorOf(ParseFioPercentileList("99:101")), HasSubstr("outside"));
  EXPECT_THAT(
      ValueErrorOf(ParseFioPercentileList("1:2:3:4:5:6:7:8:9:10:11:12:13:14:15:16:17:18:19:20:21")),
      HasSubstr("more than 20"));
}

TEST(ParseFioPattern, HexAndQuotedTextAsFio) {
  Result<std::string> r = ParseFioPattern("0xdeadbeef");
  ASSERT_OK(r);
  EXPECT_EQ(*r, std::string("\xde\xad\xbe\xef"));
  r = ParseFioPattern("\"ab\"0x0a\"c\"");
  ASSERT_OK(r);
  EXPECT_EQ(*r, "ab\nc");
  r = ParseFioPattern("0xabc");
  ASSERT_OK(r);
  EXPECT_EQ(*r, std::string("\x0a\xbc"));
  EXPECT_THAT(ValueErrorOf(ParseFioPattern("%o")), HasSubstr("no decimal numbers or %o"));
  EXPECT_THAT(ValueErrorOf(ParseFioPattern("\"abc")), HasSubstr("not closed"));
  // fio 3.33 refuses single quotes and a space between the parts.
  EXPECT_THAT(ValueErrorOf(ParseFioPattern("'abc'")), HasSubstr("double quotes"));
  EXPECT_THAT(ValueErrorOf(ParseFioPattern("\"ab\" 0x0a")), HasSubstr("straight after"));
}

}  // namespace
}  // namespace loadcell::fio
