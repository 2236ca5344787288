#pragma once
// What a fio job writes: its write buffers filled as fio's buffer options
// say (zero_buffers, refill_buffers, scramble_buffers, buffer_pattern,
// buffer_compress_percentage, buffer_compress_chunk, dedupe_percentage),
// and the estimates of how much of such data compressing or deduplicating
// storage would not store, which the job states for the verdict. Pure: no
// I/O, one FioBufferFill per job thread.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/random.h"

namespace loadcell {

struct FioBufferSettings {
  bool zero = false;    // zero_buffers: every buffer all zeros
  bool refill = false;  // refill_buffers: new random bytes (or the pattern) for every write
  // scramble_buffers: the random buffers filled once are made unlike each
  // earlier write (the first 8 bytes of each 512-byte sector, fileio's
  // MakeSectorsUnique) for every write.
  bool scramble = true;
  // buffer_compress_percentage as a fraction: each chunk of compress_chunk
  // bytes (0: the whole buffer) is random bytes for (1 - fraction) of it,
  // then the pattern (zeros without one). Any value above 0 refills every
  // write, as fio.
  double compress_fraction = 0;
  uint64_t compress_chunk = 512;
  // buffer_pattern: its bytes repeated from the start of each buffer (or,
  // with compress_fraction, from the start of each chunk's fixed part).
  std::string pattern;
  // dedupe_percentage as a fraction: the share of writes whose buffer is
  // the previous unique write's again (fio's default dedupe_mode=repeat);
  // above 0 it refills every write, as fio.
  double dedupe_fraction = 0;
};

class FioBufferFill {
 public:
  FioBufferFill(FioBufferSettings s, uint64_t seed);

  // Fills a buffer once, when the job's buffers are made.
  void Initial(unsigned char* buf, size_t len);
  // Makes a buffer ready for a write of `len` bytes; `tag` is unique to the
  // write (its number in the job). Nothing is done when the buffers are
  // filled once (zeros, a pattern, scramble_buffers=0).
  void ForWrite(unsigned char* buf, size_t len, uint64_t tag);

  // Whether the buffers are filled once only (zeros, a pattern), so that a
  // buffer a read filled must be filled again before it is written.
  bool FilledOnce() const { return s_.zero || (!s_.pattern.empty() && !RefillsEachWrite()); }

  // "zero", "pattern", "compressible", "dedupe", "refill", "random",
  // "random, not scrambled": what the buffers hold, for the manifest.
  std::string Describe() const;

 private:
  // A new buffer's bytes from `seed` (compress_fraction and the pattern).
  void FillFromSeed(unsigned char* buf, size_t len, uint64_t seed) const;
  bool RefillsEachWrite() const;

  FioBufferSettings s_;
  Random rng_;
  uint64_t unique_seed_ = 0;  // the last unique buffer's (dedupe repeats it)
  bool have_unique_ = false;
};

// Repeats `pattern` over `len` bytes from its first byte (zeros when the
// pattern is empty).
void FillPattern(unsigned char* buf, size_t len, const std::string& pattern);

// The share of the 8-byte words of `len` bytes (the whole words) that equal
// a word earlier in the same bytes: what a compressor that finds repeated
// strings would remove, roughly. 0 for random bytes, near 1 for zeros or a
// repeating pattern, about f for buffer_compress_percentage=f*100.
double RepeatedWordFraction(const unsigned char* buf, size_t len);

// What a job's writes hold, estimated from `count` sample buffers of `len`
// bytes filled as the job fills them: the share compressing storage would
// not store (RepeatedWordFraction over the samples) and the share of
// buffers equal to an earlier one (what deduplicating storage would not
// store).
struct FioWriteDataEstimate {
  double compressible = 0;
  double duplicate = 0;
};
FioWriteDataEstimate EstimateWriteData(const FioBufferSettings& s, size_t len, int count,
                                       uint64_t seed);

}  // namespace loadcell
