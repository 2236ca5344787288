#include "workloads/fileio/fileio_lock.h"

#include <fcntl.h>
#include <fmt/format.h>

#include <utility>

#include "os/folder_check.h"
#include "os/system_info.h"

namespace loadcell {
namespace {

// What the lock file says about its holder, on one line ("" when empty).
std::string Holder(FileSystem& fs, int fd) {
  std::string text(256, '\0');
  Result<size_t> n = fs.PRead(fd, text.data(), text.size(), 0);
  if (!n.ok()) return "";
  text.resize(*n);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  for (char& c : text) {
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  }
  return text;
}

// True when `fd` (locked) is still the file at the lock's name: a holder
// that let go in the meantime removed it, and a new one may be there.
Result<bool> StillTheLockFile(FileSystem& fs, const DirHandle& dir, const std::string& name,
                              int fd) {
  LC_ASSIGN_OR_RETURN(FileInfo mine, fs.Fstat(fd));
  LC_ASSIGN_OR_RETURN(FileInfo named, fs.StatAt(dir, name));
  return named.exists && named.is_regular && named.id() == mine.id();
}

}  // namespace

FolderLock::FolderLock(FolderLock&& other) noexcept
    : fs_(other.fs_),
      dir_(std::move(other.dir_)),
      name_(std::move(other.name_)),
      id_(other.id_),
      fd_(other.fd_) {
  other.fd_ = -1;
  other.dir_.native = -1;
}

FolderLock& FolderLock::operator=(FolderLock&& other) noexcept {
  if (this != &other) {
    Release();
    fs_ = other.fs_;
    dir_ = std::move(other.dir_);
    name_ = std::move(other.name_);
    id_ = other.id_;
    fd_ = other.fd_;
    other.fd_ = -1;
    other.dir_.native = -1;
  }
  return *this;
}

void FolderLock::Release() {
  if (fd_ >= 0) {
    // Removed while still held (and only while the name is still this
    // file), so nobody can lock this file after us.
    (void)fs_->UnlinkAt(dir_, name_, &id_);
    (void)fs_->Close(fd_);
    fd_ = -1;
  }
  if (dir_.valid()) {
    (void)fs_->CloseDir(dir_);
    dir_.native = -1;
  }
}

Result<FolderLock> LockTestFolder(FileSystem& fs, const std::string& dir,
                                  const std::string& command) {
  FolderLockSpec spec;
  spec.command = command;
  return LockFolder(fs, dir, spec);
}

Result<FolderLock> LockFolder(FileSystem& fs, const std::string& dir, const FolderLockSpec& spec) {
  FolderLock lock;
  lock.fs_ = &fs;
  LC_ASSIGN_OR_RETURN(lock.dir_, fs.OpenDir(dir));
  // A few rounds: each one that loses lost to a holder that just let go.
  for (int round = 0; round < 5; ++round) {
    Result<int> opened = fs.OpenAt(lock.dir_, spec.name, O_RDWR | O_CREAT);
    // Another loadcell made the file between our look and our create.
    if (opened.status().code() == StatusCode::kAlreadyExists) continue;
    LC_ASSIGN_OR_RETURN(const int fd, std::move(opened));
    Result<bool> got = fs.TryLock(fd);
    if (!got.ok() || !*got) {
      const std::string holder = got.ok() ? Holder(fs, fd) : "";
      (void)fs.Close(fd);
      if (!got.ok()) return got.status();
      return Status::FailedPrecondition(fmt::format(
          "{} is in use by another loadcell ({}); wait until it ends, or use another {}", dir,
          holder.empty() ? "a process that has just started" : holder,
          spec.option.empty() ? "folder" : spec.option));
    }
    Result<bool> same = StillTheLockFile(fs, lock.dir_, spec.name, fd);
    if (same.ok() && *same) {
      lock.fd_ = fd;
      lock.name_ = spec.name;
      LC_ASSIGN_OR_RETURN(const FileInfo mine, fs.Fstat(fd));
      lock.id_ = mine.id();
      const std::string text = fmt::format("pid {} {}\n", CurrentProcessId(), spec.command);
      Status wrote = fs.Truncate(fd, 0);
      if (wrote.ok()) {
        wrote = WriteFully(fs, fd, text.data(), text.size(), 0,
                           "writing '" + EntryPath(lock.dir_, spec.name) + "'");
      }
      // A folder that cannot take the lock's few bytes (a full disk) is the
      // user's setup; the lock file goes with `lock`.
      if (!wrote.ok() && wrote.err() != 0) {
        return Status::FailedPrecondition(fmt::format(
            "{}{}: cannot write the lock file {}: {}", spec.option.empty() ? "" : spec.option + "=",
            dir, spec.name, FileErrnoInWords(wrote.err())));
      }
      LC_RETURN_IF_ERROR(wrote);
      return lock;
    }
    (void)fs.Close(fd);
    if (!same.ok()) return same.status();
  }
  return Status::Unavailable(
      fmt::format("{}: could not take {} (it keeps being replaced)", dir, spec.name));
}

}  // namespace loadcell
