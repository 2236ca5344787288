#pragma once
// fio jobs (fio/fio_job_spec.h) turned into the jobs core's jobs: each job
// instance's files, sizes and pattern resolved (workloads/fio/fio_job.h) and
// its run settings (runner/run_config.h). What loadcell cannot do yet is
// refused here, naming the job file and line that asked for it: never
// silently ignored.

#include <string>
#include <utility>
#include <vector>

#include "core/status.h"
#include "fio/fio_job_spec.h"
#include "os/file_system.h"
#include "runner/run_config.h"
#include "workloads/fileio/fileio_lock.h"
#include "workloads/fio/fio_job.h"

namespace loadcell {

struct FioPlannedJob {
  fio::FioJobInstance instance;
  const fio::FioJobSpec* spec = nullptr;  // into the specs given
  FioJobSettings settings;
  RunConfig cfg;
  // Its log files (write_*_log): cli/fio/fio_logs.h.
  std::vector<std::pair<FioLogKind, std::string>> logs;
};

struct FioPlan {
  // The steps, in order; the jobs of a step run together.
  std::vector<std::vector<FioPlannedJob>> steps;
};

// The folder locks a run holds: the lock SQLIO's, DiskSpd's and fio's files
// share (workloads/sqlio/sqlio_manifest.h, LockSqlioFolder), one per folder;
// and the rank folders made to be locked (a rank's rankN, missing on its
// first run), removed when empty once the locks are let go.
struct FioFolderLocks {
  FioFolderLocks() = default;
  FioFolderLocks(const FioFolderLocks&) = delete;
  FioFolderLocks& operator=(const FioFolderLocks&) = delete;
  ~FioFolderLocks() { Release(); }
  // Lets go of every lock (their lock files removed), then removes the
  // folders of `made` that are empty. Idempotent.
  void Release();

  std::vector<std::string> folders;  // each locked folder, as the plan names it
  std::vector<FolderLock> locks;
  std::vector<std::string> made;  // the rank folders made here, in order
};

// What the command line allows beyond the job files.
struct FioPlanOptions {
  // --allow-destructive: a job may write to a device that holds a file
  // system or partition table, and to an existing file loadcell did not lay
  // out (cli/fio/fio_device_guard.h).
  bool allow_destructive = false;
  // fio's --readonly: a job that writes or trims is refused, and so is one
  // that would make or extend a file (cli/fio/fio_device_guard.h).
  bool readonly = false;
  // Under MPI with --mpi-files=per-rank: every file but a device is in the
  // sub-folder of this name ("rank1") of the folder the job names.
  std::string rank_folder;
  // Under MPI: appended to each of the rank's log files' names (".rank1"),
  // as fio's client appends a server's host name to the logs it receives.
  std::string log_suffix;
  // When set, each job's planning takes the lock of every folder where it
  // would lay out, create, write or trim a file (cli/fio/fio_device_guard.h,
  // LockFioJobFolders; a missing rank folder is made to be locked) before it
  // checks those files, and the run holds the locks until `locks` goes;
  // null: none taken (--parse-only, and the ranks of a run across MPI ranks
  // on shared files but rank 0).
  FioFolderLocks* locks = nullptr;
};

// Plans `steps` of `specs` (which must outlive the plan). `fs` is asked for
// the sizes of files that exist (size=, offset= as a fraction; a job with
// filename= and no size). InvalidArgument (exit 2), one line naming the
// file and line, for what cannot run.
Result<FioPlan> PlanFioJobs(const std::vector<fio::FioJobSpec>& specs,
                            const std::vector<fio::FioRunStep>& steps, FileSystem& fs,
                            const FioPlanOptions& options = {});

// "FILE:LINE: " for where `spec` was given `option` (its section's origin
// when it was not given), for an error line.
std::string FioWhere(const fio::FioJobSpec& spec, const std::string& option);

}  // namespace loadcell
