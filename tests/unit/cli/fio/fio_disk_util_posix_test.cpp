// fio's disk_util over a made-up /sys/class/block (Linux's: other systems
// have no slaves/ to follow): a device-mapper or md
// device listed with the devices under it (depth first, each once, as fio
// lists them), and its aggr_* figures: the devices directly under it,
// summed and divided by their count, the busiest one's util.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "cli/fio/fio_disk_util.h"
#include "testing/temp_dir.h"

namespace loadcell {
// Named, not anonymous: a unity build joins this file with the other fio
// plan tests.
namespace fio_disk_util_test {

using testing::TempDir;

// A block device's entry: its stat line and the devices it stands on.
void Device(const TempDir& root, const std::string& name, const std::string& stat,
            const std::vector<std::string>& slaves = {}) {
  std::filesystem::create_directories(root / (name + "/slaves"));
  if (!stat.empty()) root.Write(name + "/stat", stat + "\n");
  for (const std::string& s : slaves)
    std::filesystem::create_directories(root / (name + "/slaves/" + s));
}

std::vector<std::string> Names(const std::vector<FioDisk>& disks) {
  std::vector<std::string> out;
  for (const FioDisk& d : disks) out.push_back(d.name);
  return out;
}

TEST(FioDiskUtilTest, AStackedDeviceIsListedWithTheDevicesUnderItEachOnce) {
  TempDir root;
  const std::string zero = "0 0 0 0 0 0 0 0 0 0 0";
  Device(root, "dm-1", zero, {"md0"});
  Device(root, "md0", zero, {"sdc", "sdb"});
  Device(root, "sdb", zero);
  Device(root, "sdc", zero);
  Device(root, "loop0", zero, {"loop1"});  // a loop only a hand-made tree has
  Device(root, "loop1", zero, {"loop0"});
  const std::vector<FioDisk> disks = FioDisksWithSlaves({"dm-1", "sdb", "loop0"}, root.path());
  EXPECT_EQ(Names(disks),
            (std::vector<std::string>{"dm-1", "md0", "sdb", "sdc", "loop0", "loop1"}));
  EXPECT_EQ(disks[0].slaves, std::vector<std::string>{"md0"});
  EXPECT_EQ(disks[1].slaves, (std::vector<std::string>{"sdb", "sdc"}));  // sorted
  EXPECT_TRUE(disks[2].slaves.empty());
  // A device on none is itself alone.
  EXPECT_EQ(Names(FioDisksWithSlaves({"sdc"}, root.path())), std::vector<std::string>{"sdc"});
}

TEST(FioDiskUtilTest, ADeviceOnOthersGetsTheirMeanCountsAndTheBusiestUtil) {
  TempDir root;
  const std::string zero = "0 0 0 0 0 0 0 0 0 0 0";
  Device(root, "dm-0", zero, {"sda1", "sdb"});
  Device(root, "dm-2", zero, {"sda1", "sdx"});  // sdx has no counters
  Device(root, "sda1", zero);
  Device(root, "sdb", zero);
  const std::vector<FioDisk> disks = FioDisksWithSlaves({"dm-0", "dm-2"}, root.path());
  FioDiskSnapshot before = TakeFioDiskSnapshot(disks, root.path());
  // Fields: read ios, merges, sectors, ticks; write ios, merges, sectors,
  // ticks; in flight, io_ticks, time in queue.
  root.Write("dm-0/stat", "31 0 248 12 7 0 56 15 0 600 27\n");
  root.Write("sda1/stat", "10 1 80 5 3 2 24 6 0 500 11\n");
  root.Write("sdb/stat", "21 2 168 6 4 3 32 8 0 250 20\n");
  FioDiskSnapshot after = TakeFioDiskSnapshot(disks, root.path());
  before.at = 0;
  after.at = 1'000'000'000;  // 1000 ms between the two
  const std::vector<FioDiskUtil> u = FioDiskUtilBetween(before, after);
  ASSERT_EQ(u.size(), 4u);  // dm-0, sda1, sdb, dm-2 (sdx unread)
  const FioDiskUtil& dm = u[0];
  EXPECT_EQ(dm.name, "dm-0");
  EXPECT_EQ(dm.read_ios, 31u);
  EXPECT_DOUBLE_EQ(dm.util_pct, 60.0);
  EXPECT_EQ(dm.slaves, 2u);
  EXPECT_EQ(dm.aggr_read_ios, 15u);  // (10 + 21) / 2, in whole numbers as fio
  EXPECT_EQ(dm.aggr_write_ios, 3u);
  EXPECT_EQ(dm.aggr_read_merges, 1u);
  EXPECT_EQ(dm.aggr_write_merges, 2u);
  EXPECT_EQ(dm.aggr_read_ticks_ms, 5u);
  EXPECT_EQ(dm.aggr_write_ticks_ms, 7u);
  EXPECT_EQ(dm.aggr_in_queue_ms, 15u);
  EXPECT_DOUBLE_EQ(dm.aggr_util_pct, 50.0);  // sda1's, the busier
  EXPECT_EQ(u[1].name, "sda1");
  EXPECT_EQ(u[1].slaves, 0u);
  EXPECT_EQ(u[2].name, "sdb");
  // Only the devices under it that were read count.
  EXPECT_EQ(u[3].name, "dm-2");
  EXPECT_EQ(u[3].slaves, 1u);
  EXPECT_EQ(u[3].aggr_read_ios, 10u);
  EXPECT_DOUBLE_EQ(u[3].aggr_util_pct, 50.0);
}

}  // namespace fio_disk_util_test
}  // namespace loadcell
