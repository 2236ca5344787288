// "iocp" (Windows): overlapped ReadFile/WriteFile on an I/O completion port
// of the engine's own, so each worker thread keeps a true queue depth of its
// own, as SQLIO's and DiskSpd's -o do.
//
// A handle belongs to one completion port at most, and the caller's files are
// shared by every worker thread: Open re-opens each of them (ReOpenFile: the
// same file, even if its name now names another) with FILE_FLAG_OVERLAPPED
// and the buffering flags the caller opened it with (EngineOptions::
// open_flags: FILE_FLAG_NO_BUFFERING, FILE_FLAG_WRITE_THROUGH), and binds
// those handles to this engine's port. Close closes them; the caller's
// descriptors stay open.
//
// A transfer may complete at once (ReadFile/WriteFile return TRUE; on Windows
// typically a buffered read served from the file cache) or later (FALSE with
// ERROR_IO_PENDING). The handles skip the port on success
// (FILE_SKIP_COMPLETION_PORT_ON_SUCCESS), so a request completed at once is
// completed inside Submit and handed out by the next Reap; where Windows
// refuses that mode, its completion still comes through the port and is
// taken from there, never counted twice. A transfer that fails to start
// completes at once with -errno (the Win32 error through ErrnoOfWin32Error;
// EIO when no errno matches); end of file is a transfer of 0 bytes.
//
// fsync and fdatasync are FlushFileBuffers through the FileSystem seam on the
// caller's descriptor, inside Submit (as the libaio engine does): like
// fsync(2) beside other threads, they cover the writes completed before them.

#include <io.h>
#include <windows.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <memory>
#include <vector>

#include "io/engines.h"
#include "io/engines_win32.h"
#include "io/io_engine.h"
#include "os/open_flags.h"
#include "os/win32_util.h"

namespace loadcell::io_internal {
namespace {

constexpr uint32_t kMaxDepth = 65536;  // as fileio's --file-queue-depth allows

BOOL StartTransfer(bool write, HANDLE file, void* buffer, DWORD length, OVERLAPPED* ov) {
  return write ? WriteFile(file, buffer, length, nullptr, ov)
               : ReadFile(file, buffer, length, nullptr, ov);
}

// A Win32 error as a completion's result: 0 bytes at the end of the file,
// else -errno.
int64_t ResultOfError(DWORD error) {
  if (error == ERROR_HANDLE_EOF) return 0;
  const int err = ErrnoOfWin32Error(error);
  return -(err != 0 ? err : EIO);
}

// GetQueuedCompletionStatusEx's timeout: -1 waits for ever, a part of a
// millisecond is a whole one.
DWORD TimeoutMillis(Nanos timeout_ns) {
  if (timeout_ns < 0) return INFINITE;
  const Nanos ms = (timeout_ns + kNanosPerMilli - 1) / kNanosPerMilli;
  return ms >= static_cast<Nanos>(INFINITE) ? INFINITE - 1 : static_cast<DWORD>(ms);
}

// One request in flight. The OVERLAPPED comes first: a completion's
// OVERLAPPED* is its Slot*.
struct Slot {
  OVERLAPPED ov{};
  uint64_t user_data = 0;
  HANDLE file = INVALID_HANDLE_VALUE;
};

struct OverlappedFile {
  HANDLE handle = INVALID_HANDLE_VALUE;
  bool skips_port = false;  // FILE_SKIP_COMPLETION_PORT_ON_SUCCESS is set
};

class IocpEngine final : public IoEngine {
 public:
  IocpEngine(FileSystem& fs, const IocpTestHooks& hooks)
      : fs_(fs), start_(hooks.start != nullptr ? hooks.start : &StartTransfer), hooks_(hooks) {}
  ~IocpEngine() override { (void)Close(); }
  IocpEngine(const IocpEngine&) = delete;
  IocpEngine& operator=(const IocpEngine&) = delete;

  std::string Name() const override { return "iocp"; }

  IoCapabilities Capabilities() const override {
    IoCapabilities c;
    c.asynchronous = true;
    c.max_queue_depth = kMaxDepth;
    c.buffer_alignment = 4096;
    return c;
  }

