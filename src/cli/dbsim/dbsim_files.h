#pragma once
// The files of a dbsim run: every file of the configuration checked to be
// loadcell's (the folder's manifest, workloads/sqlio/sqlio_manifest.h)
// before anything is written, made whole with its pages stamped at key 0
// (or as holes: a sparse file, the null engine's), opened into the
// simulated database, listed again at a new size, and removed.

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "cli/dbsim/dbsim_args.h"
#include "core/status.h"
#include "dbsim/dbsim_config.h"
#include "dbsim/null_file_system.h"
#include "os/file_system.h"
#include "workloads/dbsim/dbsim_database.h"

namespace loadcell {

inline constexpr uint64_t kDbsimMiB = uint64_t{1} << 20;

// Every file of the configuration: an existing one must be loadcell's
// (the folder's manifest says so) unless --allow-destructive.
Status CheckDbsimFiles(const DbsimArgs& a, const DbsimConfig& config);

// Removes `name` of `dir` if it is there (the file seen, not a name swapped
// in meanwhile).
Status RemoveDbsimFile(FileSystem& fs, const std::string& dir, const std::string& name);

// Records `name` of `dir` in the folder's manifest again with its size now
// (a sparse file made whole by extending it, a file the shrink user
// resized), so the next run knows it as loadcell's.
Status RecordDbsimFileSize(FileSystem& fs, const std::string& dir, const std::string& name);

// Creates every file, fully written: the data files' pages stamped at key 0
// (with StampFiles, the file zeroed first and the pages stamped once it is
// open), a sparse file left as holes. With DeleteFilesAtStartup=FALSE a
// file of the last run is written so in place rather than made again.
// Progress on `err` where enabled.
Status CreateDbsimFiles(const DbsimArgs& a, const DbsimConfig& config, uint64_t seed,
                        std::ostream& err);

// The open files of a run, closed at the end.
struct DbsimOpenFiles {
  FileSystem* fs = nullptr;
  std::vector<int> fds;
  int first_data_fd = -1;
  ~DbsimOpenFiles() {
    for (int fd : fds) (void)fs->Close(fd);
  }
};

// Opens every file into `db`: the data files with their page settings and
// resize rule, the log, InnoDB's doublewrite area; the throttle set.
// `null`: the null engine's file system (--engine=null), which holds each
// data file's pages in memory; else null. `log_name`: the log's name.
Status OpenDbsimDatabase(const DbsimArgs& a, const DbsimConfig& config, uint64_t seed,
                         DbsimOpenFiles& open, DbsimDatabase& db, std::string& log_name,
                         DbNullFileSystem* null);

}  // namespace loadcell
