// os/block_device.h SignatureOf: what a device's first bytes say it holds.

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "os/block_device.h"

namespace loadcell {
namespace {

std::string Signature(size_t at, const std::string& magic) {
  std::vector<unsigned char> data(kSignatureBytes, 0);
  std::memcpy(data.data() + at, magic.data(), magic.size());
  return SignatureOf(data.data(), data.size());
}

TEST(DeviceSignatureTest, KnowsPartitionTablesAndFileSystems) {
  EXPECT_EQ(Signature(512, "EFI PART"), "a GPT partition table");
  EXPECT_EQ(Signature(1080, "\x53\xEF"), "an ext2/3/4 file system");
  EXPECT_EQ(Signature(0, "XFSB"), "an XFS file system");
  EXPECT_EQ(Signature(65600, "_BHRfS_M"), "a btrfs file system");
  EXPECT_EQ(Signature(4086, "SWAPSPACE2"), "a swap area");
  EXPECT_EQ(Signature(510, "\x55\xAA"), "a DOS partition table or boot sector");
  EXPECT_EQ(Signature(512, "LABELONE"), "an LVM2 physical volume");
}

TEST(DeviceSignatureTest, ZerosAndShortReadsHoldNothing) {
  std::vector<unsigned char> zeros(kSignatureBytes, 0);
  EXPECT_EQ(SignatureOf(zeros.data(), zeros.size()), "");
  // A magic past the bytes read is not seen.
  std::vector<unsigned char> data(kSignatureBytes, 0);
  std::memcpy(data.data() + 65600, "_BHRfS_M", 8);
  EXPECT_EQ(SignatureOf(data.data(), 4096), "");
  // The ext magic one byte off is not the ext magic.
  EXPECT_EQ(Signature(1081, "\x53\xEF"), "");
}

}  // namespace
}  // namespace loadcell
