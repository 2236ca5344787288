#include "os/win32_scatter_gather.h"

#include <vector>

#include "os/win32_util.h"

namespace loadcell {
namespace {

size_t SystemPage() {
  static const size_t page = [] {
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    return static_cast<size_t>(si.dwPageSize);
  }();
  return page;
}

// One FILE_SEGMENT_ELEMENT per system page of `slices`, then the null one
// that ends the array; empty when a slice is not whole aligned pages or
// the whole is more than one call moves.
std::vector<FILE_SEGMENT_ELEMENT> Segments(std::span<const IoSlice> slices, DWORD* total) {
  const size_t page = SystemPage();
  std::vector<FILE_SEGMENT_ELEMENT> segments;
  uint64_t bytes = 0;
  for (const IoSlice& s : slices) {
    const auto at = reinterpret_cast<uintptr_t>(s.data);
    if (s.len == 0 || s.len % page != 0 || at % page != 0) return {};
    for (size_t i = 0; i < s.len; i += page) {
      FILE_SEGMENT_ELEMENT e{};
      e.Alignment = static_cast<ULONGLONG>(at + i);  // the union's 64-bit address
      segments.push_back(e);
    }
    bytes += s.len;
  }
  if (segments.empty() || bytes > MAXDWORD) return {};
  segments.push_back(FILE_SEGMENT_ELEMENT{});
  *total = static_cast<DWORD>(bytes);
  return segments;
}

}  // namespace

void Win32ScatterGather::Opened(int fd, HANDLE h, DWORD access, DWORD flags) {
  if ((flags & FILE_FLAG_NO_BUFFERING) == 0) return;
  HANDLE twin =
      ReOpenFile(h, access, kShareAll,
                 FILE_FLAG_NO_BUFFERING | FILE_FLAG_OVERLAPPED | (flags & FILE_FLAG_WRITE_THROUGH));
  if (twin == INVALID_HANDLE_VALUE) return;
  std::lock_guard lock(mutex_);
  if (auto old = twins_.find(fd); old != twins_.end()) CloseHandle(old->second);
  twins_[fd] = twin;
}

void Win32ScatterGather::Closing(int fd) {
  std::lock_guard lock(mutex_);
  auto it = twins_.find(fd);
  if (it == twins_.end()) return;
  CloseHandle(it->second);
  twins_.erase(it);
}

HANDLE Win32ScatterGather::Twin(int fd) {
  std::lock_guard lock(mutex_);
  auto it = twins_.find(fd);
  return it == twins_.end() ? nullptr : it->second;
}

std::optional<Result<size_t>> Win32ScatterGather::Transfer(int fd, std::span<const IoSlice> slices,
                                                           uint64_t offset, bool write) {
  HANDLE twin = Twin(fd);
  if (twin == nullptr) return std::nullopt;
  DWORD total = 0;
  std::vector<FILE_SEGMENT_ELEMENT> segments = Segments(slices, &total);
  if (segments.empty()) return std::nullopt;
  OVERLAPPED ov{};
  ov.Offset = static_cast<DWORD>(offset);
  ov.OffsetHigh = static_cast<DWORD>(offset >> 32);
  // An event of its own: several threads' transfers may be in flight on
  // the twin at once.
  ov.hEvent = CreateEventW(nullptr, TRUE, FALSE, nullptr);
  if (ov.hEvent == nullptr) return Result<size_t>(Win32Error("CreateEvent", GetLastError()));
  const BOOL started = write ? WriteFileGather(twin, segments.data(), total, nullptr, &ov)
                             : ReadFileScatter(twin, segments.data(), total, nullptr, &ov);
  DWORD error = started ? ERROR_SUCCESS : GetLastError();
  DWORD done = 0;
  if (started || error == ERROR_IO_PENDING) {
    error = GetOverlappedResult(twin, &ov, &done, TRUE) ? ERROR_SUCCESS : GetLastError();
  }
  CloseHandle(ov.hEvent);
  if (error == ERROR_HANDLE_EOF && !write) return Result<size_t>(size_t{0});
  if (error != ERROR_SUCCESS) {
    return Result<size_t>(Win32Error(write ? "WriteFileGather" : "ReadFileScatter", error));
  }
  CountNativeScatterGather();
  return Result<size_t>(static_cast<size_t>(done));
}

}  // namespace loadcell
