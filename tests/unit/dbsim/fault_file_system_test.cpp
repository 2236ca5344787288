// Each fault of the fault file system, made on a real file through the
// FileSystem seam, named by the page check (docs/dbsim.md, "Faults").
#include "dbsim/fault_file_system.h"

#include <fcntl.h>
#include <gtest/gtest.h>

#include <memory>
#include <span>
#include <vector>

#include "dbsim/page_file.h"
#include "testing/status.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

constexpr uint32_t kFaultPageBytes = 8192;
constexpr uint64_t kFaultPages = 8;
constexpr uint64_t kPage3 = 3 * kFaultPageBytes;

class DbFaultTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto fd = faulty_.Open(dir_ / "data.mdf", O_RDWR | O_CREAT | O_EXCL);
    ASSERT_OK(fd.status());
    fd_ = fd.value();
    DbPageFileSettings settings;
    settings.file_id = 1;
    settings.page_size = kFaultPageBytes;
    settings.pages = kFaultPages;
    settings.run_seed = 99;
    file_ = std::make_unique<DbPageFile>(faulty_, fd_, settings);
    ASSERT_OK(file_->StampAll(buf_));
  }
  void TearDown() override { EXPECT_OK(faulty_.Close(fd_)); }

  // The kind the check names for a read of `page`.
  std::string_view ReadKind(uint64_t page) {
    auto check = file_->ReadPage(page, buf_, ++serial_, 0);
    EXPECT_OK(check.status());
    return check.ok() ? DbPageFaultName(check->fault) : "read failed";
  }

  testing::TempDir dir_;
  DbFaultFileSystem faulty_{DefaultFileSystem()};
  int fd_ = -1;
  std::unique_ptr<DbPageFile> file_;
  std::vector<uint8_t> buf_ = std::vector<uint8_t>(kFaultPageBytes);
  uint64_t serial_ = 0;
};

TEST_F(DbFaultTest, WithoutAFaultEveryPageIsItsLatestVersion) {
  ASSERT_OK(file_->WritePage(3, buf_, 10));
  ASSERT_OK(file_->WritePage(3, buf_, 20));
  for (uint64_t p = 0; p < kFaultPages; ++p) EXPECT_EQ(ReadKind(p), "ok") << p;
  EXPECT_EQ(file_->keys().Acked(3), 2u);
  EXPECT_EQ(faulty_.Fired(), 0u);
}

TEST_F(DbFaultTest, ADroppedWriteIsStaleThenLostOnceFlushed) {
  faulty_.Arm(DbIoFault::kDropWrite, kPage3, 0);
  ASSERT_OK(file_->WritePage(3, buf_, 10));
  EXPECT_EQ(faulty_.Fired(), 1u);
  EXPECT_EQ(ReadKind(3), "stale page");
  ASSERT_OK(file_->Flush());
  EXPECT_EQ(ReadKind(3), "lost write");
  EXPECT_EQ(ReadKind(2), "ok");
}

TEST_F(DbFaultTest, AMisdirectedWriteIsAMisplacedPageWhereItLanded) {
  faulty_.Arm(DbIoFault::kMisdirectWrite, kPage3, kFaultPageBytes);
  ASSERT_OK(file_->WritePage(3, buf_, 10));
  ASSERT_OK(file_->Flush());
  EXPECT_EQ(ReadKind(4), "misplaced page");
  EXPECT_EQ(ReadKind(3), "lost write");
}

TEST_F(DbFaultTest, ATornWriteIsATornPage) {
  faulty_.Arm(DbIoFault::kTornWrite, kPage3, 4096);
  ASSERT_OK(file_->WritePage(3, buf_, 10));
  auto check = file_->ReadPage(3, buf_, 1, 0);
  ASSERT_OK(check.status());
  EXPECT_EQ(DbPageFaultName(check->fault), "torn page");
  EXPECT_EQ(check->sector, 8u);
}

TEST_F(DbFaultTest, AStaleReadIsAStalePageAndTheNextReadIsGood) {
  faulty_.Arm(DbIoFault::kStaleRead, kPage3, 0);
  ASSERT_OK(file_->WritePage(3, buf_, 10));
  EXPECT_EQ(ReadKind(3), "stale page");
  EXPECT_EQ(ReadKind(3), "ok");  // a retry reads good data: a cache, not the medium
}

