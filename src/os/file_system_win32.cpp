// The Win32 FileSystem (the Windows build; file_system.cpp is the POSIX one).
// Files are opened with CreateFileW and handed out as C runtime descriptors
// (_open_osfhandle), so the seam keeps its int descriptors; _get_osfhandle
// gives the handle back. Every failure becomes a Status in Win32Error.
#include <fcntl.h>
#include <fmt/format.h>
#include <io.h>
#include <windows.h>

#include <cctype>
#include <cerrno>
#include <string>

#include "os/file_system.h"
#include "os/win32_scatter_gather.h"
#include "os/win32_util.h"

namespace loadcell {
namespace {

HANDLE HandleOf(int fd) { return reinterpret_cast<HANDLE>(_get_osfhandle(fd)); }

std::string FdContext(std::string_view verb, int fd) { return fmt::format("{} fd {}", verb, fd); }

// A handle for looking at `path` only (no data access); a directory too.
HANDLE OpenForInfo(const std::string& path, bool follow) {
  DWORD flags = FILE_FLAG_BACKUP_SEMANTICS;
  if (!follow) flags |= FILE_FLAG_OPEN_REPARSE_POINT;
  return CreateFileW(WidePath(path).c_str(), FILE_READ_ATTRIBUTES, kShareAll, nullptr,
                     OPEN_EXISTING, flags, nullptr);
}

Result<FileInfo> InfoOfHandle(HANDLE h, const std::string& what) {
  // A device (NUL, CON, COM1) or a pipe: there, not a regular file (what
  // /dev/zero is on Linux); the file calls below may fail on it or, under
  // Wine, describe it as a file.
  if (GetFileType(h) != FILE_TYPE_DISK) {
    FileInfo device;
    device.exists = true;
    return device;
  }
  BY_HANDLE_FILE_INFORMATION bh;
  if (!GetFileInformationByHandle(h, &bh)) return Win32Error("stat '" + what + "'", GetLastError());
  FILE_STANDARD_INFO standard{};
  if (!GetFileInformationByHandleEx(h, FileStandardInfo, &standard, sizeof(standard))) {
    return Win32Error("stat '" + what + "'", GetLastError());
  }
  FileInfo info;
  info.exists = true;
  info.is_symlink = (bh.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT) != 0;
  info.is_directory = !info.is_symlink && (bh.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) != 0;
  info.is_regular = !info.is_symlink && !info.is_directory;
  info.size = static_cast<uint64_t>(standard.EndOfFile.QuadPart);
  info.allocated_bytes = static_cast<uint64_t>(standard.AllocationSize.QuadPart);
  info.device = bh.dwVolumeSerialNumber;
  info.inode = (static_cast<uint64_t>(bh.nFileIndexHigh) << 32) | bh.nFileIndexLow;
  // No birth time (0: not known): the file index already tells a re-created
  // file apart on NTFS (its record's reuse count is in the index), and the
  // creation time is not stable everywhere this build runs (under Wine it
  // moved between a file's creation and the next run, so loadcell's own
  // files read as another's).
  return info;
}

bool IsMissing(DWORD error) {
  return error == ERROR_FILE_NOT_FOUND || error == ERROR_PATH_NOT_FOUND;
}

Result<FileInfo> StatPath(const std::string& path, bool follow) {
  HANDLE h = OpenForInfo(path, follow);
  if (h == INVALID_HANDLE_VALUE) {
    const DWORD error = GetLastError();
    if (IsMissing(error)) return FileInfo{};  // exists = false
    return Win32Error("stat '" + path + "'", error);
  }
  Result<FileInfo> info = InfoOfHandle(h, path);
  CloseHandle(h);
  return info;
}

Status RefuseEntry(const DirHandle& dir, const std::string& name, const FileInfo& info) {
  if (info.is_symlink) {
    return Status::FailedPrecondition(fmt::format("'{}' is a symbolic link", EntryPath(dir, name)));
  }
  return Status::FailedPrecondition(fmt::format("'{}' is not a regular file (it is {})",
                                                EntryPath(dir, name),
                                                info.is_directory ? "a directory" : "not a file"));
}

Status RefuseReplaced(const DirHandle& dir, const std::string& name) {
  return Status::FailedPrecondition(
      fmt::format("'{}' was replaced: it is not the file expected", EntryPath(dir, name)));
}

// A name inside `dir`: no folder, and a colon only as FILE:STREAM, a named
// stream of a file of `dir` (SQLIOSim's sparse sample names one); never a
// stream type (a second colon) or an unnamed part.
bool IsStreamName(const std::string& name) {
  const size_t colon = name.find(':');
  return colon != std::string::npos && colon > 0 && colon + 1 < name.size() &&
         name.find(':', colon + 1) == std::string::npos;
}

Status CheckEntryName(const DirHandle& dir, const std::string& name) {
  if (!dir.valid()) return Status::Internal("directory call on a closed directory handle");
  if (name.empty() || name == "." || name == ".." ||
      name.find_first_of("/\\") != std::string::npos ||
      (name.find(':') != std::string::npos && !IsStreamName(name))) {
    return Status::InvalidArgument(
        fmt::format("'{}' is not a file name inside {}", name, dir.path));
  }
  return Status::Ok();
}

// The entry `name` of `dir` as a regular file (and, with `expect`, that
// file), not following a link; missing is exists = false.
Result<FileInfo> CheckedEntry(const DirHandle& dir, const std::string& name, const FileId* expect) {
  LC_ASSIGN_OR_RETURN(FileInfo info, StatPath(EntryPath(dir, name), /*follow=*/false));
  if (!info.exists) return info;
  if (!info.is_regular) return RefuseEntry(dir, name, info);
  if (expect != nullptr && !(*expect == info.id())) return RefuseReplaced(dir, name);
  return info;
}

}  // namespace

class Win32FileSystemImpl final : public FileSystem {
 public:
  Result<int> Open(const std::string& path, int flags, mode_t mode) override {
    return OpenWith(path, CreateFileArgsFor(flags, /*truncate=*/true), flags);
  }

