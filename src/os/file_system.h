#pragma once
// The seam over the operating system's file calls, so that tests can inject
// faults (ENOSPC, EIO, short writes) or count calls, and a second platform is
// a second implementation. Everything that touches files goes through a
// FileSystem (code that is handed none uses DefaultFileSystem()); engines get
// the raw descriptor from Open(). Implementations are thread-safe.

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/status.h"
#include "os/open_flags.h"

namespace loadcell {

// Which file an entry is: on POSIX st_dev and st_ino, on Windows the
// volume serial number and the file index; and the file's birth time where
// the system gives one. A device and inode name a file only while it exists:
// ext4 gives a deleted file's inode number to the next file made, often the
// one re-created under the same name, so the two differ only in their birth.
// Two FileIds are equal when their devices and inodes are and, when both
// births are known, their births too: an identity recorded without one (a
// line of an older manifest, an id built from a plain stat) matches on device
// and inode alone.
struct FileId {
  uint64_t device = 0;
  uint64_t inode = 0;
  uint64_t birth_ns = 0;  // nanoseconds since 1970; 0: not known

  friend bool operator==(const FileId& a, const FileId& b) {
    return a.device == b.device && a.inode == b.inode &&
           (a.birth_ns == 0 || b.birth_ns == 0 || a.birth_ns == b.birth_ns);
  }
};

struct FileInfo {
  bool exists = false;
  bool is_regular = false;
  bool is_directory = false;
  bool is_symlink = false;  // only from StatAt, which does not follow links
  uint64_t size = 0;
  uint64_t allocated_bytes = 0;  // st_blocks * 512: tells sparse files apart
  uint64_t device = 0;
  uint64_t inode = 0;
  uint64_t birth_ns = 0;  // when the file was made (statx's btime); 0: not known

  FileId id() const { return {device, inode, birth_ns}; }
};

// A directory opened by FileSystem::OpenDir: the folder that the *At calls
// work in. An opaque value owned by the FileSystem that made it (on POSIX a
// directory descriptor); closed with CloseDir (or held by a ScopedDir).
struct DirHandle {
  intptr_t native = -1;
  std::string path;  // as given to OpenDir; names the folder in messages

  bool valid() const { return native != -1; }
};

// One buffer of a scatter read or a gather write (FileSystem::PReadV).
struct IoSlice {
  void* data = nullptr;
  size_t len = 0;
};

class FileSystem {
 public:
  virtual ~FileSystem() = default;

  // open(2); flags as for open (O_DIRECT, O_DSYNC, ...); O_CLOEXEC is
  // always added. Returns the fd.
  virtual Result<int> Open(const std::string& path, int flags, mode_t mode = 0644) = 0;
  virtual Status Close(int fd) = 0;
  // One pread/pwrite call: may transfer fewer bytes than asked (returned).
  virtual Result<size_t> PRead(int fd, void* buf, size_t len, uint64_t offset) = 0;
  virtual Result<size_t> PWrite(int fd, const void* buf, size_t len, uint64_t offset) = 0;
  // A scatter read and a gather write (preadv/pwritev; on Windows
  // ReadFileScatter/WriteFileGather where they apply: os/win32_scatter_gather.h):
  // the file's bytes from `offset` on into (from) `slices` in order, in one
  // call; may transfer fewer bytes than asked (returned). The default is one
  // PRead/PWrite per slice through this FileSystem, stopping at the first
  // short one (NativeScatterGatherCalls tells the two apart).
  virtual Result<size_t> PReadV(int fd, std::span<const IoSlice> slices, uint64_t offset);
  virtual Result<size_t> PWriteV(int fd, std::span<const IoSlice> slices, uint64_t offset);
  virtual Status Fsync(int fd) = 0;
  virtual Status Fdatasync(int fd) = 0;
  virtual Status Truncate(int fd, uint64_t size) = 0;
  virtual Status Unlink(const std::string& path) = 0;
  virtual Status Rename(const std::string& from, const std::string& to) = 0;
  // A missing path is not an error: FileInfo.exists is false.
  virtual Result<FileInfo> Stat(const std::string& path) = 0;
  // access(path, W_OK|X_OK) for a directory.
  virtual Status CheckWritableDir(const std::string& path) = 0;
  // Filesystem type name of the mount holding path ("ext4", "xfs", "tmpfs");
  // a path that does not exist yet is looked up through its nearest existing
  // ancestor. Never empty: an unknown type is its statfs magic in hex.
  virtual std::string FsType(const std::string& path) = 0;

