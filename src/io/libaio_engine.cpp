// "libaio": Linux native AIO (io_setup/io_submit/io_getevents), one context
// per engine with queue_depth slots. The iocbs live in a fixed array and are
// reused through a free list; each Submit call makes one io_submit for the
// reads and writes it accepts.
//
// Linux AIO is only asynchronous for files opened with O_DIRECT: for
// buffered files the kernel completes each request inside io_submit, so Open
// refuses files not opened with O_DIRECT (EngineOptions::direct) unless the
// caller asks for exactly that (EngineOptions::buffered_aio: sysbench's async
// mode without direct).
//
// fsync and fdatasync: IOCB_CMD_FSYNC/FDSYNC are refused (EINVAL) by most
// filesystems, so they are done synchronously inside Submit, through the
// FileSystem seam, after the requests before them in the same call were
// handed to the kernel; their completions come out of the next Reap. Like
// fsync(2) they cover the writes completed before them, not those in flight.

#include <libaio.h>

#include <array>
#include <cerrno>
#include <memory>
#include <vector>

#include "io/engines.h"
#include "io/io_engine.h"

namespace loadcell::io_internal {
namespace {

constexpr uint32_t kMaxDepth = 65536;  // the default /proc/sys/fs/aio-max-nr

class LibaioEngine final : public IoEngine {
 public:
  explicit LibaioEngine(FileSystem& fs) : fs_(fs) {}
  ~LibaioEngine() override { (void)Close(); }
  LibaioEngine(const LibaioEngine&) = delete;
  LibaioEngine& operator=(const LibaioEngine&) = delete;

  std::string Name() const override { return "libaio"; }

  IoCapabilities Capabilities() const override {
    IoCapabilities c;
    c.asynchronous = true;
    c.max_queue_depth = kMaxDepth;
    c.buffer_alignment = 4096;
    c.needs_direct = true;
    return c;
  }

  Status Open(std::span<const IoFile> files, const EngineOptions& opts) override {
    LC_RETURN_IF_ERROR(Close());
    if (!opts.direct && !opts.buffered_aio) {
      return Status::InvalidArgument(
          "libaio needs --file-extra-flags=direct (without O_DIRECT the kernel completes each "
          "I/O inside io_submit)");
    }
    depth_ = opts.queue_depth == 0 ? 1 : opts.queue_depth;
    if (depth_ > kMaxDepth) {
      return Status::InvalidArgument("libaio queue depth " + std::to_string(depth_) + " is above " +
                                     std::to_string(kMaxDepth));
    }
    ctx_ = nullptr;
    int ret = io_setup(static_cast<int>(depth_), &ctx_);
    if (ret < 0) {
      if (ret == -ENOSYS) {
        return Status::Unavailable(
            "libaio is not available: the kernel has no native AIO (io_setup: ENOSYS)");
      }
      if (ret == -EAGAIN) {
        return Status::ResourceExhausted("io_setup: queue depth " + std::to_string(depth_) +
                                             " is above what /proc/sys/fs/aio-max-nr leaves free",
                                         EAGAIN);
      }
      return PosixError("io_setup", -ret);
    }
    ctx_open_ = true;
    fds_.clear();
    for (const IoFile& f : files) fds_.push_back(f.fd);
    iocbs_.assign(depth_, iocb{});
    user_data_.assign(depth_, 0);
    free_.resize(depth_);
    for (size_t i = 0; i < depth_; ++i) free_[i] = static_cast<uint32_t>(depth_ - 1 - i);
    batch_.assign(depth_, nullptr);
    events_.assign(depth_, io_event{});
    done_.Reset(depth_);
    aio_inflight_ = 0;
    return Status::Ok();
  }

  // Waits for the requests in flight (their buffers stay in use until they
  // complete), then destroys the context.
  Status Close() override {
    if (!ctx_open_) return Status::Ok();
    Status drained;
    std::array<IoCompletion, 64> sink;
    while (InFlight() > 0 && drained.ok()) {
      Result<size_t> n = Reap(1, sink, -1);
      if (!n.ok()) drained = n.status();
    }
    io_destroy(ctx_);
    ctx_open_ = false;
    aio_inflight_ = 0;
    fds_.clear();
    return drained;
  }

  Result<size_t> Submit(std::span<IoRequest> requests) override {
    if (!ctx_open_) return Status::FailedPrecondition("libaio engine: Submit before Open");
    size_t accepted = 0;
    size_t batched = 0;
    while (accepted + batched < requests.size() && InFlight() + batched < depth_) {
      const IoRequest& r = requests[accepted + batched];
      const bool bad_file = r.file < 0 || static_cast<size_t>(r.file) >= fds_.size();
      if (r.op == IoOp::kFsync || r.op == IoOp::kFdatasync || bad_file) {
        // Completes here: first hand the kernel what is before it.
        size_t sent = 0;
        LC_RETURN_IF_ERROR(SubmitBatch(requests.subspan(accepted, batched), &sent));
        accepted += sent;
        if (sent < batched) return accepted;
        batched = 0;
        done_.Push(r.user_data, bad_file ? -EBADF : SyncNow(r));
        ++accepted;
        continue;
      }
      const uint32_t slot = free_.back();  // InFlight() < depth_: never empty
      free_.pop_back();
      iocb* cb = &iocbs_[slot];
      const int fd = fds_[static_cast<size_t>(r.file)];
      if (r.op == IoOp::kRead) {
        io_prep_pread(cb, fd, r.buffer, r.length, static_cast<long long>(r.offset));
      } else {
        io_prep_pwrite(cb, fd, r.buffer, r.length, static_cast<long long>(r.offset));
      }
      user_data_[slot] = r.user_data;
      batch_[batched] = cb;
      ++batched;
    }
    size_t sent = 0;
    LC_RETURN_IF_ERROR(SubmitBatch(requests.subspan(accepted, batched), &sent));
    return accepted + sent;
  }

