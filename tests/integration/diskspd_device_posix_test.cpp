// `loadcell diskspd` writing to a raw block device (a loop device): the rule
// fio's jobs follow (a device holding a signature is written only with
// --allow-destructive, one line otherwise, nothing written); a device with
// no signature is written as DiskSpd writes it.

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>

#include "testing/diskspd_run.h"
#include "testing/loop_device.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell::testing {
namespace {

std::string FirstBytes(const std::string& path, size_t n) {
  std::ifstream in(path, std::ios::binary);
  std::string out(n, '\0');
  in.read(out.data(), static_cast<std::streamsize>(n));
  return out.substr(0, static_cast<size_t>(in.gcount()));
}

TEST(DiskspdDeviceTest, WritesToADeviceFollowTheSignatureRule) {
  TempDir dir;
  LoopDevice dev(dir / "disk.img");
  ASSERT_FALSE(dev.path().empty()) << "losetup failed: " << dev.why();
  // A boot sector's mark at 510: refused without --allow-destructive.
  {
    std::fstream f(dev.path(), std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(510);
    f.write("\x55\xAA", 2);
  }
  const std::vector<std::string> write = {"-d1", "-W0", "-b64K", "-w100",
                                          "-Z",  "-B0", "-f1M",  dev.path()};
  ProcessResult r = RunDiskspd(dir, write);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("diskspd: target '" + dev.path() +
                       "' holds a DOS partition table or boot sector: -w100 destroys it; give "
                       "--allow-destructive to write to it"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(FirstBytes(dev.path(), 512).substr(510), "\x55\xAA");
  // Reads are allowed as they are.
  r = RunDiskspd(dir, {"-d1", "-W0", "-b64K", "-f1M", dev.path()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // With --allow-destructive the zeros reach the device.
  std::vector<std::string> allowed = write;
  allowed.insert(allowed.begin(), "--allow-destructive");
  r = RunDiskspd(dir, allowed);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(FirstBytes(dev.path(), 512), std::string(512, '\0'));
}

}  // namespace
}  // namespace loadcell::testing
