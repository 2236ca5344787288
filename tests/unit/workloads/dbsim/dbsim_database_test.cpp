// What dbsim's users share: the log queue's group commit (records taken
// together, their users woken once durable, all of them when the log
// closes), the dirty pages in order, the failures counted and the stop on
// the first one.
#include "workloads/dbsim/dbsim_database.h"

#include <fcntl.h>
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "testing/status.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

TEST(DbsimDatabaseLog, QueuedRecordsAreTakenTogetherAndWaitersWokenOnceDurable) {
  DbsimDatabase db(DefaultFileSystem(), true);
  const uint64_t first = db.QueueLog(100);
  const uint64_t second = db.QueueLog(50);
  EXPECT_EQ(first, 100u);
  EXPECT_EQ(second, 150u);
  bool woken = false;
  std::thread waiter([&] { woken = db.WaitDurable(second); });
  const auto [bytes, lsn] = db.TakeQueuedLog(1'000'000);
  EXPECT_EQ(bytes, 150u);  // both records in one write
  EXPECT_EQ(lsn, 150u);
  db.LogDurable(lsn);
  waiter.join();
  EXPECT_TRUE(woken);
  EXPECT_EQ(db.TakeQueuedLog(1'000'000).first, 0u);  // nothing queued since
}

TEST(DbsimDatabaseLog, ClosingTheLogEndsWaitersAndRefusesRecords) {
  DbsimDatabase db(DefaultFileSystem(), true);
  const uint64_t lsn = db.QueueLog(64);
  bool woken = true;
  std::thread waiter([&] { woken = db.WaitDurable(lsn); });
  db.CloseLog();
  waiter.join();
  EXPECT_FALSE(woken);
  EXPECT_EQ(db.QueueLog(64), 0u);
  db.OpenLog();
  EXPECT_GT(db.QueueLog(64), 0u);
}

TEST(DbsimDatabaseLog, TheLogWrapsAtItsEnd) {
  testing::TempDir dir;
  auto fd = DefaultFileSystem().Open(dir / "log.ldx", O_RDWR | O_CREAT | O_EXCL);
  ASSERT_OK(fd.status());
  DbsimDatabase db(DefaultFileSystem(), true);
  db.SetLog(*fd, 2048, false);
  const std::vector<uint8_t> block(1536, 0x5A);
  ASSERT_OK(db.WriteLog(block.data(), 1536));
  ASSERT_OK(db.WriteLog(block.data(), 1536));  // 512 to the end, 1024 from 0
  auto info = DefaultFileSystem().Fstat(*fd);
  ASSERT_OK(info.status());
  EXPECT_EQ(info->size, 2048u);
  EXPECT_OK(DefaultFileSystem().Close(*fd));
}

TEST(DbsimDatabaseDirty, PagesComeOutOnceInFileAndPageOrder) {
  DbsimDatabase db(DefaultFileSystem(), true);
  db.MarkDirty({1, 7});
  db.MarkDirty({0, 9});
  db.MarkDirty({0, 3});
  db.MarkDirty({0, 9});
  const auto first = db.TakeDirty(2);
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first[0], (DbsimPageRef{0, 3}));
  EXPECT_EQ(first[1], (DbsimPageRef{0, 9}));
  const auto rest = db.TakeDirty(10);
  ASSERT_EQ(rest.size(), 1u);
  EXPECT_EQ(rest[0], (DbsimPageRef{1, 7}));
  EXPECT_TRUE(db.TakeDirty(10).empty());
}

// A zeroed page 4 of file 1 and its check.
struct ZeroedPage {
  std::vector<uint8_t> page = std::vector<uint8_t>(8192, 0);
  DbPageExpectation want{.file_id = 1, .page_no = 4, .read_stamp = DbReadStamp(1, 1)};
  DbPageCheck check = CheckDbPage(page, want);
};

TEST(DbsimDatabaseFaults, CountedByKindAndTheFirstStopsTheRun) {
  DbsimDatabase keep_going(DefaultFileSystem(), false);
  DbsimDatabase stop(DefaultFileSystem(), true);
  auto [page, want, check] = ZeroedPage{};
  ASSERT_EQ(check.fault, DbPageFault::kZeroedPage);
  for (int i = 0; i < 25; ++i) keep_going.NoteFault("audit user 1", page, want, check, "again");
  EXPECT_FALSE(keep_going.Stopping());
  EXPECT_EQ(keep_going.FaultCount(DbPageFault::kZeroedPage), 25u);
  EXPECT_EQ(keep_going.TotalFaults(), 25u);
  const auto lines = keep_going.FaultLines();
  ASSERT_EQ(lines.size(), DbsimDatabase::kMaxFaultLines);
  EXPECT_EQ(lines[0], "audit user 1: zeroed page: file 1 page 4; again");
  stop.NoteFault("random user 2", page, want, check, "again");
  EXPECT_TRUE(stop.Stopping());
}

// Failed checks count every read; the pages are counted once each, by kind
// and of any kind (the same page of another file is another page).
TEST(DbsimDatabaseFaults, DistinctPagesAreCountedOnceOverRepeatedChecks) {
  DbsimDatabase db(DefaultFileSystem(), false);
  auto [page, want, check] = ZeroedPage{};
  ASSERT_EQ(check.fault, DbPageFault::kZeroedPage);
  for (int i = 0; i < 5; ++i) db.NoteFault("audit user 1", page, want, check, "again");
  EXPECT_EQ(db.FaultCount(DbPageFault::kZeroedPage), 5u);
  EXPECT_EQ(db.FaultPages(DbPageFault::kZeroedPage), 1u);
  want.file_id = 2;
  db.NoteFault("audit user 1", page, want, check, "again");
  DbPageCheck torn = check;
  torn.fault = DbPageFault::kTornPage;
  db.NoteFault("audit user 1", page, want, torn, "again");
  EXPECT_EQ(db.FaultCount(DbPageFault::kZeroedPage), 6u);
  EXPECT_EQ(db.FaultPages(DbPageFault::kZeroedPage), 2u);
  EXPECT_EQ(db.FaultPages(DbPageFault::kTornPage), 1u);
  EXPECT_EQ(db.FaultPages(DbPageFault::kLostWrite), 0u);
  EXPECT_EQ(db.TotalFaults(), 7u);
  EXPECT_EQ(db.TotalFaultPages(), 2u);
}

}  // namespace
}  // namespace loadcell
