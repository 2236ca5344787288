#pragma once
// The check of a page read back (docs/dbsim.md, "The checks"): what the
// page should be (file, page number, the keys of the key table, the read
// stamp) against what the read returned, naming the first failure by kind.
// Pure, thread-safe.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "dbsim/page_format.h"

namespace loadcell {

// In the order the checks are applied.
enum class DbPageFault : uint8_t {
  kNone = 0,
  kBytesNotRead,           // a whole sector still holds the read stamp
  kZeroedPage,             // every byte zero
  kBadHeader,              // magic, version, sector or page size wrong
  kMisplacedPage,          // the header names another file or page
  kTornPage,               // a sector key or the trailer differs from the header's key
  kChecksumFailure,        // keys agree, the checksum does not
  kLostWrite,              // older than the durable key
  kStalePage,              // older than the acknowledged key, not than the durable one
  kUnacknowledgedVersion,  // newer than the acknowledged key
};
inline constexpr int kDbPageFaultKinds = 10;

// "bytes not read", "zeroed page", "checksum failure (header)",
// "misplaced page", "torn page", "checksum failure", "lost write",
// "stale page", "unacknowledged version"; "ok" for kNone.
std::string_view DbPageFaultName(DbPageFault fault);

struct DbPageExpectation {
  uint32_t file_id = 0;
  uint64_t page_no = 0;
  uint64_t acked_key = 0;    // the last acknowledged write's key
  uint64_t durable_key = 0;  // the last key a completed flush covered (<= acked_key)
  uint64_t read_stamp = 0;   // what the buffer was filled with before the read
  // The page was never written in a sparse file: all zeros is its content.
  bool hole_ok = false;
};

struct DbPageCheck {
  DbPageFault fault = DbPageFault::kNone;
  DbPageHeader seen;       // the header as read
  DbPageExpectation want;  // what the check expected
  // The first sector that failed (bytes not read, torn page), else 0.
  size_t sector = 0;
  // The page was past the file's live end (shrunk away): nothing was read
  // or checked.
  bool gone = false;
  // The page was read without a check (an unverified run): no fault can
  // be named.
  bool unchecked = false;

  bool ok() const { return fault == DbPageFault::kNone; }
};

// Checks `page` (one page, its size the file's page size) against `want`.
DbPageCheck CheckDbPage(std::span<const uint8_t> page, const DbPageExpectation& want);

// One line for the report and the error dump: the kind, the file and page,
// expected and seen header fields, the failing sector, and (for a page
// whose header is readable) how many bytes differ from the version its
// header names.
std::string DescribeDbPageCheck(std::span<const uint8_t> page, const DbPageExpectation& want,
                                const DbPageCheck& check);

}  // namespace loadcell
