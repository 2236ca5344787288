#pragma once
// Windows only (included by the *_win32.cpp files): UTF-8 <-> UTF-16, the
// one place where a Win32 error (GetLastError) becomes a Status, as
// PosixError does for errno, and CreateFileW's arguments for open flags.

#include <windows.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "core/status.h"

namespace loadcell {

// Files are shared as POSIX files are: others may read, write, rename and
// delete them.
constexpr DWORD kShareAll = FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE;

std::wstring Widen(std::string_view utf8);
// A path for the file calls (CreateFileW, DeleteFileW, ...): Widen(utf8),
// except that a `\\?\` path gets backslashes only (Windows takes '/' as a
// separator everywhere but there, and loadcell joins names with '/'), and a
// path of kShortPathLimit characters or more becomes the `\\?\` form of its
// full path (`\\?\UNC\` for `\\server\share`), which is not limited to
// MAX_PATH.
std::wstring WidePath(std::string_view utf8);
// The longest path (in UTF-16 units, less one) every file call takes as it
// is: MAX_PATH less room for a file name of 8.3 (CreateDirectoryW's limit).
inline constexpr size_t kShortPathLimit = MAX_PATH - 12;
std::string Narrow(std::wstring_view utf16);

// The error's errno where one means the same (ERROR_FILE_NOT_FOUND is
// ENOENT, ERROR_DISK_FULL ENOSPC, ...), so that callers that look at
// Status::err() treat both platforms alike; 0 when none does.
int ErrnoOfWin32Error(DWORD error);
// FormatMessageW's text for `error`, in UTF-8, without the trailing newline.
std::string Win32ErrorText(DWORD error);

// `context` with the error: a Status coded as PosixError would code the
// matching errno (NotFound, AlreadyExists, ResourceExhausted, IoError), its
// err() that errno; an error without one keeps Windows' own text and number
// in the message ("context: <text> (Windows error N)").
Status Win32Error(std::string_view context, DWORD error);

// CreateFileW's access, disposition and flags for open(2)-style `flags`.
// O_TRUNC with O_CREAT is CREATE_ALWAYS, O_TRUNC alone TRUNCATE_EXISTING;
// `truncate` false leaves truncation to the caller (OpenAt truncates only
// after its checks).
struct CreateFileArgs {
  DWORD access = 0;
  DWORD disposition = OPEN_EXISTING;
  DWORD flags = FILE_ATTRIBUTE_NORMAL;
};
CreateFileArgs CreateFileArgsFor(int flags, bool truncate);

// The memory limit a job object's extended limits set on a process: the
// per-process limit, the whole job's, or the lower of the two when both are
// set; 0 when neither is (CgroupMemoryLimit's parse seam).
uint64_t JobMemoryLimit(const JOBOBJECT_EXTENDED_LIMIT_INFORMATION& job);

// Whether a file's attributes (GetFileAttributesW's) have the NTFS
// compressed attribute; false for INVALID_FILE_ATTRIBUTES
// (FileCompressAttribute's parse seam).
bool CompressedAttribute(DWORD attributes);

// DiskSpd's -Sr on an open handle: FSCTL_DISABLE_LOCAL_BUFFERING (the
// client's cache off, the server's on; remote file systems only). `what`
// names the file in the error.
Status DisableLocalBuffering(HANDLE h, const std::string& what);

}  // namespace loadcell
