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

void* AllocateAligned(size_t alignment, size_t bytes) {
  return std::aligned_alloc(alignment, bytes);
}

void FreeAligned(void* p) { std::free(p); }

}  // namespace loadcell
