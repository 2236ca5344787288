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

}  // namespace loadcell
