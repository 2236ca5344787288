#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <string>

#include "core/pages.h"

namespace loadcell {

size_t PageSize() { return static_cast<size_t>(sysconf(_SC_PAGESIZE)); }

// From /proc/meminfo ("Hugepagesize: 2048 kB").
uint64_t HugePageSize() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  uint64_t value = 0;
  std::string unit;
  while (in >> key >> value) {
    std::getline(in, unit);
    if (key == "Hugepagesize:" && value > 0) return value * 1024;
  }
  return uint64_t{2} << 20;
}

void* MapZeroPages(size_t bytes, bool huge, int* err) {
  int flags = MAP_PRIVATE | MAP_ANONYMOUS;
  if (huge) flags |= MAP_HUGETLB;
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, flags, -1, 0);
  if (p == MAP_FAILED) {
    *err = errno;
    return nullptr;
  }
  return p;
}

const char* HugePagesAdvice(int /*err*/) {
  return "reserve them first, e.g. sysctl vm.nr_hugepages=N; see HugePages_Free in /proc/meminfo";
}

void UnmapPages(void* p, size_t bytes) { munmap(p, bytes); }

void AdviseHugePages(void* p, size_t bytes) { madvise(p, bytes, MADV_HUGEPAGE); }

// The file lists every choice and brackets the one in force:
// "always [madvise] never".
std::string TransparentHugePages() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  if (!std::getline(in, line)) return "";
  const size_t open = line.find('[');
  const size_t close = line.find(']', open);
  if (open == std::string::npos || close == std::string::npos) return "";
  return line.substr(open + 1, close - open - 1);
}

void* AllocateAligned(size_t alignment, size_t bytes) {
  return std::aligned_alloc(alignment, bytes);
}

void FreeAligned(void* p) { std::free(p); }

}  // namespace loadcell
