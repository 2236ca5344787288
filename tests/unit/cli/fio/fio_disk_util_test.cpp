// fio's disk_util across MPI ranks: every rank's device figures, sent as
// bytes to rank 0, become one row per device of each host (ranks on one
// host read the same device counters: the lowest rank's stand for them).

#include "cli/fio/fio_disk_util.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "report/fio/fio_report.h"

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

// A device-mapper device with its aggr_* (over the 2 devices under it).
FioDiskUtil Stacked(const std::string& name) {
  FioDiskUtil d = Disk(name, 100, 40);
  d.slaves = 2;
  d.aggr_read_ios = 51;
  d.aggr_write_ios = 11;
  d.aggr_read_merges = 3;
  d.aggr_write_merges = 4;
  d.aggr_read_ticks_ms = 7;
  d.aggr_write_ticks_ms = 8;
  d.aggr_in_queue_ms = 15;
  d.aggr_util_pct = 37.25;
  return d;
}

TEST(FioDiskUtilTest, ADeviceOnOthersKeepsItsAggregatesFromEveryHost) {
  // Host a's dm-0 (rank 0), host b's dm-0 and the sdb under it (rank 1).
  const std::vector<FioDiskUtil> rows =
      MergeFioRankDisks({EncodeFioDisks("a", {Stacked("dm-0")}),
                         EncodeFioDisks("b", {Stacked("dm-0"), Disk("sdb", 52, 20)})});
  ASSERT_EQ(rows.size(), 3u);
  for (size_t k = 0; k < 2; ++k) {
    const FioDiskUtil& d = rows[k];
    SCOPED_TRACE(d.name);
    EXPECT_EQ(d.read_ios, 100u);
    EXPECT_DOUBLE_EQ(d.util_pct, 40);
    EXPECT_EQ(d.slaves, 2u);
    EXPECT_EQ(d.aggr_read_ios, 51u);
    EXPECT_EQ(d.aggr_write_ios, 11u);
    EXPECT_EQ(d.aggr_read_merges, 3u);
    EXPECT_EQ(d.aggr_write_merges, 4u);
    EXPECT_EQ(d.aggr_read_ticks_ms, 7u);
    EXPECT_EQ(d.aggr_write_ticks_ms, 8u);
    EXPECT_EQ(d.aggr_in_queue_ms, 15u);
    EXPECT_DOUBLE_EQ(d.aggr_util_pct, 37.25);
  }
  EXPECT_EQ(rows[1].name, "b:dm-0");
  EXPECT_EQ(rows[2].name, "b:sdb");
  EXPECT_EQ(rows[2].slaves, 0u);
  EXPECT_EQ(rows[2].aggr_read_ios, 0u);

  // Rank 0's report prints the other host's aggregates as its own, as
  // fio's client prints a server's.
  FioReport rep;
  rep.disks = rows;
  std::ostringstream text;
  WriteFioText(rep, text);
  EXPECT_NE(text.str().find("    b:dm-0: ios=100/101, merge=2/3, ticks=4/5, in_queue=6, "
                            "util=40.00%, aggrios=51/11, aggrmerge=3/4, aggrticks=7/8, "
                            "aggrin_queue=15, aggrutil=37.25%\n"),
            std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("  b:sdb: ios=52/53, merge=2/3, ticks=4/5, in_queue=6, "
                            "util=20.00%\n"),
            std::string::npos)
      << text.str();
  std::ostringstream json;
  WriteFioJson(rep, false, json);
  const nlohmann::json doc = nlohmann::json::parse(json.str());
  ASSERT_EQ(doc["disk_util"].size(), 3u);
  const nlohmann::json& b = doc["disk_util"][1];
  EXPECT_EQ(b["name"], "b:dm-0");
  EXPECT_EQ(b["aggr_read_ios"], 51);
  EXPECT_EQ(b["aggr_in_queue"], 15);
  EXPECT_DOUBLE_EQ(b["aggr_util"].get<double>(), 37.25);
  EXPECT_FALSE(doc["disk_util"][2].contains("aggr_read_ios"));
}

}  // namespace fio_disk_util_test
}  // namespace loadcell
