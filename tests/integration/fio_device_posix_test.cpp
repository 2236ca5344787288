// `loadcell fio` on a raw block device: a loop device over an image file
// (losetup; these machines allow it as root). Read jobs run on the device as
// it is; a job that writes is refused, before anything is touched, when the
// device is mounted (fio's allow_mounted_write) or holds a signature
// (loadcell's --allow-destructive), and runs otherwise; its trims are
// discards.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "testing/fio_run.h"
#include "testing/loop_device.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"
#include "testing/verdict_run.h"

namespace loadcell::testing {
namespace {

TEST(FioDeviceTest, ReadJobsRunOnALoopDevice) {
  TempDir dir;
  LoopDevice dev(dir / "disk.img");
  ASSERT_FALSE(dev.path().empty()) << "losetup failed: " << dev.why();
  ChildWatch w;
  w.cwd = dir.path();
  ProcessResult r = RunLoadcell(
      {"fio", "--output-format=json", "--name=d", "--filename=" + dev.path(), "--rw=randread",
       "--bs=4k", "--direct=1", "--ioengine=libaio", "--iodepth=8", "--number_ios=1000"},
      w);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"total_ios\": 1000"), std::string::npos) << r.out;
  // disk_util names the loop device itself, which did the 1000 direct reads.
  const std::string name = dev.path().substr(dev.path().rfind('/') + 1);
  EXPECT_NE(r.out.find("\"name\": \"" + name + "\""), std::string::npos) << r.out;
  // The whole device's size is the region: 64 MiB without size=.
  r = RunLoadcell({"fio", "--output-format=json", "--name=s", "--filename=" + dev.path(),
                   "--rw=read", "--bs=1m"},
                  w);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"io_bytes\": 67108864"), std::string::npos) << r.out;
}

// The first `n` bytes of the device.
std::string DeviceBytes(const std::string& path, size_t n) {
  std::ifstream in(path, std::ios::binary);
  std::string out(n, '\0');
  in.read(out.data(), static_cast<std::streamsize>(n));
  return out.substr(0, static_cast<size_t>(in.gcount()));
}

// The kernel's count of the device's discards (requests, sectors):
// /sys/block/NAME/stat's 12th and 14th fields.
std::pair<uint64_t, uint64_t> Discards(const std::string& device) {
  std::ifstream in("/sys/block/" + device.substr(device.rfind('/') + 1) + "/stat");
  std::vector<uint64_t> f;
  for (uint64_t v = 0; in >> v;) f.push_back(v);
  return f.size() > 13 ? std::make_pair(f[11], f[13]) : std::make_pair(uint64_t{0}, uint64_t{0});
}

