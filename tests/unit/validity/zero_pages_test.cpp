// The sampling of zero pages in the files a run read (validity/zero_pages.h):
// where the pages are taken, and real files read through the file system:
// one of zeros, one of other bytes, one with a single zero page, one
// sized without data (std::filesystem::resize_file: ftruncate here,
// SetEndOfFile on Windows).

#include "validity/zero_pages.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "testing/temp_dir.h"

namespace loadcell::validity {
namespace {

using testing::TempDir;

TEST(ZeroPagesTest, OffsetsSpreadOverTheFileAlignedToPages) {
  EXPECT_EQ(ZeroSampleOffsets(16 * 4096, 4), (std::vector<uint64_t>{0, 16384, 32768, 49152}));
  // A file of fewer pages than asked: each page once; a partial last page
  // is a page.
  EXPECT_EQ(ZeroSampleOffsets(2 * 4096 + 100, 8), (std::vector<uint64_t>{0, 4096, 8192}));
  EXPECT_TRUE(ZeroSampleOffsets(0, 8).empty());
}

TEST(ZeroPagesTest, FilesOfZerosAndFilesSizedWithoutDataAreFoundOthersNot) {
  TempDir dir;
  const std::string zeros = dir.Write("zeros", std::string(64 * 1024, '\0'));
  const std::string data = dir.Write("data", std::string(64 * 1024, 'x'));
  std::string one = std::string(64 * 1024, 'y');
  std::fill(one.begin(), one.begin() + 4096, '\0');  // the first page only
  const std::string first = dir.Write("first", one);
  const std::string sized = dir.Write("sized", "");
  std::filesystem::resize_file(sized, 64 * 1024);

  ZeroPageSample s = SampleZeroPages(DefaultFileSystem(), {data});
  EXPECT_TRUE(s.unknown.empty()) << s.unknown;
  EXPECT_EQ(s.sampled, 16u);  // 64 KiB holds 16 of the 64 pages asked
  EXPECT_EQ(s.zero, 0u);
  EXPECT_TRUE(s.files.empty());

  s = SampleZeroPages(DefaultFileSystem(), {zeros, data, first, sized});
  EXPECT_EQ(s.sampled, 64u);  // 16 from each
  EXPECT_EQ(s.zero, 16u + 1u + 16u);
  EXPECT_EQ(s.files, (std::vector<std::string>{zeros, first, sized}));

  // A missing file cannot be sampled: skipped, as a device would be.
  s = SampleZeroPages(DefaultFileSystem(), {dir.File("missing")});
  EXPECT_EQ(s.sampled, 0u);
}

}  // namespace
}  // namespace loadcell::validity
