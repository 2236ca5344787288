#include "io/io_engine.h"

#include <cstdlib>
#include <cstring>

namespace loadcell {

void* AllocateIoBuffer(size_t len, size_t alignment) {
  if (alignment == 0) alignment = 1;
  size_t rounded = (len + alignment - 1) / alignment * alignment;
  if (rounded == 0) rounded = alignment;
  void* p = std::aligned_alloc(alignment, rounded);
  if (p != nullptr) std::memset(p, 0, rounded);
  return p;
}

}  // namespace loadcell
