#pragma once
// What one fio job does next: the direction, the file, the offset and the
// length of its next I/O, drawn as fio's options say (rw and its :N
// modifier, rwmixread, percentage_random, bs per direction, bsrange,
// bssplit, blockalign, offset, nrfiles, norandommap). Pure: no I/O, one
// instance per job thread.

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "core/random.h"

namespace loadcell {

enum class FioDir : uint8_t { kRead = 0, kWrite = 1, kTrim = 2 };
inline constexpr int kFioDirs = 3;

// The block sizes of one direction: `split` (size, percent; percents add up
// to 100) when bssplit gave it, else drawn in [min, max] as fio draws them
// (multiples of min; min == max: one size). `align` is blockalign: offsets
// are its multiples, sizes are not.
struct FioBlockSizes {
  std::vector<std::pair<uint32_t, double>> split;
  uint32_t min = 4096;
  uint32_t max = 4096;
  uint32_t align = 0;  // 0: min (fio's blockalign default)
};

// random_distribution: how the block of a random offset is drawn.
enum class FioOffsetLaw { kUniform, kZipf, kPareto, kNormal, kZoned };

// One zone of a zoned distribution: `access_pct` of a direction's random
// offsets fall in it, uniformly; it is `size_pct` percent of the region
// (zoned) or `size_bytes` long (zoned_abs, when `absolute`). Zones follow
// one another from the region's start.
struct FioZoneShare {
  double access_pct = 0;
  double size_pct = 0;
  uint64_t size_bytes = 0;
};

struct FioOffsetDistribution {
  FioOffsetLaw law = FioOffsetLaw::kUniform;
  // zipf: theta; pareto: h; normal: fio's DEV as a fraction of the region
  // (the width of the deviation draw added to its bell).
  double parameter = 0;
  // zipf, pareto, normal: where the most likely block lies, a fraction of
  // the region; negative: zipf and pareto scatter their hot blocks over the
  // region (a fixed random order of its blocks), and so does normal.
  double center = -1;
  bool absolute = false;  // zoned_abs
  // Per direction; an empty direction takes the first one given.
  std::array<std::vector<FioZoneShare>, 3> zones;
};

// DiskSpd's sequential I/O (loadcell diskspd): one offset for every
// direction, from `start` (DiskSpd's thread stride, -T), advancing by
// `stride` (-s; 0: the request's length); when the next request would pass
// the region's end the offset goes back to start % stride. With `shared`
// (-si) every thread of a target takes its offsets from one counter, each
// the next stride, wrapping at the region's whole strides. With
// `per_request` (-p, DiskSpd's parallel async I/O) each request the job
// keeps in flight walks the sequence on its own, from `start`: the caller
// keeps each request's position and hands it to Next/NextIn.
struct FioSingleSequence {
  bool on = false;
  uint64_t start = 0;
  uint64_t stride = 0;
  std::shared_ptr<std::atomic<uint64_t>> shared;
  bool per_request = false;
};

struct FioPatternSettings {
  std::array<bool, kFioDirs> dirs{true, false, false};  // what the rw mode does
  bool random = false;                                  // rand* modes
  // Mixed modes: the share of reads, 0..100 (rwmixread).
  double read_pct = 50;
  // trimwrite: each block is trimmed, then written.
  bool trim_then_write = false;
  // Random modes: the share of random offsets per direction (read, write,
  // trim), 0..100 (percentage_random); the rest sequential.
  std::array<double, kFioDirs> random_pct{100, 100, 100};
  // rw=MODE:N: bytes skipped after each sequential I/O (negative: backwards);
  // for random modes N I/Os at the same offset before a new one is drawn.
  int64_t seq_skip = 0;
  std::array<FioBlockSizes, kFioDirs> bs;
  uint32_t files = 1;
  // Each file's region: [offset, offset + length).
  uint64_t region_offset = 0;
  uint64_t region_length = 0;
  // Each file's own length, when the files differ (filesize=LOW-HIGH: each
  // file's size drawn); empty: region_length for every file. Random
  // distributions other than uniform need one length (the front end
  // refuses the mix).
  std::vector<uint64_t> region_lengths;
  // Without it each block of a file's region is used once per pass over it
  // in a random order (fio's random map); with it offsets repeat.
  bool norandommap = false;
  // random_generator=lfsr: uniform random offsets come from a full-cycle
  // generator over the region's blocks (of the smallest size) instead of
  // the random map, with or without norandommap: each block's offset once
  // per pass, in the same order every pass, and no map even with requests
  // of several sizes (which are then never cut, and may overlap: fio's
  // lfsr). A request that would pass the region's end is cut to it.
  bool full_cycle = false;
  // Random offsets other than uniform never use the random map (fio's rule:
  // the planner sets norandommap with them).
  FioOffsetDistribution distribution;
  uint64_t seed = 0;
  FioSingleSequence single_sequence;  // DiskSpd's sequential I/O (off for fio)
  // A sequential pattern with holes (rw=MODE:N, N > 0) in a time-based
  // job: a direction whose last I/O reached its region's end starts again
  // from the start (fio's rule); otherwise the pass ends there (Exhausted).
  bool time_based = false;
};

struct FioIo {
  FioDir dir = FioDir::kRead;
  uint32_t file = 0;
  uint64_t offset = 0;  // from the start of the file
  uint32_t length = 0;
};

// fio's random map for requests of several sizes: one bit per block of the
// smallest size. A request takes the first free block at or after the one
// drawn (wrapping) and as many free blocks after it as its size covers, up
// to the first used one: a request that does not fit is cut to the free run,
// as fio cuts it. Once every block was used a new pass begins.
class FioBlockMap {
 public:
  void Reset(uint64_t blocks);
  // REQUIRES: !Full(). Takes up to `want` (>= 1) free blocks from the first
  // free one at or after `block`; returns the first and how many.
  std::pair<uint64_t, uint64_t> Take(uint64_t block, uint64_t want);
  bool Full() const { return used_ >= blocks_; }

