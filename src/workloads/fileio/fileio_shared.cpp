// FileIoShared: what every worker of one fileio run shares (the request
// sequence, the random placement, the claims of blocks in flight). Split
// from fileio_worker.cpp, which holds the worker loop.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "workloads/fileio/fileio_worker.h"

namespace loadcell {

// ---------------------------------------------------------------- FileIoShared

FileIoShared::FileIoShared(const FileIoSettings& s, std::vector<IoFile> files)
    : s_(s), files_(std::move(files)) {
  const uint64_t nfiles = std::max<uint64_t>(1, s_.num_files);
  seq_stride_ = std::max<uint64_t>(1, s_.seq_stride != 0 ? s_.seq_stride : s_.request_size);
  const uint64_t span = s_.file_size > s_.seq_start ? s_.file_size - s_.seq_start : 0;
  if (s_.seq_lanes) {
    // Whole rows only: every column of a row is inside the file.
    seq_pass_ = span / seq_stride_;
    if (s_.seq_per_pass != 0) seq_pass_ = std::min(seq_pass_, s_.seq_per_pass);
  } else {
    seq_pass_ = (span + seq_stride_ - 1) / seq_stride_;
  }
  seq_pass_ = std::max<uint64_t>(1, seq_pass_);
  seq_cycle_ = seq_pass_ * nfiles;
  const SeqRange seg = SeqSegment(seq_cycle_, s_.share_rank, s_.share_ranks);
  seg_first_ = seg.first;
  seg_len_ = std::max<uint64_t>(1, seg.end - seg.first);
  rand_first_ = s_.block_size != 0 ? s_.seq_start / s_.block_size : 0;
  rand_per_file_ = std::max<uint64_t>(
      1, s_.blocks_per_file > rand_first_ ? s_.blocks_per_file - rand_first_ : 0);
  rand_count_ = rand_per_file_ * nfiles;
  if ((rand_per_file_ & (rand_per_file_ - 1)) == 0) rand_shift_ = std::countr_zero(rand_per_file_);
}

Status FileIoShared::Init() {
  if (s_.seq_start != 0 &&
      (s_.block_size == 0 || s_.seq_start % s_.block_size != 0 || s_.seq_start >= s_.file_size)) {
    return Status::InvalidArgument(
        fmt::format("the start offset {} is not a whole block inside the {}-byte file",
                    s_.seq_start, s_.file_size));
  }
  if (s_.seq_lanes && s_.file_size - s_.seq_start < seq_stride_) {
    return Status::InvalidArgument(
        fmt::format("a stripe row of {} bytes from offset {} does not fit in the {}-byte file",
                    seq_stride_, s_.seq_start, s_.file_size));
  }
  if (IsSequential(s_.mode) && !s_.seq_lanes && seq_cycle_ < s_.share_ranks) {
    return Status::InvalidArgument(
        fmt::format("--mpi-files=shared: the files hold {} sequential requests, fewer than the {} "
                    "ranks that would each take a segment of them",
                    seq_cycle_, s_.share_ranks));
  }
  scheduled_ = ModeWrites(s_.mode) && s_.fsync_freq > 0;
  if (s_.validate) {
    busy_ = std::make_unique<std::atomic<uint8_t>[]>(s_.total_blocks);
    last_seq_ = std::make_unique<std::atomic<uint64_t>[]>(s_.total_blocks);
    for (uint64_t i = 0; i < s_.total_blocks; ++i) {
      busy_[i].store(0, std::memory_order_relaxed);
      last_seq_[i].store(kUnknownSeq, std::memory_order_relaxed);
    }
  }
  if (s_.mode == FileTestMode::kSeqWrite) {
    written_ = std::make_unique<std::atomic<uint8_t>[]>(s_.total_blocks);
    for (uint64_t i = 0; i < s_.total_blocks; ++i) written_[i].store(0, std::memory_order_relaxed);
  }
  return Status::Ok();
}

FileIoPlan FileIoShared::SeqAt(uint64_t idx) const {
  const uint64_t k = seg_first_ + idx % seg_len_;
  FileIoPlan p;
  p.file = static_cast<uint32_t>(k / seq_pass_);
  p.offset = s_.seq_start + (k % seq_pass_) * seq_stride_;
  p.length = static_cast<uint32_t>(std::min(s_.request_size, s_.file_size - p.offset));
  return p;
}

FileIoPlan FileIoShared::LaneAt(const SeqLane& lane) const {
  const uint64_t run = lane.n / seq_pass_;
  const uint64_t column = lane.first + (s_.seq_same_runs ? 0 : run % lane.width);
  FileIoPlan p;
  p.offset = s_.seq_start + column * s_.block_size + (lane.n % seq_pass_) * seq_stride_;
  p.length = static_cast<uint32_t>(std::min(s_.request_size, s_.file_size - p.offset));
  return p;
}

FileIoPlan FileIoShared::RandomBlock(Random& rng, const Distribution* dist) const {
  const uint64_t n = rand_count_;
  const uint64_t b =
      dist != nullptr
          ? dist->Next(rng)
          : static_cast<uint64_t>((static_cast<unsigned __int128>(rng.Next()) * n) >> 64);
  // A power-of-two count of blocks per file (the usual case) is split with
  // a shift and a mask: a 64-bit division costs ~5% of a null request.
  const uint64_t file = rand_shift_ >= 0 ? b >> rand_shift_ : b / rand_per_file_;
  const uint64_t block = b - file * rand_per_file_;
  FileIoPlan p;
  p.file = static_cast<uint32_t>(file);
  p.offset = (rand_first_ + block) * s_.block_size;
  p.length = static_cast<uint32_t>(std::min(s_.block_size, s_.file_size - p.offset));
  return p;
}

FileIoPlan FileIoShared::Next(bool write, Random& rng, const Distribution* dist, SeqLane* lane) {
  const bool seq = IsSequential(s_.mode);
  FileIoPlan p;
  // The next place: in the shared sequence, or in the thread's lane.
  auto seq_next = [&] {
    if (s_.seq_lanes) [[unlikely]] {
      const FileIoPlan at = LaneAt(*lane);
      ++lane->n;
      return at;
    }
    return SeqAt(seq_next_.fetch_add(1, std::memory_order_relaxed));
  };
  if (scheduled_) {
    std::lock_guard<std::mutex> lock(mu_);
    if (dirty_ && req_performed_ % s_.fsync_freq == 0) {
      p.op = s_.fdatasync ? IoOp::kFdatasync : IoOp::kFsync;
      p.file = static_cast<uint32_t>(fsynced_file_);
      if (++fsynced_file_ == s_.num_files) {
        fsynced_file_ = 0;
        dirty_ = false;
      }
      return p;
    }
    ++req_performed_;
    if (write) dirty_ = true;
    if (seq) p = seq_next();
  } else if (seq) {
    p = seq_next();
  }
  if (!seq) p = RandomBlock(rng, dist);
  p.op = write ? IoOp::kWrite : IoOp::kRead;
  return p;
}

bool FileIoShared::Claim(const FileIoPlan& p) {
  if (busy_ == nullptr || IsSync(p.op)) return true;
  const uint64_t first = BlockIndex(p.file, p.offset);
  const uint64_t count = (p.length + s_.block_size - 1) / s_.block_size;
  for (uint64_t i = 0; i < count; ++i) {
    uint8_t expected = 0;
    if (!busy_[first + i].compare_exchange_strong(expected, 1, std::memory_order_acquire)) {
      for (uint64_t j = 0; j < i; ++j) busy_[first + j].store(0, std::memory_order_release);
      return false;
    }
  }
  return true;
}

void FileIoShared::Release(const FileIoPlan& p) {
  if (busy_ == nullptr || IsSync(p.op)) return;
  const uint64_t first = BlockIndex(p.file, p.offset);
  const uint64_t count = (p.length + s_.block_size - 1) / s_.block_size;
  for (uint64_t i = 0; i < count; ++i) busy_[first + i].store(0, std::memory_order_release);
}

}  // namespace loadcell
