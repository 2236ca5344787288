// DiskSpd's -ft and -Sr as Linux takes them (os/file_cache.h): -ft does
// nothing here and says so; -Sr is O_DIRECT on a network file system's
// client, refused on any other. -fr/-fs's posix_fadvise seen in the
// kernel's readahead.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <string>
#include <vector>

#include "os/file_cache.h"
#include "os/open_flags.h"
#include "testing/status.h"
#include "testing/temp_dir.h"

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

// The pages of the first `bytes` of `fd` in the page cache.
size_t ResidentPages(int fd, size_t bytes) {
  void* map = mmap(nullptr, bytes, PROT_READ, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) return SIZE_MAX;
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> in((bytes + page - 1) / page);
  size_t n = SIZE_MAX;
  if (mincore(map, bytes, in.data()) == 0) {
    n = 0;
    for (unsigned char c : in) n += c & 1;
  }
  munmap(map, bytes);
  return n;
}

// Reads the first 4 KiB of `path` with nothing of it cached, after
// AdviseFileAccess(`hint`): the pages it brought into the cache (readahead
// included); SIZE_MAX when the page cache cannot be emptied here.
size_t PagesReadFor(const std::string& path, FileAccessHint hint) {
  const int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0) return SIZE_MAX;
  constexpr size_t kBytes = 1 << 20;
  size_t got = SIZE_MAX;
  if (DropCachedPages(fd).ok() && ResidentPages(fd, kBytes) == 0) {
    EXPECT_OK(AdviseFileAccess(fd, hint));
    std::string buf(4096, '\0');
    if (pread(fd, buf.data(), buf.size(), 0) == 4096) got = ResidentPages(fd, kBytes);
  }
  close(fd);
  return got;
}

TEST(FileCacheHints, RandomAccessHintTurnsReadaheadOff) {
  testing::TempDir dir;
  const std::string path = dir.Write("ra.dat", std::string(1 << 20, 'r'));
  const size_t plain = PagesReadFor(path, FileAccessHint::kNone);
  if (plain == SIZE_MAX) GTEST_SKIP() << "the page cache of this file cannot be emptied here";
  // Without a hint the kernel reads ahead of the first page; -fr's
  // POSIX_FADV_RANDOM reads only the page asked for; -fs's sequential
  // hint reads ahead at least as far.
  EXPECT_GT(plain, 1u);
  EXPECT_EQ(PagesReadFor(path, FileAccessHint::kRandom), 1u);
  EXPECT_GE(PagesReadFor(path, FileAccessHint::kSequential), plain);
}

TEST(FileCacheHints, AccessHintOnABadDescriptorNamesTheCall) {
  // kNone calls nothing; a hint does, and its failure names posix_fadvise.
  EXPECT_OK(AdviseFileAccess(-1, FileAccessHint::kNone));
  Status st = AdviseFileAccess(-1, FileAccessHint::kSequential);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("posix_fadvise"), std::string::npos) << st.message();
  EXPECT_TRUE(FileAccessHintsSupported());
}

}  // namespace
}  // namespace loadcell
