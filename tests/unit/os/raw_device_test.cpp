// os/raw_device.h: how a Windows raw device (\\.\PhysicalDriveN, \\.\E:) is
// opened, sized and read, driven through a fake of the system's calls that
// records them.

#include "os/raw_device.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "os/block_device.h"

namespace loadcell {
namespace {

// Devices by name, each its length and first bytes; every call recorded.
class FakeDeviceCalls final : public RawDeviceCalls {
 public:
  struct Device {
    uint64_t length = 0;
    std::string start;  // its first bytes (zeros after)
    Status open_error;
    Status length_error;
  };
  std::map<std::string, Device> devices;
  std::vector<std::string> calls;
  int open_handles = 0;

  Result<intptr_t> OpenForRead(const std::string& device) override {
    calls.push_back("open " + device);
    auto d = devices.find(device);
    if (d == devices.end()) return Status::NotFound("CreateFileW: The system cannot find the file");
    if (!d->second.open_error.ok()) return d->second.open_error;
    ++open_handles;
    handles_.push_back(&d->second);
    return static_cast<intptr_t>(handles_.size());
  }
  Result<uint64_t> Length(intptr_t handle) override {
    calls.push_back("length");
    const Device& d = *handles_.at(static_cast<size_t>(handle - 1));
    if (!d.length_error.ok()) return d.length_error;
    return d.length;
  }
  // Reads as a device does: up to its length, nothing past it.
  Result<size_t> ReadAt(intptr_t handle, void* buf, size_t len, uint64_t offset) override {
    calls.push_back("read " + std::to_string(len) +
                    (offset == 0 ? "" : " at " + std::to_string(offset)));
    const Device& d = *handles_.at(static_cast<size_t>(handle - 1));
    if (offset >= d.length) return size_t{0};
    std::memset(buf, 0, len);
    if (offset < d.start.size()) {
      std::memcpy(buf, d.start.data() + offset, std::min<size_t>(len, d.start.size() - offset));
    }
    return static_cast<size_t>(std::min<uint64_t>(len, d.length - offset));
  }
  void Close(intptr_t) override {
    calls.push_back("close");
    --open_handles;
  }

 private:
  std::vector<Device*> handles_;
};

TEST(RawDeviceTest, KnowsWindowsDevicePaths) {
  EXPECT_TRUE(IsRawDevicePath("\\\\.\\PhysicalDrive0"));
  EXPECT_TRUE(IsRawDevicePath("\\\\.\\E:"));
  EXPECT_TRUE(IsRawDevicePath("//./E:"));
  EXPECT_FALSE(IsRawDevicePath("\\\\.\\"));
  EXPECT_FALSE(IsRawDevicePath("C:\\data\\t.dat"));
  EXPECT_FALSE(IsRawDevicePath("\\\\server\\share\\t.dat"));
  EXPECT_FALSE(IsRawDevicePath("/dev/sdb"));
}

TEST(RawDeviceTest, SizesADriveByItsLengthAndClosesIt) {
  FakeDeviceCalls fake;
  fake.devices["\\\\.\\PhysicalDrive1"].length = uint64_t{480} << 30;
  Result<uint64_t> bytes = RawDeviceBytes(fake, "\\\\.\\PhysicalDrive1");
  ASSERT_TRUE(bytes.ok()) << bytes.status().message();
  EXPECT_EQ(*bytes, uint64_t{480} << 30);
  EXPECT_EQ(fake.calls,
            (std::vector<std::string>{"open \\\\.\\PhysicalDrive1", "length", "close"}));
  EXPECT_EQ(fake.open_handles, 0);
}

TEST(RawDeviceTest, EachFailureIsOneLineNamingTheDevice) {
  FakeDeviceCalls fake;
  Result<uint64_t> missing = RawDeviceBytes(fake, "\\\\.\\PhysicalDrive7");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(), "\\\\.\\PhysicalDrive7: no such device on this system");

