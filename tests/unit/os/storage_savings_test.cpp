// What the storage under a file says of its own compression
// (os/storage_savings.h), through the parse seam: a mount's file system and
// options, and the file's compression attribute.

#include "os/storage_savings.h"

#include <gtest/gtest.h>

namespace loadcell {
namespace {

TEST(StorageSavingsTest, BtrfsCompressesWithItsMountOptionOrTheFilesAttribute) {
  StorageSavings s = SavingsOf({"btrfs", "rw,relatime,compress=zstd:3,space_cache=v2", ""}, false);
  EXPECT_TRUE(s.known);
  EXPECT_TRUE(s.compresses);
  EXPECT_EQ(s.how, "btrfs mounted with compress=zstd:3");
  s = SavingsOf({"btrfs", "rw,compress-force=lzo", ""}, false);
  EXPECT_TRUE(s.compresses);
  EXPECT_EQ(s.how, "btrfs mounted with compress-force=lzo");
  // compress=no compresses nothing; the file's attribute (chattr +c) does.
  s = SavingsOf({"btrfs", "rw,compress=no", ""}, false);
  EXPECT_TRUE(s.known);
  EXPECT_FALSE(s.compresses);
  s = SavingsOf({"btrfs", "rw,compress=no", ""}, true);
  EXPECT_TRUE(s.compresses);
  EXPECT_NE(s.how.find("compression attribute"), std::string::npos) << s.how;
  // A bare "compress" is zlib's.
  EXPECT_TRUE(SavingsOf({"btrfs", "rw,compress", ""}, false).compresses);
}

TEST(StorageSavingsTest, ZfsMayExt4AndOthersDoNotAnUnknownMountSaysNothing) {
  StorageSavings s = SavingsOf({"zfs", "rw,xattr,noacl", ""}, false);
  EXPECT_TRUE(s.compresses);
  EXPECT_NE(s.how.find("may compress or deduplicate"), std::string::npos) << s.how;
  // ext4 keeps chattr +c but compresses nothing.
  s = SavingsOf({"ext4", "rw,relatime", ""}, true);
  EXPECT_TRUE(s.known);
  EXPECT_FALSE(s.compresses);
  EXPECT_EQ(s.how, "ext4: does not compress");
  EXPECT_FALSE(SavingsOf({"xfs", "rw,compress=zstd", ""}, false).compresses);
  // f2fs compresses the files flagged, when mounted with an algorithm.
  EXPECT_TRUE(SavingsOf({"f2fs", "rw,compress_algorithm=lz4", ""}, true).compresses);
  EXPECT_FALSE(SavingsOf({"f2fs", "rw,compress_algorithm=lz4", ""}, false).compresses);
  EXPECT_FALSE(SavingsOf({"f2fs", "rw", ""}, true).compresses);
  EXPECT_FALSE(SavingsOf({"", "", ""}, true).known);
}

}  // namespace
}  // namespace loadcell
