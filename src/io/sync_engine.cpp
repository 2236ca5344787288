// "sync": pread/pwrite/fsync/fdatasync, one call per request, through the
// FileSystem seam (so tests can inject faults). Each request completes inside
// Submit; its completion is handed out by the next Reap.

#include <cerrno>
#include <memory>
#include <vector>

#include "io/engines.h"
#include "io/io_engine.h"

namespace loadcell::io_internal {
namespace {

class SyncEngine final : public IoEngine {
 public:
  explicit SyncEngine(FileSystem& fs) : fs_(fs) {}

  std::string Name() const override { return "sync"; }

  IoCapabilities Capabilities() const override { return InlineCapabilities(); }

  Status Open(std::span<const IoFile> files, const EngineOptions& opts) override {
    fds_.clear();
    for (const IoFile& f : files) fds_.push_back(f.fd);
    // Requests complete inline; the queue only holds completions between
    // Submit and Reap, so a caller asking for depth N may submit N at once.
    done_.Reset(opts.queue_depth == 0 ? 1 : opts.queue_depth);
    open_ = true;
    return Status::Ok();
  }

  Status Close() override {
    open_ = false;
    fds_.clear();
    done_.Reset(1);
    return Status::Ok();
  }

  Result<size_t> Submit(std::span<IoRequest> requests) override {
    if (!open_) return Status::FailedPrecondition("sync engine: Submit before Open");
    return done_.RunInline(requests, [this](const IoRequest& r) { return Execute(r); });
  }

  Result<size_t> Reap(size_t min, std::span<IoCompletion> out, Nanos timeout_ns) override {
    // Nothing more can arrive than what is queued: never wait.
    return done_.PopInto(out);
  }

  size_t InFlight() const override { return done_.size(); }

 private:
  int64_t Execute(const IoRequest& r) {
    if (r.file < 0 || static_cast<size_t>(r.file) >= fds_.size()) return -EBADF;
    const int fd = fds_[static_cast<size_t>(r.file)];
    switch (r.op) {
      case IoOp::kRead: {
        Result<size_t> n = fs_.PRead(fd, r.buffer, r.length, r.offset);
        return n.ok() ? static_cast<int64_t>(*n) : NegErrno(n.status());
      }
      case IoOp::kWrite: {
        Result<size_t> n = fs_.PWrite(fd, r.buffer, r.length, r.offset);
        return n.ok() ? static_cast<int64_t>(*n) : NegErrno(n.status());
      }
      case IoOp::kFsync: {
        Status s = fs_.Fsync(fd);
        return s.ok() ? 0 : NegErrno(s);
      }
      case IoOp::kFdatasync: {
        Status s = fs_.Fdatasync(fd);
        return s.ok() ? 0 : NegErrno(s);
      }
    }
    return -EINVAL;
  }

  FileSystem& fs_;
  std::vector<int> fds_;
  CompletionQueue done_;
  bool open_ = false;
};

}  // namespace

Result<std::unique_ptr<IoEngine>> MakeSyncEngine(FileSystem& fs) {
  return std::unique_ptr<IoEngine>(std::make_unique<SyncEngine>(fs));
}

}  // namespace loadcell::io_internal
