#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#ifdef __linux__
#include <linux/fs.h>
#include <sys/ioctl.h>
#endif

#include "os/block_device.h"

namespace loadcell {

bool IsBlockDevice(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISBLK(st.st_mode);
}

Result<uint64_t> BlockDeviceBytes(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return PosixError(path, errno);
  uint64_t bytes = 0;
#ifdef BLKGETSIZE64
  const int rc = ioctl(fd, BLKGETSIZE64, &bytes);
  const int err = errno;
#else
  const off_t end = lseek(fd, 0, SEEK_END);
  const int rc = end < 0 ? -1 : 0;
  const int err = errno;
  bytes = end < 0 ? 0 : static_cast<uint64_t>(end);
#endif
  close(fd);
  if (rc != 0) return PosixError(path + ": the size of the block device", err);
  return bytes;
}

}  // namespace loadcell
