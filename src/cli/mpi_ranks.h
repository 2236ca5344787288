#pragma once
// The ranks of a front end's run across MPI processes (`loadcell fio`,
// `loadcell diskspd`): the --mpi, --mpi-files and --mpi-timeout settings,
// the launcher, and each rank's sub-folder (rankN) of its files under
// --mpi-files=per-rank. docs/mpi.md.

#include <string>
#include <vector>

#include "cluster/launch.h"
#include "core/status.h"

namespace loadcell {

struct MpiRanks {
  ClusterSettings settings;  // --mpi, --mpi-files, --mpi-timeout
  LaunchInfo launch;
  bool across = false;  // under a launcher, --mpi not off
  bool PerRank() const { return across && settings.files == MpiFiles::kPerRank; }
  bool Shared() const { return across && settings.files == MpiFiles::kShared; }
  // "rankN" with per-rank files, else "".
  std::string RankFolder() const;
};

// Takes one of --mpi (bare: on), --mpi-files and --mpi-timeout, `name`
// without its dashes, into `settings`: true when it was one of them, false
// for another option. InvalidArgument naming the option for a bad value.
Result<bool> TakeMpiOption(const std::string& name, bool has_value, const std::string& value,
                           ClusterSettings& settings);

// Looks for a launcher: fills `ranks.launch` and `ranks.across`.
void DetectMpiRanks(MpiRanks& ranks);

// `path` in the sub-folder `rank_folder` of its folder ("d/f" -> "d/rank1/f").
std::string PathInRankFolder(const std::string& path, const std::string& rank_folder);

// Makes the folders of `paths` that are missing; `made` gets each folder
// made here, for RemoveRankFolders. Only folders named `rank_folder` are made.
Status MakeRankFolders(const std::vector<std::string>& paths, const std::string& rank_folder,
                       std::vector<std::string>& made);
// Removes the folders of `made` that are empty (the files removed by the
// run are gone; the others stay, and so do their folders).
void RemoveRankFolders(const std::vector<std::string>& made);

}  // namespace loadcell
