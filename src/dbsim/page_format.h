#pragma once
// The page a simulated database engine writes (docs/dbsim.md, "The page
// format"): a header naming the file, the page and the version, a key in
// every 512-byte sector and in the trailer, content rebuilt from a seed, a
// checksum. Also the stamp a read buffer is filled with before each read.
// Pure: no I/O, thread-safe.
//
//   offset  size  field (little-endian)
//        0     4  magic 0x4244434C ("LCDB")
//        4     2  format version, 2
//        6     2  sector size, 512
//        8     4  file id
//       12     4  page size
//       16     8  page number
//       24     8  write key (0 as created, +1 per rewrite)
//       32     8  content seed
//       40     8  timestamp (ns since the run's start)
//       48     8  reserved, 0
//       56     8  checksum: CRC-32C of bytes 0..55 and 64..end (the
//                 high 4 bytes 0)
// Sectors 1.. start with the write key (8 bytes); the page's last 8 bytes
// hold it again. Every other byte is the content stream of the seed
// (page_format.cpp, FillContent; docs/dbsim.md).

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "core/status.h"

namespace loadcell {

inline constexpr uint32_t kDbPageMagic = 0x4244434C;
inline constexpr uint16_t kDbPageVersion = 2;
inline constexpr uint32_t kDbSectorSize = 512;
inline constexpr size_t kDbPageHeaderSize = 64;
inline constexpr uint32_t kDbMinPageSize = 1024;
inline constexpr uint32_t kDbMaxPageSize = 65536;

// What a page says of itself: its header's fields.
struct DbPageHeader {
  uint32_t magic = 0;
  uint16_t version = 0;
  uint16_t sector_size = 0;
  uint32_t file_id = 0;
  uint32_t page_size = 0;
  uint64_t page_no = 0;
  uint64_t write_key = 0;
  uint64_t seed = 0;
  uint64_t timestamp_ns = 0;
  uint64_t checksum = 0;
};

// What a write puts in a page.
struct DbPageStamp {
  uint32_t file_id = 0;
  uint64_t page_no = 0;
  uint64_t write_key = 0;
  uint64_t seed = 0;
  uint64_t timestamp_ns = 0;
};

// OK for a power of two from 1 KiB to 64 KiB; else InvalidArgument naming
// the size and the range.
Status CheckDbPageSize(uint64_t page_size);

// The content seed of one version of a page: a mix of the run's seed, the
// file, the page and the write key, so no two versions share content.
uint64_t DbContentSeed(uint64_t run_seed, uint32_t file_id, uint64_t page_no, uint64_t write_key);

// Writes the whole page: content, header, sector keys, trailer, checksum.
// REQUIRES: page.size() passes CheckDbPageSize.
void StampDbPage(std::span<uint8_t> page, const DbPageStamp& stamp);

// The header's fields as they are in `page` (no check).
// REQUIRES: page.size() >= kDbPageHeaderSize.
DbPageHeader ReadDbPageHeader(std::span<const uint8_t> page);

// The checksum the page's bytes have now (what field 56 should hold).
uint64_t DbPageChecksum(std::span<const uint8_t> page);

// The write key at the start of sector `sector` (>= 1), and the trailer's.
uint64_t DbSectorKey(std::span<const uint8_t> page, size_t sector);
uint64_t DbTrailerKey(std::span<const uint8_t> page);

// How many bytes of `page` differ from the page its own header describes
// (the content rebuilt from the header's seed): for the error dump. Only
// meaningful when the header's page size is the page's.
size_t DbDifferingBytes(std::span<const uint8_t> page);

// The differing bytes themselves, for the error dump: "N bytes differ from
// the version the header names" and then the first `max_runs` runs of
// differing bytes (a run ends at 8 equal bytes), each as its offset in the
// page, its length, and up to `shown` bytes expected and seen in hex:
// "; at 4096, 3 bytes: expected 1f a0 77, seen 00 00 00". A page that
// differs nowhere says "0 bytes differ ...". Same precondition as
// DbDifferingBytes.
std::string DescribeDbDifferingBytes(std::span<const uint8_t> page, size_t max_runs = 4,
                                     size_t shown = 16);

// The stamp of a read buffer: a 64-bit value that differs per read (a
// serial number mixed with the thread's id), is never a valid page's
// first word and never 0. FillDbReadStamp writes it in the first and the
// last 8 bytes of every whole 512-byte sector of `buf`; DbSectorHoldsStamp
// says whether the sector at `sector` still holds it in either: a read
// that filled the whole sector left neither, one that filled none of it or
// only a part from one end left one.
uint64_t DbReadStamp(uint64_t serial, uint32_t thread_id);
void FillDbReadStamp(std::span<uint8_t> buf, uint64_t stamp);
bool DbSectorHoldsStamp(std::span<const uint8_t> page, size_t sector, uint64_t stamp);

}  // namespace loadcell
