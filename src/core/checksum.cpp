#include "core/checksum.h"

#include <array>
#include <bit>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#define LOADCELL_CRC32C_X86 1
#endif

namespace loadcell {
namespace {

// Reflected polynomials (bit 0 is the x^(n-1) term).
constexpr uint32_t kCrc32cPoly = 0x82F63B78u;
constexpr uint64_t kCrc64Poly = 0xC96C5795D7870F42ULL;

// Table k holds the CRC of a byte followed by k zero bytes, so that eight
// input bytes are folded per step (slicing by 8).
template <typename T, T kPoly>
constexpr std::array<std::array<T, 256>, 8> MakeTables() {
  std::array<std::array<T, 256>, 8> t{};
  for (uint32_t b = 0; b < 256; ++b) {
    T crc = b;
    for (int i = 0; i < 8; ++i) crc = (crc & 1) != 0 ? (crc >> 1) ^ kPoly : crc >> 1;
    t[0][b] = crc;
  }
  for (uint32_t b = 0; b < 256; ++b) {
    for (size_t k = 1; k < 8; ++k) t[k][b] = (t[k - 1][b] >> 8) ^ t[0][t[k - 1][b] & 0xFF];
  }
  return t;
}

constexpr auto kCrc32cTables = MakeTables<uint32_t, kCrc32cPoly>();
constexpr auto kCrc64Tables = MakeTables<uint64_t, kCrc64Poly>();

inline uint64_t Load64(const unsigned char* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

inline uint32_t Load32(const unsigned char* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// The loads assume a little-endian machine (every target loadcell builds for).
// Runs the register `crc` (as held between bytes: no initial or final
// xor) over `len` bytes.
template <typename T>
T CrcUpdate(const std::array<std::array<T, 256>, 8>& t, T crc, const unsigned char* p, size_t len) {
  for (; len >= 8; p += 8, len -= 8) {
    const uint64_t x = Load64(p) ^ static_cast<uint64_t>(crc);
    T next = 0;
    for (size_t k = 0; k < 8; ++k) next ^= t[7 - k][(x >> (8 * k)) & 0xFF];
    crc = next;
  }
  for (; len > 0; ++p, --len) crc = (crc >> 8) ^ t[0][(crc ^ *p) & 0xFF];
  return crc;
}

template <typename T>
T Crc(const std::array<std::array<T, 256>, 8>& t, const unsigned char* p, size_t len) {
  return ~CrcUpdate<T>(t, ~T{0}, p, len);
}

// The three streams of the instruction path each take this many bytes per
// step; their registers are then joined by shifting one over the next
// stream's length: a linear map of the register, done by tables.
constexpr size_t kCrc32cStride = 256;

// kCrc32cShift[k][b]: the register b << 8k run over kCrc32cStride zero
// bytes; the register x run over them is the xor of its four bytes' entries.
constexpr std::array<std::array<uint32_t, 256>, 4> MakeShiftTables() {
  std::array<uint32_t, 32> bit{};  // each single-bit register, shifted
  for (size_t i = 0; i < 32; ++i) {
    uint32_t crc = uint32_t{1} << i;
    for (size_t n = 0; n < 8 * kCrc32cStride; ++n) {
      crc = (crc & 1) != 0 ? (crc >> 1) ^ kCrc32cPoly : crc >> 1;
    }
    bit[i] = crc;
  }
  std::array<std::array<uint32_t, 256>, 4> t{};
  for (size_t k = 0; k < 4; ++k) {
    for (size_t b = 0; b < 256; ++b) {
      for (size_t j = 0; j < 8; ++j) {
        if ((b >> j & 1) != 0) t[k][b] ^= bit[8 * k + j];
      }
    }
  }
  return t;
}

constexpr auto kCrc32cShift = MakeShiftTables();

inline uint32_t ShiftOverStride(uint32_t crc) {
  return kCrc32cShift[0][crc & 0xFF] ^ kCrc32cShift[1][(crc >> 8) & 0xFF] ^
         kCrc32cShift[2][(crc >> 16) & 0xFF] ^ kCrc32cShift[3][crc >> 24];
}

#if defined(LOADCELL_CRC32C_X86)
// Three independent streams keep the instruction's pipeline full (one
// result per cycle, three cycles each); the tail goes one stream.
[[gnu::target("sse4.2")]] uint32_t Crc32cInstruction(uint32_t crc, const unsigned char* p,
                                                     size_t len) {
  uint64_t c0 = crc;
  for (; len >= 3 * kCrc32cStride; p += 3 * kCrc32cStride, len -= 3 * kCrc32cStride) {
    uint64_t c1 = 0;
    uint64_t c2 = 0;
    for (size_t i = 0; i < kCrc32cStride; i += 8) {
      c0 = _mm_crc32_u64(c0, Load64(p + i));
      c1 = _mm_crc32_u64(c1, Load64(p + kCrc32cStride + i));
      c2 = _mm_crc32_u64(c2, Load64(p + 2 * kCrc32cStride + i));
    }
    const uint32_t joined = ShiftOverStride(static_cast<uint32_t>(c0)) ^ static_cast<uint32_t>(c1);
    c0 = ShiftOverStride(joined) ^ static_cast<uint32_t>(c2);
  }
  for (; len >= 8; p += 8, len -= 8) c0 = _mm_crc32_u64(c0, Load64(p));
  auto c = static_cast<uint32_t>(c0);
  for (; len > 0; ++p, --len) c = _mm_crc32_u8(c, *p);
  return c;
}
#endif

// x^n mod P as a register holds it (bit j the coefficient of x^(31-j)):
// the constants of the carry-less multiply path.
constexpr uint64_t XPowMod(size_t n) {
  uint32_t v = 0x80000000u;  // x^0
  for (size_t i = 0; i < n; ++i) v = (v & 1) != 0 ? (v >> 1) ^ kCrc32cPoly : v >> 1;
  return v;
}

#if defined(LOADCELL_CRC32C_X86)
// The carry-less multiply path (AVX-512 VPCLMULQDQ): 16-byte blocks of the
// message are folded forward onto later ones, a block's first 8 bytes
// multiplied by x^(d+64) mod P and its last 8 by x^d mod P for a distance
// of d bits (less 33: the product of two registers comes out that many
// places over), which keeps the message's remainder; the last block is
// then the message's, and the crc32 instruction finishes it from 0.
// Four 64-byte accumulators take 256 bytes a step.
[[gnu::target("avx512f,avx512vl,vpclmulqdq,pclmul,sse4.2")]] inline __m512i Fold512(__m512i x,
                                                                                    __m512i k,
                                                                                    __m512i next) {
  const __m512i lo = _mm512_clmulepi64_epi128(x, k, 0x00);
  const __m512i hi = _mm512_clmulepi64_epi128(x, k, 0x11);
  return _mm512_ternarylogic_epi64(lo, hi, next, 0x96);  // lo ^ hi ^ next
}

[[gnu::target("avx512f,avx512vl,vpclmulqdq,pclmul,sse4.2")]] inline __m128i Fold128(__m128i x,
                                                                                    __m128i k) {
  return _mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00), _mm_clmulepi64_si128(x, k, 0x11));
}

// (lo, hi) in each 16-byte lane.
[[gnu::target("avx512f")]] inline __m512i Lanes(uint64_t lo, uint64_t hi) {
  const auto l = static_cast<int64_t>(lo);
  const auto h = static_cast<int64_t>(hi);
  return _mm512_set_epi64(h, l, h, l, h, l, h, l);
}

// The pair of constants that moves a block `bits` forward.
constexpr uint64_t kFoldLo(size_t bits) { return XPowMod(bits + 64 - 33); }
constexpr uint64_t kFoldHi(size_t bits) { return XPowMod(bits - 33); }

// REQUIRES: len >= 256.
[[gnu::target("avx512f,avx512vl,vpclmulqdq,pclmul,sse4.2")]] uint32_t Crc32cMultiply(
    uint32_t crc, const unsigned char* p, size_t len) {
  __m512i x0 = _mm512_loadu_si512(p);
  __m512i x1 = _mm512_loadu_si512(p + 64);
  __m512i x2 = _mm512_loadu_si512(p + 128);
  __m512i x3 = _mm512_loadu_si512(p + 192);
  // The register at the start is the first 4 bytes xored, then run from 0.
  x0 = _mm512_xor_si512(x0, _mm512_zextsi128_si512(_mm_cvtsi32_si128(static_cast<int>(crc))));
  p += 256;
  len -= 256;
  static constexpr uint64_t k2048lo = kFoldLo(2048);
  static constexpr uint64_t k2048hi = kFoldHi(2048);
  const __m512i k2048 = Lanes(k2048lo, k2048hi);
  for (; len >= 256; p += 256, len -= 256) {
    x0 = Fold512(x0, k2048, _mm512_loadu_si512(p));
    x1 = Fold512(x1, k2048, _mm512_loadu_si512(p + 64));
    x2 = Fold512(x2, k2048, _mm512_loadu_si512(p + 128));
    x3 = Fold512(x3, k2048, _mm512_loadu_si512(p + 192));
  }
  static constexpr uint64_t k512lo = kFoldLo(512);
  static constexpr uint64_t k512hi = kFoldHi(512);
  const __m512i k512 = Lanes(k512lo, k512hi);
  __m512i x = Fold512(x0, k512, x1);
  x = Fold512(x, k512, x2);
  x = Fold512(x, k512, x3);
  // The four 16-byte blocks of x onto its last one.
  static constexpr uint64_t k384lo = kFoldLo(384);
  static constexpr uint64_t k384hi = kFoldHi(384);
  static constexpr uint64_t k256lo = kFoldLo(256);
  static constexpr uint64_t k256hi = kFoldHi(256);
  static constexpr uint64_t k128lo = kFoldLo(128);
  static constexpr uint64_t k128hi = kFoldHi(128);
  const __m128i k128 = _mm_set_epi64x(static_cast<int64_t>(k128hi), static_cast<int64_t>(k128lo));
  // Through memory: GCC 12's lane extracts warn as uninitialized.
  uint64_t words[8] = {};  // NOLINT(modernize-avoid-c-arrays)
  _mm512_storeu_si512(words, x);
  const auto lane = [&](size_t n) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(words + 2 * n));
  };
  __m128i r = lane(3);
  r = _mm_xor_si128(r, Fold128(lane(0), _mm_set_epi64x(static_cast<int64_t>(k384hi),
                                                       static_cast<int64_t>(k384lo))));
  r = _mm_xor_si128(r, Fold128(lane(1), _mm_set_epi64x(static_cast<int64_t>(k256hi),
                                                       static_cast<int64_t>(k256lo))));
  r = _mm_xor_si128(r, Fold128(lane(2), k128));
  for (; len >= 16; p += 16, len -= 16) {
    r = _mm_xor_si128(Fold128(r, k128), _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  }
  uint64_t c = _mm_crc32_u64(0, static_cast<uint64_t>(_mm_cvtsi128_si64(r)));
  c = _mm_crc32_u64(c, static_cast<uint64_t>(_mm_extract_epi64(r, 1)));
  for (; len >= 8; p += 8, len -= 8) c = _mm_crc32_u64(c, Load64(p));
  auto out = static_cast<uint32_t>(c);
  for (; len > 0; ++p, --len) out = _mm_crc32_u8(out, *p);
  return out;
}
#endif

bool DetectCrc32cMultiply() {
#if defined(LOADCELL_CRC32C_X86)
  __builtin_cpu_init();
  return __builtin_cpu_supports("sse4.2") != 0 && __builtin_cpu_supports("avx512f") != 0 &&
         __builtin_cpu_supports("avx512vl") != 0 && __builtin_cpu_supports("vpclmulqdq") != 0;
#else
  return false;
#endif
}

bool DetectCrc32cInstruction() {
#if defined(LOADCELL_CRC32C_X86)
  __builtin_cpu_init();
  return __builtin_cpu_supports("sse4.2") != 0;
#else
  return false;
#endif
}

constexpr uint64_t kPrime1 = 0x9E3779B185EBCA87ULL;
constexpr uint64_t kPrime2 = 0xC2B2AE3D27D4EB4FULL;
constexpr uint64_t kPrime3 = 0x165667B19E3779F9ULL;
constexpr uint64_t kPrime4 = 0x85EBCA77C2B2AE63ULL;
constexpr uint64_t kPrime5 = 0x27D4EB2F165667C5ULL;

inline uint64_t Round(uint64_t acc, uint64_t input) {
  acc += input * kPrime2;
  return std::rotl(acc, 31) * kPrime1;
}

inline uint64_t MergeRound(uint64_t acc, uint64_t lane) {
  acc ^= Round(0, lane);
  return acc * kPrime1 + kPrime4;
}

}  // namespace

