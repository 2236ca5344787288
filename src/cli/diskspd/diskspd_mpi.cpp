#include "cli/diskspd/diskspd_mpi.h"

#include <fmt/format.h>

#include "os/block_device.h"
#include "os/file_system.h"

namespace loadcell {
namespace {

// Rank 0's target `path` as rank `rank` has it: in the folder rankR beside
// rank0; a path not in rank0 (a device, shared files) is every rank's.
std::string PathOfRank(const std::string& path, int rank) {
  const std::string folder = Dirname(path);
  if (Basename(folder) != "rank0") return path;
  return PathInRankFolder(JoinPath(Dirname(folder), Basename(path)), fmt::format("rank{}", rank));
}

}  // namespace

void MoveDiskspdTargets(diskspd::DiskspdProfile& profile, const std::string& rank_folder) {
  if (rank_folder.empty()) return;
  const auto move = [&rank_folder](std::vector<std::string>& targets) {
    for (std::string& t : targets) {
      // A device, or a drive (#N, E:), is every rank's own as it is.
      const Result<std::string> drive = diskspd::DiskspdDriveTarget(t);
      if (!IsBlockDevice(t) && drive.ok() && drive->empty()) t = PathInRankFolder(t, rank_folder);
    }
  };
  for (diskspd::DiskspdTimespan& ts : profile.timespans) {
    move(ts.sw.targets);
    for (diskspd::DiskspdSwitches& target : ts.per_target) move(target.targets);
  }
}

RunPlan DiskspdRunPlan(const diskspd::DiskspdSwitches& sw, const MpiRanks& ranks) {
  RunPlan plan;
  plan.test = "diskspd";
  plan.command = "run";
  plan.limits = {{"-d", fmt::format("{}", sw.duration_s)},
                 {"-W", fmt::format("{}", sw.warmup_s)},
                 {"-C", fmt::format("{}", sw.cooldown_s)},
                 {"--mpi-files", ranks.Shared() ? "shared" : "per-rank"}};
  for (size_t i = 0; i < sw.given.size(); ++i) {
    plan.options.push_back({fmt::format("switch {}", i + 1), sw.given[i]});
  }
  for (size_t i = 0; i < sw.targets.size(); ++i) {
    plan.options.push_back({fmt::format("target {}", i + 1), sw.targets[i]});
  }
  return plan;
}

Status MakeDiskspdRankFolders(const std::vector<DiskspdPlan>& plans, const std::string& rank_folder,
                              std::vector<std::string>& made) {
  std::vector<std::string> paths;
  for (const DiskspdPlan& plan : plans) {
    for (const DiskspdTarget& t : plan.targets) {
      if (!t.device) paths.push_back(t.path);
    }
  }
  return MakeRankFolders(paths, rank_folder, made);
}

std::vector<DiskspdRow> DiskspdRankRows(const RunResult& merged, const DiskspdJob& job,
                                        const DiskspdTarget& target,
                                        const DiskspdRankLayout& layout) {
  std::vector<DiskspdRow> rows;
  if (!merged.cluster) return rows;
  const ClusterFigures& c = *merged.cluster;
  for (size_t k = 0; k < c.rank_results.size() && k < c.ranks.size(); ++k) {
    const int rank = c.ranks[k].rank;
    const size_t at = layout.per_rank ? static_cast<size_t>(rank) * layout.targets : 0;
    rows.push_back(
        DiskspdRowOf(*c.rank_results[k], rank * layout.threads + job.thread, at + job.target,
                     layout.per_rank ? PathOfRank(target.path, rank) : target.path, target.size));
  }
  return rows;
}

void SpreadDiskspdTargets(const std::vector<RankFigures>& ranks, const DiskspdRankLayout& layout,
                          DiskspdReport& report) {
  report.thread_count = layout.threads * static_cast<int>(ranks.size());
  report.ranks = static_cast<int>(ranks.size());
  report.mpi_files = layout.per_rank ? "per-rank" : "shared";
  if (!layout.per_rank) return;
  const std::vector<DiskspdReportTarget> own = report.targets;
  report.targets.clear();
  for (const RankFigures& r : ranks) {
    for (DiskspdReportTarget t : own) {
      t.path = PathOfRank(t.path, r.rank);
      report.targets.push_back(std::move(t));
    }
  }
}

}  // namespace loadcell
