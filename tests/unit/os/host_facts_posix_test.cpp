// The host facts of the verdict on Linux: holes in a file, the host's CPU
// time, the device's write cache word; and through their seams (a tree of
// /proc and /sys files of the test's own): stacked devices' counters, the
// page cache's dirty bytes, steal time, the CPUs' frequencies and throttle
// counts, a hypervisor.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "os/host_facts.h"
#include "testing/status.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::TempDir;

TEST(HostFactsTest, AFileWrittenWholeHasNoHoleASparseOneIsAllHoles) {
  TempDir dir;
  const std::string full = dir.File("full");
  {
    std::ofstream f(full, std::ios::binary);
    const std::string block(1 << 16, 'x');
    for (int i = 0; i < 16; ++i) f << block;
  }
  Result<uint64_t> none = FileHoleBytes(full);
  ASSERT_OK(none);
  EXPECT_EQ(*none, 0u);
  const std::string sparse = dir.File("sparse");
  { std::ofstream f(sparse); }
  std::filesystem::resize_file(sparse, 1 << 20);
  Result<uint64_t> all = FileHoleBytes(sparse);
  if (!all.ok()) GTEST_SKIP() << all.status().ToString();
  // A file system without hole reports says the whole file is data (0).
  if (*all == 0) GTEST_SKIP() << "this file system reports no holes";
  EXPECT_EQ(*all, 1u << 20);
}

TEST(HostFactsTest, AMissingFileIsAnErrorNamingIt) {
  Result<uint64_t> r = FileHoleBytes("/nonexistent/loadcell-file");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("/nonexistent/loadcell-file"), std::string::npos);
}

TEST(HostFactsTest, HostCpuTimeGrowsAndBusyIsPartOfIt) {
  const HostCpuTimes a = ReadHostCpuTimes();
  ASSERT_TRUE(a.known);
  EXPECT_LE(a.busy, a.total);
  EXPECT_GT(a.total, 0u);
}

TEST(HostFactsTest, TheWriteCacheIsOneOfTheKernelsWordsOrUnknown) {
  TempDir dir;
  const std::string mode = DeviceWriteCacheMode(dir.path());
  EXPECT_TRUE(mode.empty() || mode == "write back" || mode == "write through") << mode;
  EXPECT_EQ(DeviceWriteCacheMode("/nonexistent/loadcell-folder"), "");
}

TEST(HostFactsTest, DeviceCountersNameTheirDeviceOrAreUnknown) {
  TempDir dir;
  const DeviceCounters c = ReadDeviceCounters(dir.path());
  if (c.known) {
    EXPECT_FALSE(c.device.empty());
    EXPECT_EQ(c.device.find('/'), std::string::npos) << c.device;
  }
  EXPECT_FALSE(ReadDeviceCounters("/nonexistent/loadcell-folder").known);
}

// Writes `text` to `path`, making its folders.
void WriteFact(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path) << text;
}

// One line of a block device's stat: sectors read and written as given.
std::string StatLine(uint64_t sectors_read, uint64_t sectors_written) {
  return "10 0 " + std::to_string(sectors_read) + " 5 20 0 " + std::to_string(sectors_written) +
         " 9 0 12 14 0 0 0 0 0 0\n";
}

TEST(HostFactsTest, AStackedDeviceCountsTheDisksUnderItsSlaves) {
  // dm-0 over md0 over sda1 and sdb1; sda1 also under dm-1 (counted once).
  TempDir root;
  const std::string b = root.path();
  WriteFact(b + "/dm-0/stat", StatLine(1, 1));
  std::filesystem::create_directories(b + "/dm-0/slaves/md0");
  std::filesystem::create_directories(b + "/dm-0/slaves/dm-1");
  WriteFact(b + "/md0/stat", StatLine(2, 2));
  std::filesystem::create_directories(b + "/md0/slaves/sda1");
  std::filesystem::create_directories(b + "/md0/slaves/sdb1");
  WriteFact(b + "/dm-1/stat", StatLine(3, 3));
  std::filesystem::create_directories(b + "/dm-1/slaves/sda1");
  WriteFact(b + "/sda1/stat", StatLine(100, 10));
  WriteFact(b + "/sdb1/stat", StatLine(200, 20));
  EXPECT_EQ(LeafDevices("dm-0", b), (std::vector<std::string>{"sda1", "sdb1"}));
  const DeviceCounters c = DeviceCountersOf("dm-0", b);
  ASSERT_TRUE(c.known);
  EXPECT_EQ(c.device, "dm-0");
  EXPECT_EQ(c.under, (std::vector<std::string>{"sda1", "sdb1"}));
  EXPECT_EQ(c.read_bytes, 300u * 512);
  EXPECT_EQ(c.written_bytes, 30u * 512);
  // A plain disk is its own leaf, and names nothing under it.
  const DeviceCounters disk = DeviceCountersOf("sdb1", b);
  EXPECT_EQ(disk.read_bytes, 200u * 512);
  EXPECT_TRUE(disk.under.empty());
  EXPECT_FALSE(DeviceCountersOf("sdz", b).known);
}

