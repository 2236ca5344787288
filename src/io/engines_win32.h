#pragma once
// Windows only (included by the *_win32.cpp engines and their tests): what
// the tests of the iocp and mmap engines reach that Wine cannot make happen.
// Under Wine every overlapped transfer on a file is pending, so a request
// that Windows completes at once (a buffered read from the file cache) is
// made by a start call the test hands the iocp engine; and a file cannot be
// truncated under a view, so the mmap engine's fault guard is tested on
// memory of the test's own.

#include <windows.h>

#include <memory>

#include "io/io_engine.h"

namespace loadcell::io_internal {

// Starts one transfer as ReadFile/WriteFile(file, buffer, length, nullptr,
// ov) do, and returns as they do: TRUE when it completed at once (ov's
// Internal and InternalHigh hold its status and byte count), FALSE with
// GetLastError() ERROR_IO_PENDING when its completion will come through the
// port, FALSE with another error when it failed to start.
using IocpStartFn = BOOL (*)(bool write, HANDLE file, void* buffer, DWORD length, OVERLAPPED* ov);

struct IocpTestHooks {
  IocpStartFn start = nullptr;  // null: ReadFile / WriteFile
  // false: FILE_SKIP_COMPLETION_PORT_ON_SUCCESS is not asked for, as where
  // Windows refuses it; a request completed at once then still sends its
  // completion through the port.
  bool skip_port_on_success = true;
};

Result<std::unique_ptr<IoEngine>> MakeIocpEngineWithHooks(FileSystem& fs,
                                                          const IocpTestHooks& hooks);

// The mmap engine's copy: len bytes from src to dst; false, instead of a
// crash, when a page of either could not be read or written (an
// EXCEPTION_IN_PAGE_ERROR or EXCEPTION_ACCESS_VIOLATION inside the two
// ranges, caught by a vectored exception handler installed once). Faults
// elsewhere are left to whoever handles them.
bool GuardedCopy(char* dst, const char* src, uint64_t len);

}  // namespace loadcell::io_internal
