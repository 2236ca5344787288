#pragma once
// A file's space: punching a hole in it (fio's trim of a file) and reserving
// its blocks before it is written (fio's fallocate= when it lays files out).
// Linux: fallocate(2); elsewhere Unimplemented, and the caller refuses the
// option that asked for it in one line.

#include <cstdint>

#include "core/status.h"

namespace loadcell {

// Whether this build can punch holes (fio's trims on files).
bool CanPunchHoles();

// Frees [offset, offset + length) of the file: it reads as zeros and holds
// no blocks, its size unchanged (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE).
Status PunchHole(int fd, uint64_t offset, uint64_t length);

// fio's fallocate= modes that reserve space (kNone and kTruncate are the
// caller's: nothing, or ftruncate).
enum class SpaceReservation {
  kPosix,     // posix_fallocate: the blocks reserved, the size set
  kKeepSize,  // fallocate(FALLOC_FL_KEEP_SIZE): the blocks reserved, the size kept
  kNative,    // fallocate(0); a file system that cannot is not an error (fio's rule)
};

// Reserves the first `size` bytes of the file as `how` says.
Status ReserveSpace(int fd, SpaceReservation how, uint64_t size);

}  // namespace loadcell
