#include "os/folder_check.h"

#include <fcntl.h>

#include <cerrno>
#include <cstring>

#include "os/open_flags.h"
#include "os/system_info.h"

namespace loadcell {
namespace {

Status Refused(FileSystem& fs, const std::string& dir, std::string_view what, const Status& s) {
  std::string line(what);
  line.append(": cannot create files in ").append(dir.empty() ? "." : dir).append(": ");
  Result<FileInfo> info = fs.Stat(dir);
  if (s.err() == ENOENT && info.ok() && info->exists) {
    line.append("the file system takes no new files");  // /proc, a FUSE mount
  } else {
    line.append(s.err() != 0 ? FileErrnoInWords(s.err()) : s.ToString());
  }
  return Status::FailedPrecondition(line);
}

}  // namespace

std::string FileErrnoInWords(int err) {
  switch (err) {
    case ENOSPC:
      return "no space left on the device";
    case EDQUOT:
      return "the disk quota is used up";
    case EROFS:
      return "the file system is read-only";
    case EACCES:
    case EPERM:
      return "permission denied (loadcell runs as user " + CurrentUserName() + ")";
    case ENOENT:
      return "the folder does not exist";
    case ENOTDIR:
      return "a part of the path is not a folder";
    default:
      return std::strerror(err);
  }
}

Status CheckFolderTakesFiles(FileSystem& fs, const std::string& dir, std::string_view what) {
  const std::string probe = (dir.empty() ? std::string(".") : dir) + "/.loadcell-probe-" +
                            std::to_string(CurrentProcessId());
  Result<int> fd = fs.Open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (!fd.ok()) {
    if (fd.status().err() == EEXIST) return Status::Ok();  // not ours: left alone
    return Refused(fs, dir, what, fd.status());
  }
  Status closed = fs.Close(*fd);
  Status removed = fs.Unlink(probe);
  if (!closed.ok()) return Refused(fs, dir, what, closed);
  if (!removed.ok()) return Refused(fs, dir, what, removed);
  return Status::Ok();
}

}  // namespace loadcell