bool Crc32cHardwareAvailable() {
  static const bool available = DetectCrc32cInstruction();
  return available;
}

uint32_t Crc32cExtendPortable(uint32_t crc, const void* data, size_t len) {
  return ~CrcUpdate<uint32_t>(kCrc32cTables, ~crc, static_cast<const unsigned char*>(data), len);
}

uint32_t Crc32cExtendInstruction(uint32_t crc, const void* data, size_t len) {
#if defined(LOADCELL_CRC32C_X86)
  if (Crc32cHardwareAvailable()) {
    return ~Crc32cInstruction(~crc, static_cast<const unsigned char*>(data), len);
  }
#endif
  return Crc32cExtendPortable(crc, data, len);
}

uint32_t Crc32cExtendMultiply(uint32_t crc, const void* data, size_t len) {
#if defined(LOADCELL_CRC32C_X86)
  static const bool multiply = DetectCrc32cMultiply();
  if (multiply && len >= 256) {
    return ~Crc32cMultiply(~crc, static_cast<const unsigned char*>(data), len);
  }
#endif
  return Crc32cExtendInstruction(crc, data, len);
}

uint32_t Crc32cExtend(uint32_t crc, const void* data, size_t len) {
  return Crc32cExtendMultiply(crc, data, len);
}

uint32_t Crc32c(const void* data, size_t len) { return Crc32cExtend(0, data, len); }

