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
#include "cli/mpi_ranks.h"
#include "cluster/launch.h"
#include "core/status.h"
#include "fio/job_file.h"

namespace loadcell {

// The ranks of the run (cli/mpi_ranks.h).
using FioRanks = MpiRanks;

// Takes --mpi (bare: on), --mpi-files and --mpi-timeout from the program
// options given and looks for a launcher. InvalidArgument naming the option
// for a bad value.
Result<FioRanks> ReadFioRanks(const std::vector<fio::FioRawOption>& given);

// What every rank must run alike (cluster/run_plan.h): --mpi-files and each
// job's options as the job files and command line gave them, named "job N
// (NAME) OPTION".
RunPlan FioRunPlan(const std::vector<fio::FioJobOptions>& jobs, const FioRanks& ranks);

// Under MPI, the rows per rank of a merge of several jobs (`jobs`, each
// merged across the ranks, with its ClusterFigures::rank_results) into
// `merged`: a group_reporting job, a group or the whole run. Each rank's
// own results of the jobs merged as one, the rows every job has
// (cluster/merge.h), into `merged.cluster`, and `merged`'s threads put in
// rank order (every job's threads of rank 0 first) as the rows count
// them; `merged`'s own figures are left as they are. Nothing for jobs
// without each rank's own results, or whose ranks differ.
void AddFioRanks(const std::vector<const RunResult*>& jobs, RunResult& merged);

// Makes the rank folders (rankN) of the planned files that are missing;
// `made` gets each folder made, for RemoveRankFolders (cli/mpi_ranks.h).
Status MakeFioRankFolders(const FioPlan& plan, const std::string& rank_folder,
                          std::vector<std::string>& made);

}  // namespace loadcell
