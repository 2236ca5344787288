#pragma once
// Whether a folder can take the files a command is about to make, checked
// before anything is written: the one place that words ENOSPC, EROFS,
// EACCES and a missing folder for users.

#include <string>
#include <string_view>

#include "core/status.h"
#include "os/file_system.h"

namespace loadcell {

// An errno that stops file creation, in words: "no space left on the
// device", "the file system is read-only", "permission denied (loadcell runs
// as user NAME)", "the folder does not exist", "a part of the path is not a
// folder"; strerror's text for others.
std::string FileErrnoInWords(int err);

// Makes and removes an empty probe file in `dir` (".loadcell-probe-PID",
// created exclusively; one that exists is left alone and taken as a yes).
// FailedPrecondition "WHAT: cannot create files in DIR: WORDS" when the
// folder cannot take a file: missing, not a folder, read-only, no
// permission (also as root: an actual file is made), no inode left. A
// failure to remove the probe is reported the same way. No space left for
// data shows only once data is written: a failure of the run, not of setup.
Status CheckFolderTakesFiles(FileSystem& fs, const std::string& dir, std::string_view what);

}  // namespace loadcell
