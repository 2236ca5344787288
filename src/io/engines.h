#pragma once
// Internal to the io module: the engine constructors behind MakeIoEngine()
// and the completion queue the synchronous engines share.

#include <cerrno>
#include <memory>
#include <span>
#include <vector>

#include "io/io_engine.h"

namespace loadcell::io_internal {

Result<std::unique_ptr<IoEngine>> MakeSyncEngine(FileSystem& fs);
Result<std::unique_ptr<IoEngine>> MakeMmapEngine(FileSystem& fs);
Result<std::unique_ptr<IoEngine>> MakeIoUringEngine(FileSystem& fs);
Result<std::unique_ptr<IoEngine>> MakeLibaioEngine(FileSystem& fs);
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

// The result of a failed FileSystem call as a completion result (-errno).
inline int64_t NegErrno(const Status& s) { return s.err() != 0 ? -s.err() : -EIO; }

}  // namespace loadcell::io_internal
