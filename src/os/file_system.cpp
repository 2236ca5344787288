// The POSIX FileSystem (every build but the Windows one, which has
// file_system_win32.cpp instead); the shared helpers are in file_system_common.cpp.
#include "os/file_system.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace loadcell {

static_assert(sizeof(IoSlice) == sizeof(iovec) &&
                  offsetof(IoSlice, data) == offsetof(iovec, iov_base) &&
                  offsetof(IoSlice, len) == offsetof(iovec, iov_len),
              "IoSlice is passed to preadv/pwritev as an iovec");

namespace {

// Retries a system call that failed with EINTR. Returns its result; errno
// is left as the call set it.
template <typename F>
auto RetryOnEintr(F call) {
  decltype(call()) r;
  do {
    r = call();
  } while (r == -1 && errno == EINTR);
  return r;
}

std::string FdContext(std::string_view verb, int fd) {
  return std::string(verb) + " (fd " + std::to_string(fd) + ")";
}

// statfs(2) f_type values (linux/magic.h and the filesystems' own headers).
struct FsMagic {
  uint64_t magic;
  const char* name;
};
constexpr FsMagic kFsMagics[] = {
    {0xEF53, "ext4"},  // ext2/3/4 share it; refined from mountinfo
    {0x58465342, "xfs"},    {0x9123683E, "btrfs"},    {0x01021994, "tmpfs"},
    {0x858458F6, "ramfs"},  {0x794C7630, "overlay"},  {0x6969, "nfs"},
    {0x2FC12FC1, "zfs"},    {0xF2F52010, "f2fs"},     {0xCA451A4E, "bcachefs"},
    {0x3153464A, "jfs"},    {0x52654973, "reiserfs"}, {0x65735546, "fuse"},
    {0xFE534D42, "smb2"},   {0xFF534D42, "cifs"},     {0x01021997, "9p"},
    {0x00C36400, "ceph"},   {0x01161970, "gfs2"},     {0x7461636F, "ocfs2"},
    {0x0BD00BD0, "lustre"}, {0x5346544E, "ntfs"},     {0x4D44, "vfat"},
    {0x2011BAB0, "exfat"},  {0x73717368, "squashfs"}, {0x9FA0, "proc"},
    {0x62656572, "sysfs"},
};

// The fstype that /proc/self/mountinfo gives for the mount with device
// `dev` whose mount point is the longest prefix of `path`; "" if none.
std::string MountInfoFsType(dev_t dev, const std::string& path) {
  std::ifstream in("/proc/self/mountinfo");
  std::string line;
  std::string best_type;
  size_t best_len = 0;
  const std::string want = std::to_string(major(dev)) + ":" + std::to_string(minor(dev));
  while (std::getline(in, line)) {
    // id parent major:minor root mount-point options... - fstype source opts
    std::istringstream fields(line);
    std::string id, parent, devno, root, mount_point;
    if (!(fields >> id >> parent >> devno >> root >> mount_point)) continue;
    if (devno != want) continue;
    size_t dash = line.find(" - ");
    if (dash == std::string::npos) continue;
    std::istringstream tail(line.substr(dash + 3));
    std::string type;
    if (!(tail >> type)) continue;
    bool prefix = path.rfind(mount_point, 0) == 0;
    size_t len = prefix ? mount_point.size() : 0;
    if (best_type.empty() || len > best_len) {
      best_type = type;
      best_len = len;
    }
  }
  return best_type;
}

// What one look at a file saw: its stat and its birth (0: not known).
struct Seen {
  struct stat st {};
  uint64_t birth_ns = 0;

  FileId id() const {
    return {static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino), birth_ns};
  }
};

