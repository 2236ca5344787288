#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>
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

Status DiscardBlocks(int fd, uint64_t offset, uint64_t length) {
#ifdef BLKDISCARD
  uint64_t range[2] = {offset, length};
  if (ioctl(fd, BLKDISCARD, range) != 0) return PosixError("ioctl(BLKDISCARD)", errno);
  return Status::Ok();
#else
  (void)fd;
  (void)offset;
  (void)length;
  return Status::Unimplemented("discarding a block device's blocks needs Linux's BLKDISCARD");
#endif
}

namespace {

std::string MajorMinor(dev_t dev) {
  return std::to_string(major(dev)) + ":" + std::to_string(minor(dev));
}

std::string FirstLine(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// "M:m" of `device` and of every partition and holder under /sys/dev/block
// (holders followed a few levels: dm on md on a disk).
void CollectDevices(const std::string& major_minor, int depth, std::vector<std::string>* out) {
  if (depth > 4 || std::find(out->begin(), out->end(), major_minor) != out->end()) return;
  out->push_back(major_minor);
  std::error_code ec;
  const std::filesystem::path dir = std::filesystem::canonical("/sys/dev/block/" + major_minor, ec);
  if (ec) return;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    if (std::filesystem::exists(e.path() / "partition", ec)) {
      CollectDevices(FirstLine((e.path() / "dev").string()), depth + 1, out);
    }
  }
  for (const auto& e : std::filesystem::directory_iterator(dir / "holders", ec)) {
    CollectDevices(FirstLine((e.path() / "dev").string()), depth + 1, out);
  }
}

}  // namespace

Result<bool> BlockDeviceMounted(const std::string& path, std::string* where) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return PosixError(path, errno);
  if (!S_ISBLK(st.st_mode)) return false;
  std::vector<std::string> devices;
  CollectDevices(MajorMinor(st.st_rdev), 0, &devices);
  std::ifstream in("/proc/self/mountinfo");
  if (!in) return Status::Unimplemented("cannot read /proc/self/mountinfo");
  std::string line;
  while (std::getline(in, line)) {
    // ID PARENT MAJOR:MINOR ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER
    std::istringstream f(line);
    std::string id, parent, major_minor, root, point, field;
    f >> id >> parent >> major_minor >> root >> point;
    while (f >> field && field != "-") {
    }
    std::string type, source;
    f >> type >> source;
    bool hit = std::find(devices.begin(), devices.end(), major_minor) != devices.end();
    // btrfs and others show a device number of their own: the source too.
    struct stat src {};
    if (!hit && source.rfind("/dev/", 0) == 0 && stat(source.c_str(), &src) == 0 &&
        S_ISBLK(src.st_mode)) {
      hit = std::find(devices.begin(), devices.end(), MajorMinor(src.st_rdev)) != devices.end();
    }
    if (hit) {
      if (where != nullptr) *where = source.append(" on ").append(point);
      return true;
    }
  }
  return false;
}

Result<std::string> BlockDeviceSignature(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return PosixError(path, errno);
  std::vector<unsigned char> buf(kSignatureBytes);
  size_t got = 0;
  while (got < buf.size()) {
    const ssize_t n = pread(fd, buf.data() + got, buf.size() - got, static_cast<off_t>(got));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      close(fd);
      return PosixError(path + ": reading its first blocks", err);
    }
    if (n == 0) break;
    got += static_cast<size_t>(n);
  }
  close(fd);
  return SignatureOf(buf.data(), got);
}

}  // namespace loadcell