TEST_F(DbFaultTest, AReadThatFillsNothingIsBytesNotRead) {
  faulty_.Arm(DbIoFault::kUnfilledRead, DbFaultFileSystem::kAnyOffset, 0, 2);
  EXPECT_EQ(ReadKind(0), "ok");
  EXPECT_EQ(ReadKind(1), "ok");
  EXPECT_EQ(ReadKind(5), "bytes not read");
  EXPECT_EQ(ReadKind(5), "ok");
}

// Four pages as separate buffers, for scatter reads and gather writes.
struct PageBuffers {
  std::vector<std::vector<uint8_t>> pages =
      std::vector<std::vector<uint8_t>>(4, std::vector<uint8_t>(kFaultPageBytes));
  std::vector<std::span<uint8_t>> spans;
  PageBuffers() {
    for (auto& p : pages) spans.emplace_back(p);
  }
};

TEST_F(DbFaultTest, AGatherWriteAndAScatterReadKeepEveryPage) {
  PageBuffers bufs;
  ASSERT_OK(file_->WritePages(2, bufs.spans, 30));
  for (uint64_t p = 2; p < 6; ++p) EXPECT_EQ(file_->keys().Acked(p), 1u);
  std::vector<DbPageCheck> checks;
  ASSERT_OK(file_->ReadPages(2, bufs.spans, 5, 0, checks));
  ASSERT_EQ(checks.size(), 4u);
  for (const auto& c : checks) {
    EXPECT_TRUE(c.ok()) << DbPageFaultName(c.fault);
    EXPECT_EQ(c.seen.write_key, 1u);
  }
  EXPECT_EQ(checks[3].seen.page_no, 5u);
}

TEST_F(DbFaultTest, AFaultInsideAGatherWriteIsNamedOnItsPage) {
  PageBuffers bufs;
  faulty_.Arm(DbIoFault::kTornWrite, kPage3, 512);
  ASSERT_OK(file_->WritePages(2, bufs.spans, 30));
  std::vector<DbPageCheck> checks;
  ASSERT_OK(file_->ReadPages(2, bufs.spans, 6, 0, checks));
  EXPECT_TRUE(checks[0].ok());
  EXPECT_EQ(DbPageFaultName(checks[1].fault), "torn page");
  EXPECT_EQ(checks[1].sector, 1u);
  EXPECT_TRUE(checks[2].ok());
}

TEST_F(DbFaultTest, AnUnfilledPageOfAScatterReadIsBytesNotRead) {
  PageBuffers bufs;
  faulty_.Arm(DbIoFault::kUnfilledRead, kPage3, 0);
  std::vector<DbPageCheck> checks;
  ASSERT_OK(file_->ReadPages(2, bufs.spans, 7, 0, checks));
  EXPECT_TRUE(checks[0].ok());
  EXPECT_EQ(DbPageFaultName(checks[1].fault), "bytes not read");
  EXPECT_TRUE(checks[3].ok());
}

// The platform's own scatter read and gather write (preadv/pwritev on
// POSIX), without the fault file system's per-slice calls.
TEST_F(DbFaultTest, ThePlatformsScatterAndGatherKeepEveryPage) {
  DbPageFileSettings settings = file_->settings();
  DbPageFile direct(DefaultFileSystem(), fd_, settings);
  PageBuffers bufs;
  ASSERT_OK(direct.WritePages(4, bufs.spans, 40));
  std::vector<DbPageCheck> checks;
  ASSERT_OK(direct.ReadPages(4, bufs.spans, 8, 1, checks));
  for (size_t i = 0; i < checks.size(); ++i) {
    EXPECT_TRUE(checks[i].ok()) << i << ": " << DbPageFaultName(checks[i].fault);
    EXPECT_EQ(checks[i].seen.page_no, 4 + i);
    EXPECT_EQ(checks[i].seen.write_key, 1u);
  }
  // A run past the file's end is refused, nothing read.
  EXPECT_FALSE(direct.ReadPages(6, bufs.spans, 9, 1, checks).ok());
}

TEST(DbIoFaultNames, ParseTheirOwnNamesAndRefuseOthers) {
  for (auto fault : {DbIoFault::kDropWrite, DbIoFault::kMisdirectWrite, DbIoFault::kTornWrite,
                     DbIoFault::kStaleRead, DbIoFault::kUnfilledRead}) {
    auto parsed = ParseDbIoFault(DbIoFaultName(fault));
    ASSERT_OK(parsed.status());
    EXPECT_EQ(parsed.value(), fault);
  }
  auto bad = ParseDbIoFault("bitflip");
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("'bitflip'"), std::string::npos);
}

}  // namespace
}  // namespace loadcell