 private:
  bool Free(uint64_t b) const { return (words_[b >> 6] >> (b & 63) & 1) == 0; }
  void Mark(uint64_t b);
  uint64_t NextFree(uint64_t b) const;

  std::vector<uint64_t> words_;
  std::vector<uint64_t> full_;  // one bit per word of words_: all its blocks used
  uint64_t blocks_ = 0;
  uint64_t used_ = 0;
};

class FioPattern {
 public:
  explicit FioPattern(const FioPatternSettings& s);
  // The next I/O, its direction drawn (rwmixread). `own_seq`: a request's
  // own sequential position (single_sequence.per_request; negative: not
  // started), used and advanced instead of the job's; null: the job's.
  FioIo Next(int64_t* own_seq = nullptr);
  // The direction the next I/O would take, drawn as Next() draws it; then
  // NextIn(that direction, or another the job does) gives the I/O. Lets a
  // rate-limited job go on in a direction that is due while the drawn one
  // is ahead of its rate.
  FioDir DrawDirection() { return DrawDir(); }
  FioIo NextIn(FioDir dir, int64_t* own_seq = nullptr);

  // A sequential pattern with holes (rw=MODE:N, N > 0, no trimwrite) ends
  // its pass as fio 3.33 does: a file is done once the direction drawn has
  // no next offset in it (the offset after the skip is past the region, or
  // the smallest block no longer fits before its end; an offset past the
  // file's end goes back to the start instead), the next file is tried,
  // and when every file is done Next gives an I/O of length 0 and
  // Exhausted() holds until NewPass().
  bool Holed() const { return holed_; }
  bool Exhausted() const { return exhausted_; }
  // A new pass, as fio begins each of loops= (and each pass of a
  // time-based or io_size-bound job): every sequential position back to
  // the start and every file open again.
  void NewPass();

  // The largest request any direction draws (for buffers), and the
  // smallest (the random map's block, the least a cut request may keep).
  uint32_t MaxBlockSize() const;
  uint32_t MinBlockSize() const { return unit_; }

 private:
  FioDir DrawDir();
  uint32_t DrawSize(FioDir d);
  // Where a backward sequence (rw=MODE:-N) goes on once past the start.
  int64_t BackwardWrap(uint64_t region, uint32_t length) const;
  uint64_t RandomBlock(uint32_t file, FioDir dir);
  // full_cycle: file `file`'s next block of its cycle.
  uint64_t CycleBlock(uint32_t file);
  uint64_t NextSingleSequential(int64_t& seq, uint32_t length, uint64_t region);
  // Holed(): the next I/O of direction `dir`, files in turn, skipping and
  // marking done the files it has no offset in; false when every file is
  // done.
  bool NextHoled(FioIo& io);
  // Holed(): the offset and length of `dir`'s next I/O in `file` (fio's
  // sequential step with holes); false when the file has none.
  bool HoledStep(uint32_t file, FioDir dir, FioIo& io);
  void SetUpDistribution();
  uint64_t SkewedBlock(FioDir dir);

  // The file of the next I/O: in turn; with files of several sizes the
  // ones whose pass is done wait until every file's is (fio moves on from
  // a file it finished), so that each file is done once per pass.
  uint32_t NextFile();
  // File `file`'s region length and its blocks of the random map.
  uint64_t RegionOf(uint32_t file) const;
  uint64_t BlocksOf(uint32_t file) const { return file_blocks_[file]; }

  FioPatternSettings s_;
  Random rng_;
  uint32_t next_file_ = 0;
  // Per file: the next sequential offset (relative to the region) and,
  // for the random map, the pass's position in its permutation.
  std::vector<int64_t> seq_pos_;
  // Requests of several sizes use the map (per file); one size the
  // permutation, which needs no memory.
  bool use_map_ = false;
  std::vector<FioBlockMap> maps_;
  std::vector<uint64_t> perm_pos_;
  std::vector<uint64_t> perm_key_;
  // full_cycle: per file, the generator's state and the blocks given in
  // this pass; the job's multiplier and increment.
  std::vector<uint64_t> cycle_state_;
  uint64_t cycle_mul_ = 5;
  uint64_t cycle_add_ = 1;
  uint64_t blocks_ = 1;  // random map granularity: min block size
  uint32_t unit_ = 4096;
  int perm_bits_ = 1;
  // Per file (they differ with region_lengths): its blocks and the
  // permutation's half width.
  std::vector<uint64_t> file_blocks_;
  std::vector<int> file_perm_bits_;
  // With region_lengths: the bytes each file has left in this pass.
  std::vector<uint64_t> pass_left_;
  bool pending_write_ = false;  // trimwrite: the write of the block just trimmed
  bool holed_ = false;
  bool exhausted_ = false;
  std::vector<uint8_t> file_done_;  // Holed(): the files done in this pass
  FioIo last_{};
  int64_t repeat_left_ = 0;
  // random_distribution other than uniform: zipf and pareto draw a rank
  // (0 the most likely) from the core's law over the blocks; zoned draws a
  // zone, then a block in it.
  struct Zone {
    double access_below = 0;  // percent of draws up to and including this zone
    uint64_t first = 0;       // its first block
    uint64_t blocks = 1;
  };
  std::optional<Distribution> ranks_;
  uint64_t scatter_key_ = 0;
  uint64_t normal_width_ = 0;  // normal: the width of its deviation draw, in blocks
  std::array<std::vector<Zone>, kFioDirs> zones_;
};

}  // namespace loadcell
