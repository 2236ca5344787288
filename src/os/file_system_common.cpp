#include <fcntl.h>
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>
#include <string_view>

#include "os/file_system.h"

// What every platform shares: the helpers over the seam and the fault-injecting
// wrapper. The implementations: file_system.cpp (POSIX), file_system_win32.cpp.

namespace loadcell {

Result<ScopedDir> OpenScopedDir(FileSystem& fs, const std::string& path) {
  LC_ASSIGN_OR_RETURN(DirHandle dir, fs.OpenDir(path));
  return ScopedDir(fs, std::move(dir));
}

std::string JoinPath(const std::string& dir, const std::string& name) {
  const bool ends_in_separator =
      !dir.empty() && std::string_view(kPathSeparators).find(dir.back()) != std::string_view::npos;
  return ends_in_separator ? dir + name : dir + "/" + name;
}

std::string EntryPath(const DirHandle& dir, const std::string& name) {
  return JoinPath(dir.path, name);
}

namespace {
// Whether the system resolves a drive letter at the start of a path.
#if defined(_WIN32)
constexpr bool kNativeDriveLetters = true;
#else
constexpr bool kNativeDriveLetters = false;
#endif
}  // namespace

bool PathsHaveDriveLetters() { return kNativeDriveLetters; }

std::string Dirname(const std::string& path) {
  const size_t root = PathRootLength(path);
  const size_t slash = path.find_last_of(kPathSeparators);
  if (slash == std::string::npos || slash < root) return root > 0 ? path.substr(0, root) : ".";
  return path.substr(0, std::max(slash, root));
}

std::string Basename(const std::string& path) {
  const size_t slash = path.find_last_of(kPathSeparators);
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

Status CheckSectorMultiple(FileSystem& fs, const std::string& dir, uint64_t bytes,
                           std::string_view what, std::string_view how) {
  LC_ASSIGN_OR_RETURN(const uint32_t sector, fs.SectorSize(dir));
  if (sector == 0 || bytes % sector == 0) return Status::Ok();
  return Status::InvalidArgument(
      fmt::format("{} must be a multiple of {} bytes, the sector size of the volume holding {}, "
                  "for unbuffered I/O ({})",
                  what, sector, dir, how));
}

namespace {
std::atomic<uint64_t> g_native_scatter_gather{0};
}  // namespace

uint64_t NativeScatterGatherCalls() {
  return g_native_scatter_gather.load(std::memory_order_relaxed);
}

void CountNativeScatterGather() { g_native_scatter_gather.fetch_add(1, std::memory_order_relaxed); }

Result<size_t> FileSystem::PReadV(int fd, std::span<const IoSlice> slices, uint64_t offset) {
  size_t done = 0;
  for (const IoSlice& slice : slices) {
    LC_ASSIGN_OR_RETURN(size_t n, PRead(fd, slice.data, slice.len, offset + done));
    done += n;
    if (n < slice.len) break;
  }
  return done;
}

Result<size_t> FileSystem::PWriteV(int fd, std::span<const IoSlice> slices, uint64_t offset) {
  size_t done = 0;
  for (const IoSlice& slice : slices) {
    LC_ASSIGN_OR_RETURN(size_t n, PWrite(fd, slice.data, slice.len, offset + done));
    done += n;
    if (n < slice.len) break;
  }
  return done;
}

Status WriteFully(FileSystem& fs, int fd, const void* buf, size_t len, uint64_t offset,
                  const std::string& what) {
  const char* p = static_cast<const char*>(buf);
  size_t done = 0;
  while (done < len) {
    Result<size_t> n = fs.PWrite(fd, p + done, len - done, offset + done);
    if (!n.ok()) {
      return Status(n.status().code(), what + ": " + n.status().message(), n.status().err());
    }
    if (*n == 0) {
      return Status::IoError(what + ": write made no progress at byte " + std::to_string(done) +
                             " of " + std::to_string(len));
    }
    done += *n;
  }
  return Status::Ok();
}

Status ReadFully(FileSystem& fs, int fd, void* buf, size_t len, uint64_t offset,
                 const std::string& what) {
  char* p = static_cast<char*>(buf);
  size_t done = 0;
  while (done < len) {
    Result<size_t> n = fs.PRead(fd, p + done, len - done, offset + done);
    if (!n.ok()) {
      return Status(n.status().code(), what + ": " + n.status().message(), n.status().err());
    }
    if (*n == 0) {
      return Status::IoError(what + ": unexpected end of file after " + std::to_string(done) +
                             " of " + std::to_string(len) + " bytes");
    }
    done += *n;
  }
  return Status::Ok();
}

Result<std::string> ReadEntryAt(FileSystem& fs, const DirHandle& dir, const std::string& name,
                                uint64_t size) {
  LC_ASSIGN_OR_RETURN(int fd, fs.OpenAt(dir, name, O_RDONLY));
  std::string text(size, '\0');
  Status st =
      ReadFully(fs, fd, text.data(), text.size(), 0, "reading '" + EntryPath(dir, name) + "'");
  (void)fs.Close(fd);
  LC_RETURN_IF_ERROR(st);
  return text;
}

namespace {
// The start of ReadFileToString's message when the read, not the open, failed.
constexpr std::string_view kReadFailure = "read";
}  // namespace

Result<std::string> ReadFileToString(FileSystem& fs, const std::string& path) {
  LC_ASSIGN_OR_RETURN(const int fd, fs.Open(path, O_RDONLY));
  std::string data;
  // Read to end of file, not to Stat's size: /proc files report size 0.
  constexpr size_t kChunk = size_t{64} * 1024;
  for (;;) {
    const size_t at = data.size();
    data.resize(at + kChunk);
    Result<size_t> n = fs.PRead(fd, data.data() + at, kChunk, at);
    if (!n.ok()) {
      (void)fs.Close(fd);
      return Status(n.status().code(), std::string(kReadFailure) + " '" + path + "'",
                    n.status().err());
    }
    data.resize(at + *n);
    if (*n == 0) break;
  }
  LC_RETURN_IF_ERROR(fs.Close(fd));
  return data;
}

std::string ReadFailureText(const Status& s) {
  const std::string reason = s.err() != 0 ? std::strerror(s.err()) : s.message();
  const bool read = s.message().rfind(kReadFailure, 0) == 0;
  return std::string(read ? "cannot read: " : "cannot open: ") + reason;
}

Status ReadFailureAsUsageError(const std::string& context, const Status& s,
                               const std::string& what) {
  const bool read = s.message().rfind(kReadFailure, 0) == 0;
  const std::string verb = std::string(read ? "cannot read" : "cannot open") +
                           (what.empty() ? std::string() : " " + what);
  if (s.err() != 0) return PosixUsageError(context + ": " + verb, s.err());
  return Status::InvalidArgument(context + ": " + verb + ": " + s.message());
}

Status AppendToFile(FileSystem& fs, const std::string& path, const std::string& data) {
  LC_ASSIGN_OR_RETURN(const FileInfo info, fs.Stat(path));
  LC_ASSIGN_OR_RETURN(const int fd, fs.Open(path, O_WRONLY | O_CREAT));
  const Status written = WriteFully(fs, fd, data.data(), data.size(), info.exists ? info.size : 0,
                                    "write '" + path + "'");
  const Status closed = fs.Close(fd);
  return written.ok() ? closed : written;
}

// ---- FaultInjectingFileSystem ----

namespace {

// Consumes one allowance from `left`: true when the call must fail (the
// allowance is used up), false when it may proceed. -1 means unlimited.
bool ShouldFail(std::atomic<int64_t>& left) {
  int64_t v = left.load(std::memory_order_relaxed);
  while (v > 0) {
    if (left.compare_exchange_weak(v, v - 1, std::memory_order_relaxed)) return false;
  }
  return v == 0;
}

}  // namespace

void FaultInjectingFileSystem::FailWritesAfter(int64_t after, int err) {
  write_err_.store(err);
  writes_left_.store(after < 0 ? -1 : after);
}

void FaultInjectingFileSystem::FailReadsAfter(int64_t after, int err) {
  read_err_.store(err);
  reads_left_.store(after < 0 ? -1 : after);
}

void FaultInjectingFileSystem::FailFsync(int err) { fsync_err_.store(err); }

void FaultInjectingFileSystem::Clear() {
  writes_left_.store(-1);
  write_err_.store(0);
  reads_left_.store(-1);
  read_err_.store(0);
  fsync_err_.store(0);
}

Result<size_t> FaultInjectingFileSystem::PRead(int fd, void* buf, size_t len, uint64_t offset) {
  if (ShouldFail(reads_left_)) {
    int err = read_err_.load();
    if (err != -1) return PosixError("pread (injected)", err);
    return target().PRead(fd, buf, len > 1 ? len / 2 : len, offset);
  }
  return target().PRead(fd, buf, len, offset);
}

Result<size_t> FaultInjectingFileSystem::PWrite(int fd, const void* buf, size_t len,
                                                uint64_t offset) {
  if (ShouldFail(writes_left_)) {
    int err = write_err_.load();
    if (err != -1) return PosixError("pwrite (injected)", err);
    return target().PWrite(fd, buf, len > 1 ? len / 2 : len, offset);
  }
  return target().PWrite(fd, buf, len, offset);
}

Status FaultInjectingFileSystem::Fsync(int fd) {
  if (int err = fsync_err_.load(); err != 0) return PosixError("fsync (injected)", err);
  return target().Fsync(fd);
}

Status FaultInjectingFileSystem::Fdatasync(int fd) {
  if (int err = fsync_err_.load(); err != 0) return PosixError("fdatasync (injected)", err);
  return target().Fdatasync(fd);
}

}  // namespace loadcell
