#include "dbsim/page_format.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <string>

#include "core/checksum.h"

namespace loadcell {

// The fields are stored as the host holds them; the hosts loadcell builds
// for (x86-64 Linux and Windows) are little-endian, as the format says.
static_assert(std::endian::native == std::endian::little, "the page format is little-endian");

namespace {

constexpr size_t kChecksumOffset = 56;

template <typename T>
void StoreAt(std::span<uint8_t> page, size_t offset, T value) {
  std::memcpy(page.data() + offset, &value, sizeof value);
}

template <typename T>
T LoadAt(std::span<const uint8_t> page, size_t offset) {
  T value{};
  std::memcpy(&value, page.data() + offset, sizeof value);
  return value;
}

uint64_t SplitMix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// The content stream of seed s: word i of sector k is line[i] ^ mask[k],
// line[i] = SplitMix(s + i) for the 64 words of a sector and mask[k] =
// SplitMix((s ^ kSectorMaskMix) + k): every sector's bytes its own and
// unlike any other version's, for one SplitMix a word of a sector rather
// than one a word of the page.
constexpr uint64_t kSectorMaskMix = 0x5DEECE66DA3B1F27ULL;
constexpr size_t kWordsPerSector = kDbSectorSize / 8;

// The sectors' words: line[i] ^ masks[k], in vector registers (the
// stores are most of a page's stamping); as wide as the CPU allows.
[[gnu::always_inline]] inline void XorSectorsBody(uint8_t* page, size_t sectors,
                                                  const uint64_t* line, const uint64_t* masks) {
  for (size_t k = 0; k < sectors; ++k) {
    uint8_t* sector = page + k * kDbSectorSize;
    const uint64_t mask = masks[k];
    for (size_t i = 0; i < kWordsPerSector; ++i) {
      const uint64_t word = line[i] ^ mask;
      std::memcpy(sector + i * 8, &word, sizeof word);
    }
  }
}

void XorSectorsBaseline(uint8_t* page, size_t sectors, const uint64_t* line,
                        const uint64_t* masks) {
  XorSectorsBody(page, sectors, line, masks);
}

using XorSectorsFn = void (*)(uint8_t*, size_t, const uint64_t*, const uint64_t*);

#if defined(__x86_64__)
[[gnu::target("avx2")]] void XorSectorsAvx2(uint8_t* page, size_t sectors, const uint64_t* line,
                                            const uint64_t* masks) {
  XorSectorsBody(page, sectors, line, masks);
}

XorSectorsFn PickXorSectors() {
  // __builtin_cpu_supports also checks that the system saves the registers.
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") != 0 ? XorSectorsAvx2 : XorSectorsBaseline;
}
#else
XorSectorsFn PickXorSectors() { return XorSectorsBaseline; }
#endif

void FillContent(std::span<uint8_t> page, uint64_t seed) {
  static const XorSectorsFn xor_sectors = PickXorSectors();
  std::array<uint64_t, kWordsPerSector> line;  // NOLINT(cppcoreguidelines-pro-type-member-init)
  for (size_t i = 0; i < kWordsPerSector; ++i) line[i] = SplitMix(seed + i);
  const size_t sectors = page.size() / kDbSectorSize;
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-member-init)
  std::array<uint64_t, kDbMaxPageSize / kDbSectorSize> masks;
  for (size_t k = 0; k < sectors && k < masks.size(); ++k) {
    masks[k] = SplitMix((seed ^ kSectorMaskMix) + k);
  }
  xor_sectors(page.data(), std::min(sectors, masks.size()), line.data(), masks.data());
}

void WriteHeaderAndKeys(std::span<uint8_t> page, const DbPageStamp& stamp) {
  StoreAt<uint32_t>(page, 0, kDbPageMagic);
  StoreAt<uint16_t>(page, 4, kDbPageVersion);
  StoreAt<uint16_t>(page, 6, static_cast<uint16_t>(kDbSectorSize));
  StoreAt<uint32_t>(page, 8, stamp.file_id);
  StoreAt<uint32_t>(page, 12, static_cast<uint32_t>(page.size()));
  StoreAt<uint64_t>(page, 16, stamp.page_no);
  StoreAt<uint64_t>(page, 24, stamp.write_key);
  StoreAt<uint64_t>(page, 32, stamp.seed);
  StoreAt<uint64_t>(page, 40, stamp.timestamp_ns);
  StoreAt<uint64_t>(page, 48, 0);
  for (size_t s = 1; s < page.size() / kDbSectorSize; ++s) {
    StoreAt<uint64_t>(page, s * kDbSectorSize, stamp.write_key);
  }
  StoreAt<uint64_t>(page, page.size() - 8, stamp.write_key);
}

}  // namespace

Status CheckDbPageSize(uint64_t page_size) {
  if (page_size < kDbMinPageSize || page_size > kDbMaxPageSize || !std::has_single_bit(page_size)) {
    return Status::InvalidArgument("page size " + std::to_string(page_size) +
                                   " is not valid: a power of two from 1024 to 65536 bytes");
  }
  return Status::Ok();
}

uint64_t DbContentSeed(uint64_t run_seed, uint32_t file_id, uint64_t page_no, uint64_t write_key) {
  uint64_t h = SplitMix(run_seed ^ (uint64_t{file_id} << 48));
  h = SplitMix(h ^ page_no);
  return SplitMix(h ^ (write_key * 0xD6E8FEB86659FD93ULL));
}

