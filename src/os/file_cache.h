#pragma once
// Dropping a file's pages from the page cache, as fio does before each job
// (its invalidate=1 default), so that a read job starts from the device
// and not from what laying the file out left in memory.
// POSIX: posix_fadvise(POSIX_FADV_DONTNEED) after fdatasync (dirty pages
// are not dropped); Windows keeps no per-file cache that a program may drop:
// Unimplemented, and the caller says so.

#include <string>

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

// DiskSpd's -ft (FILE_ATTRIBUTE_TEMPORARY: Windows' cache manager keeps the
// file's data in memory and writes it back lazily): what loadcell does with
// it here, in words for the report. POSIX: nothing, and the words say so
// (Linux has no per-file equivalent). Windows: the target is opened with
// the attribute (O_TEMPORARY_HINT, os/open_flags.h), as DiskSpd opens it.
Result<std::string> TemporaryFileHintEffect();

// DiskSpd's -Sr (the local cache off, the server's cache on) for the file
// at `path`, on a file system of type `fs_type` (FileSystem::FsType): the
// open flags that do it. POSIX: O_DIRECT on a network file system's client
// (nfs, nfs4, cifs, smb2, smb3: the client's page cache is bypassed, the
// server still caches). Windows: O_LOCAL_CACHE_OFF (os/open_flags.h: each
// handle gets FSCTL_DISABLE_LOCAL_BUFFERING, as DiskSpd sends it) for a
// file on a network drive (GetDriveTypeW's DRIVE_REMOTE, or a \\server\share
// path). FailedPrecondition on any other ("is on ...": DiskSpd's -Sr is only
// valid for remote file systems).
Result<int> RemoteCacheOnlyOpenFlags(const std::string& path, const std::string& fs_type);

}  // namespace loadcell
