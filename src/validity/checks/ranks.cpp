// ranks (docs/validity.md): the ranks of an MPI run that did not run
// together. A start spread means some ranks ran while others had not begun;
// a tail (ranks ending apart, as under --events, where each rank ends when
// its own share is done) means fewer ranks ran at the end: the total rate
// then mixes the phases of all ranks and of fewer. Its evidence also says
// where the verdict's host facts came from (rank 0's host alone).

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <string>
#include <vector>

#include "validity/check.h"
#include "validity/thresholds.h"

namespace loadcell::validity {

namespace {

// How to keep the ranks ending together, in the front end's words: a run
// limited by time rather than by work, or the first rank done stopping
// them all.
std::string TailAdvice(const IoOptionNames& names) {
  std::vector<std::string> ways;
  if (!names.work_limit.empty()) {
    ways.push_back(
        fmt::format("limit the run by {} rather than {}", names.time_limit, names.work_limit));
  }
  if (!names.stonewall.empty()) {
    ways.push_back("add " + names.stonewall + " to stop every rank when the first one is done");
  }
  if (ways.empty()) {
    return fmt::format(
        "look for a rank whose host was busy or slow to stop (each rank's {} is the same)",
        names.time_limit);
  }
  return ways.size() == 1 ? ways[0] : ways[0] + ", or " + ways[1];
}

// Where the verdict's host facts come from: the verdict is made on rank 0,
// with its own host's memory, CPUs and devices; the other ranks' hosts are
// not read. `hosts`: how many distinct hosts the ranks ran on.
std::string HostFactsNote(const std::vector<RankFigures>& ranks, size_t* hosts) {
  std::string own;
  for (const RankFigures& f : ranks) {
    if (f.rank == 0) own = f.host;
  }
  std::vector<std::string> others;
  for (const RankFigures& f : ranks) {
    if (f.host != own && std::find(others.begin(), others.end(), f.host) == others.end()) {
      others.push_back(f.host);
    }
  }
  *hosts = others.size() + 1;
  const std::string from =
      "host facts from rank 0's host" + (own.empty() ? std::string() : " (" + own + ")");
  if (others.empty()) return from + ", where every rank ran";
  const bool one = others.size() == 1;
  return fmt::format("{} only; the other ranks' {} ({}) {} not read", from, one ? "host" : "hosts",
                     fmt::join(others, ", "), one ? "was" : "were");
}

}  // namespace

std::optional<CheckOutcome> CheckRanks(const CheckInput& in) {
  constexpr const char* kId = "ranks";
  const RunResult& r = in.result;
  if (!r.cluster || r.cluster->ranks.size() < 2 || r.total_time_s <= 0) return std::nullopt;
  const std::vector<RankFigures>& ranks = r.cluster->ranks;
  auto by_start = [](const RankFigures& a, const RankFigures& b) { return a.start_s < b.start_s; };
  auto by_end = [](const RankFigures& a, const RankFigures& b) { return a.end_s < b.end_s; };
  const auto [first_start, last_start] = std::minmax_element(ranks.begin(), ranks.end(), by_start);
  const auto [first_end, last_end] = std::minmax_element(ranks.begin(), ranks.end(), by_end);
  const double spread = last_start->start_s - first_start->start_s;
  const double tail = last_end->end_s - first_end->end_s;
  std::vector<CheckFigure> figures = {{"ranks", static_cast<double>(ranks.size())},
                                      {"start_spread_s", spread},
                                      {"tail_s", tail},
                                      {"total_time_s", r.total_time_s}};
  size_t hosts = 0;
  const std::string note = HostFactsNote(ranks, &hosts);
  figures.push_back({"hosts", static_cast<double>(hosts)});
  const double span = r.total_time_s;
  if (spread > kRankSpreadFloorS && spread > kRankStartSpreadFraction * span) {
    return Found(
        kId, CheckLevel::kWarn,
        fmt::format("rank {} started {:.3f} s after rank {} ({:.1f}% of the {:.2f} s "
                    "run): some ranks ran while others had not begun; {}",
                    last_start->rank, spread, first_start->rank, spread / span * 100, span, note),
        "look for a rank whose host was busy or slow to start (a longer --mpi-timeout "
        "does not help: the start is common)",
        std::move(figures));
  }
  if (tail > kRankSpreadFloorS && tail > kRankTailFraction * span) {
    return Found(kId, CheckLevel::kWarn,
                 fmt::format("rank {} ended {:.3f} s after rank {} ({:.1f}% of the {:.2f} s run): "
                             "for that tail fewer ranks ran, and the total rate mixes both "
                             "phases; {}",
                             last_end->rank, tail, first_end->rank, tail / span * 100, span, note),
                 TailAdvice(in.workload.option_names), std::move(figures));
  }
  // Passed, with where its host facts came from stated all the same.
  CheckOutcome passed = Passed(kId, std::move(figures));
  passed.seen = note;
  return passed;
}

}  // namespace loadcell::validity
