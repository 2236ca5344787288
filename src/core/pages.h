#pragma once
// Memory straight from the operating system: zero-filled pages that cost
// nothing until touched (mmap on POSIX, VirtualAlloc on Windows), and the
// aligned buffers of unbuffered I/O. One implementation per platform
// (pages_posix.cpp, pages_win32.cpp), chosen by the build.

#include <cstddef>
#include <cstdint>
#include <string>

namespace loadcell {

// The size of one ordinary page.
size_t PageSize();
// The default huge (Windows: large) page size; 2 MiB when the system does not say.
uint64_t HugePageSize();

// `bytes` of zero-filled, readable and writable memory, page-aligned, in
// huge pages when `huge`. Returns nullptr when the system refuses, with the
// reason's errno in *err (ENOMEM on Windows). Free with UnmapPages(p, bytes).
// Windows: the first huge request enables the "Lock pages in memory"
// privilege in the process's token (it must be enabled, not only granted);
// EPERM when the account does not hold it.
void* MapZeroPages(size_t bytes, bool huge, int* err);
// What a user can do when MapZeroPages refused huge pages with `err`, for
// a message: on Linux reserve them (vm.nr_hugepages), on Windows the
// privilege or, with it, less fragmented memory.
const char* HugePagesAdvice(int err);
void UnmapPages(void* p, size_t bytes);

// Asks that [p, p + bytes) be backed by transparent huge pages where the
// system offers them (Linux: madvise(MADV_HUGEPAGE), honoured when
// /sys/kernel/mm/transparent_hugepage/enabled is "always" or "madvise" and
// a huge page is free at the first touch); nothing on Windows. Advice only:
// nothing fails.
void AdviseHugePages(void* p, size_t bytes);
// The system's setting for transparent huge pages, for a report: Linux's
// /sys/kernel/mm/transparent_hugepage/enabled ("always", "madvise" or
// "never"); "" where there is none (Windows) or it cannot be read.
std::string TransparentHugePages();

// `bytes` aligned to `alignment` (a power of two); nullptr when out of
// memory. Free with FreeAligned (std::free cannot free it on Windows).
void* AllocateAligned(size_t alignment, size_t bytes);
void FreeAligned(void* p);

}  // namespace loadcell