  // fstat(2) of an open file.
  virtual Result<FileInfo> Fstat(int fd) = 0;
  // The logical sector size of the volume holding `path` (an existing file
  // or folder), in bytes: what unbuffered I/O (O_DIRECT,
  // FILE_FLAG_NO_BUFFERING) needs sizes, offsets and buffer addresses to be
  // multiples of. Windows asks the volume (GetDiskFreeSpaceW); POSIX says
  // 512, the smallest there is, without asking (a device with 4 KiB logical
  // sectors refuses a smaller O_DIRECT transfer with EINVAL).
  virtual Result<uint32_t> SectorSize(const std::string& path) = 0;

  // ---- Directory-relative calls that never follow a link ----
  // Everything that touches the files of one folder (fileio's test files,
  // manifest and lock; SQLIO's files) opens the folder once and names its
  // entries relative to it, so that a link put in an entry's place is seen
  // and refused, never followed. `name` is one entry: empty, ".", ".." or a
  // name with '/' is InvalidArgument, nothing touched. An entry in the way
  // is refused with FailedPrecondition (exit 2) in one line naming
  // "DIR/NAME" and what it is ("is a symbolic link", "is not a regular file
  // (it is a fifo)", "was replaced: it is not the file expected"); a refused entry
  // is left exactly as it was.

  // Opens the directory at `path`; a link as its last component is refused
  // (earlier components may be links), as is anything that is not a
  // directory. The handle keeps naming that folder when it is renamed.
  virtual Result<DirHandle> OpenDir(const std::string& path) = 0;
  virtual Status CloseDir(const DirHandle& dir) = 0;
  // Opens entry `name` of `dir`: flags as for Open (O_CREAT | O_EXCL makes a
  // new file and fails with AlreadyExists when a regular file has the name).
  // Never follows a link and never blocks on a FIFO or opens a device: the
  // entry must be a regular file and, with `expect`, that file. O_TRUNC is
  // applied only after these checks pass, so a refused file keeps its bytes.
  virtual Result<int> OpenAt(const DirHandle& dir, const std::string& name, int flags,
                             mode_t mode = 0644, const FileId* expect = nullptr) = 0;
  // lstat of entry `name`: a link is reported as is_symlink (its target is
  // not looked at). A missing entry is not an error: exists is false.
  virtual Result<FileInfo> StatAt(const DirHandle& dir, const std::string& name) = 0;
  // Removes entry `name`, which must be a regular file (and, with `expect`,
  // that file); a link, a directory or a fifo is refused and left alone.
  // A missing entry is NotFound.
  virtual Status UnlinkAt(const DirHandle& dir, const std::string& name,
                          const FileId* expect = nullptr) = 0;
  // Renames entry `from` to `to` in the same folder, replacing `to`
  // atomically. `from` must be a regular file; whatever is at `to` is
  // replaced, never followed (callers that must not replace a link StatAt
  // `to` first).
  virtual Status RenameAt(const DirHandle& dir, const std::string& from, const std::string& to) = 0;
  // An exclusive advisory lock on an open file, without waiting: true when
  // this descriptor now holds it, false when another open file description
  // (another process, or another open of the file) does. Released by Unlock
  // or by closing the descriptor, and by the kernel when the process dies.
  virtual Result<bool> TryLock(int fd) = 0;
  virtual Status Unlock(int fd) = 0;
};

// Holds a DirHandle and closes it when it goes out of scope. Movable, not
// copyable.
class ScopedDir {
 public:
  ScopedDir(FileSystem& fs, DirHandle dir) : fs_(&fs), dir_(std::move(dir)) {}
  ScopedDir(ScopedDir&& other) noexcept : fs_(other.fs_), dir_(std::move(other.dir_)) {
    other.dir_.native = -1;
  }
  ScopedDir& operator=(ScopedDir&&) = delete;
  ScopedDir(const ScopedDir&) = delete;
  ScopedDir& operator=(const ScopedDir&) = delete;
  ~ScopedDir() {
    if (dir_.valid()) (void)fs_->CloseDir(dir_);
  }

  const DirHandle& get() const { return dir_; }

