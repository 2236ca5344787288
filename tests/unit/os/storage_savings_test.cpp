// What the storage under a file says of its own compression
// (os/storage_savings.h), through the parse seam: a mount's file system and
// options, and the file's compression attribute; a ZFS dataset's properties
// through the command seam, a fake zfs standing for the tool.

#include "os/storage_savings.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

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

// A fake `zfs` that answers `answer` (or fails with `failure`) and keeps
// the command it was given.
struct FakeZfs {
  explicit FakeZfs(std::string a, Status f = Status::Ok())
      : answer(std::move(a)), failure(std::move(f)) {}
  std::string answer;
  Status failure;
  std::vector<std::string> asked;
  CommandRunner Runner() {
    return [this](const std::vector<std::string>& argv) -> Result<std::string> {
      asked = argv;
      if (!failure.ok()) return failure;
      return answer;
    };
  }
};

TEST(StorageSavingsTest, ZfsDatasetPropertiesAreReadThroughTheZfsCommand) {
  FakeZfs zfs("lz4\noff\n");
  StorageSavings s = ZfsSavings("tank/bench", zfs.Runner());
  EXPECT_EQ(zfs.asked, (std::vector<std::string>{"zfs", "get", "-H", "-o", "value",
                                                 "compression,dedup", "tank/bench"}));
  EXPECT_TRUE(s.known);
  EXPECT_TRUE(s.compresses);
  EXPECT_EQ(s.how, "zfs dataset tank/bench with compression=lz4, dedup=off");
  // Dedup alone saves too.
  zfs.answer = "off\nsha256,verify\n";
  s = ZfsSavings("tank/bench", zfs.Runner());
  EXPECT_TRUE(s.compresses);
  EXPECT_EQ(s.how, "zfs dataset tank/bench with compression=off, dedup=sha256,verify");
  // Both off: known, and nothing saved.
  zfs.answer = "off\noff\n";
  s = ZfsSavings("tank/bench", zfs.Runner());
  EXPECT_TRUE(s.known);
  EXPECT_FALSE(s.compresses);
  EXPECT_EQ(s.how, "zfs dataset tank/bench with compression=off, dedup=off");
}

TEST(StorageSavingsTest, ZfsPropertiesNotReadSayWhyAndThatTheDatasetMaySave) {
  FakeZfs missing("", Status::NotFound("zfs could not run: No such file or directory"));
  StorageSavings s = ZfsSavings("tank/bench", missing.Runner());
  EXPECT_TRUE(s.known);
  EXPECT_TRUE(s.compresses);
  EXPECT_EQ(s.how,
            "zfs dataset tank/bench may compress or deduplicate; its compression and dedup were "
            "not read: zfs could not run: No such file or directory");
  FakeZfs odd("-\n");
  s = ZfsSavings("tank/bench", odd.Runner());
  EXPECT_TRUE(s.compresses);
  EXPECT_NE(s.how.find("were not read: zfs get answered \"-\", not two values"), std::string::npos)
      << s.how;
  FakeZfs unasked("off\noff\n");
  s = ZfsSavings("", unasked.Runner());
  EXPECT_TRUE(unasked.asked.empty());
  EXPECT_NE(s.how.find("the mount names no dataset"), std::string::npos) << s.how;
}

}  // namespace
}  // namespace loadcell