  Status Close(int fd) override {
    scatter_gather_.Closing(fd);
    if (_close(fd) != 0) return PosixError(FdContext("close", fd), errno);
    return Status::Ok();
  }

  // ReadFile/WriteFile with the offset in an OVERLAPPED on a synchronous
  // handle: one positioned call, like pread/pwrite.
  Result<size_t> PRead(int fd, void* buf, size_t len, uint64_t offset) override {
    OVERLAPPED ov = AtOffset(offset);
    DWORD done = 0;
    if (!ReadFile(HandleOf(fd), buf, ClampLength(len), &done, &ov)) {
      const DWORD error = GetLastError();
      if (error == ERROR_HANDLE_EOF) return size_t{0};
      return Win32Error("ReadFile", error);
    }
    return static_cast<size_t>(done);
  }

  Result<size_t> PWrite(int fd, const void* buf, size_t len, uint64_t offset) override {
    OVERLAPPED ov = AtOffset(offset);
    DWORD done = 0;
    if (!WriteFile(HandleOf(fd), buf, ClampLength(len), &done, &ov)) {
      return Win32Error("WriteFile", GetLastError());
    }
    return static_cast<size_t>(done);
  }

  // An unbuffered file's scatter read and gather write of whole aligned
  // system pages: one ReadFileScatter or WriteFileGather
  // (win32_scatter_gather.h); else one call per slice.
  Result<size_t> PReadV(int fd, std::span<const IoSlice> slices, uint64_t offset) override {
    if (auto done = scatter_gather_.Transfer(fd, slices, offset, false)) return *done;
    return FileSystem::PReadV(fd, slices, offset);
  }
  Result<size_t> PWriteV(int fd, std::span<const IoSlice> slices, uint64_t offset) override {
    if (auto done = scatter_gather_.Transfer(fd, slices, offset, true)) return *done;
    return FileSystem::PWriteV(fd, slices, offset);
  }

  // FlushFileBuffers writes data and metadata: fsync and fdatasync alike.
  Status Fsync(int fd) override { return Flush(fd); }
  Status Fdatasync(int fd) override { return Flush(fd); }

