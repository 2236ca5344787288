#pragma once
// Pages of the files a run read that hold nothing but zeros, sampled once
// after the run (untimed), for the unwritten-data check (docs/validity.md):
// what a file system returns for data never written without reading the
// device (past a file's valid data length on NTFS, laid out by
// SetEndOfFile or ftruncate without data), where its allocation does not
// show it (Windows' valid data length needs an administrator's volume
// handle), and data written as zeros.

#include <cstdint>
#include <string>
#include <vector>

#include "os/file_system.h"

namespace loadcell::validity {

// The bytes of one sampled page.
inline constexpr uint64_t kZeroSamplePageBytes = 4096;
// Pages sampled over a target's files: spread evenly over each file, each
// file at least one, the set at least this many.
inline constexpr uint64_t kZeroSamplePages = 64;

struct ZeroPageSample {
  uint64_t sampled = 0;            // pages read
  uint64_t zero = 0;               // of those, all zeros
  std::vector<std::string> files;  // the files with a zero page, in order
  std::string unknown;             // why the files were not sampled ("" when they were)
};

// The page offsets sampled in a file of `size` bytes when `pages` are taken
// from it: evenly spread, each at the start of its share, aligned down to a
// page (fewer when the file holds fewer pages).
std::vector<uint64_t> ZeroSampleOffsets(uint64_t size, uint64_t pages);

// Samples the regular files at `paths` through `fs`.
ZeroPageSample SampleZeroPages(FileSystem& fs, const std::vector<std::string>& paths);

}  // namespace loadcell::validity
