#include "os/file_cache.h"

namespace loadcell {

Status DropCachedPages(int) {
  return Status::Unimplemented("Windows has no way to drop one file's cached pages");
}

Status AdviseFileAccess(int, FileAccessHint hint) {
  if (hint == FileAccessHint::kNone) return Status::Ok();
  return Status::Unimplemented(
      "access hints are open flags on Windows (FILE_FLAG_RANDOM_ACCESS, "
      "FILE_FLAG_SEQUENTIAL_SCAN), which loadcell's open does not pass yet");
}

bool FileAccessHintsSupported() { return false; }

}  // namespace loadcell
