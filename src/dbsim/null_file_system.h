#pragma once
// dbsim's null engine (`--engine=null`, docs/dbsim.md, "Speed"): I/O that
// completes at once and reaches no file. A data file held with Hold() is a
// block of memory: its reads return what its writes put there, so every
// page read back still passes its check and the simulation's own work
// (stamping, the read stamp, the check, the key table) is all that is left
// to measure. Any other file's writes are dropped and its reads return
// zeros; flushes and truncations do nothing. Opening, closing and every
// other call go to the target (the files exist, as holes). Thread-safe for
// I/O once every Hold() is done.

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <span>
#include <vector>

#include "core/status.h"
#include "os/file_system.h"

namespace loadcell {

class DbNullFileSystem final : public FileSystemWrapper {
 public:
  explicit DbNullFileSystem(FileSystem& target) : FileSystemWrapper(target) {}

  // Keeps `bytes` of memory, zeros at first, as the content of `fd` (the
  // most the file may grow to). REQUIRES: before any I/O through this file
  // system starts; once per fd.
  Status Hold(int fd, uint64_t bytes);

  Result<size_t> PRead(int fd, void* buf, size_t len, uint64_t offset) override;
  Result<size_t> PWrite(int fd, const void* buf, size_t len, uint64_t offset) override;
  // One PRead/PWrite above per slice (FileSystem's default, not the
  // target's one call).
  Result<size_t> PReadV(int fd, std::span<const IoSlice> slices, uint64_t offset) override {
    return FileSystem::PReadV(fd, slices, offset);  // NOLINT(bugprone-parent-virtual-call)
  }
  Result<size_t> PWriteV(int fd, std::span<const IoSlice> slices, uint64_t offset) override {
    return FileSystem::PWriteV(fd, slices, offset);  // NOLINT(bugprone-parent-virtual-call)
  }
  Status Fsync(int /*fd*/) override { return Status::Ok(); }
  Status Fdatasync(int /*fd*/) override { return Status::Ok(); }
  Status Truncate(int /*fd*/, uint64_t /*size*/) override { return Status::Ok(); }

 private:
  struct Free {
    void operator()(uint8_t* p) const { std::free(p); }  // NOLINT(cppcoreguidelines-no-malloc)
  };
  struct Image {
    int fd = -1;
    uint64_t size = 0;
    std::unique_ptr<uint8_t, Free> bytes;
  };
  // The memory of `fd`, or null when it is not held.
  Image* Find(int fd);

  std::vector<Image> images_;
};

}  // namespace loadcell
