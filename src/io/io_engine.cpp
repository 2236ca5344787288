#include "io/io_engine.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "core/build_features.h"
#include "core/build_info.h"
#include "core/pages.h"
#include "io/engines.h"

namespace loadcell {

namespace {

struct EngineEntry {
  const char* name;
  Result<std::unique_ptr<IoEngine>> (*make)(FileSystem& fs);
};

// Every engine compiled in, in the order help lists them; the optional ones
// are left out by their build option (core/build_info.h names them).
constexpr EngineEntry kEngines[] = {
    {"sync", &io_internal::MakeSyncEngine},
#if LOADCELL_WITH_IO_URING
    {"io_uring", &io_internal::MakeIoUringEngine},
#endif
#if LOADCELL_WITH_LIBAIO
    {"libaio", &io_internal::MakeLibaioEngine},
#endif
#if LOADCELL_WINDOWS
    {"iocp", &io_internal::MakeIocpEngine},
#endif
    // mmap_engine.cpp on POSIX, mmap_engine_win32.cpp (CreateFileMapping) on Windows.
    {"mmap", &io_internal::MakeMmapEngine},
    {"null", &io_internal::MakeNullEngine},
};

}  // namespace

std::vector<std::string> IoEngineNames() {
  std::vector<std::string> names;
  for (const EngineEntry& e : kEngines) names.emplace_back(e.name);
  return names;
}

std::string AsyncIoEngineName() { return LOADCELL_WINDOWS ? "iocp" : "libaio"; }

Status CheckIoEngine(const std::string& name, std::string_view asked) {
  for (const EngineEntry& e : kEngines) {
    if (name == e.name) return Status::Ok();
  }
  if (LOADCELL_WINDOWS && (name == "io_uring" || name == "libaio")) {
    return Status::InvalidArgument(std::string(asked) + ": " + name +
                                   " is a Linux engine; on Windows use iocp (or async), sync "
                                   "or mmap");
  }
  if (!LOADCELL_WINDOWS && name == "iocp") {
    return Status::InvalidArgument(std::string(asked) +
                                   ": iocp is a Windows engine; on Linux use io_uring, libaio "
                                   "(or async), sync or mmap");
  }
  if (IsLeftOut(name)) return NotInThisBuild(asked, name);
  std::string valid;
  for (const std::string& n : IoEngineNames()) valid += (valid.empty() ? "" : ", ") + n;
  return Status::InvalidArgument("unknown --file-io-mode '" + name + "'; valid: " + valid);
}

Result<std::unique_ptr<IoEngine>> MakeIoEngine(const std::string& name, FileSystem& fs) {
  for (const EngineEntry& e : kEngines) {
    if (name == e.name) return e.make(fs);
  }
  return CheckIoEngine(name, "--file-io-mode=" + name);
}

void* AllocateIoBuffer(size_t len, size_t alignment) {
  if (alignment < sizeof(void*)) alignment = sizeof(void*);
  // aligned_alloc wants a power-of-two alignment and a size that is a
  // multiple of it.
  if ((alignment & (alignment - 1)) != 0) return nullptr;
  size_t rounded = (len + alignment - 1) / alignment * alignment;
  if (rounded == 0) rounded = alignment;
  // A large buffer lies in whole huge pages, advised for transparent huge
  // pages before the first touch: physically contiguous memory, so that a
  // large O_DIRECT request is a few segments and reaches the device whole.
  // In ordinary pages a 1 MiB request is 256 segments, more than a
  // virtio-blk device takes in one request (254), and the kernel splits it
  // in two (what bench/compare-fio's device table showed against fio).
  const bool huge = IoBufferInHugePages(rounded, alignment);
  if (huge) {
    alignment = std::max(alignment, kIoBufferHugePage);
    rounded = (rounded + kIoBufferHugePage - 1) / kIoBufferHugePage * kIoBufferHugePage;
  }
  void* p = AllocateAligned(alignment, rounded);
  if (p == nullptr) return nullptr;
  if (huge) AdviseHugePages(p, rounded);
  std::memset(p, 0, rounded);
  return p;
}

void FreeIoBuffer(void* p) { FreeAligned(p); }

}  // namespace loadcell
