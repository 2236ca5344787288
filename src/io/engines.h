#pragma once
// Internal to the io module: the engine constructors behind MakeIoEngine()
// and what the engines share: the completion queue, InlineEngine (the
// verbs of the engines that complete requests inside Submit), the mmap
// engines' transfer.

#include <atomic>
#include <cerrno>
#include <cstring>
#include <memory>
#include <span>
#include <vector>

#include "io/io_engine.h"

namespace loadcell::io_internal {

Result<std::unique_ptr<IoEngine>> MakeSyncEngine(FileSystem& fs);
Result<std::unique_ptr<IoEngine>> MakeMmapEngine(FileSystem& fs);
Result<std::unique_ptr<IoEngine>> MakeIoUringEngine(FileSystem& fs);
Result<std::unique_ptr<IoEngine>> MakeLibaioEngine(FileSystem& fs);
Result<std::unique_ptr<IoEngine>> MakeIocpEngine(FileSystem& fs);  // Windows only

// The mmap engines' copy inside their fault guards: the signal fences keep
// the compiler from moving the guard's stores (set before, cleared after;
// the fault handler reads them, nothing else does) across the copy.
inline void CopyBetweenFences(char* dst, const char* src, uint64_t len) {
  std::atomic_signal_fence(std::memory_order_seq_cst);
  std::memcpy(dst, src, len);
  std::atomic_signal_fence(std::memory_order_seq_cst);
}

// What an engine that completes each request inside Submit can do: one
// request at a time, page-aligned buffers.
inline IoCapabilities InlineCapabilities() {
  IoCapabilities c;
  c.asynchronous = false;
  c.max_queue_depth = 1;
  c.buffer_alignment = 4096;
  return c;
}
Result<std::unique_ptr<IoEngine>> MakeNullEngine(FileSystem& fs);

// A fixed-capacity FIFO of finished completions waiting to be reaped.
// Allocates only in Reset(). Not thread-safe.
class CompletionQueue final {
 public:
  void Reset(size_t capacity) {
    slots_.assign(capacity == 0 ? 1 : capacity, IoCompletion{});
    head_ = 0;
    count_ = 0;
  }
  size_t size() const { return count_; }
  size_t free() const { return slots_.size() - count_; }
  // REQUIRES: free() > 0.
  void Push(uint64_t user_data, int64_t result) {
    size_t tail = head_ + count_;
    if (tail >= slots_.size()) tail -= slots_.size();
    slots_[tail] = IoCompletion{user_data, result};
    ++count_;
  }
  // Runs as many of `requests` as there is room for, in order, through
  // `execute` (IoRequest -> result), queueing each completion: the whole
  // Submit of an engine that completes requests inline. Returns how many ran.
  template <typename Execute>
  size_t RunInline(std::span<IoRequest> requests, Execute&& execute) {
    const size_t n = requests.size() < free() ? requests.size() : free();
    for (size_t i = 0; i < n; ++i) Push(requests[i].user_data, execute(requests[i]));
    return n;
  }
  // Moves up to out.size() completions into out; returns how many.
  size_t PopInto(std::span<IoCompletion> out) {
    size_t n = out.size() < count_ ? out.size() : count_;
    for (size_t i = 0; i < n; ++i) {
      out[i] = slots_[head_];
      if (++head_ == slots_.size()) head_ = 0;
    }
    count_ -= n;
    return n;
  }

 private:
  std::vector<IoCompletion> slots_;
  size_t head_ = 0;
  size_t count_ = 0;
};

// The verbs of an engine that completes each request inside Submit, through
// its Execute (IoRequest -> result), and hands the completions out on the
// next Reap, which never waits: sync and the mmap engines. Open calls
// MarkOpen once set up, Close calls MarkClosed.
class InlineEngine : public IoEngine {
 public:
  IoCapabilities Capabilities() const override { return InlineCapabilities(); }
  Result<size_t> Submit(std::span<IoRequest> requests) final {
    if (!open_) return Status::FailedPrecondition(Name() + " engine: Submit before Open");
    return done_.RunInline(requests, [this](const IoRequest& r) { return Execute(r); });
  }
  // Nothing more can arrive than what is queued: never waits.
  Result<size_t> Reap(size_t /*min*/, std::span<IoCompletion> out, Nanos /*timeout_ns*/) final {
    return done_.PopInto(out);
  }
  size_t InFlight() const final { return done_.size(); }

 protected:
  virtual int64_t Execute(const IoRequest& r) = 0;
  // Requests complete inline; the queue only holds completions between
  // Submit and Reap, so a caller asking for depth N may submit N at once.
  void MarkOpen(uint32_t queue_depth) {
    done_.Reset(queue_depth == 0 ? 1 : queue_depth);
    open_ = true;
  }
  void MarkClosed() {
    open_ = false;
    done_.Reset(1);
  }

 private:
  CompletionQueue done_;
  bool open_ = false;
};

// A read or write of an mmap engine on a mapping of `size` bytes at `base`,
// through the engine's guarded `copy` (dst, src, len -> false when the copy
// faulted): the bytes copied, clipped to the mapping (0 at or past its end),
// as pread/pwrite report a short transfer, since files do not grow through
// a mapping; -EBADF for a write on a read-only mapping; -EIO for a fault.
template <typename Copy>
int64_t MappedTransfer(const IoRequest& r, char* base, uint64_t size, bool writable, Copy&& copy) {
  if (r.op == IoOp::kWrite && !writable) return -EBADF;
  if (r.offset >= size) return 0;
  const uint64_t len = r.length < size - r.offset ? r.length : size - r.offset;
  if (len == 0) return 0;
  const bool copied = r.op == IoOp::kRead
                          ? copy(static_cast<char*>(r.buffer), base + r.offset, len)
                          : copy(base + r.offset, static_cast<const char*>(r.buffer), len);
  return copied ? static_cast<int64_t>(len) : -EIO;
}

// The result of a failed FileSystem call as a completion result (-errno).
inline int64_t NegErrno(const Status& s) { return s.err() != 0 ? -s.err() : -EIO; }

}  // namespace loadcell::io_internal
