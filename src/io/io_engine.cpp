#include "io/io_engine.h"

#include <cstdlib>
#include <cstring>

#include "io/engines.h"

namespace loadcell {

std::vector<std::string> IoEngineNames() { return {"sync", "io_uring", "libaio", "mmap"}; }

Result<std::unique_ptr<IoEngine>> MakeIoEngine(const std::string& name, FileSystem& fs) {
  if (name == "sync") return io_internal::MakeSyncEngine(fs);
  if (name == "io_uring") return io_internal::MakeIoUringEngine(fs);
  if (name == "libaio") return io_internal::MakeLibaioEngine(fs);
  if (name == "mmap") return io_internal::MakeMmapEngine(fs);
  std::string valid;
  for (const std::string& n : IoEngineNames()) valid += (valid.empty() ? "" : ", ") + n;
  return Status::InvalidArgument("unknown --file-io-mode '" + name + "'; valid: " + valid);
}

void* AllocateIoBuffer(size_t len, size_t alignment) {
  if (alignment < sizeof(void*)) alignment = sizeof(void*);
  // aligned_alloc wants a power-of-two alignment and a size that is a
  // multiple of it.
  if ((alignment & (alignment - 1)) != 0) return nullptr;
  size_t rounded = (len + alignment - 1) / alignment * alignment;
  if (rounded == 0) rounded = alignment;
  void* p = std::aligned_alloc(alignment, rounded);
  if (p != nullptr) std::memset(p, 0, rounded);
  return p;
}

}  // namespace loadcell