  Status Truncate(int fd, uint64_t size) override {
    FILE_END_OF_FILE_INFO eof{};
    eof.EndOfFile.QuadPart = static_cast<LONGLONG>(size);
    if (!SetFileInformationByHandle(HandleOf(fd), FileEndOfFileInfo, &eof, sizeof(eof))) {
      return Win32Error(FdContext("truncate", fd), GetLastError());
    }
    return Status::Ok();
  }

  Status Unlink(const std::string& path) override {
    if (!DeleteFileW(WidePath(path).c_str())) {
      return Win32Error("unlink '" + path + "'", GetLastError());
    }
    return Status::Ok();
  }

  Status Rename(const std::string& from, const std::string& to) override {
    if (!MoveFileExW(WidePath(from).c_str(), WidePath(to).c_str(), MOVEFILE_REPLACE_EXISTING)) {
      return Win32Error("rename '" + from + "' to '" + to + "'", GetLastError());
    }
    return Status::Ok();
  }

  Result<FileInfo> Stat(const std::string& path) override {
    return StatPath(path, /*follow=*/true);
  }

  // Windows has no access(W_OK): whether a file can be made in the folder
  // (its ACL; a read-only or write-protected volume) shows only by making
  // one, a probe that goes away with its handle.
  Status CheckWritableDir(const std::string& path) override {
    LC_ASSIGN_OR_RETURN(const FileInfo info, StatPath(path, /*follow=*/true));
    if (!info.exists) return PosixError("directory '" + path + "'", ENOENT);
    if (!info.is_directory) return PosixError("'" + path + "'", ENOTDIR);
    const std::string probe =
        JoinPath(path, ".loadcell-probe-" + std::to_string(GetCurrentProcessId()));
    HANDLE h = CreateFileW(WidePath(probe).c_str(), GENERIC_WRITE, kShareAll, nullptr, CREATE_NEW,
                           FILE_ATTRIBUTE_TEMPORARY | FILE_FLAG_DELETE_ON_CLOSE, nullptr);
    if (h == INVALID_HANDLE_VALUE) {
      const DWORD error = GetLastError();
      if (error == ERROR_FILE_EXISTS) return Status::Ok();  // not ours: left alone
      return Win32Error("directory '" + path + "'", error);
    }
    CloseHandle(h);
    return Status::Ok();
  }

  // The volume's file system ("NTFS", "FAT32", "ReFS"); a path not created
  // yet is looked up through the volume it would be on. Asked through a
  // handle of the volume's root folder: GetVolumeInformationW by name also
  // opens the device itself, which Wine refuses with a line of its own on
  // stderr for every call (its Z: drive, the Unix root).
  std::string FsType(const std::string& path) override {
    wchar_t volume[MAX_PATH + 1] = {};
    const std::wstring wide = WidePath(path.empty() ? std::string(".") : path);
    if (!GetVolumePathNameW(wide.c_str(), volume, MAX_PATH)) return "unknown";
    HANDLE root = CreateFileW(volume, 0, kShareAll, nullptr, OPEN_EXISTING,
                              FILE_FLAG_BACKUP_SEMANTICS, nullptr);
    if (root == INVALID_HANDLE_VALUE) return "unknown";
    wchar_t fs_name[MAX_PATH + 1] = {};
    const BOOL known = GetVolumeInformationByHandleW(root, nullptr, 0, nullptr, nullptr, nullptr,
                                                     fs_name, MAX_PATH);
    CloseHandle(root);
    return known ? Narrow(fs_name) : "unknown";
  }

