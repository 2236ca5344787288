#pragma once
// Windows' scatter read and gather write (ReadFileScatter, WriteFileGather)
// behind FileSystem::PReadV/PWriteV (docs/dbsim.md, "Windows"). They need
// a handle opened FILE_FLAG_NO_BUFFERING | FILE_FLAG_OVERLAPPED and every
// segment one system page, page-aligned: an fd opened unbuffered (O_DIRECT)
// gets a second, overlapped handle of the same file (ReOpenFile, with the
// fd's write-through) for them; a call whose buffers are not whole aligned
// pages, or an fd without one, is left to the caller's one call per slice.
// Windows build only. Thread-safe.

#include <windows.h>

#include <cstdint>
#include <mutex>
#include <optional>
#include <span>
#include <unordered_map>

#include "core/status.h"
#include "os/file_system.h"

namespace loadcell {

class Win32ScatterGather final {
 public:
  // `fd` was opened on `h` with `flags` (CreateFileW's): with
  // FILE_FLAG_NO_BUFFERING, its overlapped twin is made now (none when
  // ReOpenFile refuses: its scatter and gather then go one slice at a time).
  void Opened(int fd, HANDLE h, DWORD access, DWORD flags);
  // `fd` is being closed: its twin too.
  void Closing(int fd);

  // One ReadFileScatter (`write`: WriteFileGather) of `slices` at `offset`
  // on fd's twin, waited for: the bytes moved. nullopt when it does not
  // apply (no twin, a slice not whole aligned system pages): the caller
  // goes slice by slice.
  std::optional<Result<size_t>> Transfer(int fd, std::span<const IoSlice> slices, uint64_t offset,
                                         bool write);

 private:
  HANDLE Twin(int fd);

  std::mutex mutex_;
  std::unordered_map<int, HANDLE> twins_;  // guarded by mutex_
};

}  // namespace loadcell
