#include "workloads/fio/fio_verify.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <iterator>

#include "core/checksum.h"
#include "os/crypto.h"

namespace loadcell {
namespace {

constexpr size_t kFixedHeaderBytes = 32;
constexpr uint8_t kHeaderVersion = 1;

size_t DigestBytes(FioVerifyKind kind) {
  switch (kind) {
    case FioVerifyKind::kCrc32c:
      return 4;
    case FioVerifyKind::kCrc64:
    case FioVerifyKind::kXxhash:
      return 8;
    case FioVerifyKind::kMd5:
      return 16;
    case FioVerifyKind::kSha256:
      return 32;
    case FioVerifyKind::kNone:
    case FioVerifyKind::kPattern:
      break;
  }
  return 0;
}

Result<std::string> Digest(FioVerifyKind kind, const unsigned char* p, size_t n) {
  const auto bytes = [](const auto& v) {
    return std::string(reinterpret_cast<const char*>(&v), sizeof v);
  };
  switch (kind) {
    case FioVerifyKind::kCrc32c:
      return bytes(Crc32c(p, n));
    case FioVerifyKind::kCrc64:
      return bytes(Crc64(p, n));
    case FioVerifyKind::kXxhash:
      return bytes(Xxh64(p, n, 0));
    case FioVerifyKind::kMd5:
      return crypto::Md5(std::string_view(reinterpret_cast<const char*>(p), n));
    case FioVerifyKind::kSha256:
      return crypto::Sha256(std::string_view(reinterpret_cast<const char*>(p), n));
    case FioVerifyKind::kNone:
    case FioVerifyKind::kPattern:
      break;
  }
  return Status::Internal("fio verify: no digest for this type");
}

// The digest of a block: over all of it with the digest field zeroed.
Result<std::string> BlockDigest(unsigned char* buf, size_t len, FioVerifyKind kind) {
  const size_t n = DigestBytes(kind);
  std::string kept(reinterpret_cast<const char*>(buf + kFixedHeaderBytes), n);
  std::memset(buf + kFixedHeaderBytes, 0, n);
  Result<std::string> d = Digest(kind, buf, len);
  std::copy_n(kept.begin(), n, buf + kFixedHeaderBytes);
  return d;
}

std::string Hex(std::string_view bytes) {
  std::string out;
  for (const char c : bytes)
    fmt::format_to(std::back_inserter(out), "{:02x}", static_cast<uint8_t>(c));
  return out;
}

// "" when bytes [from, len) of the block are the pattern repeated from the
// block's first byte, else the first that is not.
std::string CheckPattern(const unsigned char* buf, const FioVerifyBlock& block, size_t from,
                         std::string_view pattern) {
  if (pattern.empty()) return "";
  for (size_t i = from; i < block.length; ++i) {
    const auto want = static_cast<unsigned char>(pattern[i % pattern.size()]);
    if (buf[i] != want) {
      return fmt::format("the byte at offset {} is 0x{:02x}, verify_pattern has 0x{:02x}",
                         block.offset + i, buf[i], want);
    }
  }
  return "";
}

template <typename T>
T Read(const unsigned char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <typename T>
void Write(unsigned char* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

}  // namespace

const char* FioVerifyName(FioVerifyKind kind) {
  switch (kind) {
    case FioVerifyKind::kNone:
      return "0";
    case FioVerifyKind::kCrc32c:
      return "crc32c";
    case FioVerifyKind::kCrc64:
      return "crc64";
    case FioVerifyKind::kXxhash:
      return "xxhash";
    case FioVerifyKind::kMd5:
      return "md5";
    case FioVerifyKind::kSha256:
      return "sha256";
    case FioVerifyKind::kPattern:
      return "pattern";
  }
  return "?";
}

size_t FioVerifyHeaderBytes(FioVerifyKind kind) {
  const size_t n = DigestBytes(kind);
  return n == 0 ? 0 : kFixedHeaderBytes + n;
}

Status StampFioVerifyBlock(unsigned char* buf, const FioVerifyBlock& block, FioVerifyKind kind,
                           uint64_t seed, std::string_view pattern) {
  if (!pattern.empty()) {
    for (size_t i = 0; i < block.length; ++i)
      buf[i] = static_cast<unsigned char>(pattern[i % pattern.size()]);
  }
  const size_t header = FioVerifyHeaderBytes(kind);
  if (header == 0) return Status::Ok();
  Write<uint32_t>(buf, kFioVerifyMagic);
  buf[4] = static_cast<uint8_t>(kind);
  buf[5] = kHeaderVersion;
  Write<uint16_t>(buf + 6, static_cast<uint16_t>(header));
  Write<uint64_t>(buf + 8, block.offset);
  Write<uint32_t>(buf + 16, block.length);
  Write<uint32_t>(buf + 20, block.file);
  Write<uint64_t>(buf + 24, seed);
  std::memset(buf + kFixedHeaderBytes, 0, header - kFixedHeaderBytes);
  LC_ASSIGN_OR_RETURN(std::string digest, Digest(kind, buf, block.length));
  std::copy_n(digest.begin(), digest.size(), buf + kFixedHeaderBytes);
  return Status::Ok();
}

Result<std::string> CheckFioVerifyBlock(unsigned char* buf, const FioVerifyBlock& block,
                                        FioVerifyKind kind, std::string_view pattern) {
  const size_t header = FioVerifyHeaderBytes(kind);
  if (header == 0) return CheckPattern(buf, block, 0, pattern);
  if (block.length < header) {
    return fmt::format("the block is shorter than the {}-byte verify header", header);
  }
  const auto magic = Read<uint32_t>(buf);
  if (magic != kFioVerifyMagic) {
    return fmt::format("no verify header (0x{:08x} at its start, expected 0x{:08x})", magic,
                       kFioVerifyMagic);
  }
  if (buf[4] != static_cast<uint8_t>(kind) || Read<uint16_t>(buf + 6) != header) {
    return fmt::format("the header is of verify type {} ({} bytes), the job verifies {}", buf[4],
                       Read<uint16_t>(buf + 6), FioVerifyName(kind));
  }
  const auto offset = Read<uint64_t>(buf + 8);
  const auto length = Read<uint32_t>(buf + 16);
  const auto file = Read<uint32_t>(buf + 20);
  if (offset != block.offset || length != block.length || file != block.file) {
    return fmt::format(
        "the header is of file {} offset {} length {} (a misplaced or stale block), expected "
        "file {} offset {} length {}",
        file, offset, length, block.file, block.offset, block.length);
  }
  const std::string stored(reinterpret_cast<const char*>(buf + kFixedHeaderBytes),
                           header - kFixedHeaderBytes);
  LC_ASSIGN_OR_RETURN(std::string computed, BlockDigest(buf, block.length, kind));
  if (computed != stored) {
    return fmt::format("{} mismatch: computed {}, the header has {}", FioVerifyName(kind),
                       Hex(computed), Hex(stored));
  }
  return CheckPattern(buf, block, header, pattern);
}

void FioVerifyLog::Add(const FioVerifyBlock& block) {
  const std::pair<uint32_t, uint64_t> key{block.file, block.offset};
  auto it = blocks_.lower_bound(key);
  if (it != blocks_.begin()) {
    const auto prev = std::prev(it);
    if (prev->first.first == block.file && prev->first.second + prev->second > block.offset) {
      blocks_.erase(prev);
    }
  }
  while (it != blocks_.end() && it->first.first == block.file &&
         it->first.second < block.offset + block.length) {
    it = blocks_.erase(it);
  }
  blocks_.emplace_hint(it, key, block.length);
}

std::vector<FioVerifyBlock> FioVerifyLog::Take() {
  std::vector<FioVerifyBlock> out;
  out.reserve(blocks_.size());
  for (const auto& [key, length] : blocks_) out.push_back({key.first, key.second, length});
  blocks_.clear();
  return out;
}

}  // namespace loadcell