  Status Open(std::span<const IoFile> files, const EngineOptions& opts) override {
    LC_RETURN_IF_ERROR(Close());
    depth_ = opts.queue_depth == 0 ? 1 : opts.queue_depth;
    if (depth_ > kMaxDepth) {
      return Status::InvalidArgument("iocp queue depth " + std::to_string(depth_) + " is above " +
                                     std::to_string(kMaxDepth));
    }
    port_ = CreateIoCompletionPort(INVALID_HANDLE_VALUE, nullptr, 0, 1);
    if (port_ == nullptr) return Win32Error("iocp engine: CreateIoCompletionPort", GetLastError());
    writable_ = opts.writable;
    for (const IoFile& f : files) {
      if (Status st = AddFile(f, opts); !st.ok()) {
        (void)Close();
        return st;
      }
    }
    slots_.assign(depth_, Slot{});
    free_.resize(depth_);
    for (size_t i = 0; i < depth_; ++i) free_[i] = static_cast<uint32_t>(depth_ - 1 - i);
    entries_.assign(depth_, OVERLAPPED_ENTRY{});
    done_.Reset(depth_);
    port_inflight_ = 0;
    return Status::Ok();
  }

  // Waits for the requests in flight (their buffers stay in use until they
  // complete), then closes the handles and the port.
  Status Close() override {
    if (port_ == nullptr) return Status::Ok();
    Status drained;
    std::array<IoCompletion, 64> sink;
    while (port_inflight_ > 0 && drained.ok()) {
      Result<size_t> n = Reap(1, sink, -1);
      if (!n.ok()) drained = n.status();
    }
    for (const OverlappedFile& f : files_) CloseHandle(f.handle);
    files_.clear();
    fds_.clear();
    CloseHandle(port_);
    port_ = nullptr;
    port_inflight_ = 0;
    done_.Reset(1);
    return drained;
  }

  Result<size_t> Submit(std::span<IoRequest> requests) override {
    if (port_ == nullptr) return Status::FailedPrecondition("iocp engine: Submit before Open");
    size_t accepted = 0;
    for (; accepted < requests.size() && InFlight() < depth_; ++accepted) {
      const IoRequest& r = requests[accepted];
      if (r.file < 0 || static_cast<size_t>(r.file) >= files_.size()) {
        done_.Push(r.user_data, -EBADF);
      } else if (r.op == IoOp::kFsync || r.op == IoOp::kFdatasync) {
        done_.Push(r.user_data, SyncNow(r));
      } else if (r.op == IoOp::kWrite && !writable_) {
        done_.Push(r.user_data, -EBADF);
      } else {
        Start(r);
      }
    }
    return accepted;
  }

  Result<size_t> Reap(size_t min, std::span<IoCompletion> out, Nanos timeout_ns) override {
    if (port_ == nullptr) return Status::FailedPrecondition("iocp engine: Reap before Open");
    size_t got = done_.PopInto(out);
    size_t want = min > got ? min - got : 0;
    if (want > port_inflight_) want = port_inflight_;
    const Nanos deadline = timeout_ns > 0 ? MonotonicNow() + timeout_ns : 0;
    while (got < out.size() && port_inflight_ > 0) {
      Nanos left = want == 0 ? 0 : timeout_ns;
      if (want > 0 && deadline > 0) left = std::max<Nanos>(deadline - MonotonicNow(), 0);
      size_t room = std::min(out.size() - got, entries_.size());
      ULONG n = 0;
      if (!GetQueuedCompletionStatusEx(port_, entries_.data(), static_cast<ULONG>(room), &n,
                                       TimeoutMillis(left), FALSE)) {
        const DWORD error = GetLastError();
        if (error == WAIT_TIMEOUT) break;
        return Win32Error("iocp engine: GetQueuedCompletionStatusEx", error);
      }
      for (ULONG j = 0; j < n; ++j) {
        Slot* slot = reinterpret_cast<Slot*>(entries_[j].lpOverlapped);
        out[got++] = IoCompletion{slot->user_data, ResultOf(*slot)};
        free_.push_back(static_cast<uint32_t>(slot - slots_.data()));  // never reallocates
      }
      port_inflight_ -= n;
      want = want > n ? want - n : 0;
      if (want == 0) break;
    }
    return got;
  }

  size_t InFlight() const override { return port_inflight_ + done_.size(); }