  fake.devices["\\\\.\\E:"].open_error =
      Status::FailedPrecondition("CreateFileW: Access is denied");
  Result<uint64_t> denied = RawDeviceBytes(fake, "\\\\.\\E:");
  ASSERT_FALSE(denied.ok());
  EXPECT_NE(denied.status().message().find("\\\\.\\E:: cannot open it"), std::string::npos);
  EXPECT_NE(denied.status().message().find("administrator"), std::string::npos);
  EXPECT_NE(denied.status().message().find("Access is denied"), std::string::npos);

  fake.devices["\\\\.\\F:"].length_error = Status::IoError("IOCTL_DISK_GET_LENGTH_INFO: bad");
  Result<uint64_t> unsized = RawDeviceBytes(fake, "\\\\.\\F:");
  ASSERT_FALSE(unsized.ok());
  EXPECT_EQ(unsized.status().message(),
            "\\\\.\\F:: cannot ask its length: IOCTL_DISK_GET_LENGTH_INFO: bad");
  EXPECT_EQ(fake.open_handles, 0);  // closed after the failed question too
  for (const std::string& m :
       {missing.status().message(), denied.status().message(), unsized.status().message()}) {
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  }
}

// A driver that takes no length request (Wine's, for a device a drive
// letter maps to) has the device's end found by reads: the last whole 4 KiB
// block, in about 2 x log2(blocks) reads, the handle closed after.
TEST(RawDeviceTest, ADeviceWithNoLengthRequestIsSizedByReads) {
  FakeDeviceCalls fake;
  for (const uint64_t length : {uint64_t{4096}, uint64_t{64} << 20, (uint64_t{64} << 20) + 4096,
                                (uint64_t{480} << 30) - 8192}) {
    FakeDeviceCalls::Device& d = fake.devices["\\\\.\\Q:"];
    d.length = length;
    d.length_error = Status::IoError("IOCTL_DISK_GET_LENGTH_INFO: Request not supported");
    fake.calls.clear();
    Result<uint64_t> bytes = RawDeviceBytes(fake, "\\\\.\\Q:");
    ASSERT_TRUE(bytes.ok()) << bytes.status().message();
    EXPECT_EQ(*bytes, length);
    EXPECT_EQ(fake.open_handles, 0);
    EXPECT_LT(fake.calls.size(), 2u * 40 + 4) << length;
  }
  // A length that is no whole number of blocks: its last whole block.
  FakeDeviceCalls::Device& odd = fake.devices["\\\\.\\Q:"];
  odd.length = (uint64_t{1} << 20) + 512;
  Result<uint64_t> bytes = RawDeviceBytes(fake, "\\\\.\\Q:");
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(*bytes, uint64_t{1} << 20);
  // The signature reads the start of a device sized so.
  odd.start = std::string(3, '\xEB') + "NTFS    ";
  Result<std::string> sig = RawDeviceSignature(fake, "\\\\.\\Q:");
  ASSERT_TRUE(sig.ok()) << sig.status().message();
  EXPECT_EQ(*sig, "an NTFS file system");
}

TEST(RawDeviceTest, ReadsTheSignatureFromTheDevicesFirstBytes) {
  FakeDeviceCalls fake;
  FakeDeviceCalls::Device& ntfs = fake.devices["\\\\.\\E:"];
  ntfs.length = uint64_t{1} << 30;
  ntfs.start = std::string(3, '\xEB') + "NTFS    ";
  Result<std::string> sig = RawDeviceSignature(fake, "\\\\.\\E:");
  ASSERT_TRUE(sig.ok()) << sig.status().message();
  EXPECT_EQ(*sig, "an NTFS file system");
  EXPECT_EQ(fake.calls,
            (std::vector<std::string>{"open \\\\.\\E:", "length",
                                      "read " + std::to_string(kSignatureBytes), "close"}));
  // A blank drive holds nothing; one shorter than the signatures' bytes is
  // read whole, no further.
  fake.calls.clear();
  fake.devices["\\\\.\\PhysicalDrive2"].length = 4096;
  sig = RawDeviceSignature(fake, "\\\\.\\PhysicalDrive2");
  ASSERT_TRUE(sig.ok());
  EXPECT_EQ(*sig, "");
  EXPECT_EQ(fake.calls[2], "read 4096");
  EXPECT_EQ(fake.open_handles, 0);
}

}  // namespace
}  // namespace loadcell
