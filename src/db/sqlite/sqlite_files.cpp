#include "db/sqlite/sqlite_files.h"

#include <array>

namespace loadcell {

SqliteNewFiles SqliteNewFiles::Before(FileSystem& fs, const std::string& path) {
  SqliteNewFiles out;
  out.path_ = path;
  if (path.empty() || path == ":memory:" || path.rfind("file:", 0) == 0) return out;
  Result<ScopedDir> dir = OpenScopedDir(fs, Dirname(path));
  if (!dir.ok()) return out;
  const std::string base = Basename(path);
  for (const char* suffix : std::array{"", "-wal", "-shm", "-journal"}) {
    const std::string name = base + suffix;
    const Result<FileInfo> info = fs.StatAt(dir->get(), name);
    if (!info.ok() || info->exists) continue;
    if (name == base) out.database_is_new_ = true;
    out.new_names_.push_back(name);
  }
  // Siblings of a database that existed belong to it: never removed.
  if (!out.database_is_new_) out.new_names_.clear();
  return out;
}

std::vector<std::string> SqliteNewFiles::RemoveNew(FileSystem& fs) const {
  std::vector<std::string> removed;
  if (new_names_.empty()) return removed;
  Result<ScopedDir> dir = OpenScopedDir(fs, Dirname(path_));
  if (!dir.ok()) return removed;
  for (const std::string& name : new_names_) {
    const Result<FileInfo> info = fs.StatAt(dir->get(), name);
    if (!info.ok() || !info->exists || !info->is_regular) continue;
    if (fs.UnlinkAt(dir->get(), name).ok()) removed.push_back(name);
  }
  return removed;
}

}  // namespace loadcell