  Result<size_t> Reap(size_t min, std::span<IoCompletion> out, Nanos timeout_ns) override {
    if (!ctx_open_) return Status::FailedPrecondition("libaio engine: Reap before Open");
    size_t got = done_.PopInto(out);
    size_t want = min > got ? min - got : 0;
    if (want > aio_inflight_) want = aio_inflight_;
    size_t room = out.size() - got;
    if (room > events_.size()) room = events_.size();
    if (room == 0 || aio_inflight_ == 0) return got;
    if (want > room) want = room;

    timespec ts{0, 0};
    timespec* tsp = &ts;
    Nanos deadline = 0;
    if (want > 0 && timeout_ns < 0) tsp = nullptr;
    if (want > 0 && timeout_ns > 0) deadline = MonotonicNow() + timeout_ns;
    while (true) {
      if (deadline > 0) {
        Nanos left = deadline - MonotonicNow();
        if (left < 0) left = 0;
        ts.tv_sec = left / kNanosPerSecond;
        ts.tv_nsec = left % kNanosPerSecond;
      }
      int n =
          io_getevents(ctx_, static_cast<long>(want), static_cast<long>(room), events_.data(), tsp);
      if (n == -EINTR) continue;
      if (n < 0) return PosixError("io_getevents", -n);
      for (int j = 0; j < n; ++j) {
        const io_event& ev = events_[static_cast<size_t>(j)];
        const uint32_t slot = SlotOf(ev.obj);
        out[got + static_cast<size_t>(j)] =
            IoCompletion{user_data_[slot], static_cast<int64_t>(static_cast<long>(ev.res))};
        free_.push_back(slot);  // capacity is depth_: never reallocates
      }
      got += static_cast<size_t>(n);
      aio_inflight_ -= static_cast<size_t>(n);
      return got;
    }
  }

  size_t InFlight() const override { return aio_inflight_ + done_.size(); }

 private:
  // io_submit()s batch_[0, reqs.size()), the iocbs for `reqs` (in order);
  // the accepted count goes to *sent. A request the kernel rejects at
  // submission (EINVAL for a misaligned O_DIRECT buffer, EBADF...) is
  // accepted and completes at once with that error; EAGAIN leaves the rest
  // unaccepted and their slots go back to the free list.
  Status SubmitBatch(std::span<IoRequest> reqs, size_t* sent) {
    *sent = 0;
    const size_t total = reqs.size();
    Status status;
    while (*sent < total) {
      int ret = io_submit(ctx_, static_cast<long>(total - *sent), batch_.data() + *sent);
      if (ret > 0) {
        aio_inflight_ += static_cast<size_t>(ret);
        *sent += static_cast<size_t>(ret);
        continue;
      }
      if (ret == -EINTR) continue;
      if (ret == -EAGAIN || ret == 0) {
        if (*sent == 0 && InFlight() == 0) {
          status = Status::ResourceExhausted("io_submit: no room in the AIO context", EAGAIN);
        }
        break;
      }
      // The first iocb left was rejected: complete it with the error.
      free_.push_back(SlotOf(batch_[*sent]));
      done_.Push(reqs[*sent].user_data, ret);
      ++*sent;
    }
    for (size_t i = *sent; i < total; ++i) free_.push_back(SlotOf(batch_[i]));
    return status;
  }

  uint32_t SlotOf(const iocb* cb) const { return static_cast<uint32_t>(cb - iocbs_.data()); }

  int64_t SyncNow(const IoRequest& r) {
    const int fd = fds_[static_cast<size_t>(r.file)];
    Status s = r.op == IoOp::kFsync ? fs_.Fsync(fd) : fs_.Fdatasync(fd);
    return s.ok() ? 0 : NegErrno(s);
  }

  FileSystem& fs_;
  io_context_t ctx_ = nullptr;
  bool ctx_open_ = false;
  size_t depth_ = 1;
  size_t aio_inflight_ = 0;
  std::vector<int> fds_;
  std::vector<iocb> iocbs_;
  std::vector<uint64_t> user_data_;  // per iocb slot
  std::vector<uint32_t> free_;       // free iocb slots; the top is used next
  std::vector<iocb*> batch_;
  std::vector<io_event> events_;
  CompletionQueue done_;  // fsyncs and requests refused at submission
};

}  // namespace

Result<std::unique_ptr<IoEngine>> MakeLibaioEngine(FileSystem& fs) {
  return std::unique_ptr<IoEngine>(std::make_unique<LibaioEngine>(fs));
}

}  // namespace loadcell::io_internal
