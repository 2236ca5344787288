#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <climits>
#include <cstdlib>
#include <string>

#include "os/disk_stats.h"

namespace loadcell {

std::string DiskNameOf(const std::string& path) {
  struct stat st {};
  std::string at = path;
  if (::stat(at.c_str(), &st) != 0) {
    const size_t slash = at.find_last_of('/');
    at = slash == std::string::npos ? "." : (slash == 0 ? "/" : at.substr(0, slash));
    if (::stat(at.c_str(), &st) != 0) return "";
  }
  const dev_t dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
  const std::string link =
      "/sys/dev/block/" + std::to_string(major(dev)) + ":" + std::to_string(minor(dev));
  char real[PATH_MAX];
  if (::realpath(link.c_str(), real) == nullptr) return "";
  const std::string folder = real;
  return folder.substr(folder.rfind('/') + 1);
}

}  // namespace loadcell
