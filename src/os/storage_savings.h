#pragma once
// Whether the storage under a file compresses (or deduplicates) what is
// written to it, as far as the system states it cheaply, for the verdict's
// write-data check (docs/validity.md): on Linux the file system of the mount
// that holds the file (ReadMountFacts) with its options (btrfs's compress=,
// compress-force=; f2fs's compress_algorithm=), and the file's own
// compression attribute (FS_COMPR_FL, from the FS_IOC_GETFLAGS ioctl: btrfs's
// `chattr +c`); ZFS said to be a file system whose datasets may compress or
// deduplicate (its properties are the zfs tool's, not read here). On Windows
// the file's (or its folder's) NTFS compressed attribute.

#include <string>

#include "os/host_facts.h"

namespace loadcell {

struct StorageSavings {
  bool known = false;       // something answered; `how` says what
  bool compresses = false;  // compresses, or may (ZFS)
  // What says so ("btrfs mounted with compress=zstd:3"), or what was found
  // when nothing compresses ("ext4: no compression").
  std::string how;
};

// The savings of a file on `mount` whose compression attribute is
// `compress_flag` (the parse seam of ReadStorageSavings). Unknown when the
// mount is (its file system's name empty).
StorageSavings SavingsOf(const MountFacts& mount, bool compress_flag);

// The file's (or folder's) own compression attribute: Linux's FS_COMPR_FL
// (FS_IOC_GETFLAGS), Windows' FILE_ATTRIBUTE_COMPRESSED; false when it
// cannot be read. Whether the file system honours it is SavingsOf's.
bool FileCompressAttribute(const std::string& path);

// The savings of the file (or folder) at `path`; unknown when nothing says.
StorageSavings ReadStorageSavings(const std::string& path);

}  // namespace loadcell
