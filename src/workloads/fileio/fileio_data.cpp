#include "workloads/fileio/fileio_data.h"

#include <fmt/format.h>

#include <cstring>

namespace loadcell {
namespace {

constexpr uint32_t kStampMagic = 0x4246434cu;  // "LCFB" little-endian
constexpr uint32_t kLightMagic = 0x4c46434cu;  // "LCFL": a light stamp
constexpr size_t kChecksumOffset = 24;

constexpr uint64_t kPrime1 = 0x9E3779B185EBCA87ULL;
constexpr uint64_t kPrime2 = 0xC2B2AE3D27D4EB4FULL;
constexpr uint64_t kPrime3 = 0x165667B19E3779F9ULL;

inline uint64_t Load64(const unsigned char* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

inline uint64_t Rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

inline uint64_t Round(uint64_t acc, uint64_t word) {
  acc += word * kPrime2;
  acc = Rotl(acc, 31);
  return acc * kPrime1;
}

// A fast non-cryptographic hash (four independent multiply-rotate lanes
// over 8-byte words, then the tail), seeded so that distinct ranges of one
// block mix differently. Detects torn, stale and misplaced blocks; not
// meant to resist deliberate collisions.
uint64_t HashRange(const unsigned char* p, size_t len, uint64_t seed) {
  uint64_t a = seed + kPrime1 + kPrime2, b = seed + kPrime2, c = seed, d = seed - kPrime1;
  size_t i = 0;
  for (; i + 32 <= len; i += 32) {
    a = Round(a, Load64(p + i));
    b = Round(b, Load64(p + i + 8));
    c = Round(c, Load64(p + i + 16));
    d = Round(d, Load64(p + i + 24));
  }
  uint64_t h = Rotl(a, 1) + Rotl(b, 7) + Rotl(c, 12) + Rotl(d, 18) + len;
  for (; i + 8 <= len; i += 8) h = Rotl(h ^ Round(0, Load64(p + i)), 27) * kPrime1 + kPrime3;
  for (; i < len; ++i) h = Rotl(h ^ (p[i] * kPrime3), 11) * kPrime1;
  h ^= h >> 33;
  h *= kPrime2;
  h ^= h >> 29;
  return h;
}

// The light stamp's checksum: the header words before the checksum field
// and the first word of every later 512-byte sector of the block, each
// mixed with its position. The products are independent (one add chain),
// so that ~35 words cost a few dozen cycles.
uint64_t LightChecksum(const unsigned char* block, size_t len) {
  uint64_t acc = len * kPrime1;
  auto mix = [&](size_t at) { acc += (Load64(block + at) ^ (at * kPrime3)) * kPrime2; };
  for (size_t i = 0; i < kChecksumOffset; i += 8) mix(i);
  for (size_t i = kUniqueSectorBytes; i + 8 <= len; i += kUniqueSectorBytes) mix(i);
  acc ^= acc >> 33;
  acc *= kPrime1;
  acc ^= acc >> 29;
  acc *= kPrime2;
  acc ^= acc >> 32;
  return acc;
}

void Stamp(unsigned char* buf, size_t len, uint32_t file, uint64_t offset, uint64_t block_size,
           uint64_t seq, bool light) {
  const uint32_t magic = light ? kLightMagic : kStampMagic;
  size_t done = 0;
  while (done < len) {
    const uint64_t block_offset = offset + done;
    size_t n = static_cast<size_t>(block_size - block_offset % block_size);
    if (n > len - done) n = len - done;
    unsigned char* b = buf + done;
    done += n;
    if (n < kBlockStampBytes) continue;
    std::memcpy(b, &magic, 4);
    std::memcpy(b + 4, &file, 4);
    std::memcpy(b + 8, &block_offset, 8);
    std::memcpy(b + 16, &seq, 8);
    const uint64_t sum = light ? LightChecksum(b, n) : BlockChecksum(b, n);
    std::memcpy(b + kChecksumOffset, &sum, 8);
  }
}

}  // namespace

void FillRandom(unsigned char* buf, size_t len, Random& rng) {
  size_t i = 0;
  for (; i + 8 <= len; i += 8) {
    const uint64_t v = rng.Next();
    std::memcpy(buf + i, &v, 8);
  }
  if (i < len) {
    const uint64_t v = rng.Next();
    std::memcpy(buf + i, &v, len - i);
  }
}

void MakeSectorsUnique(unsigned char* buf, size_t len, uint64_t tag) {
  for (size_t i = 0; i + 8 <= len; i += kUniqueSectorBytes) {
    // splitmix64's finaliser (a bijection) over tag:sector, which are
    // distinct for tags below 2^48 and requests below 32 MiB.
    uint64_t z = (tag << 16) + ((i / kUniqueSectorBytes) & 0xFFFF);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    std::memcpy(buf + i, &z, 8);
  }
}

void FillSequence(unsigned char* buf, size_t len, uint64_t offset) {
  size_t i = 0;
  // Bytes before the first 8-byte-aligned file offset belong to the word
  // that starts before the buffer.
  for (; i < len && (offset + i) % 8 != 0; ++i) {
    const uint64_t word = (offset + i) & ~uint64_t{7};
    buf[i] = static_cast<unsigned char>(word >> (8 * ((offset + i) % 8)));
  }
  for (; i + 8 <= len; i += 8) {
    const uint64_t word = offset + i;
    std::memcpy(buf + i, &word, 8);
  }
  if (i < len) {
    const uint64_t word = offset + i;
    std::memcpy(buf + i, &word, len - i);
  }
}

uint64_t BlockChecksum(const unsigned char* block, size_t len) {
  const uint64_t head = HashRange(block, kChecksumOffset, 0);
  return HashRange(block + kBlockStampBytes, len - kBlockStampBytes, head);
}

void StampBlocks(unsigned char* buf, size_t len, uint32_t file, uint64_t offset,
                 uint64_t block_size, uint64_t seq) {
  Stamp(buf, len, file, offset, block_size, seq, false);
}

void StampBlocksLight(unsigned char* buf, size_t len, uint32_t file, uint64_t offset,
                      uint64_t block_size, uint64_t seq) {
  Stamp(buf, len, file, offset, block_size, seq, true);
}

BlockStamp ReadStamp(const unsigned char* block) {
  BlockStamp s;
  std::memcpy(&s.magic, block, 4);
  std::memcpy(&s.file, block + 4, 4);
  std::memcpy(&s.offset, block + 8, 8);
  std::memcpy(&s.seq, block + 16, 8);
  std::memcpy(&s.checksum, block + kChecksumOffset, 8);
  return s;
}

bool IsBlockStampMagic(uint32_t magic) { return magic == kStampMagic || magic == kLightMagic; }

bool IsLightStamp(const unsigned char* block) { return ReadStamp(block).magic == kLightMagic; }

std::string CheckBlock(const unsigned char* block, size_t len, uint32_t file, uint64_t offset,
                       uint64_t* seq) {
  const BlockStamp s = ReadStamp(block);
  *seq = s.seq;
  const bool light = s.magic == kLightMagic;
  if (s.magic != kStampMagic && !light) {
    return fmt::format("no block stamp (found 0x{:08x}, expected magic 0x{:08x} or 0x{:08x})",
                       s.magic, kStampMagic, kLightMagic);
  }
  if (s.file != file || s.offset != offset) {
    return fmt::format("the block holds the stamp of file {} offset {} (a misplaced write)", s.file,
                       s.offset);
  }
  const uint64_t sum = light ? LightChecksum(block, len) : BlockChecksum(block, len);
  if (sum != s.checksum) {
    return fmt::format("{}checksum mismatch: computed 0x{:016x}, stamped 0x{:016x} (sequence {})",
                       light ? "light stamp " : "", sum, s.checksum, s.seq);
  }
  return "";
}

}  // namespace loadcell
