// The host facts of the verdict on Linux: holes in a file, the host's CPU
// time, the device's write cache word; and through their seams (a tree of
// /proc and /sys files of the test's own): stacked devices' counters, the
// page cache's dirty bytes, steal time, the CPUs' frequencies and throttle
// counts, a hypervisor, the cgroup's memory limit (v1 and v2).

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
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

// What sysfs itself says of the write cache under `path`, found here on
// its own: the block device of the path's st_dev, a partition's parent
// disk, its queue/write_cache; "" where sysfs has no such entry.
std::string SysfsWriteCacheOf(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "";
  std::error_code ec;
  std::filesystem::path dev = std::filesystem::canonical(
      "/sys/dev/block/" + std::to_string(major(st.st_dev)) + ":" + std::to_string(minor(st.st_dev)),
      ec);
  if (ec) return "";
  if (std::filesystem::exists(dev / "partition", ec)) dev = dev.parent_path();
  std::string line;
  std::ifstream in(dev / "queue" / "write_cache");
  std::getline(in, line);
  return line;
}

TEST(HostFactsTest, TheWriteCacheIsTheWordSysfsGivesForTheDeviceUnderAPath) {
  TempDir dir;
  int stated = 0;
  for (const std::string& path : {dir.path(), std::string("/"), testing::BuildTree()}) {
    const std::string sysfs = SysfsWriteCacheOf(path);
    // Where sysfs gives a word, the reader must give the same one, not "".
    EXPECT_EQ(DeviceWriteCacheMode(path), sysfs) << path;
    if (!sysfs.empty()) {
      ++stated;
      EXPECT_TRUE(sysfs == "write back" || sysfs == "write through") << path << ": " << sysfs;
    }
  }
  if (stated == 0) {
    // tmpfs, overlay or a container without /sys/dev/block: nothing to
    // compare against here; only the unknown case below is checked.
    std::cout << "no block device under the tested paths states its write cache\n";
  }
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

// A block device node (fio's filename=/dev/vda) counts as its own device,
// not as the file system /dev is on; a file not made yet as its folder's.
TEST(HostFactsTest, ABlockDeviceNodeIsItsOwnDeviceAndAMissingFileItsFolders) {
  TempDir dir;
  const DeviceCounters folder = ReadDeviceCounters(dir.path());
  if (!folder.known) GTEST_SKIP() << "no block device under " << dir.path();
  const DeviceCounters missing = ReadDeviceCounters(dir / "not-made-yet");
  EXPECT_TRUE(missing.known);
  EXPECT_EQ(missing.device, folder.device);
  const std::string node = "/dev/" + folder.device;
  struct stat st {};
  if (::stat(node.c_str(), &st) != 0 || !S_ISBLK(st.st_mode)) {
    GTEST_SKIP() << node << " is not a block device node here";
  }
  const DeviceCounters device = ReadDeviceCounters(node);
  EXPECT_TRUE(device.known);
  EXPECT_EQ(device.device, folder.device);
  EXPECT_NE(DeviceBlockSizes(node).logical, 0u);
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
  const DeviceCounters c = DeviceCountersOf("md0", b);
  EXPECT_FALSE(c.known);
  // Why, with the system's words for the file that could not be read.
  EXPECT_EQ(c.unknown, "cannot read " + b + "/sda1/stat: " + std::strerror(ENOENT));
  WriteFact(b + "/sda1/stat", "garbled\n");
  EXPECT_EQ(DeviceCountersOf("md0", b).unknown, b + "/sda1/stat: not a block device's counters");
  EXPECT_EQ(DeviceCountersOf("sdz", b).unknown, "block device sdz is not in " + b);
}

// A counter file the process may not read says so (not "no block device");
// root reads it anyway, so the check is made only for another user.
TEST(HostFactsTest, ACounterFileThatCannotBeReadNamesThePermission) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads a file of mode 000";
  TempDir root;
  const std::string b = root.path();
  WriteFact(b + "/sda1/stat", StatLine(2, 2));
  ASSERT_EQ(::chmod((b + "/sda1/stat").c_str(), 0), 0);
  const DeviceCounters c = DeviceCountersOf("sda1", b);
  EXPECT_FALSE(c.known);
  EXPECT_EQ(c.unknown, "cannot read " + b + "/sda1/stat: " + std::strerror(EACCES));
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

TEST(HostFactsTest, ProcessIoIsReadFromProcSelfIoLessCancelledWrites) {
  TempDir root;
  WriteFact(root / "io",
            "rchar: 900000\nwchar: 800000\nsyscr: 10\nsyscw: 20\nread_bytes: 409600\n"
            "write_bytes: 1048576\ncancelled_write_bytes: 4096\n");
  const ProcessIo io = ReadProcessIo(root / "io");
  EXPECT_TRUE(io.known);
  EXPECT_EQ(io.read_bytes, 409600u);
  EXPECT_EQ(io.written_bytes, 1048576u - 4096u);
  WriteFact(root / "short", "rchar: 1\n");
  EXPECT_FALSE(ReadProcessIo(root / "short").known);
  // The process' own: reading a new file with O_DIRECT counts at least its
  // bytes (task I/O accounting is on in Debian's kernels).
  const ProcessIo before = ReadProcessIo();
  ASSERT_TRUE(before.known);
  const std::string path = root / "direct";
  {
    std::string block(1 << 20, 'x');
    WriteFact(path, block);
  }
  const int fd = open(path.c_str(), O_RDONLY | O_DIRECT);
  if (fd >= 0) {
    void* buf = nullptr;
    ASSERT_EQ(posix_memalign(&buf, 4096, 1 << 20), 0);
    const ssize_t n = read(fd, buf, 1 << 20);
    free(buf);
    close(fd);
    ASSERT_EQ(n, 1 << 20);
    EXPECT_GE(ReadProcessIo().read_bytes - before.read_bytes, 1u << 20);
  }
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

// cgroup v2: memory.max of the process' cgroup and of each above it, the
// tightest; "max" and missing files set none.
TEST(HostFactsTest, ACgroupV2LimitIsTheTightestMemoryMaxOnTheWayUp) {
  TempDir root;
  const std::string cg = root / "cgroup";
  WriteFact(root / "self", "0::/user.slice/app.scope\n");
  WriteFact(cg + "/user.slice/app.scope/memory.max", "max\n");
  EXPECT_EQ(CgroupMemoryLimit(root / "self", cg), 0u);
  WriteFact(cg + "/user.slice/memory.max", "4294967296\n");
  EXPECT_EQ(CgroupMemoryLimit(root / "self", cg), 4294967296u);
  WriteFact(cg + "/user.slice/app.scope/memory.max", "1073741824\n");
  EXPECT_EQ(CgroupMemoryLimit(root / "self", cg), 1073741824u);
  // The root cgroup's own path ("/"), and no cgroup line at all.
  WriteFact(root / "at-root", "0::/\n");
  WriteFact(cg + "/memory.max", "536870912\n");
  EXPECT_EQ(CgroupMemoryLimit(root / "at-root", cg), 536870912u);
  WriteFact(root / "none", "");
  EXPECT_EQ(CgroupMemoryLimit(root / "none", cg), 0u);
  EXPECT_EQ(CgroupMemoryLimit(root / "absent", cg), 0u);
}

// cgroup v1: memory.limit_in_bytes in the memory controller's hierarchy,
// the controller alone or listed with others; v1's "no limit" (the largest
// page multiple below 2^63) is none; on a hybrid host the tighter of both.
TEST(HostFactsTest, ACgroupV1LimitIsReadFromTheMemoryControllersHierarchy) {
  TempDir root;
  const std::string cg = root / "cgroup";
  WriteFact(root / "self", "12:cpu,cpuacct:/docker/abc\n4:memory:/docker/abc\n1:name=systemd:/x\n");
  WriteFact(cg + "/memory/docker/abc/memory.limit_in_bytes", "9223372036854771712\n");
  WriteFact(cg + "/memory/memory.limit_in_bytes", "9223372036854771712\n");
  EXPECT_EQ(CgroupMemoryLimit(root / "self", cg), 0u);
  WriteFact(cg + "/memory/docker/memory.limit_in_bytes", "2147483648\n");
  EXPECT_EQ(CgroupMemoryLimit(root / "self", cg), 2147483648u);
  WriteFact(root / "joint", "3:cpu,memory:/docker/abc\n");
  EXPECT_EQ(CgroupMemoryLimit(root / "joint", cg), 2147483648u);
  // A v1 memory line and a v2 line (a hybrid host): the tighter.
  WriteFact(root / "hybrid", "4:memory:/docker/abc\n0::/docker/abc\n");
  WriteFact(cg + "/docker/abc/memory.max", "1073741824\n");
  EXPECT_EQ(CgroupMemoryLimit(root / "hybrid", cg), 1073741824u);
  WriteFact(cg + "/docker/abc/memory.max", "max\n");
  EXPECT_EQ(CgroupMemoryLimit(root / "hybrid", cg), 2147483648u);
  // A controller other than memory sets no memory limit.
  WriteFact(root / "cpu-only", "12:cpu,cpuacct:/docker/abc\n");
  EXPECT_EQ(CgroupMemoryLimit(root / "cpu-only", cg), 0u);
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

// A mount table of the test's own: the mount that holds the folder is the
// longest mount point of its device that is a prefix of its real path.
TEST(HostFactsTest, TheMountOfAFolderIsItsLongestMountPoint) {
  TempDir dir;
  const std::string real = std::filesystem::canonical(dir.path()).string();
  struct stat st;
  ASSERT_EQ(::stat(real.c_str(), &st), 0);
  const std::string dev = std::to_string(major(st.st_dev)) + ":" + std::to_string(minor(st.st_dev));
  const std::string parent = std::filesystem::path(real).parent_path().string();
  const std::string table =
      "21 1 " + dev + " / / rw,relatime shared:1 - ext4 /dev/vda1 rw,errors=remount-ro\n" +
      "22 21 " + dev + " / " + parent + " rw,noatime - xfs /dev/vdb rw,attr2,noatime\n" + "23 21 " +
      dev + " / " + real + "-other rw,nosuid - tmpfs tmpfs rw\n" + "24 21 999:999 / " + real +
      " ro - btrfs /dev/vdc ro\n";
  const std::string mountinfo = dir.Write("mountinfo", table);
  const MountFacts m = ReadMountFacts(dir.File("not-yet/file"), mountinfo);
  EXPECT_EQ(m.file_system, "xfs");
  EXPECT_EQ(m.options, "rw,noatime,attr2");
  // Only the root holds it: the root's options, mount's then super block's.
  const MountFacts root =
      ReadMountFacts(real, dir.Write("root", "21 1 " + dev +
                                                 " / / rw,relatime shared:1 - ext4 /dev/vda1 "
                                                 "rw,errors=remount-ro\n"));
  EXPECT_EQ(root.file_system, "ext4");
  EXPECT_EQ(root.options, "rw,relatime,errors=remount-ro");
  EXPECT_EQ(root.source, "/dev/vda1");
  // No line of its device (a btrfs subvolume's files have a number of their
  // own): the longest mount point that holds it, of any device.
  const MountFacts subvolume = ReadMountFacts(
      real,
      dir.Write("subvolume", "24 21 0:40 / / ro - btrfs /dev/loop0 ro,compress=zstd:3\n" +
                                 std::string("25 24 0:41 / /elsewhere rw - ext4 /dev/x rw\n")));
  EXPECT_EQ(subvolume.file_system, "btrfs");
  EXPECT_EQ(subvolume.options, "ro,compress=zstd:3");
  EXPECT_EQ(subvolume.source, "/dev/loop0");
  // No mount holds it: unknown.
  const MountFacts none =
      ReadMountFacts(real, dir.Write("other", "24 21 999:999 / /elsewhere ro - btrfs x ro\n"));
  EXPECT_EQ(none.file_system, "");
  EXPECT_EQ(none.options, "");
  EXPECT_EQ(none.source, "");
}

TEST(HostFactsTest, AnEscapedMountPointIsUnescaped) {
  TempDir dir;
  const std::string spaced = dir.File("with space");
  std::filesystem::create_directory(spaced);
  const std::string real = std::filesystem::canonical(spaced).string();
  struct stat st;
  ASSERT_EQ(::stat(real.c_str(), &st), 0);
  const std::string dev = std::to_string(major(st.st_dev)) + ":" + std::to_string(minor(st.st_dev));
  std::string escaped = real;
  escaped.replace(escaped.find(' '), 1, "\\040");
  const std::string table = "21 1 " + dev + " / / rw - ext4 /dev/vda1 rw\n" + "22 21 " + dev +
                            " / " + escaped + " rw,sync - vfat /dev/sdb1 rw,fmask=0022\n";
  const MountFacts m = ReadMountFacts(real, dir.Write("mountinfo", table));
  EXPECT_EQ(m.file_system, "vfat");
  EXPECT_EQ(m.options, "rw,sync,fmask=0022");
}

TEST(HostFactsTest, TheSystemsMountTableNamesTheTempFolders) {
  TempDir dir;
  const MountFacts m = ReadMountFacts(dir.path());
  if (m.file_system.empty()) GTEST_SKIP() << "no /proc/self/mountinfo";
  EXPECT_NE(m.options.find("r"), std::string::npos) << m.options;  // rw or ro
}

}  // namespace
}  // namespace loadcell
