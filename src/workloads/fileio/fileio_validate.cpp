// fileio --validate: the record of each block's last write (FileIoShared)
// and the check of what a read returned against it (FileIoWorker); seqwr's
// record of the blocks it wrote.

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "dbsim/page_format.h"
#include "workloads/fileio/fileio_data.h"
#include "workloads/fileio/fileio_worker.h"

namespace loadcell {

uint64_t FileIoShared::LastSeq(uint32_t file, uint64_t offset) const {
  return last_seq_ == nullptr ? kUnknownSeq
                              : last_seq_[BlockIndex(file, offset)].load(std::memory_order_relaxed);
}

void FileIoShared::SetLastSeq(uint32_t file, uint64_t offset, uint64_t seq) {
  if (last_seq_ != nullptr) {
    last_seq_[BlockIndex(file, offset)].store(seq, std::memory_order_relaxed);
  }
}

void FileIoShared::MarkWritten(const FileIoPlan& p) {
  if (written_ == nullptr) return;
  const uint64_t first = BlockIndex(p.file, p.offset);
  const uint64_t count = (p.length + s_.block_size - 1) / s_.block_size;
  for (uint64_t i = 0; i < count; ++i) written_[first + i].store(1, std::memory_order_relaxed);
}

bool FileIoShared::FileWritten(uint64_t file) const {
  if (written_ == nullptr || file >= s_.num_files) return false;
  for (uint64_t b = 0; b < s_.blocks_per_file; ++b) {
    if (written_[file * s_.blocks_per_file + b].load(std::memory_order_relaxed) == 0) return false;
  }
  return true;
}

Status FileIoWorker::ValidateBlocks(const Slot& sl) {
  const FileIoPlan& p = sl.plan;
  const bool read = p.op == IoOp::kRead;
  if (read && s_.validate_full) {
    const std::span<const uint8_t> got(sl.read_buf, p.length);
    for (size_t sector = 0; sector < p.length / kDbSectorSize; ++sector) {
      if (!DbSectorHoldsStamp(got, sector, sl.read_stamp)) continue;
      return Status::IoError(fmt::format(
          "validation failed: file {} at offset {}: bytes not read: the {}-byte sector at offset "
          "{} still holds the read buffer's stamp 0x{:016x} (the read reported {} bytes without "
          "filling it)",
          s_.FilePath(p.file), p.offset, kDbSectorSize, p.offset + sector * kDbSectorSize,
          sl.read_stamp, p.length));
    }
  }
  uint64_t done = 0;
  while (done < p.length) {
    const uint64_t off = p.offset + done;
    const uint64_t n = std::min<uint64_t>(s_.block_size - off % s_.block_size, p.length - done);
    if (read) {
      uint64_t seq = 0;
      std::string why = CheckBlock(sl.read_buf + done, n, p.file, off, &seq);
      if (why.empty() && s_.validate_full && IsLightStamp(sl.read_buf + done)) {
        why = fmt::format(
            "a light stamp (write #{}, made without --validate): a byte changed inside the block "
            "cannot be seen; --validate-full needs every block written with a full stamp "
            "(prepare again, or write it in a run with --validate)",
            seq);
      }
      const uint64_t expected = shared_.LastSeq(p.file, off);
      if (why.empty() && expected != FileIoShared::kUnknownSeq && seq != expected) {
        why = fmt::format("stale data: the block holds write #{}, expected the last write #{}", seq,
                          expected);
      }
      if (!why.empty()) {
        return Status::IoError(fmt::format("validation failed: file {} at offset {} ({} bytes): {}",
                                           s_.FilePath(p.file), off, n, why));
      }
    } else {
      shared_.SetLastSeq(p.file, off, sl.seq);
    }
    done += n;
  }
  return Status::Ok();
}

}  // namespace loadcell
