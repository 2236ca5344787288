// "io_uring": one ring per engine (so per worker thread) with queue_depth
// submission entries. Each Submit call prepares one SQE per accepted request
// and makes a single io_uring_enter that submits them and also posts the
// completions the kernel holds back (IORING_ENTER_GETEVENTS, as fio's
// submit does); Reap reads the completion ring without a system call when
// completions are there and waits in io_uring_enter only for what is
// missing.
//
// Set-up, trying the cheapest mode the kernel accepts:
//  - IORING_SETUP_SINGLE_ISSUER | DEFER_TASKRUN (6.1+): completion work runs
//    when this thread reaps, never as an interrupt of it. The ring is created
//    disabled and enabled by the first Submit, which binds it to the thread
//    that submits (Open may run on another thread). Only that thread can
//    then wait for completions: Close with requests in flight must run on
//    it too (elsewhere the wait fails with EEXIST, Close reports it and the
//    kernel cancels what is left).
//  - else COOP_TASKRUN | TASKRUN_FLAG (5.19+), else no flags.
//  - The files are registered (IOSQE_FIXED_FILE) when the kernel allows it,
//    which saves a file-table lookup per request.
//  - The caller's buffer region (EngineOptions::buffer_region), when it
//    gives one, is registered as one fixed buffer: a read or write inside it
//    is IORING_OP_READ_FIXED/WRITE_FIXED, which spares the kernel pinning and
//    releasing the buffer's pages on every request. Without a region, or
//    when the kernel refuses it (memlock limit), requests pass their buffers
//    as usual.
// fsync is IORING_OP_FSYNC, fdatasync the same with IORING_FSYNC_DATASYNC.
// Like fsync(2), it covers the writes completed before it was submitted, not
// the ones still in flight.

#include <liburing.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "io/engines.h"
#include "io/io_engine.h"

namespace loadcell::io_internal {
namespace {

constexpr uint32_t kMaxEntries = 32768;  // IORING_MAX_ENTRIES

// An io_uring_setup failure as a Status: refusal by the kernel (not built
// in, disabled by sysctl, filtered by seccomp) is kUnavailable.
Status SetupError(int neg_err) {
  int err = -neg_err;
  if (err == ENOSYS || err == EPERM || err == EACCES) {
    return Status::Unavailable(
        std::string("io_uring is not available: the kernel refused io_uring_setup (") +
        std::strerror(err) + "; see /proc/sys/kernel/io_uring_disabled or a seccomp filter)");
  }
  return PosixError("io_uring_setup", err);
}

class IoUringEngine final : public IoEngine {
 public:
  IoUringEngine() = default;
  ~IoUringEngine() override { (void)Close(); }
  IoUringEngine(const IoUringEngine&) = delete;
  IoUringEngine& operator=(const IoUringEngine&) = delete;

  std::string Name() const override { return "io_uring"; }

  IoCapabilities Capabilities() const override {
    IoCapabilities c;
    c.asynchronous = true;
    c.max_queue_depth = kMaxEntries;
    c.buffer_alignment = 4096;
    return c;
  }

  Status Open(std::span<const IoFile> files, const EngineOptions& opts) override {
    LC_RETURN_IF_ERROR(Close());
    depth_ = opts.queue_depth == 0 ? 1 : opts.queue_depth;
    if (depth_ > kMaxEntries) {
      return Status::InvalidArgument("io_uring queue depth " + std::to_string(depth_) +
                                     " is above the kernel's limit of " +
                                     std::to_string(kMaxEntries));
    }
    static constexpr unsigned kFlagChoices[] = {
        IORING_SETUP_R_DISABLED | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
            IORING_SETUP_TASKRUN_FLAG,
        IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG,
        0,
    };
    int ret = -EINVAL;
    for (unsigned flags : kFlagChoices) {
      io_uring_params params;
      std::memset(&params, 0, sizeof params);
      params.flags = flags;
      ret = io_uring_queue_init_params(depth_, &ring_, &params);
      if (ret != -EINVAL) {
        disabled_ = ret == 0 && (flags & IORING_SETUP_R_DISABLED) != 0;
        break;
      }
    }
    if (ret < 0) return SetupError(ret);
    ring_open_ = true;

    fds_.clear();
    for (const IoFile& f : files) fds_.push_back(f.fd);
    fixed_files_ =
        !fds_.empty() &&
        io_uring_register_files(&ring_, fds_.data(), static_cast<unsigned>(fds_.size())) == 0;
    RegisterBuffers(opts.buffer_region);
    cqes_.assign(std::max<size_t>(2 * static_cast<size_t>(depth_), 16), nullptr);
    inflight_ = 0;
    return Status::Ok();
  }

