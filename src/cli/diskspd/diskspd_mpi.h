#pragma once
// `loadcell diskspd` under an MPI launcher (docs/mpi.md, "DiskSpd"): every
// rank runs every timespan of the same command line or profile, each
// timespan's jobs a group across the ranks (runner/jobs.h:
// JobGroup::across), merged exactly on rank 0 (each job with the same job
// of every other rank), which prints one DiskSpd report whose rows are every
// rank's threads and targets, from each rank's own result of each job
// (ClusterFigures::rank_results). --mpi-files=per-rank (the default) puts
// each rank's targets in the sub-folder rankN of each target's folder;
// --mpi-files=shared runs every rank on the same targets, created by rank 0.

#include <string>
#include <vector>

#include "cli/diskspd/diskspd_plan.h"
#include "cli/mpi_ranks.h"
#include "cluster/run_plan.h"
#include "diskspd/diskspd_profile.h"
#include "report/diskspd/diskspd_report.h"
#include "runner/run_result.h"

namespace loadcell {

// Moves every file target of `profile` (not a block device) into the
// sub-folder `rank_folder` of its folder; nothing for "".
void MoveDiskspdTargets(diskspd::DiskspdProfile& profile, const std::string& rank_folder);

// What every rank must run alike (cluster/run_plan.h): the durations, the
// switches as given, the targets (as named on the command line) and
// --mpi-files.
RunPlan DiskspdRunPlan(const diskspd::DiskspdSwitches& sw, const MpiRanks& ranks);

// The folders rankN of the plans' file targets; `made` as MakeRankFolders.
Status MakeDiskspdRankFolders(const std::vector<DiskspdPlan>& plans, const std::string& rank_folder,
                              std::vector<std::string>& made);

// How rank 0 lays out the merged report: the threads of one rank (its
// thread k is DiskSpd's thread rank x threads + k), its targets, and
// whether each rank has targets of its own (per-rank files).
struct DiskspdRankLayout {
  int threads = 0;
  size_t targets = 0;
  bool per_rank = false;
};

// The rows of one job merged across ranks (`merged`, with its
// cluster->rank_results): one per rank, from that rank's own result, its
// thread and target numbered and named as `layout` says. Empty when the
// result holds no rank's own result.
std::vector<DiskspdRow> DiskspdRankRows(const RunResult& merged, const DiskspdJob& job,
                                        const DiskspdTarget& target,
                                        const DiskspdRankLayout& layout);

// The report's targets and thread count for every rank of `ranks` (the
// merged result's rows of ranks): per-rank, each rank's own copy of every
// target, rank after rank; shared, the targets once.
void SpreadDiskspdTargets(const std::vector<RankFigures>& ranks, const DiskspdRankLayout& layout,
                          DiskspdReport& report);

}  // namespace loadcell
