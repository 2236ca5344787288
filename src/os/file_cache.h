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

}  // namespace loadcell
