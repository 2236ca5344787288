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

namespace {

// Enables SeLockMemoryPrivilege in the process token; false when the account
// does not hold it (AdjustTokenPrivileges then "succeeds" with
// ERROR_NOT_ALL_ASSIGNED).
bool EnableLockMemoryPrivilege() {
  HANDLE token = nullptr;
  if (!OpenProcessToken(GetCurrentProcess(), TOKEN_ADJUST_PRIVILEGES | TOKEN_QUERY, &token)) {
    return false;
  }
  TOKEN_PRIVILEGES tp{};
  tp.PrivilegeCount = 1;
  tp.Privileges[0].Attributes = SE_PRIVILEGE_ENABLED;
  bool enabled = LookupPrivilegeValueW(nullptr, L"SeLockMemoryPrivilege", &tp.Privileges[0].Luid) &&
                 AdjustTokenPrivileges(token, FALSE, &tp, 0, nullptr, nullptr) &&
                 GetLastError() == ERROR_SUCCESS;
  CloseHandle(token);
  return enabled;
}

}  // namespace

// VirtualAlloc's committed pages are zero-filled and, like anonymous mmap,
// take physical memory only when first touched. Large pages need the "Lock
// pages in memory" privilege, enabled; without it the call fails.
void* MapZeroPages(size_t bytes, bool huge, int* err) {
  DWORD type = MEM_RESERVE | MEM_COMMIT;
  bool privileged = true;
  if (huge) {
    static const bool enabled = EnableLockMemoryPrivilege();
    privileged = enabled;
    type |= MEM_LARGE_PAGES;
  }
  void* p = VirtualAlloc(nullptr, bytes, type, PAGE_READWRITE);
  if (p == nullptr) {
    const bool refused = !privileged || GetLastError() == ERROR_PRIVILEGE_NOT_HELD;
    *err = huge && refused ? EPERM : ENOMEM;
  }
  return p;
}

const char* HugePagesAdvice(int err) {
  if (err == EPERM) {
    return "large pages need the \"Lock pages in memory\" privilege (SeLockMemoryPrivilege): "
           "grant it to this account in Local Security Policy, User Rights Assignment, then "
           "sign in again";
  }
  return "Windows has too few free large pages (physical memory is fragmented): try a smaller "
         "--memory-block-size, or soon after a restart";
}

void UnmapPages(void* p, size_t) { VirtualFree(p, 0, MEM_RELEASE); }

void AdviseHugePages(void*, size_t) {}  // large pages are only ever asked for explicitly

std::string TransparentHugePages() { return ""; }

void* AllocateAligned(size_t alignment, size_t bytes) { return _aligned_malloc(bytes, alignment); }

void FreeAligned(void* p) { _aligned_free(p); }

}  // namespace loadcell
