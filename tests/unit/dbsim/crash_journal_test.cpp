// The crash journal and the check after a crash: the journal's lines read
// back, and each page judged against them (docs/dbsim.md, "The crash
// journal"): flushed writes lost are errors, unflushed ones allowed.
#include "dbsim/crash_journal.h"

#include <fcntl.h>
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dbsim/crash_verify.h"
#include "dbsim/fault_file_system.h"
#include "dbsim/page_file.h"
#include "testing/status.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

TEST(DbCrashJournal, ParsesTheNewestKeysAndIgnoresALastLineCutShort) {
  const std::string text =
      "loadcell dbsim journal 1\nI 1 5 1\nD 1 5 1\nI 1 5 2\nI 2 0 7\nD 1 5 2\nI 1 6 1\nD 1 6";
  auto state = ParseDbJournal(text, "j");
  ASSERT_OK(state.status());
  EXPECT_EQ((state->at({1, 5}).intended), 2u);
  EXPECT_EQ((state->at({1, 5}).durable), 2u);
  EXPECT_EQ((state->at({2, 0}).intended), 7u);
  EXPECT_EQ((state->at({2, 0}).durable), 0u);
  EXPECT_EQ((state->at({1, 6}).durable), 0u);  // its D line was cut short
}

TEST(DbCrashJournal, RefusesWhatIsNotAJournal) {
  auto other = ParseDbJournal("hello\nI 1 1 1\n", "j.txt");
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.status().message().find("j.txt: not a loadcell dbsim journal"),
            std::string::npos);
  auto bad_line = ParseDbJournal("loadcell dbsim journal 1\nI 1 1 1\nX 1 2\nI 1 1 2\n", "j");
  ASSERT_FALSE(bad_line.ok());
  EXPECT_NE(bad_line.status().message().find("j:3: not a journal line"), std::string::npos);
}

// Keeps what a power cut would leave of the files written through it: each
// file's bytes as its last flush made them durable.
class PowerCutSeam final : public FileSystemWrapper {
 public:
  explicit PowerCutSeam(FileSystem& target) : FileSystemWrapper(target) {}
  Result<size_t> PWrite(int fd, const void* buf, size_t len, uint64_t offset) override {
    std::string& f = written_[fd];
    if (f.size() < offset + len) f.resize(offset + len);
    f.replace(offset, len, static_cast<const char*>(buf), len);
    return FileSystemWrapper::PWrite(fd, buf, len, offset);
  }
  Status Fdatasync(int fd) override {
    durable_[fd] = written_[fd];
    return FileSystemWrapper::Fdatasync(fd);
  }
  std::string durable(int fd) { return durable_[fd]; }
  // The one file written through it.
  int fd() const { return written_.empty() ? -1 : written_.begin()->first; }

 private:
  std::map<int, std::string> written_;
  std::map<int, std::string> durable_;
};

TEST(DbCrashJournal, FinishMakesTheLastDurableLinesDurable) {
  testing::TempDir dir;
  PowerCutSeam seam(DefaultFileSystem());
  auto journal = DbCrashJournal::Create(seam, dir / "journal");
  ASSERT_OK(journal.status());
  const std::vector<DbJournalPage> pages = {{1, 4, 1}, {1, 5, 1}};
  ASSERT_OK(journal->Intend(pages));
  ASSERT_OK(journal->Durable(pages));
  auto cut = ParseDbJournal(seam.durable(seam.fd()), "journal");
  ASSERT_OK(cut.status());
  EXPECT_EQ((cut->at({1, 4}).durable), 0u);  // the durable lines not flushed yet
  ASSERT_OK(journal->Finish());
  auto state = ParseDbJournal(seam.durable(seam.fd()), "journal");
  ASSERT_OK(state.status());
  for (const DbJournalPage& p : pages) {
    EXPECT_EQ((state->at({p.file_id, p.page}).intended), 1u);
    EXPECT_EQ((state->at({p.file_id, p.page}).durable), 1u) << "page " << p.page;
  }
}

constexpr uint32_t kCrashPageBytes = 4096;

class DbCrashTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto fd = faulty_.Open(dir_ / "data.mdx", O_RDWR | O_CREAT | O_EXCL);
    ASSERT_OK(fd.status());
    fd_ = fd.value();
    DbPageFileSettings s;
    s.file_id = 1;
    s.page_size = kCrashPageBytes;
    s.pages = 8;
    file_ = std::make_unique<DbPageFile>(faulty_, fd_, s);
    ASSERT_OK(file_->StampAll(buf_));
    auto journal = DbCrashJournal::Create(DefaultFileSystem(), dir_ / "journal");
    ASSERT_OK(journal.status());
    journal_.emplace(std::move(journal.value()));
  }
  void TearDown() override { EXPECT_OK(faulty_.Close(fd_)); }

  // One checkpoint of `page` as the checkpoint user does it: the intent,
  // the write (with `fault`), and when `flushed` the flush and durable line.
  void Checkpoint(uint64_t page, DbIoFault fault, bool flushed) {
    const DbJournalPage intent{1, page, file_->keys().Acked(page) + 1};
    ASSERT_OK(journal_->Intend({&intent, 1}));
    faulty_.Arm(fault, page * kCrashPageBytes, kCrashPageBytes / 2);
    ASSERT_OK(file_->WritePage(page, buf_, 5));
    if (!flushed) return;
    ASSERT_OK(file_->Flush());
    ASSERT_OK(journal_->Durable({&intent, 1}));
  }

  DbCrashVerdict Verify() {
    DbCrashVerdict verdict;
    auto text = ReadFileToString(DefaultFileSystem(), dir_ / "journal");
    EXPECT_OK(text.status());
    auto state = ParseDbJournal(text.ok() ? *text : "", "journal");
    EXPECT_OK(state.status());
    if (!state.ok()) return verdict;
    EXPECT_OK(
        VerifyDbFileAfterCrash(DefaultFileSystem(), {fd_, 1, kCrashPageBytes, 8}, *state, verdict));
    return verdict;
  }

  testing::TempDir dir_;
  DbFaultFileSystem faulty_{DefaultFileSystem()};
  int fd_ = -1;
  std::unique_ptr<DbPageFile> file_;
  std::optional<DbCrashJournal> journal_;
  std::vector<uint8_t> buf_ = std::vector<uint8_t>(kCrashPageBytes);
};

TEST_F(DbCrashTest, FlushedWritesThatSurvivedAreIntact) {
  Checkpoint(1, DbIoFault::kNone, true);
  Checkpoint(1, DbIoFault::kNone, true);
  const DbCrashVerdict v = Verify();
  EXPECT_EQ(v.pages, 8u);
  EXPECT_EQ(v.intact, 8u);
  EXPECT_EQ(v.TotalErrors(), 0u);
}

TEST_F(DbCrashTest, AFlushedWriteLostIsALostWrite) {
  Checkpoint(2, DbIoFault::kDropWrite, true);
  const DbCrashVerdict v = Verify();
  EXPECT_EQ(v.errors[static_cast<size_t>(DbPageFault::kLostWrite)], 1u);
  ASSERT_EQ(v.lines.size(), 1u);
  EXPECT_NE(v.lines[0].find("lost write: file 1 page 2"), std::string::npos) << v.lines[0];
}

TEST_F(DbCrashTest, AnUnflushedWriteLostIsAllowed) {
  Checkpoint(3, DbIoFault::kDropWrite, false);
  const DbCrashVerdict v = Verify();
  EXPECT_EQ(v.unflushed_lost, 1u);
  EXPECT_EQ(v.TotalErrors(), 0u);
}

TEST_F(DbCrashTest, ATornPageIsAllowedOnlyWhereTheWriteWasNotDurable) {
  Checkpoint(4, DbIoFault::kTornWrite, false);
  Checkpoint(5, DbIoFault::kTornWrite, true);
  const DbCrashVerdict v = Verify();
  EXPECT_EQ(v.torn_unflushed, 1u);
  EXPECT_EQ(v.errors[static_cast<size_t>(DbPageFault::kTornPage)], 1u);
  EXPECT_EQ(v.intact, 6u);
}

}  // namespace
}  // namespace loadcell
