// os/disk_stats.h: a stat line read field by field, the difference of two
// readings, and a device's counters read from a folder laid out as
// /sys/class/block.

#include "os/disk_stats.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "testing/temp_dir.h"

namespace loadcell {
namespace {

TEST(DiskStatsTest, ParsesTheKernelsFieldsInOrder) {
  DiskStats s;
  ASSERT_TRUE(ParseDiskStats(
      " 3270603    33526 69636578   351560  3208109   233280 246870032   851080        0   "
      "296280  1300478   193479       71",
      &s));
  EXPECT_EQ(s.read_ios, 3270603u);
  EXPECT_EQ(s.read_merges, 33526u);
  EXPECT_EQ(s.read_sectors, 69636578u);
  EXPECT_EQ(s.read_ticks_ms, 351560u);
  EXPECT_EQ(s.write_ios, 3208109u);
  EXPECT_EQ(s.write_merges, 233280u);
  EXPECT_EQ(s.write_sectors, 246870032u);
  EXPECT_EQ(s.write_ticks_ms, 851080u);
  EXPECT_EQ(s.in_flight, 0u);
  EXPECT_EQ(s.io_ticks_ms, 296280u);
  EXPECT_EQ(s.time_in_queue_ms, 1300478u);
  EXPECT_FALSE(ParseDiskStats("1 2 3 4 5 6 7 8 9 10", &s));
  EXPECT_FALSE(ParseDiskStats("", &s));
}

TEST(DiskStatsTest, TheDifferenceOfTwoReadings) {
  DiskStats a;
  ASSERT_TRUE(ParseDiskStats("10 1 80 5 20 2 160 7 3 100 200", &a));
  DiskStats b;
  ASSERT_TRUE(ParseDiskStats("15 1 120 9 20 4 160 8 1 150 260", &b));
  const DiskStats d = DiskStatsSince(a, b);
  EXPECT_EQ(d.read_ios, 5u);
  EXPECT_EQ(d.read_sectors, 40u);
  EXPECT_EQ(d.read_ticks_ms, 4u);
  EXPECT_EQ(d.write_ios, 0u);
  EXPECT_EQ(d.write_merges, 2u);
  EXPECT_EQ(d.in_flight, 1u);  // the later reading's
  EXPECT_EQ(d.io_ticks_ms, 50u);
  EXPECT_EQ(d.time_in_queue_ms, 60u);
  // A counter that went back (a device reset) counts as 0, not a huge number.
  EXPECT_EQ(DiskStatsSince(b, a).read_ios, 0u);
}

TEST(DiskStatsTest, ReadsADevicesStatFileFromItsFolder) {
  testing::TempDir dir;
  std::filesystem::create_directories(dir / "sdz");
  std::ofstream(dir / "sdz/stat") << "   7 0 56 3 9 1 72 4 0 6 7 0 0 0 0\n";
  Result<DiskStats> s = ReadDiskStats("sdz", dir.path());
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->read_ios, 7u);
  EXPECT_EQ(s->write_ios, 9u);
  EXPECT_EQ(s->io_ticks_ms, 6u);
  EXPECT_EQ(ReadDiskStats("missing", dir.path()).status().code(), StatusCode::kNotFound);
  EXPECT_FALSE(ReadDiskStats("", dir.path()).ok());
}

}  // namespace
}  // namespace loadcell
