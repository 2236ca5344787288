#include <windows.h>

#include "os/file_cache.h"
#include "os/open_flags.h"
#include "os/win32_util.h"

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
  return std::string(
      "-ft: opened with FILE_ATTRIBUTE_TEMPORARY, as DiskSpd opens it (Windows applies it to "
      "a file it creates; an existing file keeps its own attributes)");
}

Result<int> RemoteCacheOnlyOpenFlags(const std::string& path, const std::string& fs_type) {
  const bool unc = path.size() > 2 && (path[0] == '\\' || path[0] == '/') &&
                   (path[1] == '\\' || path[1] == '/') && path[2] != '.' && path[2] != '?';
  wchar_t volume[MAX_PATH + 1] = {};
  const bool named = GetVolumePathNameW(WidePath(path).c_str(), volume, MAX_PATH) != 0;
  if (unc || (named && GetDriveTypeW(volume) == DRIVE_REMOTE)) return O_LOCAL_CACHE_OFF;
  return Status::FailedPrecondition(
      "is on " + (named ? Narrow(volume) : std::string("a local drive")) + " (" + fs_type +
      "), a local drive, not a network share: DiskSpd's -Sr is only valid for remote file "
      "systems");
}

}  // namespace loadcell
