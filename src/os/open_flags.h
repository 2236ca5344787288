#pragma once
// The open flags of FileSystem::Open and OpenAt and the errno values the
// code names: POSIX's names on every platform. Windows' C library lacks a few
// of them; they get bits its own _O_* flags leave free (values its errno
// never takes), and the Win32 FileSystem maps them: O_DIRECT to
// FILE_FLAG_NO_BUFFERING, O_DSYNC and O_SYNC to FILE_FLAG_WRITE_THROUGH.
// Include this, not <fcntl.h>, outside os/.

#include <fcntl.h>

#include <cerrno>

#if defined(_WIN32)
#define O_DIRECT 0x01000000
#define O_DSYNC 0x02000000
#define O_SYNC 0x04000000
#define O_CLOEXEC 0  // Windows handles are not inherited unless asked
#define O_NOFOLLOW 0x08000000
#define O_NONBLOCK 0  // no FIFOs to block on
#define O_DIRECTORY 0x10000000
#define EDQUOT 0x7f01  // no quota errno; disk quota errors map to ENOSPC
#endif
// DiskSpd's -ft and -Sr, open-time requests on Windows only (0 elsewhere,
// where nothing at open means them): the Win32 FileSystem opens with
// FILE_ATTRIBUTE_TEMPORARY for O_TEMPORARY_HINT, and sends
// FSCTL_DISABLE_LOCAL_BUFFERING to a file opened with O_LOCAL_CACHE_OFF
// (the iocp engine to its own handle of it too).
#if defined(_WIN32)
#define O_TEMPORARY_HINT 0x20000000
#define O_LOCAL_CACHE_OFF 0x40000000
#else
#define O_TEMPORARY_HINT 0
#define O_LOCAL_CACHE_OFF 0
#endif
