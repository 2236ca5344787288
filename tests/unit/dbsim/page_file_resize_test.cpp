// A data file that shrinks and grows while it is used (SQLIOSim's shrink
// user), and a sparse one: a page shrunk away is gone (never read, never a
// failure), a page grown back is a newer version than any it held, a hole
// of a sparse file is its content until written (docs/dbsim.md).
#include <fcntl.h>
#include <gtest/gtest.h>

#include <memory>
#include <span>
#include <vector>

#include "dbsim/page_file.h"
#include "dbsim/page_format.h"
#include "testing/status.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

constexpr uint32_t kResizePageBytes = 4096;

class DbResizeTest : public ::testing::Test {
 protected:
  // A file of `pages` live pages that may grow to `capacity`.
  void Make(uint64_t pages, uint64_t capacity, bool sparse) {
    auto fd = DefaultFileSystem().Open(dir_ / "data.mdf", O_RDWR | O_CREAT | O_EXCL);
    ASSERT_OK(fd.status());
    fd_ = fd.value();
    DbPageFileSettings settings;
    settings.file_id = 2;
    settings.page_size = kResizePageBytes;
    settings.pages = pages;
    settings.capacity = capacity;
    settings.run_seed = 7;
    settings.sparse = sparse;
    file_ = std::make_unique<DbPageFile>(DefaultFileSystem(), fd_, settings);
    if (sparse) {
      ASSERT_OK(DefaultFileSystem().Truncate(fd_, pages * kResizePageBytes));
    } else {
      ASSERT_OK(file_->StampAll(buf_));
    }
  }
  void TearDown() override {
    if (fd_ >= 0) {
      EXPECT_OK(DefaultFileSystem().Close(fd_));
    }
  }
  Result<DbPageCheck> Read(uint64_t page) { return file_->ReadPage(page, buf_, ++serial_, 0); }
  uint64_t FileBytes() {
    auto info = DefaultFileSystem().Fstat(fd_);
    EXPECT_OK(info.status());
    return info.ok() ? info->size : 0;
  }

  testing::TempDir dir_;
  int fd_ = -1;
  std::unique_ptr<DbPageFile> file_;
  std::vector<uint8_t> buf_ = std::vector<uint8_t>(kResizePageBytes);
  uint64_t serial_ = 0;
};

// The I/O's own span: set around each read and write call that was made
// (within the call's own time), both 0 for a page gone.
TEST_F(DbResizeTest, TheIoSpanIsSetForEachIoMadeAndNotForAPageGone) {
  Make(16, 16, false);
  DbIoSpan write;
  const Nanos w0 = MonotonicNow();
  ASSERT_OK(file_->WritePage(3, buf_, 1, &write));
  EXPECT_GE(write.start, w0);
  EXPECT_GE(write.end, write.start);
  EXPECT_LE(write.end, MonotonicNow());
  DbIoSpan read;
  auto check = file_->ReadPage(3, buf_, ++serial_, 0, &read);
  ASSERT_OK(check.status());
  EXPECT_TRUE(check->ok()) << DbPageFaultName(check->fault);
  EXPECT_GE(read.start, write.end);
  EXPECT_GE(read.end, read.start);
  std::vector<std::vector<uint8_t>> pages(4, std::vector<uint8_t>(kResizePageBytes));
  std::vector<std::span<uint8_t>> spans(pages.begin(), pages.end());
  DbIoSpan gather;
  ASSERT_OK(file_->WritePages(4, spans, 2, &gather));
  EXPECT_GE(gather.start, read.end);
  EXPECT_GE(gather.end, gather.start);
  DbIoSpan scatter;
  std::vector<DbPageCheck> checks;
  ASSERT_OK(file_->ReadPages(4, spans, ++serial_, 0, checks, &scatter));
  ASSERT_EQ(checks.size(), 4u);
  for (const DbPageCheck& c : checks) EXPECT_TRUE(c.ok()) << DbPageFaultName(c.fault);
  EXPECT_GE(scatter.start, gather.end);
  EXPECT_GE(scatter.end, scatter.start);
  ASSERT_OK(file_->Shrink(8));
  DbIoSpan none;
  auto gone = file_->ReadPage(12, buf_, ++serial_, 0, &none);
  ASSERT_OK(gone.status());
  EXPECT_TRUE(gone->gone);
  EXPECT_EQ(none.start, 0);
  EXPECT_EQ(none.end, 0);
  EXPECT_EQ(none.ns(), 0u);
}

TEST_F(DbResizeTest, APageShrunkAwayIsGoneNotLostAndNothingIsRead) {
  Make(16, 16, false);
  ASSERT_OK(file_->WritePage(12, buf_, 1));
  ASSERT_OK(file_->Shrink(8));
  EXPECT_EQ(file_->pages(), 8u);
  EXPECT_EQ(FileBytes(), 8u * kResizePageBytes);
  auto gone = Read(12);
  ASSERT_OK(gone.status());
  EXPECT_TRUE(gone->gone);
  EXPECT_TRUE(gone->ok());  // not a failure of any kind
  auto written = file_->WritePage(12, buf_, 2);
  ASSERT_OK(written.status());
  EXPECT_FALSE(*written);
  EXPECT_EQ(file_->keys().Acked(12), 1u);  // the write past the end did nothing
  auto kept = Read(7);
  ASSERT_OK(kept.status());
  EXPECT_FALSE(kept->gone);
  EXPECT_TRUE(kept->ok()) << DbPageFaultName(kept->fault);
  EXPECT_EQ(file_->counts().shrinks, 1u);
}

