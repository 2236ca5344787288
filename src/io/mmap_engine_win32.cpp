// "mmap" (Windows; mmap_engine.cpp is the POSIX one): each file is mapped
// once at Open (CreateFileMappingW, MapViewOfFile: one shared view of the
// whole file). A read copies from the view into the request's buffer (every
// byte touched, a page not in memory read in); a write copies into the view;
// fsync and fdatasync are FlushViewOfFile of the whole view (the dirty pages
// to the file) then FlushFileBuffers (the file to the device), as
// msync(MS_SYNC) is on Linux. Requests complete inside Submit, like "sync".
//
// The view has the file's size at Open: a request reaching past it is
// clipped (MappedTransfer), and files do not grow through this engine. A file
// of 0 bytes has no view (Windows cannot map one): every transfer on it is 0
// bytes.
//
// Faults: Windows refuses to shrink a file below a mapped view
// (ERROR_USER_MAPPED_FILE), so the POSIX engine's SIGBUS case (another
// process truncating the file) cannot happen to a local file. A page that
// cannot be read in (a device or network error: EXCEPTION_IN_PAGE_ERROR) or
// is not accessible inside a copy of this engine is caught by a vectored
// exception handler, and the request fails with -EIO: the run ends as a failed
// run with its report, not a crash.

#include <io.h>
#include <windows.h>

#include <cerrno>
#include <memory>
#include <mutex>
#include <vector>

#include "io/engines.h"
#include "io/engines_win32.h"
#include "io/io_engine.h"
#include "os/win32_util.h"

#if !defined(__x86_64__)
#error "the mmap engine's fault guard resumes an x86-64 CONTEXT (Rip, Rsp)"
#endif

namespace loadcell::io_internal {
namespace {

// The copy running on this thread: where to jump back to, and the two ranges
// whose faults are its own.
struct CopyGuard {
  void* jump[5] = {};  // __builtin_setjmp's buffer
  const char* dst = nullptr;
  const char* src = nullptr;
  uint64_t len = 0;

  bool Covers(const char* address) const {
    return (address >= dst && address < dst + len) || (address >= src && address < src + len);
  }
};

thread_local CopyGuard* t_copy_guard = nullptr;

// Where a faulted copy resumes: on the faulting stack, outside the exception
// dispatch (the handler returned), so an ordinary jump back into GuardedCopy.
[[gnu::noinline]] void LeaveFaultedCopy() {
  CopyGuard* guard = t_copy_guard;
  t_copy_guard = nullptr;
  __builtin_longjmp(guard->jump, 1);
}

LONG CALLBACK OnException(EXCEPTION_POINTERS* ep) {
  const EXCEPTION_RECORD* rec = ep->ExceptionRecord;
  // The code first: every C++ throw comes through here too.
  if (rec->ExceptionCode != EXCEPTION_IN_PAGE_ERROR &&
      rec->ExceptionCode != EXCEPTION_ACCESS_VIOLATION) {
    return EXCEPTION_CONTINUE_SEARCH;
  }
  const CopyGuard* guard = t_copy_guard;
  if (guard == nullptr || rec->NumberParameters < 2) return EXCEPTION_CONTINUE_SEARCH;
  // ExceptionInformation[1]: the address that could not be read or written.
  if (!guard->Covers(reinterpret_cast<const char*>(rec->ExceptionInformation[1]))) {
    return EXCEPTION_CONTINUE_SEARCH;
  }
  // Resume in LeaveFaultedCopy as if called: a 16-byte aligned stack less
  // the return address's 8 bytes, below whatever the copy was using.
  CONTEXT* c = ep->ContextRecord;
  c->Rsp = (c->Rsp & ~DWORD64{15}) - 8;
  c->Rip = reinterpret_cast<DWORD64>(&LeaveFaultedCopy);
  return EXCEPTION_CONTINUE_EXECUTION;
}

void InstallExceptionHandler() {
  static std::once_flag once;
  std::call_once(once, [] { AddVectoredExceptionHandler(1, &OnException); });
}

struct View {
  HANDLE file = INVALID_HANDLE_VALUE;  // the caller's, for FlushFileBuffers
  HANDLE mapping = nullptr;
  char* base = nullptr;
  uint64_t size = 0;
};

int64_t NegErrnoOf(DWORD error) {
  const int err = ErrnoOfWin32Error(error);
  return -(err != 0 ? err : EIO);
}

class MmapEngine final : public InlineEngine {
 public:
  MmapEngine() = default;
  ~MmapEngine() override { (void)Close(); }
  MmapEngine(const MmapEngine&) = delete;
  MmapEngine& operator=(const MmapEngine&) = delete;

