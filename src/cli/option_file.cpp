#include "cli/option_file.h"

#include <cerrno>
#include <cstdio>

#include "os/file_system.h"

namespace loadcell {

Result<std::string> ReadOptionFile(const std::string& path, const std::string& what) {
  // Checked before opening: opening a FIFO would block until a writer came.
  Result<FileInfo> info = DefaultFileSystem().Stat(path);
  if (info.ok() && info->exists && !info->is_regular) {
    return Status::InvalidArgument(what + ": not a regular file (give a text file of at most 1M)");
  }
  if (info.ok() && info->exists && info->size > kMaxOptionFileBytes) {
    return Status::InvalidArgument(what + ": larger than 1M, the limit for an options file");
  }
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return PosixUsageError(what + ": cannot open", errno);
  std::string text;
  char buf[4096];
  size_t n;
  // The file may grow after the check: one byte past the limit is enough to tell.
  while (text.size() <= kMaxOptionFileBytes && (n = std::fread(buf, 1, sizeof(buf), f)) > 0) {
    text.append(buf, n);
  }
  const int err = std::ferror(f) ? errno : 0;
  std::fclose(f);
  if (err != 0) return PosixUsageError(what + ": cannot read", err);
  if (text.size() > kMaxOptionFileBytes) {
    return Status::InvalidArgument(what + ": larger than 1M, the limit for an options file");
  }
  // A UTF-8 byte order mark, as Windows editors write, is no part of line 1.
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);
  return text;
}

}  // namespace loadcell
