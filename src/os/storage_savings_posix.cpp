#include <fcntl.h>
#include <unistd.h>

#if defined(__linux__)
#include <linux/fs.h>
#include <sys/ioctl.h>
#endif

#include "os/storage_savings.h"

namespace loadcell {

bool FileCompressAttribute(const std::string& path) {
#if defined(__linux__)
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return false;
  // FS_IOC_GETFLAGS is declared with a long but reads and writes an int.
  int flags = 0;
  const bool ok = ::ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0;
  ::close(fd);
  return ok && (flags & FS_COMPR_FL) != 0;
#else
  (void)path;
  return false;
#endif
}

StorageSavings ReadStorageSavings(const std::string& path) {
  return SavingsOf(ReadMountFacts(path), FileCompressAttribute(path));
}

}  // namespace loadcell
