#include "cluster/stonewall.h"

#include <gtest/gtest.h>

#include "unit/cluster/rank_fixture.h"

namespace loadcell {
namespace {

constexpr int64_t kSecond = 1'000'000'000;

// Rank `rank` that ran `events` events from start to end (seconds on rank
// 0's clock); `stopped`: told to stop by rank 0.
RankResult Ran(int rank, uint64_t events, double start_s, double end_s, bool stopped) {
  RankResult r = testing::MakeRank(rank, {1000}, 1, static_cast<int64_t>(start_s * kSecond),
                                   static_cast<int64_t>(end_s * kSecond));
  r.result.events = events;
  r.stopped_by_cluster = stopped;
  return r;
}

// Three ranks of different speeds, each with a budget of 1000 events from
// a common start at 1 s: rank 1 (1000/s) is done at 2 s; rank 0 (500/s) and
// rank 2 (250/s) hear of it 0.1 s later, so they ran to 2.1 s.
TEST(Stonewall, CountsEveryRanksEventsUpToTheFirstEnd) {
  const std::vector<RankResult> ranks = {Ran(0, 550, 1.0, 2.1, true), Ran(1, 1000, 1.0, 2.0, false),
                                         Ran(2, 275, 1.0, 2.1, true)};
  const std::optional<StonewallFigures> sw = ComputeStonewall(ranks);
  ASSERT_TRUE(sw.has_value());
  EXPECT_EQ(sw->first_rank, 1);
  EXPECT_DOUBLE_EQ(sw->at_s, 1.0);
  // 1000 (all of rank 1's) + 550 * 1.0/1.1 + 275 * 1.0/1.1 = 1000 + 500 + 250.
  EXPECT_NEAR(sw->events, 1750.0, 1e-9);
  EXPECT_NEAR(sw->events_per_second, 1750.0, 1e-9);
}

TEST(Stonewall, TheEarliestRankToEndOnItsOwnIsTheFirst) {
  // Rank 2 started later (on rank 0's clock) and ended first on its own;
  // rank 0 also ended on its own, later; rank 1 was stopped and ended before
  // either (it is not the one whose end counts).
  const std::vector<RankResult> ranks = {Ran(0, 800, 0.0, 4.0, false), Ran(1, 100, 0.5, 2.5, true),
                                         Ran(2, 800, 1.0, 3.0, false)};
  const std::optional<StonewallFigures> sw = ComputeStonewall(ranks);
  ASSERT_TRUE(sw.has_value());
  EXPECT_EQ(sw->first_rank, 2);
  EXPECT_DOUBLE_EQ(sw->at_s, 3.0);  // from the global start, 0 s
  // rank 0: 800 * 3/4; rank 1: all 100 (ended at 2.5 s); rank 2: all 800.
  EXPECT_NEAR(sw->events, 600.0 + 100.0 + 800.0, 1e-9);
  EXPECT_NEAR(sw->events_per_second, 1500.0 / 3.0, 1e-9);
}

TEST(Stonewall, NoneWhenEveryRankWasStoppedOrFailed) {
  std::vector<RankResult> ranks = {Ran(0, 10, 0, 1, true), Ran(1, 10, 0, 1, false)};
  ranks[1].result.failure = Status::IoError("gone");
  EXPECT_FALSE(ComputeStonewall(ranks).has_value());
  ranks[1].result.failure = Status::Ok();
  ranks[1].result.interrupted = true;
  EXPECT_FALSE(ComputeStonewall(ranks).has_value());
}

}  // namespace
}  // namespace loadcell
