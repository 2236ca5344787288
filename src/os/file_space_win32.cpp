#include <io.h>
#include <windows.h>

#include <algorithm>
#include <cstdint>

#include "os/file_space.h"
#include "os/win32_util.h"

namespace loadcell {
namespace {

HANDLE FileHandleOf(int fd) { return reinterpret_cast<HANDLE>(_get_osfhandle(fd)); }

// Zeros written over [from, to) (what fio's posix_fallocate does on
// Windows), through an OVERLAPPED offset and a wait: right for a handle
// opened for overlapped I/O and for one that is not. The buffer is
// page-aligned for an unbuffered handle.
Status WriteZeros(HANDLE h, uint64_t from, uint64_t to) {
  constexpr DWORD kChunk = 1 << 20;
  void* zeros = VirtualAlloc(nullptr, kChunk, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
  if (zeros == nullptr) return Win32Error("a buffer of zeros", GetLastError());
  const HANDLE done_event = CreateEventW(nullptr, TRUE, FALSE, nullptr);
  Status st = Status::Ok();
  for (uint64_t at = from; at < to && st.ok();) {
    OVERLAPPED ov{};
    ov.Offset = static_cast<DWORD>(at);
    ov.OffsetHigh = static_cast<DWORD>(at >> 32);
    ov.hEvent = done_event;
    const auto n = static_cast<DWORD>(std::min<uint64_t>(kChunk, to - at));
    DWORD written = 0;
    if ((!WriteFile(h, zeros, n, nullptr, &ov) && GetLastError() != ERROR_IO_PENDING) ||
        !GetOverlappedResult(h, &ov, &written, TRUE) || written == 0) {
      st = Win32Error("writing zeros to reserve the file's space", GetLastError());
    }
    at += written;
  }
  if (done_event != nullptr) CloseHandle(done_event);
  VirtualFree(zeros, 0, MEM_RELEASE);
  return st;
}

// posix_fallocate's effect from Windows' own calls: the clusters of the first
// `size` bytes allocated (FileAllocationInfo), then the end of the file moved
// up to `size` where it was below (never down: a longer file keeps its data).
// Where the file system takes no allocation call (Wine has none), `posix`
// writes zeros up to `size`, as fio does on Windows; `native` does nothing.
Status AllocateAndExtend(int fd, uint64_t size, bool zeros_if_no_call) {
  const HANDLE h = FileHandleOf(fd);
  LARGE_INTEGER now{};
  if (!GetFileSizeEx(h, &now)) return Win32Error("reading the file's size", GetLastError());
  const auto old_size = static_cast<uint64_t>(now.QuadPart);
  FILE_ALLOCATION_INFO alloc{};
  alloc.AllocationSize.QuadPart = static_cast<LONGLONG>(size);
  if (!SetFileInformationByHandle(h, FileAllocationInfo, &alloc, sizeof(alloc))) {
    const DWORD error = GetLastError();
    if (zeros_if_no_call && old_size < size) return WriteZeros(h, old_size, size);
    return Win32Error("reserving the file's space (FileAllocationInfo)", error);
  }
  if (old_size >= size) return Status::Ok();
  FILE_END_OF_FILE_INFO eof{};
  eof.EndOfFile.QuadPart = static_cast<LONGLONG>(size);
  if (!SetFileInformationByHandle(h, FileEndOfFileInfo, &eof, sizeof(eof))) {
    return Win32Error("setting the file's size", GetLastError());
  }
  return Status::Ok();
}

}  // namespace

bool CanPunchHoles() { return false; }

Status PunchHole(int, uint64_t, uint64_t) {
  return Status::Unimplemented("punching a hole in a file is not supported on Windows");
}

// posix and native reserve the space and set the size, as on Linux; native's
// failure is not an error (fio's rule: it falls back to none).
// keep (space past the end of the file) is Linux's alone, in fio too.
Status ReserveSpace(int fd, SpaceReservation how, uint64_t size) {
  if (size == 0) return Status::Ok();
  switch (how) {
    case SpaceReservation::kPosix:
      return AllocateAndExtend(fd, size, /*zeros_if_no_call=*/true);
    case SpaceReservation::kNative:
      (void)AllocateAndExtend(fd, size, /*zeros_if_no_call=*/false);
      return Status::Ok();
    case SpaceReservation::kKeepSize:
      break;
  }
  return Status::Unimplemented("fallocate=keep is not supported on Windows (it is Linux's)");
}

}  // namespace loadcell
