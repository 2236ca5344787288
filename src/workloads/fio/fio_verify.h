#pragma once
// fio's verify for loadcell's fio jobs: the header a verified write puts at
// the start of its block, the check of a block read back, and the record of
// the blocks written since the last verification. Pure: no I/O.
//
// A block is one write request (its offset and length as the job drew
// them). With verify= a checksum type, the block starts with loadcell's
// header, all fields little-endian:
//
//   offset  size  field
//        0     4  magic 0x5646434C ("LCFV")
//        4     1  the verify type (FioVerifyKind's value)
//        5     1  the header's version, 1
//        6     2  the header's length in bytes (32 + the digest's)
//        8     8  the block's offset in its file
//       16     4  the block's length in bytes
//       20     4  the file's number in the job (0 the first)
//       24     8  the write's seed (the job's seed and the write's number)
//       32     n  the digest: crc32c 4, crc64 8, xxhash 8, md5 16, sha256 32
//
// The digest covers the whole block with the digest field zeroed (the
// header's fields too). The data after the header is what the job's buffer
// options write, or verify_pattern when given (then checked too).
// verify=pattern writes no header: the whole block is verify_pattern from
// its first byte, checked byte for byte.

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/status.h"

namespace loadcell {

enum class FioVerifyKind : uint8_t {
  kNone = 0,
  kCrc32c = 1,
  kCrc64 = 2,
  kXxhash = 3,
  kMd5 = 4,
  kSha256 = 5,
  kPattern = 6
};

// fio's name of the type ("crc32c", ...).
const char* FioVerifyName(FioVerifyKind kind);
// The header's length for `kind`: 0 for kNone and kPattern.
size_t FioVerifyHeaderBytes(FioVerifyKind kind);

inline constexpr uint32_t kFioVerifyMagic = 0x5646434Cu;

// Where a block lives and which write made it.
struct FioVerifyBlock {
  uint32_t file = 0;
  uint64_t offset = 0;
  uint32_t length = 0;
};

// Makes `block` (block.length bytes at `buf`) a verified block of `kind`:
// `pattern` (when not empty) is written over it from its first byte, then
// the header (checksum types). REQUIRES: block.length >=
// FioVerifyHeaderBytes(kind). Fails only when the digest's library fails
// (md5, sha256: os/crypto.h).
Status StampFioVerifyBlock(unsigned char* buf, const FioVerifyBlock& block, FioVerifyKind kind,
                           uint64_t seed, std::string_view pattern);

// Checks a block read back: "" when it is intact and is the block asked
// for, else what differed, in words (the digests, the header's fields, or
// the first byte that differs from the pattern with its file offset). The
// digest field is zeroed while the digest is computed and put back.
Result<std::string> CheckFioVerifyBlock(unsigned char* buf, const FioVerifyBlock& block,
                                        FioVerifyKind kind, std::string_view pattern);

// The blocks written since the last verification, by file and offset. A
// write over part of a recorded block drops it (partly overwritten, it can
// no longer be verified, as fio ignores such blocks); a write over the same
// block keeps the later.
class FioVerifyLog {
 public:
  void Add(const FioVerifyBlock& block);
  // The recorded blocks in file and offset order; the log is left empty.
  std::vector<FioVerifyBlock> Take();
  size_t size() const { return blocks_.size(); }

 private:
  std::map<std::pair<uint32_t, uint64_t>, uint32_t> blocks_;  // (file, offset) -> length
};

}  // namespace loadcell
