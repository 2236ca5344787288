// The page format and its check: every kind of failure made by hand and
// named (docs/dbsim.md, "The checks").
#include "dbsim/page_check.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "core/checksum.h"
#include "dbsim/key_table.h"
#include "dbsim/page_format.h"

namespace loadcell {
namespace {

constexpr uint32_t kPageBytes = 8192;
constexpr uint64_t kRunSeed = 42;

std::vector<uint8_t> MakePage(uint32_t file, uint64_t page, uint64_t key) {
  std::vector<uint8_t> buf(kPageBytes);
  StampDbPage(buf, {file, page, key, DbContentSeed(kRunSeed, file, page, key), 1000 + key});
  return buf;
}

DbPageExpectation Want(uint32_t file, uint64_t page, uint64_t acked, uint64_t durable) {
  DbPageExpectation want;
  want.file_id = file;
  want.page_no = page;
  want.acked_key = acked;
  want.durable_key = durable;
  want.read_stamp = DbReadStamp(7, 1);
  return want;
}

DbPageFault FaultOf(const std::vector<uint8_t>& page, const DbPageExpectation& want) {
  return CheckDbPage(page, want).fault;
}

TEST(DbPageFormat, PageSizesArePowersOfTwoFrom1KTo64K) {
  EXPECT_TRUE(CheckDbPageSize(8192).ok());
  EXPECT_TRUE(CheckDbPageSize(1024).ok());
  EXPECT_TRUE(CheckDbPageSize(65536).ok());
  EXPECT_FALSE(CheckDbPageSize(512).ok());
  EXPECT_FALSE(CheckDbPageSize(12288).ok());
  EXPECT_FALSE(CheckDbPageSize(131072).ok());
}

TEST(DbPageFormat, HeaderRoundTripsAndEverySectorCarriesTheKey) {
  const auto page = MakePage(3, 77, 5);
  const DbPageHeader h = ReadDbPageHeader(page);
  EXPECT_EQ(h.magic, kDbPageMagic);
  EXPECT_EQ(h.file_id, 3u);
  EXPECT_EQ(h.page_no, 77u);
  EXPECT_EQ(h.write_key, 5u);
  EXPECT_EQ(h.seed, DbContentSeed(kRunSeed, 3, 77, 5));
  EXPECT_EQ(h.timestamp_ns, 1005u);
  EXPECT_EQ(h.page_size, kPageBytes);
  EXPECT_EQ(h.checksum, DbPageChecksum(page));
  for (size_t s = 1; s < kPageBytes / kDbSectorSize; ++s) EXPECT_EQ(DbSectorKey(page, s), 5u);
  EXPECT_EQ(DbTrailerKey(page), 5u);
  EXPECT_EQ(DbDifferingBytes(page), 0u);
}

TEST(DbPageFormat, VersionsOfOnePageDifferInContent) {
  const auto a = MakePage(1, 9, 1);
  const auto b = MakePage(1, 9, 2);
  EXPECT_NE(std::memcmp(a.data() + 1024 + 8, b.data() + 1024 + 8, 256), 0);
}

TEST(DbPageFormat, NoTwoSectorsShareTheirContent) {
  const auto page = MakePage(1, 9, 1);
  // Bytes 8..503 of each sector: past its key, before its last word.
  for (size_t a = 0; a < kPageBytes / kDbSectorSize; ++a) {
    for (size_t b = a + 1; b < kPageBytes / kDbSectorSize; ++b) {
      EXPECT_NE(std::memcmp(page.data() + a * kDbSectorSize + 64,
                            page.data() + b * kDbSectorSize + 64, 440),
                0)
          << a << " " << b;
    }
  }
}

TEST(DbPageFormat, TheChecksumIsCrc32cOfAllButItsOwnField) {
  const auto page = MakePage(1, 9, 1);
  const uint32_t head = Crc32c(page.data(), 56);
  EXPECT_EQ(ReadDbPageHeader(page).checksum, Crc32cExtend(head, page.data() + 64, kPageBytes - 64));
  EXPECT_EQ(ReadDbPageHeader(page).version, 2u);
}

TEST(DbPageCheck, TheCurrentVersionPasses) {
  const auto page = MakePage(1, 10, 4);
  const DbPageCheck check = CheckDbPage(page, Want(1, 10, 4, 2));
  EXPECT_TRUE(check.ok());
  EXPECT_EQ(DbPageFaultName(check.fault), "ok");
}

TEST(DbPageCheck, AStampedSectorIsBytesNotRead) {
  auto page = MakePage(1, 10, 4);
  const auto want = Want(1, 10, 4, 4);
  FillDbReadStamp(std::span<uint8_t>(page).subspan(3 * kDbSectorSize, kDbSectorSize),
                  want.read_stamp);
  const DbPageCheck check = CheckDbPage(page, want);
  EXPECT_EQ(DbPageFaultName(check.fault), "bytes not read");
  EXPECT_EQ(check.sector, 3u);
  // A buffer never filled at all is the same kind, from sector 0.
  std::vector<uint8_t> unread(kPageBytes);
  FillDbReadStamp(unread, want.read_stamp);
  EXPECT_EQ(CheckDbPage(unread, want).sector, 0u);
  EXPECT_EQ(FaultOf(unread, want), DbPageFault::kBytesNotRead);
}

TEST(DbPageCheck, ASectorFilledOnlyInPartIsBytesNotRead) {
  const auto good = MakePage(1, 10, 4);
  const auto want = Want(1, 10, 4, 4);
  for (size_t filled : {size_t{8}, size_t{256}, size_t{504}}) {
    // The stamped buffer, then the page's bytes over the start of sector 5 only ...
    std::vector<uint8_t> head(kPageBytes);
    FillDbReadStamp(head, want.read_stamp);
    std::memcpy(head.data(), good.data(), 5 * kDbSectorSize + filled);
    std::memcpy(head.data() + 6 * kDbSectorSize, good.data() + 6 * kDbSectorSize,
                kPageBytes - 6 * kDbSectorSize);
    const DbPageCheck from_start = CheckDbPage(head, want);
    EXPECT_EQ(from_start.fault, DbPageFault::kBytesNotRead) << filled;
    EXPECT_EQ(from_start.sector, 5u) << filled;
    // ... and over its end only.
    std::vector<uint8_t> tail(kPageBytes);
    FillDbReadStamp(tail, want.read_stamp);
    std::memcpy(tail.data(), good.data(), 5 * kDbSectorSize);
    const size_t from = 6 * kDbSectorSize - filled;
    std::memcpy(tail.data() + from, good.data() + from, kPageBytes - from);
    const DbPageCheck to_end = CheckDbPage(tail, want);
    EXPECT_EQ(to_end.fault, DbPageFault::kBytesNotRead) << filled;
    EXPECT_EQ(to_end.sector, 5u) << filled;
  }
}

TEST(DbPageCheck, AllZeroIsAZeroedPage) {
  const std::vector<uint8_t> page(kPageBytes, 0);
  EXPECT_EQ(DbPageFaultName(FaultOf(page, Want(1, 10, 0, 0))), "zeroed page");
  // Zeros but for the last byte (the first word zero): not a zeroed page.
  std::vector<uint8_t> nearly(kPageBytes, 0);
  nearly[kPageBytes - 1] = 1;
  EXPECT_EQ(FaultOf(nearly, Want(1, 10, 0, 0)), DbPageFault::kBadHeader);
}

TEST(DbPageCheck, ABrokenMagicIsAHeaderChecksumFailure) {
  auto page = MakePage(1, 10, 0);
  page[1] ^= 0x40;
  EXPECT_EQ(DbPageFaultName(FaultOf(page, Want(1, 10, 0, 0))), "checksum failure (header)");
}

TEST(DbPageCheck, AnotherPagesContentIsMisplaced) {
  const auto other_page = MakePage(1, 11, 0);
  EXPECT_EQ(DbPageFaultName(FaultOf(other_page, Want(1, 10, 0, 0))), "misplaced page");
  const auto other_file = MakePage(2, 10, 0);
  EXPECT_EQ(FaultOf(other_file, Want(1, 10, 0, 0)), DbPageFault::kMisplacedPage);
}

TEST(DbPageCheck, OldSectorsUnderANewHeaderAreATornPage) {
  const auto old_version = MakePage(1, 10, 3);
  auto page = MakePage(1, 10, 4);
  // The first 4 KiB of the new version reached the medium, the rest is old.
  std::memcpy(page.data() + 4096, old_version.data() + 4096, kPageBytes - 4096);
  const DbPageCheck check = CheckDbPage(page, Want(1, 10, 4, 4));
  EXPECT_EQ(DbPageFaultName(check.fault), "torn page");
  EXPECT_EQ(check.sector, 8u);
  const std::string line = DescribeDbPageCheck(page, Want(1, 10, 4, 4), check);
  EXPECT_NE(line.find("sector 8 has key 3"), std::string::npos) << line;
}

TEST(DbPageCheck, OnlyTheTrailerDifferingIsATornPage) {
  auto page = MakePage(1, 10, 4);
  page[kPageBytes - 8] = 3;
  const DbPageCheck check = CheckDbPage(page, Want(1, 10, 4, 4));
  EXPECT_EQ(check.fault, DbPageFault::kTornPage);
  EXPECT_EQ(check.sector, kPageBytes / kDbSectorSize);
}

TEST(DbPageCheck, AByteChangedMidSectorIsAChecksumFailure) {
  auto page = MakePage(1, 10, 4);
  page[5000] ^= 0x01;
  const auto want = Want(1, 10, 4, 4);
  const DbPageCheck check = CheckDbPage(page, want);
  EXPECT_EQ(DbPageFaultName(check.fault), "checksum failure");
  const std::string line = DescribeDbPageCheck(page, want, check);
  EXPECT_NE(line.find("1 bytes differ"), std::string::npos) << line;
  // The dump names the byte: its offset, what the version holds, what was read.
  const auto clean = MakePage(1, 10, 4);
  EXPECT_NE(line.find(fmt::format("at 5000, 1 bytes: expected {:02x}, seen {:02x}", clean[5000],
                                  page[5000])),
            std::string::npos)
      << line;
}

// Runs of differing bytes: a gap of fewer than 8 equal bytes joins two into
// one run, at most 16 bytes of a run are shown, at most 4 runs then "and
// more"; the count is of the differing bytes only.
TEST(DbPageCheck, TheDumpListsTheRunsOfDifferingBytes) {
  auto page = MakePage(2, 7, 9);
  const auto clean = MakePage(2, 7, 9);
  page[3000] ^= 0xff;
  page[3004] ^= 0xff;                                           // joins: 3 equal bytes between
  for (size_t i = 6000; i < 6040; ++i) page[i] ^= 0x5a;         // one run of 40
  for (size_t at : {7000, 7100, 7200, 7300}) page[at] ^= 0x01;  // runs 3 to 6
  const std::string dump = DescribeDbDifferingBytes(page);
  EXPECT_EQ(dump.rfind("46 bytes differ from the version the header names", 0), 0u) << dump;
  EXPECT_NE(dump.find(fmt::format("; at 3000, 5 bytes: expected {:02x}", clean[3000])),
            std::string::npos)
      << dump;
  EXPECT_NE(dump.find("; at 6000, 40 bytes: expected "), std::string::npos) << dump;
  EXPECT_NE(dump.find(" ..., seen "), std::string::npos) << dump;  // 16 of 40 shown
  EXPECT_NE(dump.find("; at 7000, 1 bytes"), std::string::npos) << dump;
  EXPECT_NE(dump.find("; at 7100, 1 bytes"), std::string::npos) << dump;
  EXPECT_EQ(dump.find("at 7200"), std::string::npos) << dump;  // past the 4 runs shown
  EXPECT_NE(dump.find("; and more"), std::string::npos) << dump;
  EXPECT_EQ(DescribeDbDifferingBytes(clean), "0 bytes differ from the version the header names");
}

TEST(DbPageCheck, TheChecksumFieldsHighBytesChangedIsAChecksumFailure) {
  auto page = MakePage(1, 10, 4);
  page[60] ^= 0x01;
  EXPECT_EQ(FaultOf(page, Want(1, 10, 4, 4)), DbPageFault::kChecksumFailure);
}

TEST(DbPageCheck, AnOlderVersionThanTheDurableKeyIsALostWrite) {
  const auto page = MakePage(1, 10, 2);
  EXPECT_EQ(DbPageFaultName(FaultOf(page, Want(1, 10, 3, 3))), "lost write");
}

TEST(DbPageCheck, AnOlderVersionNotYetFlushedIsAStalePage) {
  const auto page = MakePage(1, 10, 2);
  EXPECT_EQ(DbPageFaultName(FaultOf(page, Want(1, 10, 3, 2))), "stale page");
}

TEST(DbPageCheck, ANewerVersionThanAcknowledgedIsUnacknowledged) {
  const auto page = MakePage(1, 10, 5);
  EXPECT_EQ(DbPageFaultName(FaultOf(page, Want(1, 10, 4, 4))), "unacknowledged version");
}

TEST(DbReadStamp, DiffersPerReadAndIsNeverAHeader) {
  EXPECT_NE(DbReadStamp(1, 0), DbReadStamp(2, 0));
  EXPECT_NE(DbReadStamp(1, 0), DbReadStamp(1, 1));
  for (uint64_t i = 0; i < 1000; ++i) {
    EXPECT_NE(static_cast<uint32_t>(DbReadStamp(i, 3)), kDbPageMagic);
  }
}

TEST(DbKeyTable, AFlushMakesOnlyTheWritesBeforeItDurable) {
  DbKeyTable table(4);
  table.Acknowledge(1, 1, false);
  const auto before = table.Snapshot();
  table.Acknowledge(2, 1, false);  // during the flush
  table.MarkDurable(before);
  EXPECT_EQ(table.Durable(1), 1u);
  EXPECT_EQ(table.Durable(2), 0u);
  EXPECT_EQ(table.Acked(2), 1u);
  table.Acknowledge(3, 1, true);  // write-through
  EXPECT_EQ(table.Durable(3), 1u);
  // An older snapshot never moves a durable key back.
  table.Acknowledge(1, 2, true);
  table.MarkDurable(before);
  EXPECT_EQ(table.Durable(1), 2u);
}

TEST(DbKeyTable, AFlushMakesDurableTheKeyEachPageHadAtItsSnapshot) {
  DbKeyTable table(40);
  for (uint64_t key = 1; key <= 3; ++key) {
    for (uint64_t page = 0; page < 40; page += 3) table.Acknowledge(page, key, false);
  }
  const auto before = table.Snapshot();
  table.Acknowledge(0, 4, false);  // during the flush
  table.MarkDurable(before);
  for (uint64_t page = 0; page < 40; ++page) {
    EXPECT_EQ(table.Durable(page), page % 3 == 0 ? 3u : 0u) << page;
  }
  EXPECT_EQ(table.Acked(0), 4u);
  // The next flush covers the write made during the last one.
  table.MarkDurable(table.Snapshot());
  EXPECT_EQ(table.Durable(0), 4u);
}

TEST(DbKeyTable, OverlappingFlushesEachCoverWhatCameBeforeTheirSnapshot) {
  DbKeyTable table(8);
  table.Acknowledge(1, 1, false);
  const auto first = table.Snapshot();  // flush A starts
  table.Acknowledge(2, 1, false);
  const auto second = table.Snapshot();  // flush B starts
  table.Acknowledge(3, 1, false);
  table.MarkDurable(second);  // B ends first: it covers pages 1 and 2
  EXPECT_EQ(table.Durable(1), 1u);
  EXPECT_EQ(table.Durable(2), 1u);
  EXPECT_EQ(table.Durable(3), 0u);
  table.MarkDurable(first);  // A ends: nothing more
  EXPECT_EQ(table.Durable(3), 0u);
}

}  // namespace
}  // namespace loadcell
