#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "os/host_facts.h"

namespace loadcell {
namespace {

std::string FirstLineOf(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return "";
  return line;
}

// The cgroup v2 path of this process ("/user.slice/..."), "" when unknown.
std::string OwnCgroupPath() {
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("0::", 0) == 0) return line.substr(3);
  }
  return "";
}

}  // namespace

HostCpuTimes ReadHostCpuTimes() {
  HostCpuTimes t;
  std::istringstream in(FirstLineOf("/proc/stat"));
  std::string cpu;
  in >> cpu;
  if (cpu != "cpu") return t;
  // user nice system idle iowait irq softirq steal (guest time is in user).
  uint64_t v[8] = {};
  for (uint64_t& x : v) {
    if (!(in >> x)) return t;
  }
  t.busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
  t.total = t.busy + v[3] + v[4];
  t.known = true;
  return t;
}

uint64_t CgroupMemoryLimit() {
  const std::string own = OwnCgroupPath();
  if (own.empty()) return 0;
  // The tightest limit on the way up to the root.
  uint64_t limit = 0;
  std::string dir = own;
  for (;;) {
    const std::string value = FirstLineOf("/sys/fs/cgroup" + dir + "/memory.max");
    if (!value.empty() && value != "max") {
      char* end = nullptr;
      const unsigned long long n = std::strtoull(value.c_str(), &end, 10);
      if (end != value.c_str() && n > 0 && (limit == 0 || n < limit)) limit = n;
    }
    if (dir.empty() || dir == "/") break;
    const size_t slash = dir.rfind('/');
    dir = slash == 0 || slash == std::string::npos ? "/" : dir.substr(0, slash);
  }
  return limit;
}

Result<uint64_t> FileHoleBytes(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return PosixError(path, errno);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return PosixError(path, err);
  }
  const off_t size = st.st_size;
  uint64_t holes = 0;
  off_t at = 0;
  while (at < size) {
    const off_t hole = ::lseek(fd, at, SEEK_HOLE);
    if (hole < 0) {
      const int err = errno;
      ::close(fd);
      if (err == EINVAL || err == ENOTSUP) {
        return Status::Unimplemented(path + ": the file system does not report holes");
      }
      return PosixError(path, err);
    }
    if (hole >= size) break;
    off_t data = ::lseek(fd, hole, SEEK_DATA);
    if (data < 0) data = size;  // ENXIO: a hole to the end
    holes += static_cast<uint64_t>(data - hole);
    at = data;
  }
  ::close(fd);
  return holes;
}

namespace {

// The sysfs folder of the block device that holds `path`, "" when none.
std::string DeviceFolderOf(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "";
  const std::string dev =
      "/sys/dev/block/" + std::to_string(major(st.st_dev)) + ":" + std::to_string(minor(st.st_dev));
  char real[PATH_MAX];
  if (::realpath(dev.c_str(), real) == nullptr) return "";
  return real;
}

}  // namespace

DeviceCounters ReadDeviceCounters(const std::string& path) {
  DeviceCounters c;
  const std::string dir = DeviceFolderOf(path);
  if (dir.empty()) return c;
  // Documentation/block/stat.rst: reads, reads merged, sectors read, ms
  // reading, writes, writes merged, sectors written, ...; sectors of 512
  // bytes whatever the device's own.
  std::istringstream in(FirstLineOf(dir + "/stat"));
  uint64_t v[7] = {};
  for (uint64_t& x : v) {
    if (!(in >> x)) return c;
  }
  c.known = true;
  c.device = dir.substr(dir.rfind('/') + 1);
  c.read_bytes = v[2] * 512;
  c.written_bytes = v[6] * 512;
  return c;
}

std::string DeviceWriteCacheMode(const std::string& path) {
  std::string dir = DeviceFolderOf(path);
  if (dir.empty()) return "";
  // A partition's queue is its disk's.
  if (::access((dir + "/partition").c_str(), F_OK) == 0) dir = dir.substr(0, dir.rfind('/'));
  return FirstLineOf(dir + "/queue/write_cache");
}

}  // namespace loadcell
