// fio's disk_util across MPI ranks: every rank's device figures, sent as
// bytes to rank 0, become one row per device of each host (ranks on one
// host read the same device counters: the lowest rank's stand for them).

#include "cli/fio/fio_disk_util.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace loadcell {
// Named, not anonymous: a unity build joins this file with the other fio
// plan tests.
namespace fio_disk_util_test {

FioDiskUtil Disk(const std::string& name, uint64_t reads, double util) {
  FioDiskUtil d;
  d.name = name;
  d.read_ios = reads;
  d.write_ios = reads + 1;
  d.read_merges = 2;
  d.write_merges = 3;
  d.read_ticks_ms = 4;
  d.write_ticks_ms = 5;
  d.in_queue_ms = 6;
  d.util_pct = util;
  return d;
}

TEST(FioDiskUtilTest, RanksOnOneHostShareEachDeviceRow) {
  // Ranks 0 and 1 on host a (the same device read twice), rank 2 on b.
  const std::vector<std::string> parts = {
      EncodeFioDisks("a", {Disk("sda", 100, 50.5), Disk("sdb", 7, 1)}),
      EncodeFioDisks("a", {Disk("sda", 101, 51)}), EncodeFioDisks("b", {Disk("sda", 300, 90.25)}),
      "",  // a rank that sent nothing
  };
  const std::vector<FioDiskUtil> rows = MergeFioRankDisks(parts);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].name, "a:sda");
  EXPECT_EQ(rows[0].read_ios, 100u);  // rank 0's, not rank 0's and rank 1's added up
  EXPECT_EQ(rows[0].write_ios, 101u);
  EXPECT_EQ(rows[0].read_merges, 2u);
  EXPECT_EQ(rows[0].write_merges, 3u);
  EXPECT_EQ(rows[0].read_ticks_ms, 4u);
  EXPECT_EQ(rows[0].write_ticks_ms, 5u);
  EXPECT_EQ(rows[0].in_queue_ms, 6u);
  EXPECT_DOUBLE_EQ(rows[0].util_pct, 50.5);
  EXPECT_EQ(rows[1].name, "a:sdb");
  EXPECT_EQ(rows[1].read_ios, 7u);
  EXPECT_EQ(rows[2].name, "b:sda");
  EXPECT_EQ(rows[2].read_ios, 300u);
  EXPECT_DOUBLE_EQ(rows[2].util_pct, 90.25);
}

TEST(FioDiskUtilTest, OneHostKeepsTheDevicesOwnNames) {
  const std::vector<FioDiskUtil> rows =
      MergeFioRankDisks({EncodeFioDisks("h", {Disk("nvme0n1", 5, 10)}),
                         EncodeFioDisks("h", {Disk("nvme0n1", 6, 11)})});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].name, "nvme0n1");
  EXPECT_EQ(rows[0].read_ios, 5u);
}

}  // namespace fio_disk_util_test
}  // namespace loadcell
