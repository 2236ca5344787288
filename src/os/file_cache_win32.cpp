#include "os/file_cache.h"

namespace loadcell {

Status DropCachedPages(int) {
  return Status::Unimplemented("Windows has no way to drop one file's cached pages");
}

}  // namespace loadcell
