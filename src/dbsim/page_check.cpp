#include "dbsim/page_check.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>

namespace loadcell {

namespace {

constexpr std::array<std::string_view, kDbPageFaultKinds> kPageFaultNames = {
    "ok",
    "bytes not read",
    "zeroed page",
    "checksum failure (header)",
    "misplaced page",
    "torn page",
    "checksum failure",
    "lost write",
    "stale page",
    "unacknowledged version"};

// Every byte zero. A page's first word is never zero (the magic), so most
// pages are answered by it; the rest are scanned a word at a time.
bool AllZero(std::span<const uint8_t> page) {
  for (size_t at = 0; at + 8 <= page.size(); at += 8) {
    uint64_t word = 0;
    std::memcpy(&word, page.data() + at, sizeof word);
    if (word != 0) return false;
  }
  return std::all_of(page.begin() + static_cast<std::ptrdiff_t>(page.size() / 8 * 8), page.end(),
                     [](uint8_t b) { return b == 0; });
}

// The first sector still holding the read stamp, or the sector count.
size_t FirstUnreadSector(std::span<const uint8_t> page, uint64_t stamp) {
  const size_t sectors = page.size() / kDbSectorSize;
  for (size_t s = 0; s < sectors; ++s) {
    if (DbSectorHoldsStamp(page, s, stamp)) return s;
  }
  return sectors;
}

bool HeaderWellFormed(const DbPageHeader& h, size_t page_size) {
  return h.magic == kDbPageMagic && h.version == kDbPageVersion && h.sector_size == kDbSectorSize &&
         h.page_size == page_size;
}

// The first sector (>= 1) whose key differs from the header's; the sector
// count when the trailer alone differs; 0 when all agree.
size_t FirstTornSector(std::span<const uint8_t> page, uint64_t key) {
  const size_t sectors = page.size() / kDbSectorSize;
  for (size_t s = 1; s < sectors; ++s) {
    if (DbSectorKey(page, s) != key) return s;
  }
  return DbTrailerKey(page) != key ? sectors : 0;
}

DbPageFault VersionFault(uint64_t key, const DbPageExpectation& want) {
  if (key > want.acked_key) return DbPageFault::kUnacknowledgedVersion;
  if (key < want.durable_key) return DbPageFault::kLostWrite;
  if (key < want.acked_key) return DbPageFault::kStalePage;
  return DbPageFault::kNone;
}

}  // namespace

std::string_view DbPageFaultName(DbPageFault fault) {
  return kPageFaultNames.at(static_cast<size_t>(fault));
}

DbPageCheck CheckDbPage(std::span<const uint8_t> page, const DbPageExpectation& want) {
  DbPageCheck check;
  check.want = want;
  const size_t unread = FirstUnreadSector(page, want.read_stamp);
  if (unread < page.size() / kDbSectorSize) {
    check.fault = DbPageFault::kBytesNotRead;
    check.sector = unread;
    return check;
  }
  if (AllZero(page)) {
    // A hole of a sparse file, never written: zeros are its content.
    if (!want.hole_ok) check.fault = DbPageFault::kZeroedPage;
    return check;
  }
  check.seen = ReadDbPageHeader(page);
  const DbPageHeader& h = check.seen;
  if (!HeaderWellFormed(h, page.size())) {
    check.fault = DbPageFault::kBadHeader;
  } else if (h.file_id != want.file_id || h.page_no != want.page_no) {
    check.fault = DbPageFault::kMisplacedPage;
  } else if (size_t torn = FirstTornSector(page, h.write_key); torn != 0) {
    check.fault = DbPageFault::kTornPage;
    check.sector = torn;
  } else if (DbPageChecksum(page) != h.checksum) {
    check.fault = DbPageFault::kChecksumFailure;
  } else {
    check.fault = VersionFault(h.write_key, want);
  }
  return check;
}

std::string DescribeDbPageCheck(std::span<const uint8_t> page, const DbPageExpectation& want,
                                const DbPageCheck& check) {
  std::string line =
      fmt::format("{}: file {} page {}", DbPageFaultName(check.fault), want.file_id, want.page_no);
  switch (check.fault) {
    case DbPageFault::kNone:
    case DbPageFault::kZeroedPage:
      return line;
    case DbPageFault::kBytesNotRead:
      return line + fmt::format(": sector {} still holds the read stamp {:#018x}", check.sector,
                                want.read_stamp);
    case DbPageFault::kBadHeader:
      return line + fmt::format(": magic {:#010x} version {} sector size {} page size {}",
                                check.seen.magic, check.seen.version, check.seen.sector_size,
                                check.seen.page_size);
    default:
      break;
  }
  const DbPageHeader& h = check.seen;
  line += fmt::format(
      ": expected file {} page {} key {} (durable {}), seen file {} page {} key {} written at "
      "{} ns",
      want.file_id, want.page_no, want.acked_key, want.durable_key, h.file_id, h.page_no,
      h.write_key, h.timestamp_ns);
  if (check.fault == DbPageFault::kTornPage) {
    line += fmt::format("; sector {} has key {}", check.sector,
                        check.sector < page.size() / kDbSectorSize ? DbSectorKey(page, check.sector)
                                                                   : DbTrailerKey(page));
  }
  if (check.fault == DbPageFault::kChecksumFailure || check.fault == DbPageFault::kTornPage) {
    line += "; " + DescribeDbDifferingBytes(page);
  }
  return line;
}

}  // namespace loadcell
