// DiskSpd's -ft and -Sr as Linux takes them (os/file_cache.h): -ft does
// nothing here and says so; -Sr is O_DIRECT on a network file system's
// client, refused on any other.

#include <gtest/gtest.h>

#include <string>

#include "os/file_cache.h"
#include "os/open_flags.h"
#include "testing/status.h"

namespace loadcell {
namespace {

TEST(FileCacheHints, TheTemporaryHintIsStatedAsDoingNothing) {
  Result<std::string> effect = TemporaryFileHintEffect();
  ASSERT_OK(effect);
  EXPECT_NE(effect->find("-ft: Linux has no per-file FILE_ATTRIBUTE_TEMPORARY"), std::string::npos)
      << *effect;
  EXPECT_NE(effect->find("as without it"), std::string::npos) << *effect;
}

TEST(FileCacheHints, RemoteCacheOnlyIsDirectIoOnANetworkFileSystem) {
  for (const char* type : {"nfs", "nfs4", "cifs", "smb2", "smb3"}) {
    Result<int> flags = RemoteCacheOnlyOpenFlags("/mnt/t.dat", type);
    ASSERT_OK(flags);
    EXPECT_EQ(*flags, O_DIRECT) << type;
  }
  for (const char* type : {"ext4", "xfs", "tmpfs", "overlay", "fuse", "0x1234"}) {
    Result<int> flags = RemoteCacheOnlyOpenFlags("/mnt/t.dat", type);
    ASSERT_FALSE(flags.ok()) << type;
    EXPECT_EQ(flags.status().code(), StatusCode::kFailedPrecondition);
    EXPECT_EQ(flags.status().message().rfind(std::string("is on ") + type + ", not a network", 0),
              0u)
        << flags.status().message();
  }
}

}  // namespace
}  // namespace loadcell