  // The volume's logical sector (GetDiskFreeSpaceW's bytes per sector), what
  // FILE_FLAG_NO_BUFFERING requires; a drive's larger physical sector only
  // makes smaller transfers slower.
  Result<uint32_t> SectorSize(const std::string& path) override {
    wchar_t volume[MAX_PATH + 1] = {};
    const std::wstring wide = Widen(path.empty() ? std::string(".") : path);
    if (!GetVolumePathNameW(wide.c_str(), volume, MAX_PATH)) {
      return Win32Error("volume of '" + path + "'", GetLastError());
    }
    DWORD per_cluster = 0, bytes_per_sector = 0, free_clusters = 0, clusters = 0;
    if (!GetDiskFreeSpaceW(volume, &per_cluster, &bytes_per_sector, &free_clusters, &clusters)) {
      return Win32Error("sector size of the volume holding '" + path + "'", GetLastError());
    }
    return static_cast<uint32_t>(bytes_per_sector);
  }

  Result<FileInfo> Fstat(int fd) override {
    return InfoOfHandle(HandleOf(fd), FdContext("fd", fd));
  }

  Result<DirHandle> OpenDir(const std::string& path) override;
  Status CloseDir(const DirHandle& dir) override {
    if (!CloseHandle(reinterpret_cast<HANDLE>(dir.native))) {
      return Win32Error("close directory '" + dir.path + "'", GetLastError());
    }
    return Status::Ok();
  }
  Result<int> OpenAt(const DirHandle& dir, const std::string& name, int flags, mode_t mode,
                     const FileId* expect) override;
  Result<FileInfo> StatAt(const DirHandle& dir, const std::string& name) override {
    LC_RETURN_IF_ERROR(CheckEntryName(dir, name));
    return StatPath(EntryPath(dir, name), /*follow=*/false);
  }
  Status UnlinkAt(const DirHandle& dir, const std::string& name, const FileId* expect) override {
    LC_RETURN_IF_ERROR(CheckEntryName(dir, name));
    LC_ASSIGN_OR_RETURN(const FileInfo info, CheckedEntry(dir, name, expect));
    if (!info.exists) return PosixError("unlink '" + EntryPath(dir, name) + "'", ENOENT);
    return Unlink(EntryPath(dir, name));
  }
  Status RenameAt(const DirHandle& dir, const std::string& from, const std::string& to) override {
    LC_RETURN_IF_ERROR(CheckEntryName(dir, from));
    LC_RETURN_IF_ERROR(CheckEntryName(dir, to));
    LC_ASSIGN_OR_RETURN(const FileInfo info, CheckedEntry(dir, from, nullptr));
    if (!info.exists) return PosixError("rename '" + EntryPath(dir, from) + "'", ENOENT);
    return Rename(EntryPath(dir, from), EntryPath(dir, to));
  }

  // An exclusive lock on the file's first byte, not waiting (LockFileEx).
  Result<bool> TryLock(int fd) override {
    OVERLAPPED ov = AtOffset(0);
    if (LockFileEx(HandleOf(fd), LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0,
                   &ov)) {
      return true;
    }
    const DWORD error = GetLastError();
    if (error == ERROR_LOCK_VIOLATION || error == ERROR_IO_PENDING) return false;
    return Win32Error(FdContext("lock", fd), error);
  }
  Status Unlock(int fd) override {
    OVERLAPPED ov = AtOffset(0);
    if (!UnlockFileEx(HandleOf(fd), 0, 1, 0, &ov)) {
      return Win32Error(FdContext("unlock", fd), GetLastError());
    }
    return Status::Ok();
  }

 private:
  static OVERLAPPED AtOffset(uint64_t offset) {
    OVERLAPPED ov{};
    ov.Offset = static_cast<DWORD>(offset & 0xffffffffu);
    ov.OffsetHigh = static_cast<DWORD>(offset >> 32);
    return ov;
  }
  // One call moves at most 1 GiB (a DWORD count; aligned for unbuffered I/O).
  static DWORD ClampLength(size_t len) {
    return static_cast<DWORD>(len < (size_t{1} << 30) ? len : (size_t{1} << 30));
  }
  static Status Flush(int fd) {
    if (!FlushFileBuffers(HandleOf(fd))) return Win32Error(FdContext("fsync", fd), GetLastError());
    return Status::Ok();
  }

