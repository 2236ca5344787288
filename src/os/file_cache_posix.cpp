#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

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

}  // namespace loadcell