TEST(HostFactsTest, ALeafWithoutCountersMakesTheStackUnknown) {
  TempDir root;
  const std::string b = root.path();
  WriteFact(b + "/md0/stat", StatLine(2, 2));
  std::filesystem::create_directories(b + "/md0/slaves/sda1");
  std::filesystem::create_directories(b + "/sda1");  // no stat
  EXPECT_FALSE(DeviceCountersOf("md0", b).known);
}

TEST(HostFactsTest, DirtyAndWritebackAreReadFromMeminfo) {
  TempDir root;
  WriteFact(root / "meminfo",
            "MemTotal:       24683664 kB\nDirty:              4028 kB\n"
            "Writeback:           12 kB\nWritebackTmp:        0 kB\n");
  const DirtyMemory d = ReadDirtyMemory(root / "meminfo");
  EXPECT_TRUE(d.known);
  EXPECT_EQ(d.dirty_bytes, 4028u * 1024);
  EXPECT_EQ(d.writeback_bytes, 12u * 1024);
  WriteFact(root / "short", "MemTotal: 1 kB\n");
  EXPECT_FALSE(ReadDirtyMemory(root / "short").known);
  EXPECT_TRUE(ReadDirtyMemory().known);  // the system's own
}

TEST(HostFactsTest, StealIsTheEighthCpuField) {
  TempDir root;
  WriteFact(root / "stat", "cpu  100 5 50 800 10 1 2 30 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n");
  const HostCpuTimes t = ReadHostCpuTimes(root / "stat");
  ASSERT_TRUE(t.known);
  EXPECT_TRUE(t.steal_known);
  EXPECT_EQ(t.steal, 30u);
  EXPECT_EQ(t.busy, 100u + 5 + 50 + 1 + 2 + 30);
  EXPECT_EQ(t.total, t.busy + 800 + 10);
}

TEST(HostFactsTest, FrequenciesGovernorAndThrottleCountsPerCpu) {
  TempDir root;
  const std::string c = root.path();
  WriteFact(c + "/cpu0/cpufreq/scaling_governor", "schedutil\n");
  WriteFact(c + "/cpu0/cpufreq/scaling_cur_freq", "2400000\n");
  WriteFact(c + "/cpu0/thermal_throttle/core_throttle_count", "3\n");
  WriteFact(c + "/cpu0/thermal_throttle/package_throttle_count", "4\n");
  WriteFact(c + "/cpu2/cpufreq/scaling_cur_freq", "1200000\n");
  const CpuFrequencyFacts f = ReadCpuFrequencies({0, 1, 2}, c);
  EXPECT_EQ(f.governor, "schedutil");
  EXPECT_EQ(f.khz, (std::vector<uint64_t>{2400000, 0, 1200000}));
  EXPECT_TRUE(f.throttle_known);
  EXPECT_EQ(f.throttle_events, 7u);
  const CpuFrequencyFacts none = ReadCpuFrequencies({0}, root / "absent");
  EXPECT_TRUE(none.governor.empty());
  EXPECT_FALSE(none.throttle_known);
}

TEST(HostFactsTest, AHypervisorIsNamedByDmiOrTheCpuFlag) {
  TempDir root;
  WriteFact(root / "cpuinfo", "processor\t: 0\nflags\t\t: fpu vme hypervisor lahf_lm\n");
  WriteFact(root / "bare", "processor\t: 0\nflags\t\t: fpu vme lahf_lm\n");
  WriteFact(root / "vendor", "QEMU\n");
  WriteFact(root / "dell", "Dell Inc.\n");
  EXPECT_EQ(VirtualMachineName(root / "bare", root / "vendor"), "QEMU");
  EXPECT_EQ(VirtualMachineName(root / "cpuinfo", root / "dell"), "the CPU's hypervisor flag");
  EXPECT_EQ(VirtualMachineName(root / "bare", root / "dell"), "");
}

TEST(HostFactsTest, BlockSizesArePowersOfTwoOrUnknown) {
  TempDir dir;
  const BlockSizes b = DeviceBlockSizes(dir.path());
  if (b.logical != 0) {
    EXPECT_EQ(b.logical & (b.logical - 1), 0u) << b.logical;
    EXPECT_GE(b.physical, b.logical);
  }
  EXPECT_EQ(DeviceBlockSizes("/nonexistent/loadcell-folder").logical, 0u);
}

}  // namespace
}  // namespace loadcell
