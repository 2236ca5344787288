#include <cstring>
#include <string>

#include "os/block_device.h"

namespace loadcell {
namespace {

// `magic` (`len` bytes) at `at` of `data`.
bool MagicAt(const unsigned char* data, size_t n, size_t at, const char* magic, size_t len) {
  return at + len <= n && std::memcmp(data + at, magic, len) == 0;
}

}  // namespace

std::string SignatureOf(const unsigned char* data, size_t n) {
  struct Known {
    size_t at;
    const char* magic;
    size_t len;
    const char* what;
  };
  // Offsets and magic numbers from each format's own specification.
  static const Known kKnown[] = {
      {512, "EFI PART", 8, "a GPT partition table"},
      {4096, "EFI PART", 8, "a GPT partition table"},
      {0, "XFSB", 4, "an XFS file system"},
      {1080, "\x53\xEF", 2, "an ext2/3/4 file system"},
      {65600, "_BHRfS_M", 8, "a btrfs file system"},
      {3, "NTFS    ", 8, "an NTFS file system"},
      {0, "LUKS\xBA\xBE", 6, "a LUKS volume"},
      {512, "LABELONE", 8, "an LVM2 physical volume"},
      {4086, "SWAPSPACE2", 10, "a swap area"},
      {32769, "CD001", 5, "an ISO 9660 file system"},
      {510, "\x55\xAA", 2, "a DOS partition table or boot sector"},
  };
  for (const Known& k : kKnown) {
    if (MagicAt(data, n, k.at, k.magic, k.len)) return k.what;
  }
  return "";
}

}  // namespace loadcell
