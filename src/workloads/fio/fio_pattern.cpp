#include "workloads/fio/fio_pattern.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace loadcell {
namespace {

uint64_t MixBits(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// A bijection of [0, 2^(2 half)) keyed by `key` (a Feistel network), walked
// until it lands below `n`: a random order of [0, n) without a table.
uint64_t PermuteBelow(uint64_t i, uint64_t n, uint64_t key, int half) {
  const uint64_t mask = (uint64_t{1} << half) - 1;
  uint64_t x = i;
  do {
    uint64_t l = x >> half;
    uint64_t r = x & mask;
    for (int round = 0; round < 4; ++round) {
      const uint64_t f = MixBits(r ^ key ^ (static_cast<uint64_t>(round) << 56)) & mask;
      const uint64_t t = l ^ f;
      l = r;
      r = t;
    }
    x = (l << half) | r;
  } while (x >= n);
  return x;
}

// A bijection of the w-bit numbers (mask = 2^w - 1): xorshifts and an odd
// multiplier, each invertible modulo 2^w. Scrambles the full cycle's order
// without leaving any number out.
uint64_t ScrambleBits(uint64_t x, uint64_t mask, int w) {
  const int shift = std::max(1, w / 2);
  x ^= x >> shift;
  x = (x * 0xD6E8FEB86659FD93ULL) & mask;
  x ^= x >> shift;
  return x;
}

}  // namespace

void FioBlockMap::Reset(uint64_t blocks) {
  blocks_ = blocks;
  used_ = 0;
  words_.assign((blocks + 63) / 64, 0);
  full_.assign((words_.size() + 63) / 64, 0);
  // The last word's bits past the end count as used.
  if (blocks % 64 != 0) words_.back() = ~uint64_t{0} << (blocks % 64);
  // Likewise the summary's bits past the last word.
  if (words_.size() % 64 != 0) full_.back() = ~uint64_t{0} << (words_.size() % 64);
}

void FioBlockMap::Mark(uint64_t b) {
  uint64_t& w = words_[b >> 6];
  w |= uint64_t{1} << (b & 63);
  ++used_;
  if (w == ~uint64_t{0}) full_[(b >> 6) >> 6] |= uint64_t{1} << ((b >> 6) & 63);
}

uint64_t FioBlockMap::NextFree(uint64_t b) const {
  const size_t nw = words_.size();
  size_t w = b >> 6;
  uint64_t free = ~words_[w] & (~uint64_t{0} << (b & 63));
  if (free != 0) return (w << 6) + static_cast<uint64_t>(std::countr_zero(free));
  // The next word not full after w, wrapping (w itself last, whole): 64
  // words at a time through the summary.
  for (size_t seen = 0; seen < nw;) {
    w = w + 1 == nw ? 0 : w + 1;
    const uint64_t summary = ~full_[w >> 6] & (~uint64_t{0} << (w & 63));
    if (summary == 0) {
      // Every word from w to the end of its group is full.
      const size_t group_end = std::min(nw, ((w >> 6) + 1) << 6);
      seen += group_end - w;
      w = group_end - 1;
      continue;
    }
    const size_t next = ((w >> 6) << 6) + static_cast<size_t>(std::countr_zero(summary));
    seen += next - w + 1;
    w = next;
    free = ~words_[w];
    if (free != 0) return (w << 6) + static_cast<uint64_t>(std::countr_zero(free));
  }
  return 0;  // unreachable while !Full()
}

std::pair<uint64_t, uint64_t> FioBlockMap::Take(uint64_t block, uint64_t want) {
  const uint64_t first = NextFree(block % blocks_);
  uint64_t n = 0;
  while (n < want && first + n < blocks_ && Free(first + n)) Mark(first + n++);
  return {first, n};
}

FioPattern::FioPattern(const FioPatternSettings& s) : s_(s), rng_(s.seed) {
  if (s_.files == 0) s_.files = 1;
  uint32_t align = UINT32_MAX, smallest_size = UINT32_MAX;
  for (int d = 0; d < kFioDirs; ++d) {
    if (!s_.dirs[d]) continue;
    const FioBlockSizes& b = s_.bs[d];
    uint32_t smallest = b.min;
    for (const auto& [size, pct] : b.split) smallest = std::min(smallest, size);
    align = std::min(align, b.align != 0 ? b.align : smallest);
    smallest_size = std::min(smallest_size, smallest);
    if (!b.split.empty() || b.max > b.min) use_map_ = !s_.norandommap && !s_.full_cycle;
  }
  // fio's random map counts in the smallest size: with it, requests are
  // whole such blocks, so a blockalign below it aligns nothing finer (and
  // no request is cut below it).
  unit_ = use_map_ && s_.random ? std::max(align, smallest_size) : align;
  if (unit_ == UINT32_MAX || unit_ == 0) unit_ = 4096;
  const auto half_bits = [](uint64_t blocks) {
    const int bits = static_cast<int>(std::bit_width(blocks - 1));
    return std::max(1, (bits + 1) / 2);
  };
  blocks_ = std::max<uint64_t>(1, s_.region_length / unit_);
  perm_bits_ = half_bits(blocks_);
  for (uint32_t f = 0; f < s_.files; ++f) {
    file_blocks_.push_back(std::max<uint64_t>(1, RegionOf(f) / unit_));
    file_perm_bits_.push_back(half_bits(file_blocks_.back()));
    if (!s_.region_lengths.empty()) pass_left_.push_back(RegionOf(f));
  }
  seq_pos_.assign(static_cast<size_t>(s_.files) * kFioDirs,
                  s_.single_sequence.on ? static_cast<int64_t>(s_.single_sequence.start) : 0);
  if (use_map_ && s_.random) {
    maps_.resize(s_.files);
    for (uint32_t f = 0; f < s_.files; ++f) maps_[f].Reset(BlocksOf(f));
  }
  holed_ = !s_.random && s_.seq_skip > 0 && !s_.single_sequence.on && !s_.trim_then_write;
  file_done_.assign(s_.files, 0);
  perm_pos_.assign(s_.files, 0);
  perm_key_.resize(s_.files);
  for (uint64_t& k : perm_key_) k = rng_.Next();
  if (s_.full_cycle) {
    // x -> mul * x + add modulo 2^w visits every w-bit number once per 2^w
    // steps when add is odd and mul is 1 modulo 4 (Hull and Dobell).
    cycle_mul_ = (rng_.Next() & ~uint64_t{3}) | 1;
    cycle_add_ = rng_.Next() | 1;
    cycle_state_.assign(s_.files, 0);
    perm_pos_.assign(s_.files, 0);
  }
  SetUpDistribution();
}

void FioPattern::SetUpDistribution() {
  const FioOffsetDistribution& d = s_.distribution;
  if (d.law == FioOffsetLaw::kNormal) {
    // fio 3.33's width of the deviation draw: DEV percent of the blocks,
    // rounded up, at most half of them.
    normal_width_ = std::min(
        blocks_ / 2, static_cast<uint64_t>(std::ceil(d.parameter * static_cast<double>(blocks_))));
    scatter_key_ = MixBits(s_.seed ^ 0x5A17E5ULL);
  }
  if (d.law == FioOffsetLaw::kZipf || d.law == FioOffsetLaw::kPareto) {
    DistributionConfig cfg;
    cfg.type = d.law == FioOffsetLaw::kZipf ? "zipfian" : "pareto";
    cfg.zipfian_exp = d.parameter;
    cfg.pareto_h = d.parameter;
    Result<Distribution> made = Distribution::Create(cfg, 0, blocks_ - 1);
    // The front end checked the parameter; a value the core refuses all
    // the same leaves the offsets uniform.
    if (made.ok()) ranks_ = *made;
    scatter_key_ = MixBits(s_.seed ^ 0x5A17E5ULL);
  }
  if (d.law != FioOffsetLaw::kZoned) return;
  const std::vector<FioZoneShare>* first = nullptr;
  for (const auto& z : d.zones) {
    if (first == nullptr && !z.empty()) first = &z;
  }
  if (first == nullptr) return;
  for (int dir = 0; dir < kFioDirs; ++dir) {
    const std::vector<FioZoneShare>& given = d.zones[dir].empty() ? *first : d.zones[dir];
    uint64_t at = 0;
    double access = 0;
    for (const FioZoneShare& z : given) {
      if (at >= blocks_) break;
      const double want = d.absolute ? static_cast<double>(z.size_bytes) / unit_
                                     : z.size_pct / 100 * static_cast<double>(blocks_);
      const uint64_t n =
          std::clamp<uint64_t>(static_cast<uint64_t>(std::llround(want)), 1, blocks_ - at);
      access += z.access_pct;
      zones_[dir].push_back(Zone{access, at, n});
      at += n;
    }
  }
}

// A block of the region drawn by the job's random_distribution.
uint64_t FioPattern::SkewedBlock(FioDir dir) {
  const FioOffsetDistribution& d = s_.distribution;
  const double blocks = static_cast<double>(blocks_);
  switch (d.law) {
    case FioOffsetLaw::kZipf:
    case FioOffsetLaw::kPareto: {
      if (!ranks_) break;
      const uint64_t rank = ranks_->Next(rng_);
      if (d.center < 0) return PermuteBelow(rank, blocks_, scatter_key_, perm_bits_);
      const uint64_t shift = std::min(blocks_ - 1, static_cast<uint64_t>(d.center * blocks));
      return (rank + shift) % blocks_;
    }
    case FioOffsetLaw::kNormal: {
      // fio 3.33's normal: the mean of 12 uniform draws over [0, blocks]
      // (rounded up; a bell about the middle with a deviation of about a
      // twelfth of the blocks, whatever DEV), moved by a uniform draw in a
      // window DEV percent of the blocks wide about 0 (halved until it
      // stays in the region), then scattered as zipf's ranks, or moved so
      // that the middle is at the center.
      constexpr uint64_t kDraws = 12;
      uint64_t sum = 0;
      for (uint64_t i = 0; i < kDraws; ++i) sum += rng_.Uniform(0, blocks_);
      int64_t at = static_cast<int64_t>((sum + kDraws - 1) / kDraws);
      const int64_t n = static_cast<int64_t>(blocks_);
      if (normal_width_ != 0) {
        const int64_t width = static_cast<int64_t>(normal_width_);
        int64_t dev = static_cast<int64_t>(rng_.Uniform(0, normal_width_ - 1)) - width / 2;
        while (at + dev < 0 || at + dev >= n) dev /= 2;
        at += dev;
      }
      const uint64_t block = static_cast<uint64_t>(std::min(at, n - 1));
      if (d.center < 0) return PermuteBelow(block, blocks_, scatter_key_, perm_bits_);
      const uint64_t shift = static_cast<uint64_t>(d.center * blocks) + blocks_ - blocks_ / 2;
      return (block + shift) % blocks_;
    }
    case FioOffsetLaw::kZoned: {
      const std::vector<Zone>& zones = zones_[static_cast<int>(dir)];
      if (zones.empty()) break;
      const double x = rng_.NextDouble() * zones.back().access_below;
      for (const Zone& z : zones) {
        if (x < z.access_below) return z.first + rng_.Uniform(0, z.blocks - 1);
      }
      const Zone& z = zones.back();
      return z.first + rng_.Uniform(0, z.blocks - 1);
    }
    case FioOffsetLaw::kUniform:
      break;
  }
  return rng_.Uniform(0, blocks_ - 1);
}

uint32_t FioPattern::MaxBlockSize() const {
  uint32_t m = 0;
  for (int d = 0; d < kFioDirs; ++d) {
    if (!s_.dirs[d]) continue;
    m = std::max(m, s_.bs[d].max);
    for (const auto& [size, pct] : s_.bs[d].split) m = std::max(m, size);
  }
  return m;
}

FioDir FioPattern::DrawDir() {
  const bool r = s_.dirs[0], w = s_.dirs[1], t = s_.dirs[2];
  if (r && w) return rng_.NextDouble() * 100 < s_.read_pct ? FioDir::kRead : FioDir::kWrite;
  if (w) return FioDir::kWrite;
  if (t) return FioDir::kTrim;
  return FioDir::kRead;
}

uint32_t FioPattern::DrawSize(FioDir d) {
  const FioBlockSizes& b = s_.bs[static_cast<int>(d)];
  if (!b.split.empty()) {
    double x = rng_.NextDouble() * 100;
    for (const auto& [size, pct] : b.split) {
      if (x < pct) return size;
      x -= pct;
    }
    return b.split.back().first;
  }
  if (b.max <= b.min) return b.min;
  // fio's draw: min plus a uniform share of max, cut down to a multiple of
  // min and capped at max. blockalign aligns offsets, never sizes.
  uint64_t size = b.min + static_cast<uint64_t>(rng_.NextDouble() * b.max);
  size -= size % b.min;
  return static_cast<uint32_t>(std::min<uint64_t>(size, b.max));
}

int64_t FioPattern::BackwardWrap(uint64_t region, uint32_t length) const {
  // rw=MODE:-N past the start goes on N bytes before the region's end, as
  // fio's does (0, then size - N, size - N - (N - bs), ...).
  const uint64_t back = static_cast<uint64_t>(-s_.seq_skip);
  if (back >= length && back <= region) return static_cast<int64_t>(region - back);
  return static_cast<int64_t>(region - length);
}

uint32_t FioPattern::NextFile() {
  uint32_t f = next_file_;
  if (!pass_left_.empty()) {
    uint32_t passed = 0;
    while (pass_left_[f] == 0 && passed < s_.files) {
      f = f + 1 == s_.files ? 0 : f + 1;
      ++passed;
    }
    if (passed == s_.files) {
      // Every file's pass is done: the next pass begins.
      for (uint32_t i = 0; i < s_.files; ++i) pass_left_[i] = RegionOf(i);
      f = next_file_;
    }
  }
  next_file_ = f + 1 == s_.files ? 0 : f + 1;
  return f;
}

uint64_t FioPattern::RegionOf(uint32_t file) const {
  return file < s_.region_lengths.size() ? s_.region_lengths[file] : s_.region_length;
}

uint64_t FioPattern::CycleBlock(uint32_t file) {
  const uint64_t blocks = BlocksOf(file);
  uint64_t& given = perm_pos_[file];
  uint64_t& x = cycle_state_[file];
  // Every block given: the next pass, from the same start (the same order).
  if (given == blocks) given = x = 0;
  const int w = std::max(1, static_cast<int>(std::bit_width(blocks - 1)));
  const uint64_t mask = w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
  // The cycle's numbers at or above `blocks` are stepped over (fewer than
  // half of them), so each block comes once in each cycle.
  uint64_t b = 0;
  do {
    x = (x * cycle_mul_ + cycle_add_) & mask;
    b = ScrambleBits(x, mask, w);
  } while (b >= blocks);
  ++given;
  return b;
}

uint64_t FioPattern::RandomBlock(uint32_t file, FioDir dir) {
  if (s_.distribution.law != FioOffsetLaw::kUniform) return SkewedBlock(dir);
  if (s_.full_cycle) return CycleBlock(file);
  const uint64_t blocks = BlocksOf(file);
  if (s_.norandommap) return rng_.Uniform(0, blocks - 1);
  uint64_t& pos = perm_pos_[file];
  if (pos == blocks) {
    // Every block of the pass was used: a new pass, in a new order.
    pos = 0;
    perm_key_[file] = rng_.Next();
  }
  return PermuteBelow(pos++, blocks, perm_key_[file], file_perm_bits_[file]);
}

FioIo FioPattern::Next(int64_t* own_seq) {
  if (pending_write_) {
    pending_write_ = false;
    FioIo io = last_;
    io.dir = FioDir::kWrite;
    return io;
  }
  return NextIn(s_.trim_then_write ? FioDir::kTrim : DrawDir(), own_seq);
}

FioIo FioPattern::NextIn(FioDir dir, int64_t* own_seq) {
  FioIo io;
  io.dir = dir;
  if (holed_) {
    if (!NextHoled(io)) {
      exhausted_ = true;
      io.offset = s_.region_offset;
      io.length = 0;
    }
    return io;
  }
  io.file = NextFile();
  io.length = DrawSize(io.dir);
  const uint64_t region = std::max<uint64_t>(RegionOf(io.file), io.length);
  // DiskSpd's one offset serves every direction.
  const int slot = s_.single_sequence.on ? 0 : static_cast<int>(io.dir);
  int64_t& seq =
      own_seq != nullptr
          ? *own_seq
          : seq_pos_[static_cast<size_t>(io.file) * kFioDirs + static_cast<size_t>(slot)];
  const double random_pct = s_.random_pct[static_cast<size_t>(io.dir)];
  bool random = s_.random && (random_pct >= 100 || rng_.NextDouble() * 100 < random_pct);
  if (random && s_.seq_skip > 0 && repeat_left_ > 0) {
    // rw=randMODE:N: N I/Os from one random offset, one after another.
    --repeat_left_;
    random = false;
  } else if (random && s_.seq_skip > 0) {
    repeat_left_ = s_.seq_skip - 1;
  }
  uint64_t pos = 0;
  if (random && !maps_.empty()) {
    FioBlockMap& map = maps_[io.file];
    const uint64_t blocks = BlocksOf(io.file);
    if (map.Full()) map.Reset(blocks);  // a new pass
    const uint64_t want = std::max<uint64_t>(1, (io.length + unit_ - 1) / unit_);
    const auto [first, got] = map.Take(rng_.Uniform(0, blocks - 1), want);
    pos = first * unit_;
    if (got < want) io.length = static_cast<uint32_t>(got * unit_);
    seq = static_cast<int64_t>(pos + io.length);
  } else if (random) {
    pos = RandomBlock(io.file, io.dir) * unit_;
    if (pos + io.length > region && s_.full_cycle) {
      io.length = static_cast<uint32_t>(region - pos);
    } else if (pos + io.length > region) {
      pos = (region - io.length) / unit_ * unit_;
    }
    // What follows sequentially (rw=randMODE:N, percentage_random) goes on
    // from here.
    seq = static_cast<int64_t>(pos + io.length);
  } else if (s_.single_sequence.on) {
    pos = NextSingleSequential(seq, io.length, region);
  } else {
    if (seq >= 0 && static_cast<uint64_t>(seq) < region &&
        static_cast<uint64_t>(seq) + io.length > region && region - seq >= unit_) {
      // At the region's end a request is cut to what is left, when that is
      // at least a block (fio's rule); otherwise the pass begins again.
      io.length = static_cast<uint32_t>(region - static_cast<uint64_t>(seq));
    } else if (seq < 0 || static_cast<uint64_t>(seq) + io.length > region) {
      seq = s_.seq_skip < 0 && !s_.random ? BackwardWrap(region, io.length) : 0;
    }
    pos = static_cast<uint64_t>(seq);
    seq += static_cast<int64_t>(io.length) + (s_.random ? 0 : s_.seq_skip);
  }
  io.offset = s_.region_offset + pos;
  if (!pass_left_.empty())
    pass_left_[io.file] -= std::min<uint64_t>(pass_left_[io.file], io.length);
  if (s_.trim_then_write) {
    pending_write_ = true;
    last_ = io;
  }
  return io;
}

void FioPattern::NewPass() {
  std::fill(seq_pos_.begin(), seq_pos_.end(),
            s_.single_sequence.on ? static_cast<int64_t>(s_.single_sequence.start) : 0);
  std::fill(file_done_.begin(), file_done_.end(), 0);
  exhausted_ = false;
  next_file_ = 0;
}

bool FioPattern::NextHoled(FioIo& io) {
  for (uint32_t tried = 0; tried < s_.files; ++tried) {
    const uint32_t f = next_file_;
    next_file_ = f + 1 == s_.files ? 0 : f + 1;
    if (file_done_[f] != 0) continue;
    if (HoledStep(f, io.dir, io)) return true;
    file_done_[f] = 1;  // fio closes a file it has no next offset in
  }
  return false;
}

bool FioPattern::HoledStep(uint32_t file, FioDir dir, FioIo& io) {
  const uint64_t region = RegionOf(file);
  // The file's size as it is laid out: the region and the offset before it.
  const uint64_t file_size = s_.region_offset + region;
  // Where the direction's last I/O ended, from the region's start (0 at a
  // pass's start).
  int64_t& last = seq_pos_[static_cast<size_t>(file) * kFioDirs + static_cast<size_t>(dir)];
  uint64_t at = static_cast<uint64_t>(last);
  if (s_.time_based && at >= region) at = 0;
  if (at >= region) return false;
  if (at != 0) {
    // The skip follows every I/O but a pass's first. fio compares the
    // offset within the region with the whole file's size and, past it,
    // goes on from the offset option's value (as an offset within the
    // region: 0 unless offset= is given).
    at += static_cast<uint64_t>(s_.seq_skip);
    if (at >= file_size) at = s_.region_offset;
  }
  const FioBlockSizes& b = s_.bs[static_cast<size_t>(dir)];
  uint32_t smallest = b.min;
  for (const auto& [size, pct] : b.split) smallest = std::min(smallest, size);
  if (at >= region || region - at < smallest) return false;
  // As fio, sizes are drawn until one fits before the region's end.
  uint32_t length = DrawSize(dir);
  for (int tries = 0; length > region - at && tries < 64; ++tries) length = DrawSize(dir);
  if (length > region - at) length = smallest;
  io.file = file;
  io.offset = s_.region_offset + at;
  io.length = length;
  last = static_cast<int64_t>(at + length);
  return true;
}

uint64_t FioPattern::NextSingleSequential(int64_t& seq, uint32_t length, uint64_t region) {
  const FioSingleSequence& q = s_.single_sequence;
  const uint64_t stride = q.stride != 0 ? q.stride : length;
  if (q.shared != nullptr) {
    // The region's whole strides; a request that would pass its end starts
    // the pass again.
    const uint64_t span =
        stride == 0 ? region : std::max<uint64_t>(stride, region / stride * stride);
    uint64_t at = q.shared->fetch_add(stride, std::memory_order_relaxed) % span;
    if (at + length > region) at = 0;
    return at;
  }
  uint64_t at = seq < 0 ? q.start : static_cast<uint64_t>(seq);
  if (at + length > region) at = stride == 0 ? 0 : q.start % stride;
  seq = static_cast<int64_t>(at + stride);
  return at;
}

}  // namespace loadcell