  // Waits for the requests in flight (their buffers stay in use until they
  // complete), then tears the ring down.
  Status Close() override {
    if (!ring_open_) return Status::Ok();
    Status drained;
    std::array<IoCompletion, 64> sink;
    while (inflight_ > 0 && drained.ok()) {
      Result<size_t> n = Reap(1, sink, -1);
      if (!n.ok()) drained = n.status();
    }
    io_uring_queue_exit(&ring_);
    ring_open_ = false;
    inflight_ = 0;
    fds_.clear();
    region_ = {};
    return drained;
  }

  Result<size_t> Submit(std::span<IoRequest> requests) override {
    if (!ring_open_) return Status::FailedPrecondition("io_uring engine: Submit before Open");
    if (disabled_) {
      // liburing 2.3 declares io_uring_enable_rings but does not export it.
      if (::syscall(__NR_io_uring_register, ring_.ring_fd, IORING_REGISTER_ENABLE_RINGS, nullptr,
                    0) != 0) {
        return PosixError("io_uring enable rings", errno);
      }
      disabled_ = false;
    }
    const size_t room = depth_ - inflight_;
    const size_t n = requests.size() < room ? requests.size() : room;
    size_t prepared = 0;
    for (; prepared < n; ++prepared) {
      io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
      if (sqe == nullptr) break;  // not expected: in flight <= depth <= entries
      Prepare(sqe, requests[prepared]);
    }
    inflight_ += prepared;
    if (prepared > 0) LC_RETURN_IF_ERROR(Flush());
    return prepared;
  }

  Result<size_t> Reap(size_t min, std::span<IoCompletion> out, Nanos timeout_ns) override {
    if (!ring_open_) return Status::FailedPrecondition("io_uring engine: Reap before Open");
    if (min > inflight_) min = inflight_;
    if (min > out.size()) min = out.size();
    if (io_uring_sq_ready(&ring_) > 0) LC_RETURN_IF_ERROR(Flush());
    size_t got = 0;
    Nanos deadline = timeout_ns > 0 ? MonotonicNow() + timeout_ns : 0;
    while (true) {
      size_t cap = out.size() - got;
      if (cap > cqes_.size()) cap = cqes_.size();
      unsigned k = io_uring_peek_batch_cqe(&ring_, cqes_.data(), static_cast<unsigned>(cap));
      for (unsigned j = 0; j < k; ++j) {
        out[got + j] = IoCompletion{io_uring_cqe_get_data64(cqes_[j]), cqes_[j]->res};
      }
      io_uring_cq_advance(&ring_, k);
      got += k;
      inflight_ -= k;
      if (got >= min || got == out.size() || timeout_ns == 0) return got;

      __kernel_timespec ts;
      __kernel_timespec* tsp = nullptr;
      if (timeout_ns > 0) {
        Nanos left = deadline - MonotonicNow();
        if (left <= 0) return got;
        ts.tv_sec = left / kNanosPerSecond;
        ts.tv_nsec = left % kNanosPerSecond;
        tsp = &ts;
      }
      io_uring_cqe* cqe = nullptr;
      int ret = io_uring_wait_cqes(&ring_, &cqe, static_cast<unsigned>(min - got), tsp, nullptr);
      if (ret == -ETIME) {
        // Take whatever arrived meanwhile, then give up.
        timeout_ns = 0;
        continue;
      }
      if (ret < 0 && ret != -EINTR && ret != -EAGAIN) {
        return PosixError("io_uring wait for completions", -ret);
      }
    }
  }

  size_t InFlight() const override { return inflight_; }

