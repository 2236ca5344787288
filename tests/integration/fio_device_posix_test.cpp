// `loadcell fio` on a raw block device: a loop device over an image file
// (losetup; these machines allow it as root). Read jobs run on the device as
// it is; a write job is refused before anything is touched.

#include <gtest/gtest.h>

#include <fstream>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell::testing {
namespace {

class LoopDevice {
 public:
  explicit LoopDevice(const std::string& image) {
    { std::ofstream(image, std::ios::binary).seekp((64 << 20) - 1).put('x'); }
    ProcessResult r = RunCommand({"losetup", "-f", "--show", image}, ChildWatch{});
    if (r.exit_code == 0 && !r.out.empty()) path_ = r.out.substr(0, r.out.find('\n'));
    why_ = r.err;
  }
  ~LoopDevice() {
    if (!path_.empty()) (void)RunCommand({"losetup", "-d", path_}, ChildWatch{});
  }
  const std::string& path() const { return path_; }
  const std::string& why() const { return why_; }

 private:
  std::string path_;
  std::string why_;
};

TEST(FioDeviceTest, ReadJobsRunOnALoopDeviceAndWritesAreRefused) {
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

  r = RunLoadcell({"fio", "--name=w", "--filename=" + dev.path(), "--rw=write", "--size=1m"}, w);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("is a block device: writing to a device is not supported"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace loadcell::testing