// fstatat(2) of `path` in `dirfd` (flags as for it) through statx(2), so that
// the file's birth comes from the same look as the rest (0 when the file
// system keeps none). Where statx is refused (an old kernel, a sandbox) it is
// fstatat, the birth unknown. -1 with errno on failure.
int StatWithBirth(int dirfd, const char* path, int flags, Seen& seen) {
  seen = Seen{};
#ifdef STATX_BTIME
  struct statx sx {};
  if (::statx(dirfd, path, flags, STATX_BASIC_STATS | STATX_BTIME, &sx) == 0) {
    struct stat& st = seen.st;
    st.st_dev = makedev(sx.stx_dev_major, sx.stx_dev_minor);
    st.st_ino = sx.stx_ino;
    st.st_mode = sx.stx_mode;
    st.st_nlink = sx.stx_nlink;
    st.st_uid = sx.stx_uid;
    st.st_gid = sx.stx_gid;
    st.st_rdev = makedev(sx.stx_rdev_major, sx.stx_rdev_minor);
    st.st_size = static_cast<off_t>(sx.stx_size);
    st.st_blksize = static_cast<blksize_t>(sx.stx_blksize);
    st.st_blocks = static_cast<blkcnt_t>(sx.stx_blocks);
    st.st_atim = {sx.stx_atime.tv_sec, sx.stx_atime.tv_nsec};
    st.st_mtim = {sx.stx_mtime.tv_sec, sx.stx_mtime.tv_nsec};
    st.st_ctim = {sx.stx_ctime.tv_sec, sx.stx_ctime.tv_nsec};
    if ((sx.stx_mask & STATX_BTIME) != 0 && sx.stx_btime.tv_sec > 0) {
      seen.birth_ns =
          static_cast<uint64_t>(sx.stx_btime.tv_sec) * 1000000000U + sx.stx_btime.tv_nsec;
    }
    return 0;
  }
  if (errno != ENOSYS && errno != EPERM) return -1;
#endif
  return ::fstatat(dirfd, path, &seen.st, flags);
}

FileInfo InfoFromStat(const Seen& seen) {
  const struct stat& st = seen.st;
  FileInfo info;
  info.exists = true;
  info.is_regular = S_ISREG(st.st_mode);
  info.is_directory = S_ISDIR(st.st_mode);
  info.is_symlink = S_ISLNK(st.st_mode);
  info.size = static_cast<uint64_t>(st.st_size);
  info.allocated_bytes = static_cast<uint64_t>(st.st_blocks) * 512;
  info.device = st.st_dev;
  info.inode = st.st_ino;
  info.birth_ns = seen.birth_ns;
  return info;
}

// What a non-regular entry is, for "is not a regular file (it is ...)".
const char* KindOf(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a fifo";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "not a file";
}

// The refusal of an entry `st` that is not a regular file (a link included).
Status RefuseEntry(const DirHandle& dir, const std::string& name, const struct stat& st) {
  if (S_ISLNK(st.st_mode)) {
    return Status::FailedPrecondition(fmt::format("'{}' is a symbolic link", EntryPath(dir, name)));
  }
  return Status::FailedPrecondition(fmt::format("'{}' is not a regular file (it is {})",
                                                EntryPath(dir, name), KindOf(st.st_mode)));
}

Status RefuseReplaced(const DirHandle& dir, const std::string& name) {
  return Status::FailedPrecondition(
      fmt::format("'{}' was replaced: it is not the file expected", EntryPath(dir, name)));
}

// InvalidArgument unless `name` is one entry of a folder.
Status CheckEntryName(const DirHandle& dir, const std::string& name) {
  if (!dir.valid()) return Status::Internal("directory call on a closed directory handle");
  if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos) {
    return Status::InvalidArgument(
        fmt::format("'{}' is not a file name inside {}", name, dir.path));
  }
  return Status::Ok();
}

int DirFd(const DirHandle& dir) { return static_cast<int>(dir.native); }

// lstat of entry `name`: true when it exists (into `seen`), false when it is
// missing; another failure is an error.
Result<bool> LstatAt(const DirHandle& dir, const std::string& name, Seen& seen) {
  if (StatWithBirth(DirFd(dir), name.c_str(), AT_SYMLINK_NOFOLLOW, seen) == 0) return true;
  if (errno == ENOENT) return false;
  return PosixError("stat '" + EntryPath(dir, name) + "'", errno);
}

