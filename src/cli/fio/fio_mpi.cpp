#include "cli/fio/fio_mpi.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

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

namespace {

// Puts `out`'s threads (the threads of `jobs`, job after job, each job's in
// rank order) in rank order, as the rows' first_thread count them: every
// job's threads of rank 0, then every job's of rank 1, ... Leaves them as
// they are when they are not those threads.
void PutThreadsInRankOrder(const std::vector<const RunResult*>& jobs, RunResult& out) {
  size_t total = 0;
  for (const RunResult* j : jobs) total += j->threads.size();
  if (total != out.threads.size()) return;
  std::vector<size_t> order;  // new position -> old position
  order.reserve(total);
  for (size_t k = 0; k < jobs.front()->cluster->ranks.size(); ++k) {
    size_t base = 0;  // the job's first thread in `out`
    for (const RunResult* j : jobs) {
      const RankFigures& row = j->cluster->ranks[k];
      for (int t = 0; t < row.threads; ++t) order.push_back(base + row.first_thread + t);
      base += j->threads.size();
    }
  }
  std::vector<int> moved_to(total, -1);
  for (size_t at = 0; at < order.size(); ++at) {
    if (order[at] >= total || moved_to[order[at]] >= 0) return;  // not a permutation
    moved_to[order[at]] = static_cast<int>(at);
  }
  if (order.size() != total) return;
  std::vector<ThreadFigures> threads;
  threads.reserve(total);
  for (size_t from : order) threads.push_back(out.threads[from]);
  out.threads = std::move(threads);
  for (int& t : out.abandoned_threads) {
    if (t >= 0 && static_cast<size_t>(t) < total) t = moved_to[static_cast<size_t>(t)];
  }
}

}  // namespace

void AddFioRanks(const std::vector<const RunResult*>& jobs, RunResult& merged) {
  if (jobs.empty() || !jobs.front()->cluster) return;
  const ClusterFigures& first = *jobs.front()->cluster;
  const size_t n = first.ranks.size();
  for (const RunResult* j : jobs) {
    if (!j->cluster || j->cluster->ranks.size() != n || j->cluster->rank_results.size() != n) {
      return;
    }
    for (size_t k = 0; k < n; ++k) {
      if (j->cluster->ranks[k].rank != first.ranks[k].rank) return;
    }
  }
  std::vector<RankResult> ranks;
  for (size_t k = 0; k < n; ++k) {
    std::vector<const RunResult*> own;
    own.reserve(jobs.size());
    for (const RunResult* j : jobs) own.push_back(j->cluster->rank_results[k].get());
    Result<RunResult> rank_merged = MergeResults(own, {}, RateTargets::kAdded);
    if (!rank_merged.ok()) return;
    RankResult& r = ranks.emplace_back();
    r.rank = first.ranks[k];  // who: rank, host, clock offset (at the first job's start)
    r.result = std::move(rank_merged).value();
  }
  Result<RunResult> all = MergeRankResults(merged, std::move(ranks));
  if (!all.ok() || !all->cluster) return;
  merged.cluster = std::move(all->cluster);
  merged.cluster->missing_ranks = first.missing_ranks;
  // The jobs of several groups joined the ranks once per group: the
  // largest offset and round trip of every join.
  for (const RunResult* j : jobs) {
    merged.cluster->max_clock_offset_s =
        std::max(merged.cluster->max_clock_offset_s, j->cluster->max_clock_offset_s);
    merged.cluster->max_round_trip_s =
        std::max(merged.cluster->max_round_trip_s, j->cluster->max_round_trip_s);
  }
  PutThreadsInRankOrder(jobs, merged);
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