uint64_t Crc64(const void* data, size_t len) {
  return Crc<uint64_t>(kCrc64Tables, static_cast<const unsigned char*>(data), len);
}

uint64_t Xxh64(const void* data, size_t len, uint64_t seed) {
  const auto* p = static_cast<const unsigned char*>(data);
  const unsigned char* const end = p + len;
  uint64_t acc = 0;
  if (len >= 32) {
    uint64_t lane[4] = {seed + kPrime1 + kPrime2, seed + kPrime2, seed, seed - kPrime1};
    for (; end - p >= 32; p += 32) {
      for (size_t i = 0; i < 4; ++i) lane[i] = Round(lane[i], Load64(p + 8 * i));
    }
    acc = std::rotl(lane[0], 1) + std::rotl(lane[1], 7) + std::rotl(lane[2], 12) +
          std::rotl(lane[3], 18);
    for (uint64_t l : lane) acc = MergeRound(acc, l);
  } else {
    acc = seed + kPrime5;
  }
  acc += len;
  for (; end - p >= 8; p += 8) acc = std::rotl(acc ^ Round(0, Load64(p)), 27) * kPrime1 + kPrime4;
  if (end - p >= 4) {
    acc = std::rotl(acc ^ (static_cast<uint64_t>(Load32(p)) * kPrime1), 23) * kPrime2 + kPrime3;
    p += 4;
  }
  for (; p < end; ++p) acc = std::rotl(acc ^ (*p * kPrime5), 11) * kPrime1;
  acc ^= acc >> 33;
  acc *= kPrime2;
  acc ^= acc >> 29;
  acc *= kPrime3;
  acc ^= acc >> 32;
  return acc;
}

}  // namespace loadcell