// The Status of an openat of `name` that failed with `err`: a link or a
// special file that appeared since the check is refused as such.
Status OpenAtFailure(const DirHandle& dir, const std::string& name, int err) {
  struct stat st;
  if (err != ENOENT && ::fstatat(DirFd(dir), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
      !S_ISREG(st.st_mode)) {
    return RefuseEntry(dir, name, st);
  }
  return PosixError("open '" + EntryPath(dir, name) + "'", err);
}

// The checks OpenAt makes on the descriptor it opened: a regular file, the
// one lstat saw (`seen`, when it existed) and the one expected.
Status CheckOpened(const DirHandle& dir, const std::string& name, int fd, const Seen* seen,
                   const FileId* expect) {
  Seen now;
  if (StatWithBirth(fd, "", AT_EMPTY_PATH, now) != 0) {
    return PosixError("fstat '" + EntryPath(dir, name) + "'", errno);
  }
  if (!S_ISREG(now.st.st_mode)) return RefuseEntry(dir, name, now.st);
  if (seen != nullptr && !(seen->id() == now.id())) return RefuseReplaced(dir, name);
  if (expect != nullptr && !(*expect == now.id())) return RefuseReplaced(dir, name);
  return Status::Ok();
}

class PosixFileSystemImpl final : public FileSystem {
 public:
  Result<int> Open(const std::string& path, int flags, mode_t mode) override {
    int fd = RetryOnEintr([&] { return ::open(path.c_str(), flags | O_CLOEXEC, mode); });
    if (fd < 0) return PosixError("open '" + path + "'", errno);
    return fd;
  }

  Status Close(int fd) override {
    // On Linux the descriptor is released even when close reports EINTR,
    // so it must not be retried.
    if (::close(fd) != 0 && errno != EINTR) return PosixError(FdContext("close", fd), errno);
    return Status::Ok();
  }

  Result<size_t> PRead(int fd, void* buf, size_t len, uint64_t offset) override {
    ssize_t n = RetryOnEintr([&] { return ::pread(fd, buf, len, static_cast<off_t>(offset)); });
    if (n < 0) return PosixError("pread", errno);
    return static_cast<size_t>(n);
  }

  Result<size_t> PWrite(int fd, const void* buf, size_t len, uint64_t offset) override {
    ssize_t n = RetryOnEintr([&] { return ::pwrite(fd, buf, len, static_cast<off_t>(offset)); });
    if (n < 0) return PosixError("pwrite", errno);
    return static_cast<size_t>(n);
  }

  // IoSlice has iovec's layout (checked below), so the slices go to the
  // kernel as they are.
  Result<size_t> PReadV(int fd, std::span<const IoSlice> slices, uint64_t offset) override {
    const auto* iov = reinterpret_cast<const iovec*>(slices.data());
    const int count = static_cast<int>(std::min<size_t>(slices.size(), IOV_MAX));
    ssize_t n = RetryOnEintr([&] { return ::preadv(fd, iov, count, static_cast<off_t>(offset)); });
    if (n < 0) return PosixError("preadv", errno);
    CountNativeScatterGather();
    return static_cast<size_t>(n);
  }

  Result<size_t> PWriteV(int fd, std::span<const IoSlice> slices, uint64_t offset) override {
    const auto* iov = reinterpret_cast<const iovec*>(slices.data());
    const int count = static_cast<int>(std::min<size_t>(slices.size(), IOV_MAX));
    ssize_t n = RetryOnEintr([&] { return ::pwritev(fd, iov, count, static_cast<off_t>(offset)); });
    if (n < 0) return PosixError("pwritev", errno);
    CountNativeScatterGather();
    return static_cast<size_t>(n);
  }

  Status Fsync(int fd) override {
    if (RetryOnEintr([&] { return ::fsync(fd); }) != 0) return PosixError("fsync", errno);
    return Status::Ok();
  }

  Status Fdatasync(int fd) override {
    if (RetryOnEintr([&] { return ::fdatasync(fd); }) != 0) return PosixError("fdatasync", errno);
    return Status::Ok();
  }

  Status Truncate(int fd, uint64_t size) override {
    if (RetryOnEintr([&] { return ::ftruncate(fd, static_cast<off_t>(size)); }) != 0) {
      return PosixError(FdContext("ftruncate", fd), errno);
    }
    return Status::Ok();
  }

  Status Unlink(const std::string& path) override {
    if (::unlink(path.c_str()) != 0) return PosixError("unlink '" + path + "'", errno);
    return Status::Ok();
  }

  Status Rename(const std::string& from, const std::string& to) override {
    if (::rename(from.c_str(), to.c_str()) != 0) {
      return PosixError("rename '" + from + "' to '" + to + "'", errno);
    }
    return Status::Ok();
  }

  Result<FileInfo> Stat(const std::string& path) override {
    Seen seen;
    if (StatWithBirth(AT_FDCWD, path.c_str(), 0, seen) != 0) {
      if (errno == ENOENT) return FileInfo{};  // exists = false
      return PosixError("stat '" + path + "'", errno);
    }
    return InfoFromStat(seen);
  }

  Status CheckWritableDir(const std::string& path) override {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) return PosixError("directory '" + path + "'", errno);
    if (!S_ISDIR(st.st_mode)) return PosixError("'" + path + "'", ENOTDIR);
    if (::access(path.c_str(), W_OK | X_OK) != 0) {
      return PosixError("directory '" + path + "'", errno);
    }
    return Status::Ok();
  }

  std::string FsType(const std::string& path) override {
    // The path may name a file not created yet: use its nearest existing
    // ancestor.
    std::string p = path.empty() ? std::string(".") : path;
    struct statfs sfs;
    while (::statfs(p.c_str(), &sfs) != 0) {
      if (p == "/" || p == ".") return "unknown";
      size_t slash = p.find_last_of('/');
      p = slash == std::string::npos ? std::string(".")
          : slash == 0               ? std::string("/")
                                     : p.substr(0, slash);
    }
    const auto magic = static_cast<uint64_t>(static_cast<uint32_t>(sfs.f_type));
    const char* name = nullptr;
    for (const FsMagic& m : kFsMagics) {
      if (m.magic == magic) name = m.name;
    }
    // ext2/3/4 share a magic number and fuse hides the real one: the mount
    // table tells them apart.
    if (name == nullptr || magic == 0xEF53 || magic == 0x65735546) {
      struct stat st;
      if (::stat(p.c_str(), &st) == 0) {
        char resolved[PATH_MAX];
        std::string abs = ::realpath(p.c_str(), resolved) != nullptr ? resolved : p;
        std::string from_mounts = MountInfoFsType(st.st_dev, abs);
        if (!from_mounts.empty()) return from_mounts;
      }
    }
    if (name != nullptr) return name;
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(magic));
    return hex;
  }

  // Not asked: see file_system.h.
  Result<uint32_t> SectorSize(const std::string& /*path*/) override { return uint32_t{512}; }

  Result<FileInfo> Fstat(int fd) override {
    Seen seen;
    if (StatWithBirth(fd, "", AT_EMPTY_PATH, seen) != 0) {
      return PosixError(FdContext("fstat", fd), errno);
    }
    return InfoFromStat(seen);
  }

  Result<DirHandle> OpenDir(const std::string& path) override {
    // A trailing '/' would make O_NOFOLLOW follow a link named by the rest.
    std::string p = path.empty() ? std::string(".") : path;
    while (p.size() > 1 && p.back() == '/') p.pop_back();
    const int fd = RetryOnEintr(
        [&] { return ::open(p.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC); });
    if (fd < 0) {
      const int err = errno;
      struct stat st;
      if (::lstat(p.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
        return Status::FailedPrecondition(
            fmt::format("'{}' is a symbolic link: give the folder itself, not a link to it", path));
      }
      return PosixError("directory '" + path + "'", err);
    }
    DirHandle dir;
    dir.native = fd;
    dir.path = path;
    return dir;
  }

  Status CloseDir(const DirHandle& dir) override {
    if (!dir.valid()) return Status::Ok();
    return Close(DirFd(dir));
  }

  Result<int> OpenAt(const DirHandle& dir, const std::string& name, int flags, mode_t mode,
                     const FileId* expect) override {
    LC_RETURN_IF_ERROR(CheckEntryName(dir, name));
    Seen seen;
    LC_ASSIGN_OR_RETURN(const bool exists, LstatAt(dir, name, seen));
    if (exists && !S_ISREG(seen.st.st_mode)) return RefuseEntry(dir, name, seen.st);
    if (exists && expect != nullptr && !(*expect == seen.id())) return RefuseReplaced(dir, name);
    // Not there a moment ago: whatever appears meanwhile is not opened.
    int open_flags = (flags & ~O_TRUNC) | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;
    if (!exists && (flags & O_CREAT) != 0) open_flags |= O_EXCL;
    const int fd =
        RetryOnEintr([&] { return ::openat(DirFd(dir), name.c_str(), open_flags, mode); });
    if (fd < 0) return OpenAtFailure(dir, name, errno);
    Status st = CheckOpened(dir, name, fd, exists ? &seen : nullptr, expect);
    if (st.ok() && (flags & O_NONBLOCK) == 0) {
      const int fl = ::fcntl(fd, F_GETFL);
      if (fl == -1 || ::fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) == -1) {
        st = PosixError("fcntl '" + EntryPath(dir, name) + "'", errno);
      }
    }
    if (st.ok() && (flags & O_TRUNC) != 0) st = Truncate(fd, 0);
    if (!st.ok()) {
      (void)Close(fd);
      return st;
    }
    return fd;
  }

  Result<FileInfo> StatAt(const DirHandle& dir, const std::string& name) override {
    LC_RETURN_IF_ERROR(CheckEntryName(dir, name));
    Seen seen;
    LC_ASSIGN_OR_RETURN(const bool exists, LstatAt(dir, name, seen));
    if (!exists) return FileInfo{};
    return InfoFromStat(seen);
  }

  Status UnlinkAt(const DirHandle& dir, const std::string& name, const FileId* expect) override {
    LC_RETURN_IF_ERROR(CheckEntryName(dir, name));
    Seen seen;
    LC_ASSIGN_OR_RETURN(const bool exists, LstatAt(dir, name, seen));
    if (!exists) return PosixError("unlink '" + EntryPath(dir, name) + "'", ENOENT);
    if (!S_ISREG(seen.st.st_mode)) return RefuseEntry(dir, name, seen.st);
    if (expect != nullptr && !(*expect == seen.id())) return RefuseReplaced(dir, name);
    if (::unlinkat(DirFd(dir), name.c_str(), 0) != 0) {
      return PosixError("unlink '" + EntryPath(dir, name) + "'", errno);
    }
    return Status::Ok();
  }

  Status RenameAt(const DirHandle& dir, const std::string& from, const std::string& to) override {
    LC_RETURN_IF_ERROR(CheckEntryName(dir, from));
    LC_RETURN_IF_ERROR(CheckEntryName(dir, to));
    Seen seen;
    LC_ASSIGN_OR_RETURN(const bool exists, LstatAt(dir, from, seen));
    if (exists && !S_ISREG(seen.st.st_mode)) return RefuseEntry(dir, from, seen.st);
    if (::renameat(DirFd(dir), from.c_str(), DirFd(dir), to.c_str()) != 0) {
      return PosixError(
          fmt::format("rename '{}' to '{}'", EntryPath(dir, from), EntryPath(dir, to)), errno);
    }
    return Status::Ok();
  }

  Result<bool> TryLock(int fd) override {
    if (RetryOnEintr([&] { return ::flock(fd, LOCK_EX | LOCK_NB); }) == 0) return true;
    if (errno == EWOULDBLOCK) return false;
    return PosixError(FdContext("flock", fd), errno);
  }

  Status Unlock(int fd) override {
    if (RetryOnEintr([&] { return ::flock(fd, LOCK_UN); }) != 0) {
      return PosixError(FdContext("unlock", fd), errno);
    }
    return Status::Ok();
  }
};

}  // namespace

FileSystem& PosixFileSystem() {
  static PosixFileSystemImpl* fs = new PosixFileSystemImpl();  // never destroyed
  return *fs;
}

FileSystem& DefaultFileSystem() { return PosixFileSystem(); }

const char kPathSeparators[] = "/";

size_t PathRootLength(const std::string& path) { return !path.empty() && path[0] == '/' ? 1 : 0; }

}  // namespace loadcell
