#include "cluster/stonewall.h"

#include <algorithm>

namespace loadcell {

std::optional<StonewallFigures> ComputeStonewall(const std::vector<RankResult>& ranks) {
  const RankResult* first = nullptr;
  int64_t start = 0;
  for (const RankResult& r : ranks) {
    const RunResult& x = r.result;
    if (&r == &ranks.front() || x.window_start_ns < start) start = x.window_start_ns;
    if (r.stopped_by_cluster || !x.failure.ok() || x.interrupted) continue;
    if (first == nullptr || x.window_end_ns < first->result.window_end_ns) first = &r;
  }
  if (first == nullptr) return std::nullopt;
  const int64_t wall = first->result.window_end_ns;
  StonewallFigures sw;
  sw.first_rank = first->rank.rank;
  sw.at_s = static_cast<double>(std::max<int64_t>(0, wall - start)) / 1e9;
  for (const RankResult& r : ranks) {
    const RunResult& x = r.result;
    const auto events = static_cast<double>(x.events);
    if (x.window_end_ns <= wall) {
      sw.events += events;
    } else if (wall > x.window_start_ns) {
      sw.events += events * static_cast<double>(wall - x.window_start_ns) /
                   static_cast<double>(x.window_end_ns - x.window_start_ns);
    }
  }
  sw.events_per_second = sw.at_s > 0 ? sw.events / sw.at_s : 0;
  return sw;
}

}  // namespace loadcell