  Result<int> OpenWith(const std::string& path, const CreateFileArgs& a, int flags) {
    HANDLE h = CreateFileW(WidePath(path).c_str(), a.access, kShareAll, nullptr, a.disposition,
                           a.flags, nullptr);
    if (h == INVALID_HANDLE_VALUE) return Win32Error("open '" + path + "'", GetLastError());
    if ((flags & O_LOCAL_CACHE_OFF) != 0) {
      if (Status off = DisableLocalBuffering(h, path); !off.ok()) {
        CloseHandle(h);
        return off;
      }
    }
    const int fd = _open_osfhandle(reinterpret_cast<intptr_t>(h),
                                   _O_BINARY | (flags & (O_RDONLY | O_WRONLY | O_RDWR)));
    if (fd < 0) {
      CloseHandle(h);
      return PosixError("open '" + path + "'", EMFILE);
    }
    scatter_gather_.Opened(fd, h, a.access, a.flags);
    return fd;
  }

  Win32ScatterGather scatter_gather_;
};

// A reparse point (a symbolic link or a junction) as the folder itself is
// refused, as O_NOFOLLOW refuses a link on POSIX.
Result<DirHandle> Win32FileSystemImpl::OpenDir(const std::string& path) {
  const std::string p = path.empty() ? std::string(".") : path;
  HANDLE h = OpenForInfo(p, /*follow=*/false);
  if (h == INVALID_HANDLE_VALUE) return Win32Error("directory '" + path + "'", GetLastError());
  Result<FileInfo> info = InfoOfHandle(h, p);
  Status refused;
  if (!info.ok()) {
    refused = info.status();
  } else if (info->is_symlink) {
    refused = Status::FailedPrecondition(
        fmt::format("'{}' is a symbolic link: give the folder itself, not a link to it", path));
  } else if (!info->is_directory) {
    refused = PosixError("directory '" + path + "'", ENOTDIR);
  }
  if (!refused.ok()) {
    CloseHandle(h);
    return refused;
  }
  DirHandle dir;
  dir.native = reinterpret_cast<intptr_t>(h);
  dir.path = path;
  return dir;
}

// The entry is checked before it is opened (no link, a regular file, the one
// expected) and its handle after (the same file: nothing replaced it in
// between); O_TRUNC applies only after both.
Result<int> Win32FileSystemImpl::OpenAt(const DirHandle& dir, const std::string& name, int flags,
                                        mode_t mode, const FileId* expect) {
  LC_RETURN_IF_ERROR(CheckEntryName(dir, name));
  LC_ASSIGN_OR_RETURN(const FileInfo seen, CheckedEntry(dir, name, expect));
  if (seen.exists && (flags & O_CREAT) != 0 && (flags & O_EXCL) != 0) {
    return Status::AlreadyExists(fmt::format("'{}' already exists", EntryPath(dir, name)));
  }
  const std::string path = EntryPath(dir, name);
  LC_ASSIGN_OR_RETURN(
      const int fd,
      OpenWith(path, CreateFileArgsFor(flags | O_NOFOLLOW, /*truncate=*/false), flags));
  Result<FileInfo> now = Fstat(fd);
  Status st = now.ok() ? Status::Ok() : now.status();
  if (st.ok() && !now->is_regular) st = RefuseEntry(dir, name, *now);
  if (st.ok() && seen.exists && !(seen.id() == now->id())) st = RefuseReplaced(dir, name);
  if (st.ok() && (flags & O_TRUNC) != 0) st = Truncate(fd, 0);
  if (!st.ok()) {
    scatter_gather_.Closing(fd);
    _close(fd);
    return st;
  }
  return fd;
}

FileSystem& DefaultFileSystem() {
  static Win32FileSystemImpl* fs = new Win32FileSystemImpl();  // never destroyed
  return *fs;
}

const char kPathSeparators[] = "/\\";

size_t PathRootLength(const std::string& path) {
  const auto separator = [](char c) { return c == '/' || c == '\\'; };
  if (path.size() >= 2 && path[1] == ':' && std::isalpha(static_cast<unsigned char>(path[0]))) {
    return path.size() >= 3 && separator(path[2]) ? 3 : 2;
  }
  return !path.empty() && separator(path[0]) ? 1 : 0;
}

}  // namespace loadcell
