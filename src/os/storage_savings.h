#pragma once
// Whether the storage under a file compresses (or deduplicates) what is
// written to it, as far as the system states it cheaply, for the verdict's
// write-data check (docs/validity.md): on Linux the file system of the mount
// that holds the file (ReadMountFacts) with its options (btrfs's compress=,
// compress-force=; f2fs's compress_algorithm=), and the file's own
// compression attribute (FS_COMPR_FL, from the FS_IOC_GETFLAGS ioctl: btrfs's
// `chattr +c`); on ZFS the dataset's `compression` and `dedup` properties,
// as the zfs command states them (ZfsSavings; when it cannot, the dataset
// may compress or deduplicate, and why they were not read). On Windows the
// file's (or its folder's) NTFS compressed attribute.

#include <functional>
#include <string>
#include <vector>

#include "core/status.h"
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

// The command seam of ZfsSavings: runs `argv` (argv[0] looked up on PATH)
// and returns what it wrote to its standard output, or why it could not run
// or failed.
using CommandRunner = std::function<Result<std::string>(const std::vector<std::string>& argv)>;

// The savings of ZFS dataset `dataset` (a zfs mount's source), from
// `zfs get -H -o value compression,dedup <dataset>` run through `run`: known
// either way when it answers; when it cannot (no zfs command, an error, an
// answer not of two values), the dataset may compress or deduplicate, and
// `how` says why the properties were not read.
StorageSavings ZfsSavings(const std::string& dataset, const CommandRunner& run);

// The savings of the file (or folder) at `path`; unknown when nothing says.
StorageSavings ReadStorageSavings(const std::string& path);

}  // namespace loadcell
