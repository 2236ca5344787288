#pragma once
// fileio: how loadcell knows its own test files again. A file is loadcell's
// only when it is the one the manifest records; everything else in its
// place (a link, a special file, the user's own file under the name) is
// refused and left alone.

#include <string>

#include "core/status.h"
#include "os/file_system.h"
#include "workloads/fileio/fileio_manifest.h"

namespace loadcell {

// Whether the entry `f.name` of `dir` is provably the file loadcell created:
// a regular file (not a link) with the device and inode recorded, and, when
// complete, the size recorded and loadcell's mark in its first bytes: with
// m.stamped the block stamp of block 0 (magic, file number, offset 0); with
// the zero or sequence pattern that pattern's first 32 bytes; files of the
// random pattern without stamps, or of mixed patterns, have no mark to check
// (device, inode and size only).
struct IdentityCheck {
  enum Kind { kOurs, kMissing, kNotOurs } kind = kOurs;
  std::string why;  // kNotOurs: "is a symbolic link", "has another inode", ...
};
Result<IdentityCheck> CheckIdentity(FileSystem& fs, const DirHandle& dir, const FileManifest& m,
                                    const ManifestFile& f);

// Opens test file `name` of folder `dir` for a run (never through a link),
// with `flags` (O_RDWR | the extra flags); with `entry`, only when it is the
// file recorded there.
Result<int> OpenTestFile(FileSystem& fs, const std::string& dir, const std::string& name, int flags,
                         const ManifestFile* entry);

}  // namespace loadcell