 private:
  // Re-opens `f` overlapped and binds it to the port.
  Status AddFile(const IoFile& f, const EngineOptions& opts) {
    const HANDLE shared = reinterpret_cast<HANDLE>(_get_osfhandle(f.fd));
    const DWORD buffering = CreateFileArgsFor(opts.open_flags, /*truncate=*/false).flags &
                            (FILE_FLAG_NO_BUFFERING | FILE_FLAG_WRITE_THROUGH);
    const DWORD access = GENERIC_READ | (opts.writable ? GENERIC_WRITE : 0);
    OverlappedFile of;
    of.handle = ReOpenFile(shared, access, kShareAll, FILE_FLAG_OVERLAPPED | buffering);
    if (of.handle == INVALID_HANDLE_VALUE) {
      return Win32Error("iocp engine: re-open '" + f.path + "' for overlapped I/O", GetLastError());
    }
    files_.push_back(of);
    fds_.push_back(f.fd);
    // -Sr: this handle is a file object of its own, its local cache off too.
    if ((opts.open_flags & O_LOCAL_CACHE_OFF) != 0) {
      LC_RETURN_IF_ERROR(DisableLocalBuffering(of.handle, f.path));
    }
    if (CreateIoCompletionPort(of.handle, port_, 0, 0) == nullptr) {
      return Win32Error("iocp engine: bind '" + f.path + "' to the port", GetLastError());
    }
    files_.back().skips_port =
        hooks_.skip_port_on_success &&
        SetFileCompletionNotificationModes(
            of.handle, FILE_SKIP_COMPLETION_PORT_ON_SUCCESS | FILE_SKIP_SET_EVENT_ON_HANDLE);
    return Status::Ok();
  }

  // Starts a read or a write. REQUIRES: InFlight() < depth_ (so a slot and
  // room in done_ are free).
  void Start(const IoRequest& r) {
    const OverlappedFile& f = files_[static_cast<size_t>(r.file)];
    const uint32_t index = free_.back();
    free_.pop_back();
    Slot& slot = slots_[index];
    slot.ov = OVERLAPPED{};
    slot.ov.Offset = static_cast<DWORD>(r.offset & 0xffffffffu);
    slot.ov.OffsetHigh = static_cast<DWORD>(r.offset >> 32);
    slot.user_data = r.user_data;
    slot.file = f.handle;
    if (start_(r.op == IoOp::kWrite, f.handle, r.buffer, r.length, &slot.ov)) {
      if (!f.skips_port) {
        ++port_inflight_;  // its completion comes through the port all the same
        return;
      }
      done_.Push(r.user_data, ResultOf(slot));
      free_.push_back(index);
      return;
    }
    const DWORD error = GetLastError();
    if (error == ERROR_IO_PENDING) {
      ++port_inflight_;
      return;
    }
    done_.Push(r.user_data, ResultOfError(error));
    free_.push_back(index);
  }

  // The result of a finished transfer, from its OVERLAPPED.
  static int64_t ResultOf(Slot& slot) {
    DWORD bytes = 0;
    if (GetOverlappedResult(slot.file, &slot.ov, &bytes, FALSE)) return static_cast<int64_t>(bytes);
    return ResultOfError(GetLastError());
  }

  int64_t SyncNow(const IoRequest& r) {
    const int fd = fds_[static_cast<size_t>(r.file)];
    Status s = r.op == IoOp::kFsync ? fs_.Fsync(fd) : fs_.Fdatasync(fd);
    return s.ok() ? 0 : NegErrno(s);
  }

  FileSystem& fs_;
  IocpStartFn start_;
  IocpTestHooks hooks_;
  HANDLE port_ = nullptr;
  bool writable_ = true;
  size_t depth_ = 1;
  size_t port_inflight_ = 0;  // started, completion not yet taken from the port
  std::vector<OverlappedFile> files_;
  std::vector<int> fds_;        // the caller's descriptors, for fsync
  std::vector<Slot> slots_;     // depth_ of them; never reallocated while open
  std::vector<uint32_t> free_;  // free slots; the top is used next
  std::vector<OVERLAPPED_ENTRY> entries_;
  CompletionQueue done_;  // completed at once: fsyncs, failures, skipped-port successes
};

}  // namespace

Result<std::unique_ptr<IoEngine>> MakeIocpEngineWithHooks(FileSystem& fs,
                                                          const IocpTestHooks& hooks) {
  return std::unique_ptr<IoEngine>(std::make_unique<IocpEngine>(fs, hooks));
}

Result<std::unique_ptr<IoEngine>> MakeIocpEngine(FileSystem& fs) {
  return MakeIocpEngineWithHooks(fs, IocpTestHooks{});
}

}  // namespace loadcell::io_internal
