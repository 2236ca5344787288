#pragma once
// What of a file reads as zeros without the device being read, for the
// validity checks (docs/validity.md, unwritten-data): its holes (no storage
// allocated) and its unwritten extents (storage allocated and never
// written, as fallocate leaves it). Linux (file_extents_posix.cpp): holes
// from lseek's SEEK_HOLE/SEEK_DATA, unwritten extents from the FS_IOC_FIEMAP
// ioctl (FIEMAP_EXTENT_UNWRITTEN). The two overlap: ext4 and xfs report an
// unwritten range as a hole to SEEK_HOLE only while none of its pages is in
// the page cache, and a buffered read of it puts zero pages there, so after
// such a run only the extent map still shows it. Windows
// (file_extents_win32.cpp): the holes of FileHoleBytes (host_facts.h), no
// unwritten extents.

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"

namespace loadcell {

// [offset, offset + length) of a file.
struct ByteRange {
  uint64_t offset = 0;
  uint64_t length = 0;
};

// The bytes of [0, size) that lie in at least one of `ranges` (in any order,
// overlapping or reaching past `size`): the union, counted once.
uint64_t CoveredBytes(std::vector<ByteRange> ranges, uint64_t size);

// The ranges of the extents flagged unwritten among a file's extent map
// entries, each as FIEMAP states it: logical offset, length, flags (the
// kernel's FIEMAP_EXTENT_* bits: kFiemapExtentUnwritten). The parse seam of
// ReadFileZeroRanges.
inline constexpr uint32_t kFiemapExtentUnwritten = 0x00000800;  // linux/fiemap.h
struct FiemapEntry {
  uint64_t logical = 0;
  uint64_t length = 0;
  uint32_t flags = 0;
};
std::vector<ByteRange> UnwrittenRangesOf(const std::vector<FiemapEntry>& extents);

// The file at `path`: its bytes in holes, in unwritten extents, and in
// either (the union: what reads as zeros without a device read).
// `unwritten_unknown` says why the extents were not read (a file system
// without FIEMAP, such as tmpfs; Windows), unwritten_bytes then 0 and
// never_written_bytes the holes'. An error when the file cannot be opened,
// Unimplemented when the system cannot tell its holes either.
struct FileZeroRanges {
  uint64_t hole_bytes = 0;
  uint64_t unwritten_bytes = 0;
  uint64_t never_written_bytes = 0;
  std::string unwritten_unknown;
};
Result<FileZeroRanges> ReadFileZeroRanges(const std::string& path);

}  // namespace loadcell