 private:
  FileSystem* fs_;
  DirHandle dir_;
};

// OpenDir wrapped in a ScopedDir.
Result<ScopedDir> OpenScopedDir(FileSystem& fs, const std::string& path);
// "DIR/NAME": how messages name entry `name` of `dir`.
std::string EntryPath(const DirHandle& dir, const std::string& name);
// "DIR/NAME", or "DIRNAME" when `dir` ends in a separator already ("/",
// and on Windows "V:\\": "V:\\NAME", not "V:\\/NAME").
std::string JoinPath(const std::string& dir, const std::string& name);

// The POSIX implementation.
FileSystem& PosixFileSystem();
// The implementation of the platform this build runs on: what code that is
// not handed a FileSystem uses. The one place where the platform is chosen.
FileSystem& DefaultFileSystem();

// How many scatter reads and gather writes went to the system as one call
// each (preadv/pwritev; ReadFileScatter/WriteFileGather) since the process
// started, not as FileSystem's default one call per slice: for tests that
// must see the native path taken. CountNativeScatterGather adds one (the
// platforms' file systems call it).
uint64_t NativeScatterGatherCalls();
void CountNativeScatterGather();

// The characters that separate a path's folders: "/" on POSIX; "/\\" on
// Windows, which takes both.
extern const char kPathSeparators[];
// How many leading characters of `path` name its root: 1 for "/f" on POSIX;
// on Windows 3 for "C:\\f" (or "C:/f"), 2 for "C:f", 1 for "\\f"; else 0.
size_t PathRootLength(const std::string& path);

// The folder part of `path`: "." when it has no separator, the root for a
// file in the root ("dir" for "dir/f", "/" for "/f"; on Windows also
// "C:\\dir" for "C:\\dir\\f", "C:\\" for "C:\\f").
std::string Dirname(const std::string& path);
// The part of `path` after its last separator (all of it when there is none).
std::string Basename(const std::string& path);
// True where the system itself resolves a drive letter at the start of a
// path (`R:\f.dat`): Windows. SQLIO's paths are then used as written;
// elsewhere a drive letter stands for a folder (--drive=R=/folder).
bool PathsHaveDriveLetters();

// Writes all of buf, looping over short writes; EIO etc. become a Status
// naming `what` (e.g. the file path and offset), with code and errno kept.
// A write that transfers nothing is an error.
Status WriteFully(FileSystem& fs, int fd, const void* buf, size_t len, uint64_t offset,
                  const std::string& what);
// Reads exactly len bytes, looping over short reads; end of file before len
// bytes is an IoError "unexpected end of file".
Status ReadFully(FileSystem& fs, int fd, void* buf, size_t len, uint64_t offset,
                 const std::string& what);

// OK when `bytes` is a multiple of the sector size of the volume holding
// `dir` (FileSystem::SectorSize), else InvalidArgument, one line: "WHAT must
// be a multiple of N bytes, the sector size of the volume holding DIR, for
// unbuffered I/O (HOW)"; `what` names the option and its value, `how` the
// switch that asked for unbuffered I/O.
Status CheckSectorMultiple(FileSystem& fs, const std::string& dir, uint64_t bytes,
                           std::string_view what, std::string_view how);

// The first `size` bytes of entry `name` of `dir` (opened without following
// a link), e.g. a manifest of the size StatAt gave; fewer is an IoError.
Result<std::string> ReadEntryAt(FileSystem& fs, const DirHandle& dir, const std::string& name,
                                uint64_t size);
// The whole contents of the file at `path`, read through `fs` to its end.
// A missing or unreadable file is the Status of the failed call, naming the
// path; ReadFailureText() words it for a message.
Result<std::string> ReadFileToString(FileSystem& fs, const std::string& path);
// For a Status of ReadFileToString: "cannot open: <reason>" when the file
// could not be opened, else "cannot read: <reason>" (<reason> the errno's
// text).
std::string ReadFailureText(const Status& s);
// The failure of ReadFileToString as a usage error (exit 2) that keeps the
// errno: "CONTEXT: cannot open WHAT: reason" (or "cannot read"); `what` may
// be empty ("cannot open: reason").
Status ReadFailureAsUsageError(const std::string& context, const Status& s,
                               const std::string& what = "");
// Appends `data` to the file at `path` (created with mode 0644 when missing),
// through `fs`. Not atomic against another writer of the same file.
Status AppendToFile(FileSystem& fs, const std::string& path, const std::string& data);

// Forwards every call to `target`. A file system that changes a few calls
// (fault injection, recording) derives from it and overrides only those,
// as LevelDB's EnvWrapper. Thread-safe when the target is.
class FileSystemWrapper : public FileSystem {
 public:
  explicit FileSystemWrapper(FileSystem& target) : target_(target) {}

