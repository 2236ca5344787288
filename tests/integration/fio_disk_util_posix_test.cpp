// `loadcell fio` reports fio's disk_util and "Disk stats" for the device
// under a job's file: the kernel's counters over the run (other programs
// may add I/O of their own, never take any away).

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "os/disk_stats.h"
#include "testing/fio_run.h"
#include "testing/temp_dir.h"

namespace loadcell::testing {
namespace fio_disk_util {

TEST(FioDiskUtilTest, DirectReadsOfAFileShowOnItsDevice) {
  TempDir dir(BuildTree());
  const std::string device = DiskNameOf(dir.path());
  if (device.empty()) GTEST_SKIP() << "no block device under " << dir.path();
  const std::vector<std::string> job = {"--name=d",  "--rw=randread", "--bs=4k",
                                        "--size=2m", "--direct=1",    "--filename=d.dat"};
  std::vector<std::string> args = job;
  args.insert(args.begin(), "--output-format=json");
  ProcessResult r = RunFio(dir, args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << r.out;
  ASSERT_EQ(doc["disk_util"].size(), 1u) << doc["disk_util"];
  const nlohmann::json& d = doc["disk_util"][0];
  EXPECT_EQ(d["name"], device);
  // 512 direct reads of 4 KiB reached the device (the page cache was not
  // asked).
  EXPECT_GE(d["read_ios"].get<uint64_t>(), 512u) << d;
  EXPECT_GE(d["util"].get<double>(), 0.0);
  EXPECT_LE(d["util"].get<double>(), 100.0);
  for (const char* key :
       {"write_ios", "read_merges", "write_merges", "read_ticks", "write_ticks", "in_queue"}) {
    EXPECT_TRUE(d.contains(key)) << key;
  }

  r = RunFio(dir, job);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\nDisk stats (read/write):\n  " + device + ": ios="), std::string::npos)
      << r.out;
}

TEST(FioDiskUtilTest, TheNullEngineHasNoDevice) {
  TempDir dir;
  ProcessResult r =
      RunFio(dir, {"--output-format=json", "--name=n", "--ioengine=null", "--size=1m"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << r.out;
  EXPECT_FALSE(doc.contains("disk_util")) << r.out;  // as fio: no device, no disk_util
  // loadcell's object of the run is there without MPI too.
  EXPECT_EQ(doc["loadcell"]["jobs"], 1) << r.out;
  EXPECT_EQ(doc["loadcell"]["version"], doc["fio version"]) << r.out;
  EXPECT_EQ(doc["loadcell"]["failed_jobs"], 0) << r.out;
  EXPECT_EQ(doc["jobs"][0]["loadcell"]["percentiles"]["read"]["count"], 256) << r.out;
  r = RunFio(dir, {"--name=n", "--ioengine=null", "--size=1m"});
  EXPECT_EQ(r.out.find("Disk stats"), std::string::npos) << r.out;
}

}  // namespace fio_disk_util
}  // namespace loadcell::testing
