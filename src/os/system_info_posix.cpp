#include <pwd.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "os/system_info.h"

namespace loadcell {
namespace {

std::string Trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t");
  size_t e = s.find_last_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, e - b + 1);
}

std::string CpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      size_t colon = line.find(':');
      if (colon != std::string::npos) return Trim(line.substr(colon + 1));
    }
  }
  return "";
}

}  // namespace

SystemInfo ReadSystemInfo() {
  SystemInfo info;
  info.cpu_model = CpuModel();
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  info.cpus_online = cpus > 0 ? static_cast<int>(cpus) : 0;
  long pages = sysconf(_SC_PHYS_PAGES);
  long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page_size > 0) {
    info.memory_bytes = static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size);
  }
  utsname u;
  if (uname(&u) == 0) info.kernel = std::string(u.sysname) + " " + u.release;
  return info;
}

bool StderrIsTerminal() { return isatty(STDERR_FILENO) == 1; }

uint64_t ReadL2CacheBytes() {
  const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  return l2 > 0 ? static_cast<uint64_t>(l2) : 0;
}

std::tm LocalTime(std::time_t t) {
  std::tm tm{};
  localtime_r(&t, &tm);
  return tm;
}

std::string MakeTempDir(const std::string& prefix) {
  std::error_code ec;
  std::string tmpl = std::filesystem::temp_directory_path(ec).string();
  if (ec || tmpl.empty()) tmpl = "/tmp";
  tmpl += "/" + prefix + "XXXXXX";
  if (::mkdtemp(tmpl.data()) == nullptr) return "";
  return tmpl;
}

int CurrentProcessId() { return static_cast<int>(::getpid()); }

std::string CurrentUserName() {
  const uid_t uid = ::geteuid();
  passwd pw{};
  passwd* found = nullptr;
  char buf[1024];
  if (::getpwuid_r(uid, &pw, buf, sizeof(buf), &found) == 0 && found != nullptr &&
      found->pw_name != nullptr) {
    return found->pw_name;
  }
  return "uid " + std::to_string(uid);
}

}  // namespace loadcell
