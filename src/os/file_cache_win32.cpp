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

Result<std::string> TemporaryFileHintEffect() {
  return Status::Unimplemented(
      "the temporary-file hint is an open attribute on Windows (FILE_ATTRIBUTE_TEMPORARY), "
      "which loadcell's open does not pass yet");
}

Result<int> RemoteCacheOnlyOpenFlags(const std::string&) {
  return Status::Unimplemented(
      "is not supported by loadcell on Windows yet: DiskSpd sends "
      "FSCTL_DISABLE_LOCAL_BUFFERING to the opened file, which loadcell does not");
}

}  // namespace loadcell
