// FileSystem::PReadV/PWriteV of whole aligned pages on a file opened
// unbuffered and write-through, as dbsim's read-ahead and checkpoint issue
// them: preadv/pwritev on POSIX, one ReadFileScatter/WriteFileGather on
// Windows (os/win32_scatter_gather.h); buffers not page-aligned go one
// slice at a time there. The bytes read back are the bytes written, in
// place, whichever way they went.
#include <fcntl.h>
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/pages.h"
#include "os/file_system.h"
#include "os/open_flags.h"
#include "testing/status.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

constexpr size_t kScatterPage = 8192;  // dbsim's page: two system pages
constexpr size_t kScatterPages = 4;

struct AlignedFree {
  void operator()(void* p) const { FreeAligned(p); }
};
using AlignedBuffer = std::unique_ptr<uint8_t, AlignedFree>;

AlignedBuffer Aligned(size_t bytes) {
  return AlignedBuffer(static_cast<uint8_t*>(AllocateAligned(4096, bytes)));
}

// Unbuffered I/O needs a file system that takes it: the build tree, not a
// tmpfs /tmp.
TEST(FileSystemScatter, WholeAlignedPagesGatheredAndScatteredUnbuffered) {
  testing::TempDir dir(testing::BuildTree());
  FileSystem& fs = DefaultFileSystem();
  auto fd = fs.Open(dir.File("pages"), O_RDWR | O_CREAT | O_EXCL | O_DIRECT | O_DSYNC);
  ASSERT_OK(fd.status());
  AlignedBuffer out = Aligned(kScatterPage * kScatterPages);
  AlignedBuffer in = Aligned(kScatterPage * kScatterPages);
  for (size_t i = 0; i < kScatterPage * kScatterPages; ++i) {
    out.get()[i] = static_cast<uint8_t>(i * 31 + i / kScatterPage);
  }
  std::vector<IoSlice> writes;
  std::vector<IoSlice> reads;
  // In reverse order in memory: each slice lands at its own place in the file.
  for (size_t p = 0; p < kScatterPages; ++p) {
    writes.push_back({out.get() + (kScatterPages - 1 - p) * kScatterPage, kScatterPage});
    reads.push_back({in.get() + (kScatterPages - 1 - p) * kScatterPage, kScatterPage});
  }
  const uint64_t native_before = NativeScatterGatherCalls();
  auto wrote = fs.PWriteV(*fd, writes, kScatterPage);  // from the file's second page
  ASSERT_OK(wrote.status());
  EXPECT_EQ(*wrote, kScatterPage * kScatterPages);
  std::memset(in.get(), 0, kScatterPage * kScatterPages);
  auto read = fs.PReadV(*fd, reads, kScatterPage);
  ASSERT_OK(read.status());
  EXPECT_EQ(*read, kScatterPage * kScatterPages);
  // Each went to the system as one call (pwritev and preadv; WriteFileGather
  // and ReadFileScatter), not one per slice.
  EXPECT_EQ(NativeScatterGatherCalls() - native_before, 2u);
  EXPECT_EQ(std::memcmp(in.get(), out.get(), kScatterPage * kScatterPages), 0);
  // One page alone, read back through the one-call read.
  auto one = fs.PRead(*fd, in.get(), kScatterPage, 2 * kScatterPage);
  ASSERT_OK(one.status());
  EXPECT_EQ(*one, kScatterPage);
  EXPECT_EQ(std::memcmp(in.get(), out.get() + (kScatterPages - 2) * kScatterPage, kScatterPage), 0);
  // Past the end: nothing.
  auto past = fs.PReadV(*fd, std::vector<IoSlice>(reads.begin(), reads.begin() + 1),
                        kScatterPage * (kScatterPages + 4));
  ASSERT_OK(past.status());
  EXPECT_EQ(*past, 0u);
  EXPECT_OK(fs.Close(*fd));
}

// Buffered, with slices not page-aligned: one call per slice on Windows.
TEST(FileSystemScatter, UnalignedSlicesOfABufferedFile) {
  testing::TempDir dir;
  FileSystem& fs = DefaultFileSystem();
  auto fd = fs.Open(dir.File("bytes"), O_RDWR | O_CREAT | O_EXCL);
  ASSERT_OK(fd.status());
  std::string a = "first slice, ";
  std::string b = "then the second";
  std::vector<IoSlice> writes = {{a.data(), a.size()}, {b.data(), b.size()}};
  const uint64_t native_before = NativeScatterGatherCalls();
  auto wrote = fs.PWriteV(*fd, writes, 3);
  ASSERT_OK(wrote.status());
  EXPECT_EQ(*wrote, a.size() + b.size());
  std::string x(5, '.');
  std::string y(a.size() + b.size() - 5, '.');
  std::vector<IoSlice> reads = {{x.data(), x.size()}, {y.data(), y.size()}};
  auto read = fs.PReadV(*fd, reads, 3);
  ASSERT_OK(read.status());
  EXPECT_EQ(*read, a.size() + b.size());
  EXPECT_EQ(x + y, a + b);
  // POSIX: preadv and pwritev take any slices; Windows: one call per slice.
#ifdef _WIN32
  EXPECT_EQ(NativeScatterGatherCalls() - native_before, 0u);
#else
  EXPECT_EQ(NativeScatterGatherCalls() - native_before, 2u);
#endif
  EXPECT_OK(fs.Close(*fd));
}

}  // namespace
}  // namespace loadcell
