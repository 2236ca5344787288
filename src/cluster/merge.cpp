#include "cluster/merge.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "runner/merge_results.h"
#include "stats/summary.h"

namespace loadcell {
namespace {

Status CheckRanks(const std::vector<RankResult>& ranks) {
  if (ranks.empty()) return Status::InvalidArgument("no rank results to merge");
  for (size_t i = 1; i < ranks.size(); ++i) {
    if (ranks[i].rank.rank == ranks[i - 1].rank.rank) {
      return Status::InvalidArgument("rank " + std::to_string(ranks[i].rank.rank) +
                                     " sent its result twice");
    }
  }
  const std::vector<LatencyStats>& first = ranks.front().result.latency;
  for (const RankResult& r : ranks) {
    const std::vector<LatencyStats>& l = r.result.latency;
    bool same = l.size() == first.size();
    for (size_t k = 0; same && k < l.size(); ++k) same = l[k].kind == first[k].kind;
    if (!same) {
      return Status::InvalidArgument("rank " + std::to_string(r.rank.rank) +
                                     " measured other latency kinds than rank " +
                                     std::to_string(ranks.front().rank.rank));
    }
  }
  return Status::Ok();
}

RankFigures RankRow(const RankResult& r, int first_thread) {
  RankFigures row = r.rank;
  const RunResult& x = r.result;
  row.first_thread = first_thread;
  row.threads = static_cast<int>(x.threads.size());
  row.events = x.events;
  row.errors = x.errors;
  row.total_time_s = x.total_time_s;
  if (!x.latency.empty()) {
    const LatencyHistogram& h = x.latency[0].histogram;
    row.min_ns = h.Min();
    row.mean_ns = h.moments().Mean();
    row.p50_ns = h.Percentile(50);
    row.p95_ns = h.Percentile(95);
    row.p99_ns = h.Percentile(99);
    row.p999_ns = h.Percentile(99.9);
    row.max_ns = h.Max();
  }
  row.failure = x.failure.ok() ? std::string() : x.failure.ToString();
  return row;
}

}  // namespace

Result<RunResult> MergeRankResults(const RunResult& base, std::vector<RankResult> ranks) {
  std::sort(ranks.begin(), ranks.end(),
            [](const RankResult& a, const RankResult& b) { return a.rank.rank < b.rank.rank; });
  LC_RETURN_IF_ERROR(CheckRanks(ranks));
  RunResult out;
  out.manifest = base.manifest;
  out.counter_names = base.counter_names;
  out.intervals = base.intervals;
  out.latency = ranks.front().result.latency;
  for (LatencyStats& l : out.latency) l.histogram.Clear();
  ClusterFigures cluster;
  out.window_start_ns = ranks.front().result.window_start_ns;
  out.window_end_ns = ranks.front().result.window_end_ns;
  for (const RankResult& r : ranks) {
    const RunResult& x = r.result;
    cluster.ranks.push_back(RankRow(r, static_cast<int>(out.threads.size())));
    AddResultFigures(x, out, RateTargets::kShared);
    out.window_start_ns = std::min(out.window_start_ns, x.window_start_ns);
    out.window_end_ns = std::max(out.window_end_ns, x.window_end_ns);
    cluster.max_clock_offset_s =
        std::max(cluster.max_clock_offset_s, std::fabs(r.rank.clock_offset_s));
    cluster.max_round_trip_s = std::max(cluster.max_round_trip_s, r.round_trip_s);
    if (!x.failure.ok() && out.failure.ok()) {
      out.failure = Status(
          x.failure.code(),
          "rank " + std::to_string(r.rank.rank) + " (" + r.rank.host + "): " + x.failure.message(),
          x.failure.err());
    }
  }
  out.total_time_s = static_cast<double>(out.window_end_ns - out.window_start_ns) / 1e9;
  for (size_t k = 0; k < ranks.size(); ++k) {
    const RunResult& x = ranks[k].result;
    cluster.ranks[k].start_s = static_cast<double>(x.window_start_ns - out.window_start_ns) / 1e9;
    cluster.ranks[k].end_s = static_cast<double>(x.window_end_ns - out.window_start_ns) / 1e9;
  }
  out.manifest.threads = static_cast<int>(out.threads.size());
  out.cluster = std::move(cluster);
  if (out.rate) out.rate->achieved = Rate(static_cast<double>(out.events), out.total_time_s);
  FillDerivedFigures(out);
  return out;
}

Result<IntervalSnapshot> MergeIntervals(const std::vector<IntervalSnapshot>& parts) {
  if (parts.empty()) return Status::InvalidArgument("no rank intervals to merge");
  std::vector<const IntervalSnapshot*> views;
  for (const IntervalSnapshot& p : parts) {
    if (p.latency.size() != parts.front().latency.size()) {
      return Status::InvalidArgument("the ranks' intervals measured other latency kinds");
    }
    views.push_back(&p);
  }
  return MergeIntervalsByName(views);
}

}  // namespace loadcell
