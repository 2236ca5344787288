#include "cli/fio/fio_mpi.h"

#include <fmt/format.h>

#include <algorithm>

#include "cluster/merge.h"
#include "runner/merge_results.h"

namespace loadcell {

Result<FioRanks> ReadFioRanks(const std::vector<fio::FioRawOption>& given) {
  FioRanks r;
  for (const fio::FioRawOption& o : given) {
    LC_RETURN_IF_ERROR(TakeMpiOption(o.name, o.has_value, o.value, r.settings).status());
  }
  DetectMpiRanks(r);
  return r;
}

RunPlan FioRunPlan(const std::vector<fio::FioJobOptions>& jobs, const FioRanks& ranks) {
  RunPlan plan;
  plan.test = "fio";
  plan.command = "run";
  plan.limits.push_back(
      {"--mpi-files", ranks.settings.files == MpiFiles::kShared ? "shared" : "per-rank"});
  for (size_t j = 0; j < jobs.size(); ++j) {
    // A later value of an option overrides an earlier one (the globals
    // first), as the job runs it.
    std::vector<PlanItem> items;
    for (const fio::FioRawOption& o : jobs[j].options) {
      const std::string name = fmt::format("job {} ({}) {}", j + 1, jobs[j].section_name, o.name);
      auto same = std::find_if(items.begin(), items.end(),
                               [&](const PlanItem& i) { return i.name == name; });
      const std::string value = o.has_value ? o.value : "(bare)";
      if (same != items.end()) {
        same->value = value;
      } else {
        items.push_back({name, value});
      }
    }
    plan.options.insert(plan.options.end(), items.begin(), items.end());
  }
  return plan;
}

void AddFioGroupRanks(const std::vector<const RunResult*>& jobs, RunResult& group) {
  if (jobs.empty() || !jobs.front()->cluster) return;
  const ClusterFigures& first = *jobs.front()->cluster;
  const size_t n = first.ranks.size();
  for (const RunResult* j : jobs) {
    if (!j->cluster || j->cluster->ranks.size() != n || j->cluster->rank_results.size() != n) {
      return;
    }
  }
  std::vector<RankResult> ranks;
  for (size_t k = 0; k < n; ++k) {
    std::vector<const RunResult*> own;
    own.reserve(jobs.size());
    for (const RunResult* j : jobs) own.push_back(j->cluster->rank_results[k].get());
    Result<RunResult> merged = MergeResults(own, {}, RateTargets::kAdded);
    if (!merged.ok()) return;
    RankResult& r = ranks.emplace_back();
    r.rank = first.ranks[k];  // who: rank, host, clock offset
    r.result = std::move(merged).value();
  }
  Result<RunResult> all = MergeRankResults(group, std::move(ranks));
  if (!all.ok() || !all->cluster) return;
  group.cluster = std::move(all->cluster);
  group.cluster->missing_ranks = first.missing_ranks;
}

Status MakeFioRankFolders(const FioPlan& plan, const std::string& rank_folder,
                          std::vector<std::string>& made) {
  std::vector<std::string> paths;
  for (const auto& step : plan.steps) {
    for (const FioPlannedJob& j : step) {
      paths.insert(paths.end(), j.settings.files.begin(), j.settings.files.end());
    }
  }
  return MakeRankFolders(paths, rank_folder, made);
}

}  // namespace loadcell
