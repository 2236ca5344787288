// dbsim's null engine (dbsim/null_file_system.h): a held file's pages live
// in memory and pass their checks, nothing reaches the file, other files'
// writes are dropped; an unverified page file checks nothing; the
// verification work is counted and timed (docs/dbsim.md, "Speed").
#include "dbsim/null_file_system.h"

#include <fcntl.h>
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "dbsim/page_file.h"
#include "testing/status.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

constexpr uint32_t kNullPageBytes = 4096;
constexpr uint64_t kNullPages = 16;

class DbNullTest : public ::testing::Test {
 protected:
  // A held file of kNullPages pages (verified unless `verify` is false),
  // stamped at key 0 into memory.
  void Make(bool verify) {
    auto fd = null_.Open(dir_ / "data.mdf", O_RDWR | O_CREAT | O_EXCL);
    ASSERT_OK(fd.status());
    fd_ = fd.value();
    ASSERT_OK(null_.Hold(fd_, kNullPages * kNullPageBytes));
    DbPageFileSettings settings;
    settings.file_id = 1;
    settings.page_size = kNullPageBytes;
    settings.pages = kNullPages;
    settings.run_seed = 5;
    settings.verify = verify;
    file_ = std::make_unique<DbPageFile>(null_, fd_, settings);
    ASSERT_OK(file_->StampAll(buf_));
  }
  void TearDown() override {
    if (fd_ >= 0) {
      EXPECT_OK(null_.Close(fd_));
    }
  }

  testing::TempDir dir_;
  DbNullFileSystem null_{DefaultFileSystem()};
  int fd_ = -1;
  std::unique_ptr<DbPageFile> file_;
  std::vector<uint8_t> buf_ = std::vector<uint8_t>(kNullPageBytes);
};

TEST_F(DbNullTest, PagesWrittenInMemoryReadBackCheckedAndNeverReachTheFile) {
  Make(true);
  for (uint64_t page = 0; page < kNullPages; ++page) {
    auto wrote = file_->WritePage(page, buf_, 1);
    ASSERT_OK(wrote.status());
    EXPECT_TRUE(*wrote);
  }
  ASSERT_OK(file_->Flush());
  for (uint64_t page = 0; page < kNullPages; ++page) {
    auto check = file_->ReadPage(page, buf_, page + 1, 0);
    ASSERT_OK(check.status());
    EXPECT_TRUE(check->ok()) << DbPageFaultName(check->fault);
    EXPECT_FALSE(check->unchecked);
    EXPECT_EQ(check->seen.write_key, 1u);
  }
  // A scatter read of four pages, each checked.
  std::vector<std::vector<uint8_t>> pages(4, std::vector<uint8_t>(kNullPageBytes));
  std::vector<std::span<uint8_t>> bufs(pages.begin(), pages.end());
  std::vector<DbPageCheck> checks;
  auto read = file_->ReadPages(4, bufs, 99, 0, checks);
  ASSERT_OK(read.status());
  EXPECT_EQ(*read, 4u);
  for (const DbPageCheck& c : checks) EXPECT_TRUE(c.ok()) << DbPageFaultName(c.fault);
  // Nothing reached the file.
  EXPECT_TRUE(testing::ReadFile(dir_ / "data.mdf").empty());
  // Every page's verification counted; one call in 16 of them timed.
  const DbPageFileCounts c = file_->counts();
  EXPECT_EQ(c.verified_pages, 2 * kNullPages + 4);
  EXPECT_GT(c.verify_sampled_pages, 0u);
  EXPECT_LT(c.verify_sampled_pages, c.verified_pages);
  EXPECT_GT(DbVerifyNsPerPage(c), 0.0);
}

TEST_F(DbNullTest, AnUnverifiedFileReadsWithoutACheckAndKeepsNoKeys) {
  Make(false);
  std::memset(buf_.data(), 0xA5, buf_.size());
  auto wrote = file_->WritePage(3, buf_, 1);
  ASSERT_OK(wrote.status());
  EXPECT_TRUE(*wrote);
  EXPECT_EQ(file_->keys().Acked(3), 0u);  // the key table untouched
  std::vector<uint8_t> back(kNullPageBytes);
  auto check = file_->ReadPage(3, back, 1, 0);
  ASSERT_OK(check.status());
  EXPECT_TRUE(check->unchecked);
  EXPECT_TRUE(check->ok());
  EXPECT_EQ(back, buf_);  // written as the buffer held it, not stamped
  EXPECT_EQ(file_->counts().verified_pages, 0u);
  EXPECT_EQ(DbVerifyNsPerPage(file_->counts()), 0.0);
}

TEST_F(DbNullTest, AFileNotHeldDropsItsWritesAndReadsZeros) {
  auto fd = null_.Open(dir_ / "log.ldf", O_RDWR | O_CREAT | O_EXCL);
  ASSERT_OK(fd.status());
  const std::string text(512, 'x');
  auto wrote = null_.PWrite(*fd, text.data(), text.size(), 0);
  ASSERT_OK(wrote.status());
  EXPECT_EQ(*wrote, text.size());
  std::string back(512, 'y');
  auto read = null_.PRead(*fd, back.data(), back.size(), 0);
  ASSERT_OK(read.status());
  EXPECT_EQ(back, std::string(512, '\0'));
  EXPECT_OK(null_.Fdatasync(*fd));
  EXPECT_OK(null_.Close(*fd));
  EXPECT_TRUE(testing::ReadFile(dir_ / "log.ldf").empty());
}

TEST_F(DbNullTest, AFdIsHeldOnce) {
  Make(true);
  EXPECT_FALSE(null_.Hold(fd_, 4096).ok());
}

}  // namespace
}  // namespace loadcell
