#pragma once
// The seam over POSIX file calls, so that tests can inject faults (ENOSPC,
// EIO, short writes) or count calls. Everything that touches files goes
// through a FileSystem; engines get the raw descriptor from Open().
// Implementations are thread-safe.

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/status.h"

namespace loadcell {

struct FileInfo {
  bool exists = false;
  bool is_regular = false;
  bool is_directory = false;
  uint64_t size = 0;
  uint64_t allocated_bytes = 0;  // st_blocks * 512: tells sparse files apart
  uint64_t device = 0;
  uint64_t inode = 0;
};

class FileSystem {
 public:
  virtual ~FileSystem() = default;

  // open(2); flags as for open (O_DIRECT, O_DSYNC, ...). Returns the fd.
  virtual Result<int> Open(const std::string& path, int flags, mode_t mode = 0644) = 0;
  virtual Status Close(int fd) = 0;
  // One pread/pwrite call: may transfer fewer bytes than asked (returned).
  virtual Result<size_t> PRead(int fd, void* buf, size_t len, uint64_t offset) = 0;
  virtual Result<size_t> PWrite(int fd, const void* buf, size_t len, uint64_t offset) = 0;
  virtual Status Fsync(int fd) = 0;
  virtual Status Fdatasync(int fd) = 0;
  virtual Status Truncate(int fd, uint64_t size) = 0;
  virtual Status Unlink(const std::string& path) = 0;
  virtual Status Rename(const std::string& from, const std::string& to) = 0;
  virtual Result<FileInfo> Stat(const std::string& path) = 0;
  // access(path, W_OK|X_OK) for a directory.
  virtual Status CheckWritableDir(const std::string& path) = 0;
  // Filesystem type name of the mount holding path ("ext4", "xfs", "tmpfs").
  virtual std::string FsType(const std::string& path) = 0;
};

// The real thing.
FileSystem& PosixFileSystem();

// Writes all of buf, looping over short writes; EIO etc. become a Status
// naming `what` (e.g. the file path and offset).
Status WriteFully(FileSystem& fs, int fd, const void* buf, size_t len, uint64_t offset,
                  const std::string& what);
Status ReadFully(FileSystem& fs, int fd, void* buf, size_t len, uint64_t offset,
                 const std::string& what);

// A FileSystem that forwards to another and can be told to fail. For tests.
class FaultInjectingFileSystem final : public FileSystem {
 public:
  explicit FaultInjectingFileSystem(FileSystem& base) : base_(base) {}

  // After `after` more successful writes, every PWrite fails with errno `err`
  // (ENOSPC, EIO, EFBIG...). err = -1 means: the write is short (half).
  void FailWritesAfter(int64_t after, int err);
  void FailReadsAfter(int64_t after, int err);
  void FailFsync(int err);
  void Clear();

  Result<int> Open(const std::string& path, int flags, mode_t mode) override;
  Status Close(int fd) override;
  Result<size_t> PRead(int fd, void* buf, size_t len, uint64_t offset) override;
  Result<size_t> PWrite(int fd, const void* buf, size_t len, uint64_t offset) override;
  Status Fsync(int fd) override;
  Status Fdatasync(int fd) override;
  Status Truncate(int fd, uint64_t size) override;
  Status Unlink(const std::string& path) override;
  Status Rename(const std::string& from, const std::string& to) override;
  Result<FileInfo> Stat(const std::string& path) override;
  Status CheckWritableDir(const std::string& path) override;
  std::string FsType(const std::string& path) override;

 private:
  FileSystem& base_;
  std::atomic<int64_t> writes_left_{-1};  // -1: never fail
  std::atomic<int> write_err_{0};
  std::atomic<int64_t> reads_left_{-1};
  std::atomic<int> read_err_{0};
  std::atomic<int> fsync_err_{0};
};

}  // namespace loadcell
