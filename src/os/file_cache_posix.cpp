#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <string>

#include "os/file_cache.h"

namespace loadcell {

Status DropCachedPages(int fd) {
  if (fdatasync(fd) != 0) return PosixError("fdatasync before dropping cached pages", errno);
  const int rc = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  if (rc != 0) return PosixError("posix_fadvise(DONTNEED)", rc);
  return Status::Ok();
}

Status AdviseFileAccess(int fd, FileAccessHint hint) {
  if (hint == FileAccessHint::kNone) return Status::Ok();
  const int advice = hint == FileAccessHint::kRandom ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL;
  const int rc = posix_fadvise(fd, 0, 0, advice);
  if (rc != 0) return PosixError("posix_fadvise(access hint)", rc);
  return Status::Ok();
}

bool FileAccessHintsSupported() { return true; }

Result<std::string> TemporaryFileHintEffect() {
  return std::string(
      "-ft: Linux has no per-file FILE_ATTRIBUTE_TEMPORARY (Windows' hint to keep the file's "
      "data in memory and write it back lazily); the target is opened and cached as without it");
}

Result<int> RemoteCacheOnlyOpenFlags(const std::string&, const std::string& fs_type) {
  static constexpr std::array<const char*, 5> kNetwork = {"nfs", "nfs4", "cifs", "smb2", "smb3"};
  if (std::find(kNetwork.begin(), kNetwork.end(), fs_type) != kNetwork.end()) return O_DIRECT;
  return Status::FailedPrecondition("is on " + fs_type +
                                    ", not a network file system (nfs, nfs4, cifs, smb2, smb3): "
                                    "DiskSpd's -Sr is only valid for remote file systems");
}

}  // namespace loadcell
