// "null": every request completes at once without touching a file or its
// buffer (as fio's ioengine=null): a read or write transfers its whole
// length, an fsync succeeds. It measures the tool's own cost per I/O: the
// worker loop, the clock reads and the statistics, with no device below.
//
// It is asynchronous in form: up to the queue depth of requests can be in
// flight between Submit and Reap, so the driver loop runs the same way as
// with io_uring at that depth; at depth 1 it runs as a synchronous engine
// does. The descriptors are never used (they may be -1).

#include <cerrno>
#include <memory>

#include "io/engines.h"
#include "io/io_engine.h"

namespace loadcell::io_internal {
namespace {

class NullEngine final : public IoEngine {
 public:
  std::string Name() const override { return "null"; }

  IoCapabilities Capabilities() const override {
    IoCapabilities c;
    c.asynchronous = true;
    c.max_queue_depth = 1U << 16;
    c.buffer_alignment = 1;
    return c;
  }

  Status Open(std::span<const IoFile> files, const EngineOptions& opts) override {
    files_ = files.size();
    done_.Reset(opts.queue_depth == 0 ? 1 : opts.queue_depth);
    open_ = true;
    return Status::Ok();
  }

  Status Close() override {
    open_ = false;
    done_.Reset(1);
    return Status::Ok();
  }

  Result<size_t> Submit(std::span<IoRequest> requests) override {
    if (!open_) return Status::FailedPrecondition("null engine: Submit before Open");
    return done_.RunInline(requests, [this](const IoRequest& r) -> int64_t {
      if (r.file < 0 || static_cast<size_t>(r.file) >= files_) return -EBADF;
      return r.op == IoOp::kRead || r.op == IoOp::kWrite ? static_cast<int64_t>(r.length) : 0;
    });
  }

  Result<size_t> Reap(size_t /*min*/, std::span<IoCompletion> out, Nanos /*timeout_ns*/) override {
    // Every request submitted has completed already: never wait.
    return done_.PopInto(out);
  }

  size_t InFlight() const override { return done_.size(); }

 private:
  size_t files_ = 0;
  CompletionQueue done_;
  bool open_ = false;
};

}  // namespace

Result<std::unique_ptr<IoEngine>> MakeNullEngine(FileSystem& /*fs*/) {
  return std::unique_ptr<IoEngine>(std::make_unique<NullEngine>());
}

}  // namespace loadcell::io_internal
