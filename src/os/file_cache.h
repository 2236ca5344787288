#pragma once
// Dropping a file's pages from the page cache, as fio does before each job
// (its invalidate=1 default), so that a read job starts from the device
// and not from what laying the file out left in memory.
// POSIX: posix_fadvise(POSIX_FADV_DONTNEED) after fdatasync (dirty pages
// are not dropped); Windows keeps no per-file cache that a program may drop:
// Unimplemented, and the caller says so.

#include "core/status.h"

namespace loadcell {

Status DropCachedPages(int fd);

// How a file will be read, for the kernel's read-ahead (DiskSpd's -fr, -fs).
enum class FileAccessHint { kNone, kRandom, kSequential };

// POSIX: posix_fadvise(RANDOM or SEQUENTIAL) over the whole file. Windows:
// Unimplemented (the hints are open flags there, FILE_FLAG_RANDOM_ACCESS
// and FILE_FLAG_SEQUENTIAL_SCAN, which loadcell's open does not pass yet).
Status AdviseFileAccess(int fd, FileAccessHint hint);
// Whether AdviseFileAccess does anything on this platform.
bool FileAccessHintsSupported();

}  // namespace loadcell