TEST(FioDeviceTest, WritesAndTrimsOnADeviceFollowTheMountAndSignatureRules) {
  TempDir dir;
  LoopDevice dev(dir / "disk.img");
  ASSERT_FALSE(dev.path().empty()) << "losetup failed: " << dev.why();
  ChildWatch w;
  w.cwd = dir.path();
  const std::vector<std::string> write = {
      "fio",      "--name=w",  "--filename=" + dev.path(), "--rw=write",
      "--bs=64k", "--size=1m", "--buffer_pattern=0x41"};
  // A device holding nothing loadcell knows: written as fio writes it.
  ProcessResult r = RunLoadcell(write, w);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(DeviceBytes(dev.path(), 4096), std::string(4096, 'A'));

  // A trim is a discard (BLKDISCARD), as fio's: `rw=trim bs=64k size=1m` is
  // 16 discards of 2048 sectors in all in both tools, and the loop device
  // reads zeros there afterwards.
  const auto before = Discards(dev.path());
  r = RunLoadcell({"fio", "--output-format=json", "--name=t", "--filename=" + dev.path(),
                   "--rw=trim", "--bs=64k", "--size=1m"},
                  w);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"total_ios\": 16"), std::string::npos) << r.out;
  const auto after = Discards(dev.path());
  EXPECT_EQ(after.first - before.first, 16u);
  EXPECT_EQ(after.second - before.second, 2048u);
  EXPECT_EQ(DeviceBytes(dev.path(), 4096), std::string(4096, '\0'));
  ASSERT_EQ(RunLoadcell(write, w).exit_code, 0);

  // A boot sector's mark: refused without --allow-destructive, nothing written.
  {
    std::fstream f(dev.path(), std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(510);
    f.write("\x55\xAA", 2);
  }
  std::vector<std::string> zeros = write;
  zeros.back() = "--zero_buffers";
  r = RunLoadcell(zeros, w);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("command line argument 2: " + dev.path() +
                       " holds a DOS partition table or boot sector: a job that writes to it "
                       "destroys that; loadcell writes to such a device only with "
                       "--allow-destructive"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(DeviceBytes(dev.path(), 4096)[0], 'A');
  // Trims change the device as writes do.
  r = RunLoadcell({"fio", "--name=t", "--filename=" + dev.path(), "--rw=trim", "--size=1m"}, w);
  EXPECT_EQ(r.exit_code, 2) << r.err;

  zeros.push_back("--allow-destructive");
  r = RunLoadcell(zeros, w);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(DeviceBytes(dev.path(), 4096), std::string(4096, '\0'));
}

TEST(FioDeviceTest, AMountedDeviceNeedsAllowMountedWrite) {
  TempDir dir;
  LoopDevice dev(dir / "disk.img");
  ASSERT_FALSE(dev.path().empty()) << "losetup failed: " << dev.why();
  if (RunCommand({"mkfs.ext4", "-q", "-F", dev.path()}, ChildWatch{}).exit_code != 0) {
    GTEST_SKIP() << "mkfs.ext4 is not here";
  }
  const std::string mnt = dir / "mnt";
  std::filesystem::create_directory(mnt);
  if (RunCommand({"mount", dev.path(), mnt}, ChildWatch{}).exit_code != 0) {
    GTEST_SKIP() << "cannot mount here";
  }
  ChildWatch w;
  w.cwd = dir.path();
  const std::vector<std::string> write = {"fio", "--name=w", "--filename=" + dev.path(),
                                          "--rw=write", "--size=1m"};
  ProcessResult r = RunLoadcell(write, w);
  std::vector<std::string> allowed = write;
  allowed.push_back("--allow_mounted_write=1");
  ProcessResult r2 = RunLoadcell(allowed, w);
  (void)RunCommand({"umount", mnt}, ChildWatch{});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(dev.path() + " is mounted (" + dev.path() + " on " + mnt +
                       "): a job that writes to it would corrupt that file system; fio's "
                       "allow_mounted_write=1 allows it"),
            std::string::npos)
      << r.err;
  // fio's option is not enough: the file system on it is loadcell's rule.
  EXPECT_EQ(r2.exit_code, 2);
  EXPECT_NE(r2.err.find("holds an ext2/3/4 file system"), std::string::npos) << r2.err;
}

// A device named as the file is the device the verdict counts (not the
// file system /dev is on): a buffered read of it, its cache dropped first
// (fio's invalidate), reaches it; reading the same blocks again for a
// second comes from the page cache (docs/validity.md, device-reads).
TEST(FioDeviceTest, TheVerdictCountsTheDeviceItselfWhenItIsTheFile) {
  TempDir dir;
  LoopDevice dev(dir / "disk.img");
  ASSERT_FALSE(dev.path().empty()) << "losetup failed: " << dev.why();
  ChildWatch w;
  w.cwd = dir.path();
  const std::string name = dev.path().substr(dev.path().rfind('/') + 1);
  // The device-reads check of a buffered random read of the device's first
  // 4 MiB, with `extra`: at `level`, naming the device.
  const auto expect_device_reads = [&](std::vector<std::string> extra, const char* level) {
    std::vector<std::string> args = {"fio",           "--output-format=json",     "--name=b",
                                     "--bs=4k",       "--filename=" + dev.path(), "--size=4m",
                                     "--rw=randread", "--ioengine=psync"};
    args.insert(args.end(), extra.begin(), extra.end());
    const ProcessResult r = RunLoadcell(args, w);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json jobs = FioJsonJobs(r);
    ASSERT_EQ(jobs.size(), 1u) << r.out;
    const nlohmann::json c = VerdictCheckOf(jobs[0]["loadcell"], "device-reads");
    ASSERT_FALSE(c.is_null()) << r.out;
    EXPECT_EQ(c["level"], level) << c.dump();
    EXPECT_NE(c["seen"].get<std::string>().find("the device (" + name + ") read "),
              std::string::npos)
        << c.dump();
  };
  expect_device_reads({}, "pass");  // every block once, from the device
  // 64 MiB asked of the same 4 MiB: the device reads them once, with its
  // read-ahead (16 MiB asked read over half of it here), however slow a
  // loaded machine is (a 1 s time_based run read too little on one).
  expect_device_reads({"--io_size=64m"}, "invalid");
}

}  // namespace
}  // namespace loadcell::testing