  std::string Name() const override { return "mmap"; }

  Status Open(std::span<const IoFile> files, const EngineOptions& opts) override {
    LC_RETURN_IF_ERROR(Close());
    InstallExceptionHandler();
    writable_ = opts.writable;
    for (const IoFile& f : files) {
      Result<View> v = MapFile(f);
      if (!v.ok()) {
        (void)Close();
        return v.status();
      }
      views_.push_back(*v);
    }
    MarkOpen(opts.queue_depth);
    return Status::Ok();
  }

  Status Close() override {
    Status first;
    for (View& v : views_) {
      if (v.base != nullptr && !UnmapViewOfFile(v.base) && first.ok()) {
        first = Win32Error("mmap engine: UnmapViewOfFile", GetLastError());
      }
      if (v.mapping != nullptr) CloseHandle(v.mapping);
    }
    views_.clear();
    MarkClosed();
    return first;
  }

 private:
  // One view of the whole file, of its size now (or f.size when that is
  // smaller: a mapping longer than the file would grow it).
  Result<View> MapFile(const IoFile& f) const {
    View v;
    v.file = reinterpret_cast<HANDLE>(_get_osfhandle(f.fd));
    LARGE_INTEGER now{};
    if (!GetFileSizeEx(v.file, &now)) {
      return Win32Error("mmap engine: size of '" + f.path + "'", GetLastError());
    }
    v.size = static_cast<uint64_t>(now.QuadPart);
    if (f.size != 0 && f.size < v.size) v.size = f.size;
    if (v.size == 0) return v;
    const DWORD protect = writable_ ? PAGE_READWRITE : PAGE_READONLY;
    v.mapping = CreateFileMappingW(v.file, nullptr, protect, static_cast<DWORD>(v.size >> 32),
                                   static_cast<DWORD>(v.size & 0xffffffffu), nullptr);
    if (v.mapping == nullptr) {
      return Win32Error("mmap engine: CreateFileMapping '" + f.path + "'", GetLastError());
    }
    const DWORD access = FILE_MAP_READ | (writable_ ? FILE_MAP_WRITE : 0);
    v.base = static_cast<char*>(MapViewOfFile(v.mapping, access, 0, 0, v.size));
    if (v.base == nullptr) {
      const DWORD error = GetLastError();
      CloseHandle(v.mapping);
      return Win32Error("mmap engine: MapViewOfFile '" + f.path + "'", error);
    }
    return v;
  }

  int64_t Execute(const IoRequest& r) override {
    if (r.file < 0 || static_cast<size_t>(r.file) >= views_.size()) return -EBADF;
    const View& v = views_[static_cast<size_t>(r.file)];
    if (r.op == IoOp::kFsync || r.op == IoOp::kFdatasync) {
      if (v.base != nullptr && !FlushViewOfFile(v.base, v.size)) return NegErrnoOf(GetLastError());
      if (writable_ && !FlushFileBuffers(v.file)) return NegErrnoOf(GetLastError());
      return 0;
    }
    return MappedTransfer(r, v.base, v.size, writable_, &GuardedCopy);
  }

  std::vector<View> views_;
  bool writable_ = true;
};

}  // namespace

// Not inlined, so that nothing of the caller lives in registers across the
// jump back.
[[gnu::noinline]] bool GuardedCopy(char* dst, const char* src, uint64_t len) {
  InstallExceptionHandler();
  CopyGuard guard;
  guard.dst = dst;
  guard.src = src;
  guard.len = len;
  if (__builtin_setjmp(guard.jump) != 0) return false;
  t_copy_guard = &guard;
  CopyBetweenFences(dst, src, len);
  t_copy_guard = nullptr;
  return true;
}

// The mapping bypasses the FileSystem seam: there is no call to intercept.
Result<std::unique_ptr<IoEngine>> MakeMmapEngine(FileSystem& /*fs*/) {
  return std::unique_ptr<IoEngine>(std::make_unique<MmapEngine>());
}

}  // namespace loadcell::io_internal