void StampDbPage(std::span<uint8_t> page, const DbPageStamp& stamp) {
  FillContent(page, stamp.seed);
  WriteHeaderAndKeys(page, stamp);
  StoreAt<uint64_t>(page, kChecksumOffset, DbPageChecksum(page));
}

DbPageHeader ReadDbPageHeader(std::span<const uint8_t> page) {
  DbPageHeader h;
  h.magic = LoadAt<uint32_t>(page, 0);
  h.version = LoadAt<uint16_t>(page, 4);
  h.sector_size = LoadAt<uint16_t>(page, 6);
  h.file_id = LoadAt<uint32_t>(page, 8);
  h.page_size = LoadAt<uint32_t>(page, 12);
  h.page_no = LoadAt<uint64_t>(page, 16);
  h.write_key = LoadAt<uint64_t>(page, 24);
  h.seed = LoadAt<uint64_t>(page, 32);
  h.timestamp_ns = LoadAt<uint64_t>(page, 40);
  h.checksum = LoadAt<uint64_t>(page, kChecksumOffset);
  return h;
}

uint64_t DbPageChecksum(std::span<const uint8_t> page) {
  const uint32_t head = Crc32c(page.data(), kChecksumOffset);
  return Crc32cExtend(head, page.data() + kDbPageHeaderSize, page.size() - kDbPageHeaderSize);
}

uint64_t DbSectorKey(std::span<const uint8_t> page, size_t sector) {
  return LoadAt<uint64_t>(page, sector * kDbSectorSize);
}

uint64_t DbTrailerKey(std::span<const uint8_t> page) {
  return LoadAt<uint64_t>(page, page.size() - 8);
}

namespace {

// The page its own header describes, rebuilt from the header's seed.
std::basic_string<uint8_t> PageTheHeaderNames(std::span<const uint8_t> page) {
  const DbPageHeader h = ReadDbPageHeader(page);
  std::basic_string<uint8_t> expected(page.size(), 0);
  StampDbPage(std::span<uint8_t>(expected.data(), expected.size()),
              {h.file_id, h.page_no, h.write_key, h.seed, h.timestamp_ns});
  return expected;
}

std::string HexBytes(const uint8_t* p, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) out += fmt::format("{}{:02x}", i == 0 ? "" : " ", p[i]);
  return out;
}

}  // namespace

size_t DbDifferingBytes(std::span<const uint8_t> page) {
  const std::basic_string<uint8_t> want = PageTheHeaderNames(page);
  size_t differing = 0;
  for (size_t i = 0; i < page.size(); ++i) differing += page[i] != want[i] ? 1 : 0;
  return differing;
}

std::string DescribeDbDifferingBytes(std::span<const uint8_t> page, size_t max_runs, size_t shown) {
  constexpr size_t kRunGap = 8;  // this many equal bytes end a run
  const std::basic_string<uint8_t> want = PageTheHeaderNames(page);
  size_t differing = 0;
  std::string runs;
  size_t listed = 0;
  for (size_t i = 0; i < page.size();) {
    if (page[i] == want[i]) {
      ++i;
      continue;
    }
    // A run: from i to the last differing byte before kRunGap equal ones.
    size_t end = i + 1;
    for (size_t j = i + 1; j < page.size() && j < end + kRunGap; ++j) {
      if (page[j] != want[j]) end = j + 1;
    }
    for (size_t j = i; j < end; ++j) differing += page[j] != want[j] ? 1 : 0;
    if (listed < max_runs) {
      const size_t n = std::min(end - i, shown);
      runs += fmt::format("; at {}, {} bytes: expected {}{}, seen {}{}", i, end - i,
                          HexBytes(want.data() + i, n), n < end - i ? " ..." : "",
                          HexBytes(page.data() + i, n), n < end - i ? " ..." : "");
      ++listed;
    } else if (listed == max_runs) {
      runs += "; and more";
      ++listed;
    }
    i = end;
  }
  return fmt::format("{} bytes differ from the version the header names", differing) + runs;
}

uint64_t DbReadStamp(uint64_t serial, uint32_t thread_id) {
  // The low 32 bits never equal the page magic: a stamp is never a header;
  // and never 0: a zeroed page is not a buffer left unfilled.
  uint64_t stamp = SplitMix(serial ^ (uint64_t{thread_id} << 40));
  if (static_cast<uint32_t>(stamp) == kDbPageMagic) stamp ^= 1;
  return stamp == 0 ? 1 : stamp;
}

void FillDbReadStamp(std::span<uint8_t> buf, uint64_t stamp) {
  for (size_t at = 0; at + kDbSectorSize <= buf.size(); at += kDbSectorSize) {
    StoreAt<uint64_t>(buf, at, stamp);
    StoreAt<uint64_t>(buf, at + kDbSectorSize - 8, stamp);
  }
}

bool DbSectorHoldsStamp(std::span<const uint8_t> page, size_t sector, uint64_t stamp) {
  const size_t start = sector * kDbSectorSize;
  return LoadAt<uint64_t>(page, start) == stamp ||
         LoadAt<uint64_t>(page, start + kDbSectorSize - 8) == stamp;
}

}  // namespace loadcell