TEST_F(DbResizeTest, ARunPastTheLiveEndReadsAndWritesOnlyTheLivePages) {
  Make(16, 16, false);
  ASSERT_OK(file_->Shrink(10));
  std::vector<std::vector<uint8_t>> pages(4, std::vector<uint8_t>(kResizePageBytes));
  std::vector<std::span<uint8_t>> spans(pages.begin(), pages.end());
  auto written = file_->WritePages(8, spans, 3);
  ASSERT_OK(written.status());
  EXPECT_EQ(*written, 2u);
  EXPECT_EQ(file_->keys().Acked(9), 1u);
  EXPECT_EQ(file_->keys().Acked(10), 0u);
  std::vector<DbPageCheck> checks;
  auto read = file_->ReadPages(8, spans, 4, 0, checks);
  ASSERT_OK(read.status());
  EXPECT_EQ(*read, 2u);
  ASSERT_EQ(checks.size(), 2u);
  for (const auto& c : checks) EXPECT_TRUE(c.ok()) << DbPageFaultName(c.fault);
  EXPECT_EQ(FileBytes(), 10u * kResizePageBytes);
}

TEST_F(DbResizeTest, APageGrownBackIsANewerVersionAndAnOldOneIsCaught) {
  Make(8, 16, false);
  ASSERT_OK(file_->WritePage(5, buf_, 1));
  ASSERT_OK(file_->Shrink(4));
  ASSERT_OK(file_->Grow(12, buf_, 2, false));
  EXPECT_EQ(file_->pages(), 12u);
  EXPECT_EQ(FileBytes(), 12u * kResizePageBytes);
  // Page 5 held key 1 before the shrink: it comes back at key 2, durable.
  EXPECT_EQ(file_->keys().Acked(5), 2u);
  EXPECT_EQ(file_->keys().Durable(5), 2u);
  for (uint64_t p = 0; p < 12; ++p) {
    auto check = Read(p);
    ASSERT_OK(check.status());
    EXPECT_TRUE(check->ok()) << p << ": " << DbPageFaultName(check->fault);
    EXPECT_FALSE(check->gone) << p;
  }
  // Storage that returned the version from before the shrink would be seen.
  DbPageFileSettings old = file_->settings();
  std::vector<uint8_t> stale(kResizePageBytes);
  StampDbPage(stale, {old.file_id, 5, 1, DbContentSeed(old.run_seed, old.file_id, 5, 1), 1});
  ASSERT_OK(WriteFully(DefaultFileSystem(), fd_, stale.data(), stale.size(), 5 * kResizePageBytes,
                       "page 5"));
  auto check = Read(5);
  ASSERT_OK(check.status());
  EXPECT_EQ(DbPageFaultName(check->fault), "lost write");
  EXPECT_EQ(file_->counts().grows, 1u);
}

TEST_F(DbResizeTest, AGrowPastTheCapacityIsRefused) {
  Make(8, 8, false);
  EXPECT_FALSE(file_->Grow(9, buf_, 1, false).ok());
  EXPECT_FALSE(file_->Shrink(0).ok());
  EXPECT_EQ(file_->pages(), 8u);
}

TEST_F(DbResizeTest, AHoleOfASparseFileIsItsContentUntilWritten) {
  Make(8, 8, true);
  for (uint64_t p = 0; p < 8; ++p) {
    auto check = Read(p);
    ASSERT_OK(check.status());
    EXPECT_TRUE(check->ok()) << p << ": " << DbPageFaultName(check->fault);
  }
  ASSERT_OK(file_->WritePage(3, buf_, 1));
  auto written = Read(3);
  ASSERT_OK(written.status());
  EXPECT_TRUE(written->ok()) << DbPageFaultName(written->fault);
  EXPECT_EQ(written->seen.write_key, 1u);
  // Once written, zeros there are a failure again.
  std::vector<uint8_t> zeros(kResizePageBytes);
  ASSERT_OK(WriteFully(DefaultFileSystem(), fd_, zeros.data(), zeros.size(), 3 * kResizePageBytes,
                       "page 3"));
  auto zeroed = Read(3);
  ASSERT_OK(zeroed.status());
  EXPECT_EQ(DbPageFaultName(zeroed->fault), "zeroed page");
}

TEST_F(DbResizeTest, ZerosInAFileThatIsNotSparseAreAZeroedPage) {
  Make(8, 8, false);
  std::vector<uint8_t> zeros(kResizePageBytes);
  ASSERT_OK(WriteFully(DefaultFileSystem(), fd_, zeros.data(), zeros.size(), 2 * kResizePageBytes,
                       "page 2"));
  auto check = Read(2);
  ASSERT_OK(check.status());
  EXPECT_EQ(DbPageFaultName(check->fault), "zeroed page");
}

}  // namespace
}  // namespace loadcell
