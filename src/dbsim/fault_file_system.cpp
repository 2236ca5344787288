#include "dbsim/fault_file_system.h"

#include <array>
#include <cstring>

namespace loadcell {

namespace {

struct FaultNameRow {
  DbIoFault fault;
  std::string_view name;
};

constexpr std::array<FaultNameRow, 6> kIoFaultNames = {{
    {DbIoFault::kNone, "none"},
    {DbIoFault::kDropWrite, "drop-write"},
    {DbIoFault::kMisdirectWrite, "misdirect-write"},
    {DbIoFault::kTornWrite, "torn-write"},
    {DbIoFault::kStaleRead, "stale-read"},
    {DbIoFault::kUnfilledRead, "unfilled-read"},
}};

bool IsReadFault(DbIoFault fault) { return fault == DbIoFault::kUnfilledRead; }

}  // namespace

std::string_view DbIoFaultName(DbIoFault fault) {
  for (const auto& row : kIoFaultNames) {
    if (row.fault == fault) return row.name;
  }
  return "none";
}

Result<DbIoFault> ParseDbIoFault(std::string_view name) {
  for (const auto& row : kIoFaultNames) {
    if (row.name == name) return row.fault;
  }
  return Status::InvalidArgument(
      "unknown fault '" + std::string(name) +
      "': one of drop-write, misdirect-write, torn-write, stale-read, unfilled-read, none");
}

void DbFaultFileSystem::Arm(DbIoFault fault, uint64_t offset, uint64_t amount, uint64_t skip,
                            int fd) {
  std::lock_guard lock(mutex_);
  fault_ = fault;
  offset_ = offset;
  amount_ = amount;
  skip_ = skip;
  fd_ = fd;
  stale_pending_ = false;
  armed_.store(fault != DbIoFault::kNone);
}

bool DbFaultFileSystem::Takes(bool write, int fd, uint64_t offset) {
  if (IsReadFault(fault_) == write) return false;
  if (fd_ >= 0 && fd != fd_) return false;
  if (offset_ != kAnyOffset && offset_ != offset) return false;
  if (skip_ > 0) {
    --skip_;
    return false;
  }
  armed_.store(false);
  fired_.fetch_add(1);
  return true;
}

Result<size_t> DbFaultFileSystem::PRead(int fd, void* buf, size_t len, uint64_t offset) {
  if (armed_.load() || stale_pending_) {
    std::lock_guard lock(mutex_);
    if (stale_pending_ && fd == stale_fd_ && offset == stale_offset_ &&
        len <= stale_bytes_.size()) {
      stale_pending_ = false;
      std::memcpy(buf, stale_bytes_.data(), len);
      return len;
    }
    if (armed_.load() && Takes(false, fd, offset)) return len;  // kUnfilledRead
  }
  return target().PRead(fd, buf, len, offset);
}

Result<size_t> DbFaultFileSystem::PWrite(int fd, const void* buf, size_t len, uint64_t offset) {
  if (armed_.load()) {
    std::lock_guard lock(mutex_);
    if (armed_.load() && Takes(true, fd, offset)) return FaultyWrite(fd, buf, len, offset);
  }
  return target().PWrite(fd, buf, len, offset);
}

// REQUIRES: mutex_ held.
Result<size_t> DbFaultFileSystem::FaultyWrite(int fd, const void* buf, size_t len,
                                              uint64_t offset) {
  switch (fault_) {
    case DbIoFault::kDropWrite:
      return len;
    case DbIoFault::kMisdirectWrite: {
      auto written = target().PWrite(fd, buf, len, offset + amount_);
      if (!written.ok()) return written.status();
      return len;
    }
    case DbIoFault::kTornWrite: {
      const size_t keep = amount_ < len ? static_cast<size_t>(amount_) : len;
      auto written = target().PWrite(fd, buf, keep, offset);
      if (!written.ok()) return written.status();
      return len;
    }
    case DbIoFault::kStaleRead: {
      stale_bytes_.assign(len, '\0');
      auto old = target().PRead(fd, stale_bytes_.data(), len, offset);
      if (!old.ok()) return old.status();
      stale_fd_ = fd;
      stale_offset_ = offset;
      stale_pending_ = true;
      return target().PWrite(fd, buf, len, offset);
    }
    default:
      return target().PWrite(fd, buf, len, offset);
  }
}

}  // namespace loadcell