 private:
  void Prepare(io_uring_sqe* sqe, const IoRequest& r) {
    int fd;
    bool fixed = false;
    if (r.file < 0 || static_cast<size_t>(r.file) >= fds_.size()) {
      fd = -1;  // the kernel completes it with -EBADF
    } else if (fixed_files_) {
      fd = r.file;
      fixed = true;
    } else {
      fd = fds_[static_cast<size_t>(r.file)];
    }
    const bool in_region = InRegion(r);
    switch (r.op) {
      case IoOp::kRead:
        if (in_region) {
          io_uring_prep_read_fixed(sqe, fd, r.buffer, r.length, r.offset, 0);
        } else {
          io_uring_prep_read(sqe, fd, r.buffer, r.length, r.offset);
        }
        break;
      case IoOp::kWrite:
        if (in_region) {
          io_uring_prep_write_fixed(sqe, fd, r.buffer, r.length, r.offset, 0);
        } else {
          io_uring_prep_write(sqe, fd, r.buffer, r.length, r.offset);
        }
        break;
      case IoOp::kFsync:
        io_uring_prep_fsync(sqe, fd, 0);
        break;
      case IoOp::kFdatasync:
        io_uring_prep_fsync(sqe, fd, IORING_FSYNC_DATASYNC);
        break;
    }
    if (fixed) sqe->flags |= IOSQE_FIXED_FILE;
    io_uring_sqe_set_data64(sqe, r.user_data);
  }

  // Registers `region` as fixed buffer 0; on refusal, or for an empty
  // region or one past the kernel's 1 GiB per buffer, none is registered.
  void RegisterBuffers(std::span<unsigned char> region) {
    region_ = {};
    constexpr size_t kMaxFixedBuffer = size_t{1} << 30;
    if (region.empty() || region.size() > kMaxFixedBuffer) return;
    iovec iov{region.data(), region.size()};
    if (io_uring_register_buffers(&ring_, &iov, 1) == 0) region_ = region;
  }

  // Whether the request's buffer lies whole inside the registered region.
  bool InRegion(const IoRequest& r) const {
    if (region_.empty() || r.buffer == nullptr) return false;
    const auto p = reinterpret_cast<uintptr_t>(r.buffer);
    const auto begin = reinterpret_cast<uintptr_t>(region_.data());
    return p >= begin && p - begin <= region_.size() && r.length <= region_.size() - (p - begin);
  }

  // Hands the prepared SQEs to the kernel. Busy/interrupted submissions stay
  // in the ring and go with the next Submit or Reap.
  //
  // With DEFER_TASKRUN the kernel posts a completion to the ring only when
  // this thread enters it asking for events. A plain io_uring_submit does
  // not ask, so completions that arrived meanwhile stayed invisible until
  // the ring ran empty and Reap waited: the worker then saw them all at once
  // and refilled them as one burst, which is the batched refill that one
  // request per call is there to avoid. Asking on every submit (one system
  // call either way) posts them as they come, and the next Reap finds them
  // without waiting.
  Status Flush() {
    int ret = io_uring_submit_and_get_events(&ring_);
    if (ret < 0 && ret != -EAGAIN && ret != -EBUSY && ret != -EINTR) {
      return PosixError("io_uring_submit", -ret);
    }
    return Status::Ok();
  }

  io_uring ring_{};
  bool ring_open_ = false;
  bool disabled_ = false;
  bool fixed_files_ = false;
  size_t depth_ = 1;
  size_t inflight_ = 0;
  std::vector<int> fds_;
  std::vector<io_uring_cqe*> cqes_;
  std::span<unsigned char> region_;  // the registered buffer; empty: none
};

// Whether this kernel lets the process use io_uring at all; asked once.
const Status& ProbeIoUring() {
  static const Status probe = [] {
    io_uring ring;
    int ret = io_uring_queue_init(1, &ring, 0);
    if (ret < 0) return SetupError(ret);
    io_uring_queue_exit(&ring);
    return Status::Ok();
  }();
  return probe;
}

}  // namespace

Result<std::unique_ptr<IoEngine>> MakeIoUringEngine(FileSystem& /*fs*/) {
  const Status& probe = ProbeIoUring();
  if (!probe.ok()) return probe;
  return std::unique_ptr<IoEngine>(std::make_unique<IoUringEngine>());
}

}  // namespace loadcell::io_internal
