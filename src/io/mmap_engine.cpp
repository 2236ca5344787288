// "mmap": each file is mapped MAP_SHARED once at Open. A read copies from
// the mapping into the request's buffer (so every byte is touched, and a page
// not in memory is faulted in); a write copies into the mapping; fsync and
// fdatasync are msync(MS_SYNC) of the whole mapping. Requests complete inside
// Submit, like "sync".
//
// A request reaching past the end of the mapping is clipped: the result is
// the bytes copied (0 at or past the end), as pread/pwrite report a short
// transfer. Files do not grow through this engine.
//
// A page of the mapping that no longer has a file behind it (another process
// truncated the file after Open) raises SIGBUS on access. The copy runs under
// a per-thread guard: the SIGBUS handler jumps back out of the copy, and the
// request fails with -EIO, so the run ends as a failed run with its report
// instead of the process dying. A SIGBUS outside a guarded copy keeps the
// default action (the process dies as it would without this engine).

#include <sys/mman.h>
#include <sys/stat.h>

#include <cerrno>
#include <csetjmp>
#include <csignal>
#include <memory>
#include <mutex>
#include <vector>

#include "io/engines.h"
#include "io/io_engine.h"

namespace loadcell::io_internal {
namespace {

// The jump target of the copy running on this thread, or null outside one.
thread_local sigjmp_buf* t_copy_guard = nullptr;

void OnSigbus(int sig, siginfo_t* /*info*/, void* /*context*/) {
  if (sigjmp_buf* guard = t_copy_guard; guard != nullptr) {
    t_copy_guard = nullptr;
    siglongjmp(*guard, 1);
  }
  // Not a guarded copy: the default action, as if no handler were installed.
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

// Installs OnSigbus once per process. SA_NODEFER keeps SIGBUS unblocked while
// the handler runs, so the jump out of it needs no signal-mask restore and
// the guard costs no system call per request (sigsetjmp(..., 0)).
Status InstallSigbusHandler() {
  static std::once_flag once;
  static int failed_errno = 0;
  std::call_once(once, [] {
    struct sigaction sa {};
    sa.sa_sigaction = OnSigbus;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    if (::sigaction(SIGBUS, &sa, nullptr) != 0) failed_errno = errno;
  });
  if (failed_errno != 0) return PosixError("mmap engine: sigaction(SIGBUS)", failed_errno);
  return Status::Ok();
}

// Copies len bytes; false when the copy faulted (the file shrank under the
// mapping). Not inlined, so that nothing of the caller lives in registers
// across the jump.
[[gnu::noinline]] bool GuardedCopy(char* dst, const char* src, uint64_t len) {
  sigjmp_buf guard;
  if (sigsetjmp(guard, 0) != 0) return false;
  t_copy_guard = &guard;
  CopyBetweenFences(dst, src, len);
  t_copy_guard = nullptr;
  return true;
}

struct Mapping {
  char* base = nullptr;
  uint64_t size = 0;
};

class MmapEngine final : public InlineEngine {
 public:
  MmapEngine() = default;
  ~MmapEngine() override { (void)Close(); }

  std::string Name() const override { return "mmap"; }

  Status Open(std::span<const IoFile> files, const EngineOptions& opts) override {
    LC_RETURN_IF_ERROR(Close());
    LC_RETURN_IF_ERROR(InstallSigbusHandler());
    writable_ = opts.writable;
    const int prot = PROT_READ | (opts.writable ? PROT_WRITE : 0);
    for (const IoFile& f : files) {
      Mapping m;
      m.size = f.size;
      if (m.size == 0) {
        struct stat st;
        if (::fstat(f.fd, &st) != 0) {
          Status s = PosixError("mmap engine: fstat '" + f.path + "'", errno);
          (void)Close();
          return s;
        }
        m.size = static_cast<uint64_t>(st.st_size);
      }
      if (m.size > 0) {
        void* p = ::mmap(nullptr, m.size, prot, MAP_SHARED, f.fd, 0);
        if (p == MAP_FAILED) {
          Status s = PosixError("mmap '" + f.path + "'", errno);
          (void)Close();
          return s;
        }
        m.base = static_cast<char*>(p);
      }
      maps_.push_back(m);
    }
    MarkOpen(opts.queue_depth);
    return Status::Ok();
  }

  Status Close() override {
    Status first;
    for (Mapping& m : maps_) {
      if (m.base != nullptr && ::munmap(m.base, m.size) != 0 && first.ok()) {
        first = PosixError("munmap", errno);
      }
    }
    maps_.clear();
    MarkClosed();
    return first;
  }

 private:
  int64_t Execute(const IoRequest& r) override {
    if (r.file < 0 || static_cast<size_t>(r.file) >= maps_.size()) return -EBADF;
    const Mapping& m = maps_[static_cast<size_t>(r.file)];
    if (r.op == IoOp::kFsync || r.op == IoOp::kFdatasync) {
      if (m.base == nullptr) return 0;
      if (::msync(m.base, m.size, MS_SYNC) != 0) return -errno;
      return 0;
    }
    return MappedTransfer(r, m.base, m.size, writable_, &GuardedCopy);
  }

  std::vector<Mapping> maps_;
  bool writable_ = true;
};

}  // namespace

// The mapping bypasses the FileSystem seam: there is no call to intercept.
Result<std::unique_ptr<IoEngine>> MakeMmapEngine(FileSystem& /*fs*/) {
  return std::unique_ptr<IoEngine>(std::make_unique<MmapEngine>());
}

}  // namespace loadcell::io_internal