  FileSystem& target() const { return target_; }

  Result<int> Open(const std::string& path, int flags, mode_t mode = 0644) override {
    return target_.Open(path, flags, mode);
  }
  Status Close(int fd) override { return target_.Close(fd); }
  Result<size_t> PRead(int fd, void* buf, size_t len, uint64_t offset) override {
    return target_.PRead(fd, buf, len, offset);
  }
  Result<size_t> PWrite(int fd, const void* buf, size_t len, uint64_t offset) override {
    return target_.PWrite(fd, buf, len, offset);
  }
  Result<size_t> PReadV(int fd, std::span<const IoSlice> slices, uint64_t offset) override {
    return target_.PReadV(fd, slices, offset);
  }
  Result<size_t> PWriteV(int fd, std::span<const IoSlice> slices, uint64_t offset) override {
    return target_.PWriteV(fd, slices, offset);
  }
  Status Fsync(int fd) override { return target_.Fsync(fd); }
  Status Fdatasync(int fd) override { return target_.Fdatasync(fd); }
  Status Truncate(int fd, uint64_t size) override { return target_.Truncate(fd, size); }
  Status Unlink(const std::string& path) override { return target_.Unlink(path); }
  Status Rename(const std::string& from, const std::string& to) override {
    return target_.Rename(from, to);
  }
  Result<FileInfo> Stat(const std::string& path) override { return target_.Stat(path); }
  Status CheckWritableDir(const std::string& path) override {
    return target_.CheckWritableDir(path);
  }
  std::string FsType(const std::string& path) override { return target_.FsType(path); }
  Result<FileInfo> Fstat(int fd) override { return target_.Fstat(fd); }
  Result<uint32_t> SectorSize(const std::string& path) override { return target_.SectorSize(path); }
  Result<DirHandle> OpenDir(const std::string& path) override { return target_.OpenDir(path); }
  Status CloseDir(const DirHandle& dir) override { return target_.CloseDir(dir); }
  Result<int> OpenAt(const DirHandle& dir, const std::string& name, int flags, mode_t mode = 0644,
                     const FileId* expect = nullptr) override {
    return target_.OpenAt(dir, name, flags, mode, expect);
  }
  Result<FileInfo> StatAt(const DirHandle& dir, const std::string& name) override {
    return target_.StatAt(dir, name);
  }
  Status UnlinkAt(const DirHandle& dir, const std::string& name,
                  const FileId* expect = nullptr) override {
    return target_.UnlinkAt(dir, name, expect);
  }
  Status RenameAt(const DirHandle& dir, const std::string& from, const std::string& to) override {
    return target_.RenameAt(dir, from, to);
  }
  Result<bool> TryLock(int fd) override { return target_.TryLock(fd); }
  Status Unlock(int fd) override { return target_.Unlock(fd); }

 private:
  FileSystem& target_;
};

// A FileSystem that forwards to another and can be told to fail. For tests.
class FaultInjectingFileSystem final : public FileSystemWrapper {
 public:
  explicit FaultInjectingFileSystem(FileSystem& base) : FileSystemWrapper(base) {}

  // After `after` more successful writes, every PWrite fails with errno `err`
  // (ENOSPC, EIO, EFBIG...); the Status carries the errno. err = -1 means:
  // every later write is short instead (half the bytes asked, at least 1).
  // after < 0 disables the fault.
  void FailWritesAfter(int64_t after, int err);
  // The same for PRead (err = -1: short reads).
  void FailReadsAfter(int64_t after, int err);
  // Every Fsync/Fdatasync fails with `err` (0: none).
  void FailFsync(int err);
  // Removes all faults.
  void Clear();

  Result<size_t> PRead(int fd, void* buf, size_t len, uint64_t offset) override;
  Result<size_t> PWrite(int fd, const void* buf, size_t len, uint64_t offset) override;
  Status Fsync(int fd) override;
  Status Fdatasync(int fd) override;

 private:
  std::atomic<int64_t> writes_left_{-1};  // -1: never fail
  std::atomic<int> write_err_{0};
  std::atomic<int64_t> reads_left_{-1};
  std::atomic<int> read_err_{0};
  std::atomic<int> fsync_err_{0};
};

}  // namespace loadcell
