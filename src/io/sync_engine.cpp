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

class SyncEngine final : public InlineEngine {
 public:
  explicit SyncEngine(FileSystem& fs) : fs_(fs) {}

  std::string Name() const override { return "sync"; }

  Status Open(std::span<const IoFile> files, const EngineOptions& opts) override {
    fds_.clear();
    for (const IoFile& f : files) fds_.push_back(f.fd);
    MarkOpen(opts.queue_depth);
    return Status::Ok();
  }

  Status Close() override {
    fds_.clear();
    MarkClosed();
    return Status::Ok();
  }

 private:
  int64_t Execute(const IoRequest& r) override {
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
};

}  // namespace

Result<std::unique_ptr<IoEngine>> MakeSyncEngine(FileSystem& fs) {
  return std::unique_ptr<IoEngine>(std::make_unique<SyncEngine>(fs));
}

}  // namespace loadcell::io_internal
