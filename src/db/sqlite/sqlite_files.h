#pragma once
// The files of a SQLite database: the database file and the -wal, -shm and
// -journal files SQLite keeps beside it. A prepare that creates the database
// records, before the first connection opens it, which of them do not exist
// yet; after a failed or interrupted prepare (every connection closed) it
// removes exactly those, so nothing it made is left behind and nothing that
// was there before (a user's database and its journal) is touched.

#include <string>
#include <vector>

#include "os/file_system.h"

namespace loadcell {

class SqliteNewFiles {
 public:
  // The files of `path` that do not exist now. ":memory:", "file:" URIs and
  // a folder that cannot be opened record nothing (nothing will be removed).
  static SqliteNewFiles Before(FileSystem& fs, const std::string& path);

  // Whether the database file itself did not exist.
  bool database_is_new() const { return database_is_new_; }
  const std::string& path() const { return path_; }

  // Removes those of the recorded files that exist now, through the folder
  // without following links (a link, or anything but a regular file, is left
  // alone); the names removed (entries of the folder), the database file
  // first.
  std::vector<std::string> RemoveNew(FileSystem& fs) const;

 private:
  std::string path_;
  std::vector<std::string> new_names_;  // entries of the folder, the database file first
  bool database_is_new_ = false;
};

}  // namespace loadcell
