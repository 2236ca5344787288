#include "workloads/fio/fio_buffers.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/checksum.h"
#include "workloads/fileio/fileio_data.h"

namespace loadcell {

FioBufferFill::FioBufferFill(FioBufferSettings s, uint64_t seed) : s_(std::move(s)), rng_(seed) {}

bool FioBufferFill::RefillsEachWrite() const {
  return !s_.zero && (s_.refill || s_.compress_fraction > 0 || s_.dedupe_fraction > 0);
}

void FioBufferFill::FillFromSeed(unsigned char* buf, size_t len, uint64_t seed) const {
  Random rng(seed);
  if (s_.compress_fraction <= 0) {
    // A pattern stays the pattern when refilled (refill_buffers, verify).
    if (s_.pattern.empty()) {
      FillRandom(buf, len, rng);
    } else {
      FillPattern(buf, len, s_.pattern);
    }
    return;
  }
  const size_t chunk = s_.compress_chunk == 0 ? len : static_cast<size_t>(s_.compress_chunk);
  for (size_t at = 0; at < len; at += chunk) {
    const size_t n = std::min(chunk, len - at);
    const auto random =
        static_cast<size_t>(std::llround(static_cast<double>(n) * (1 - s_.compress_fraction)));
    FillRandom(buf + at, random, rng);
    FillPattern(buf + at + random, n - random, s_.pattern);
  }
}

void FioBufferFill::Initial(unsigned char* buf, size_t len) {
  if (s_.zero) {
    std::memset(buf, 0, len);
  } else if (!s_.pattern.empty() && !RefillsEachWrite()) {
    FillPattern(buf, len, s_.pattern);
  } else {
    FillFromSeed(buf, len, rng_.Next());
  }
}

void FioBufferFill::ForWrite(unsigned char* buf, size_t len, uint64_t tag) {
  if (RefillsEachWrite()) {
    const bool repeat =
        have_unique_ && s_.dedupe_fraction > 0 && rng_.NextDouble() < s_.dedupe_fraction;
    if (!repeat) {
      unique_seed_ = rng_.Next();
      have_unique_ = true;
    }
    FillFromSeed(buf, len, unique_seed_);
    return;
  }
  if (!s_.zero && s_.pattern.empty() && s_.scramble) MakeSectorsUnique(buf, len, tag);
}

std::string FioBufferFill::Describe() const {
  if (s_.zero) return "zero";
  if (s_.dedupe_fraction > 0) return "dedupe";
  if (s_.compress_fraction > 0) return "compressible";
  if (!s_.pattern.empty()) return "pattern";
  if (s_.refill) return "refill";
  return s_.scramble ? "random" : "random, not scrambled";
}

void FillPattern(unsigned char* buf, size_t len, const std::string& pattern) {
  if (pattern.empty()) {
    std::memset(buf, 0, len);
    return;
  }
  const size_t first = std::min(len, pattern.size());
  std::copy_n(pattern.begin(), first, buf);
  // Doubling copies: each copies whole periods already in place.
  for (size_t done = first; done < len;) {
    const size_t n = std::min(done / pattern.size() * pattern.size(), len - done);
    std::memcpy(buf + done, buf, n);
    done += n;
  }
}

double RepeatedWordFraction(const unsigned char* buf, size_t len) {
  const size_t words = len / 8;
  if (words == 0) return 0;
  // The words seen, in an open-addressed table at least twice their number
  // (linear probing; 0 marks an empty slot, so the word 0 is kept apart):
  // one allocation rather than a node per word (a job's estimate looks at
  // 64 buffers of up to 8,192 words).
  const size_t slots = std::bit_ceil(2 * words);
  const int shift = 64 - std::countr_zero(slots);
  std::vector<uint64_t> table(slots, 0);
  bool seen_zero = false;
  size_t repeated = 0;
  for (size_t i = 0; i < words; ++i) {
    uint64_t w;
    std::memcpy(&w, buf + 8 * i, 8);
    if (w == 0) {
      if (seen_zero) ++repeated;
      seen_zero = true;
      continue;
    }
    size_t at = static_cast<size_t>((w * 0x9E3779B97F4A7C15ULL) >> shift);
    while (table[at] != 0 && table[at] != w) at = (at + 1) & (slots - 1);
    if (table[at] == w) {
      ++repeated;
    } else {
      table[at] = w;
    }
  }
  return static_cast<double>(repeated) / static_cast<double>(words);
}

FioWriteDataEstimate EstimateWriteData(const FioBufferSettings& s, size_t len, int count,
                                       uint64_t seed) {
  FioWriteDataEstimate e;
  if (len == 0 || count <= 0) return e;
  FioBufferFill fill(s, seed);
  std::vector<unsigned char> buf(len);
  fill.Initial(buf.data(), len);
  std::unordered_set<uint64_t> hashes;
  double compressible = 0;
  int duplicates = 0;
  for (int i = 0; i < count; ++i) {
    fill.ForWrite(buf.data(), len, static_cast<uint64_t>(i) + 1);
    compressible += RepeatedWordFraction(buf.data(), len);
    if (!hashes.insert(Xxh64(buf.data(), len, 0)).second) ++duplicates;
  }
  e.compressible = compressible / count;
  e.duplicate = static_cast<double>(duplicates) / count;
  return e;
}

}  // namespace loadcell
