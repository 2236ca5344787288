#pragma once
// fileio: the lock that keeps two loadcell commands (prepare, run, cleanup)
// off one test folder at a time. The lock is an advisory lock
// (FileSystem::TryLock) on <file-dir>/.loadcell-fileio.lock, a file that
// names its holder ("pid 1234 loadcell fileio prepare"). The kernel drops the
// lock when its holder dies, so a lock file left by a killed process is
// simply taken over. The holder removes the file when it lets go.

#include <string>

#include "core/status.h"
#include "os/file_system.h"

namespace loadcell {

inline constexpr const char* kFileIoLockName = ".loadcell-fileio.lock";

// Which lock of a folder, and how its messages name the folder.
struct FolderLockSpec {
  std::string name = kFileIoLockName;  // the lock file's name in the folder
  std::string option = "--file-dir";   // the option that chose the folder ("": none)
  std::string command;                 // the holder's command, e.g. "loadcell fileio prepare"
};

// Holds the lock of one folder; releases it (and removes the lock file) when
// destroyed. Movable.
class FolderLock {
 public:
  FolderLock() = default;
  FolderLock(FolderLock&& other) noexcept;
  FolderLock& operator=(FolderLock&& other) noexcept;
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;
  ~FolderLock() { Release(); }

  bool held() const { return fd_ >= 0; }
  // Removes the lock file and lets go. Idempotent.
  void Release();

 private:
  friend Result<FolderLock> LockFolder(FileSystem& fs, const std::string& dir,
                                       const FolderLockSpec& spec);
  FileSystem* fs_ = nullptr;
  DirHandle dir_;
  std::string name_;  // the lock file's name, made before it is needed
  FileId id_;         // of the lock file this lock holds
  int fd_ = -1;
};

// Takes the folder's lock for `command` (e.g. "loadcell fileio prepare"),
// without waiting. Held by another live process: FailedPrecondition (exit
// 2) in one line naming the holder's pid and command. A link or a special
// file in the lock's place is refused and left alone.
Result<FolderLock> LockFolder(FileSystem& fs, const std::string& dir, const FolderLockSpec& spec);
// fileio's lock (kFileIoLockName, --file-dir) for `command`.
Result<FolderLock> LockTestFolder(FileSystem& fs, const std::string& dir,
                                  const std::string& command);

}  // namespace loadcell
