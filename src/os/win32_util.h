#pragma once
// Windows only (included by the *_win32.cpp files): UTF-8 <-> UTF-16, and
// the one place where a Win32 error (GetLastError) becomes a Status, as
// PosixError does for errno.

#include <windows.h>

#include <string>
#include <string_view>

#include "core/status.h"

namespace loadcell {

std::wstring Widen(std::string_view utf8);
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

}  // namespace loadcell
