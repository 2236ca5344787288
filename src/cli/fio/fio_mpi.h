#pragma once
// `loadcell fio` under an MPI launcher (docs/mpi.md, "fio job files"): every
// rank runs every job, through the machinery the other tests use
// (cluster/cluster.h: the join that compares the ranks' plans, the common
// start, the exact merge of each rank's result), one cluster per group of
// jobs (runner/jobs.h: JobGroup::across). --mpi-files=per-rank (the
// default) puts each rank's files in the sub-folder rankN of each file's
// folder; --mpi-files=shared runs every rank on the same files, laid out
// by rank 0.

#include <string>
#include <vector>

#include "cli/fio/fio_plan.h"
#include "cluster/launch.h"
#include "core/status.h"
#include "fio/job_file.h"

namespace loadcell {

struct FioRanks {
  ClusterSettings settings;  // --mpi, --mpi-files, --mpi-timeout
  LaunchInfo launch;
  bool across = false;  // under a launcher, --mpi not off
  bool PerRank() const { return across && settings.files == MpiFiles::kPerRank; }
  bool Shared() const { return across && settings.files == MpiFiles::kShared; }
  // "rankN" with per-rank files, else "".
  std::string RankFolder() const;
};

// Takes --mpi (bare: on), --mpi-files and --mpi-timeout from the program
// options given and looks for a launcher. InvalidArgument naming the option
// for a bad value.
Result<FioRanks> ReadFioRanks(const std::vector<fio::FioRawOption>& given);

// What every rank must run alike (cluster/run_plan.h): --mpi-files and each
// job's options as the job files and command line gave them, named "job N
// (NAME) OPTION".
RunPlan FioRunPlan(const std::vector<fio::FioJobOptions>& jobs, const FioRanks& ranks);

// What is not run across ranks yet, in one line naming the job file's line
// (InvalidArgument): fio's logs (write_lat_log, write_bw_log,
// write_iops_log).
Status CheckFioAcrossRanks(const FioPlan& plan);

// Makes the rank folders (rankN) of the planned files that are missing;
// `made` gets each folder made, for RemoveFioRankFolders.
Status MakeFioRankFolders(const FioPlan& plan, const std::string& rank_folder,
                          std::vector<std::string>& made);
// Removes the folders of `made` that are empty (the files of unlink=1 jobs
// are gone; the others stay, and so do their folders).
void RemoveFioRankFolders(const std::vector<std::string>& made);

}  // namespace loadcell
