#pragma once
// A FileSystem that breaks I/O the way broken storage does, once, when
// armed: a write dropped while reporting success, a write sent to another
// offset, a torn write (only its first bytes reach the file), a read that
// returns the page's previous version, a read that reports success without
// filling the buffer. For the tests of the page checks (docs/dbsim.md,
// "Faults") and dbsim's hidden fault option. Thread-safe.

#include <atomic>
#include <cstdint>
#include <mutex>
#include <span>
#include <string>
#include <string_view>

#include "core/status.h"
#include "os/file_system.h"

namespace loadcell {

enum class DbIoFault : uint8_t {
  kNone = 0,
  kDropWrite,       // the write returns success, nothing written
  kMisdirectWrite,  // the write lands `amount` bytes further on
  kTornWrite,       // only the first `amount` bytes are written
  kStaleRead,       // the next read of the written range returns what was there before
  kUnfilledRead,    // the read returns success, the buffer untouched
};

// "drop-write", "misdirect-write", "torn-write", "stale-read",
// "unfilled-read" (and "none").
std::string_view DbIoFaultName(DbIoFault fault);
// The inverse; InvalidArgument listing the names for anything else.
Result<DbIoFault> ParseDbIoFault(std::string_view name);

class DbFaultFileSystem final : public FileSystemWrapper {
 public:
  static constexpr uint64_t kAnyOffset = UINT64_MAX;

  explicit DbFaultFileSystem(FileSystem& target) : FileSystemWrapper(target) {}

  // Arms `fault` for one I/O: the first write (for kStaleRead the write whose
  // old bytes a later read returns; for kUnfilledRead the first read) at
  // `offset` (kAnyOffset: at any) after `skip` more such calls. `amount`:
  // the shift of kMisdirectWrite, the bytes kTornWrite keeps. `fd` >= 0:
  // only I/O to that file counts. Replaces whatever was armed.
  void Arm(DbIoFault fault, uint64_t offset, uint64_t amount, uint64_t skip = 0, int fd = -1);
  // How many faults fired since construction (0 or 1 per Arm).
  uint64_t Fired() const { return fired_.load(); }

  Result<size_t> PRead(int fd, void* buf, size_t len, uint64_t offset) override;
  Result<size_t> PWrite(int fd, const void* buf, size_t len, uint64_t offset) override;
  // One PRead/PWrite per slice (FileSystem's default), so that a fault
  // armed at a page's offset takes that page of a scatter read or gather
  // write.
  Result<size_t> PReadV(int fd, std::span<const IoSlice> slices, uint64_t offset) override {
    // The per-slice default on purpose, not the target's one call.
    return FileSystem::PReadV(fd, slices, offset);  // NOLINT(bugprone-parent-virtual-call)
  }
  Result<size_t> PWriteV(int fd, std::span<const IoSlice> slices, uint64_t offset) override {
    return FileSystem::PWriteV(fd, slices, offset);  // NOLINT(bugprone-parent-virtual-call)
  }

 private:
  // True when this call (a write when `write`) is the armed one; disarms.
  bool Takes(bool write, int fd, uint64_t offset);
  Result<size_t> FaultyWrite(int fd, const void* buf, size_t len, uint64_t offset);

  std::atomic<bool> armed_{false};
  std::atomic<uint64_t> fired_{0};
  std::mutex mutex_;
  // Guarded by mutex_:
  DbIoFault fault_ = DbIoFault::kNone;
  uint64_t offset_ = kAnyOffset;
  uint64_t amount_ = 0;
  uint64_t skip_ = 0;
  int fd_ = -1;
  // kStaleRead: the bytes a write replaced, returned by the next read there
  // (stale_pending_ is read without the mutex, set under it).
  int stale_fd_ = -1;
  uint64_t stale_offset_ = 0;
  std::string stale_bytes_;
  std::atomic<bool> stale_pending_{false};
};

}  // namespace loadcell
