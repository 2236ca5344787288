#include <malloc.h>
#include <windows.h>

#include <cerrno>

#include "core/pages.h"

namespace loadcell {

size_t PageSize() {
  SYSTEM_INFO si;
  GetSystemInfo(&si);
  return si.dwPageSize;
}

uint64_t HugePageSize() {
  const SIZE_T large = GetLargePageMinimum();
  return large != 0 ? static_cast<uint64_t>(large) : uint64_t{2} << 20;
}

// VirtualAlloc's committed pages are zero-filled and, like anonymous mmap,
// take physical memory only when first touched. Large pages need the "Lock
// pages in memory" privilege; without it the call fails.
void* MapZeroPages(size_t bytes, bool huge, int* err) {
  DWORD type = MEM_RESERVE | MEM_COMMIT;
  if (huge) type |= MEM_LARGE_PAGES;
  void* p = VirtualAlloc(nullptr, bytes, type, PAGE_READWRITE);
  if (p == nullptr) *err = ENOMEM;
  return p;
}

void UnmapPages(void* p, size_t) { VirtualFree(p, 0, MEM_RELEASE); }

void* AllocateAligned(size_t alignment, size_t bytes) { return _aligned_malloc(bytes, alignment); }

void FreeAligned(void* p) { _aligned_free(p); }

}  // namespace loadcell
