#include "cluster/merge.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "testing/status.h"
#include "unit/cluster/rank_fixture.h"

namespace loadcell {
namespace {

using testing::MakeRank;

constexpr uint64_t kStallNs = 1'000'000'000;  // one event that took 1 s

// Latencies around `median_ns`, log-normally spread, reproducibly.
std::vector<uint64_t> Samples(uint64_t seed, size_t n, double median_ns) {
  std::mt19937_64 gen(seed);
  std::lognormal_distribution<double> dist(std::log(median_ns), 0.8);
  std::vector<uint64_t> out;
  for (size_t i = 0; i < n; ++i) out.push_back(static_cast<uint64_t>(dist(gen)) + 1);
  return out;
}

// Four ranks of different speeds and sizes; rank 2 stalled once for 1 s.
struct FourRanks {
  std::vector<std::vector<uint64_t>> samples = {Samples(1, 5000, 20'000), Samples(2, 3000, 80'000),
                                                Samples(3, 4000, 50'000),
                                                Samples(4, 1000, 2'000'000)};
  FourRanks() { samples[2].push_back(kStallNs); }
  std::vector<RankResult> Ranks() const {
    std::vector<RankResult> out;
    // Windows of different lengths and starts, on rank 0's clock; given out
    // of rank order (the merge sorts).
    const int64_t starts[] = {1000, 900, 1200, 1100};
    const int64_t ends[] = {2'000'001'000, 2'100'000'000, 3'000'000'000, 1'900'000'000};
    for (int r : {3, 1, 0, 2}) {
      out.push_back(MakeRank(r, samples[r], r + 1, starts[r], ends[r], /*errors=*/r));
    }
    return out;
  }
  std::vector<uint64_t> All() const {
    std::vector<uint64_t> all;
    for (const auto& s : samples) all.insert(all.end(), s.begin(), s.end());
    std::sort(all.begin(), all.end());
    return all;
  }
};

RunResult Base() {
  RunResult base;
  base.manifest.test = "cpu";
  base.manifest.threads = 1;
  base.counter_names = {"bytes"};
  return base;
}

// The exact percentile of sorted `all`: the smallest sample with at least
// p% of the samples at or below it.
uint64_t ExactPercentile(const std::vector<uint64_t>& all, double p) {
  const auto rank = static_cast<size_t>(std::ceil(p / 100.0 * static_cast<double>(all.size())));
  return all[std::clamp<size_t>(rank, 1, all.size()) - 1];
}

TEST(MergeRankResults, PercentilesMatchAnExactSortOfAllRanksSamples) {
  const FourRanks f;
  Result<RunResult> got = MergeRankResults(Base(), f.Ranks());
  ASSERT_OK(got);
  const RunResult& merged = *got;
  const std::vector<uint64_t> all = f.All();
  LatencyHistogram one;  // every sample recorded by one histogram
  for (uint64_t v : all) one.Record(v);
  const LatencyHistogram& h = merged.latency[0].histogram;
  ASSERT_EQ(h.Count(), all.size());
  EXPECT_EQ(h.Min(), all.front());
  EXPECT_EQ(h.Max(), kStallNs);
  EXPECT_EQ(h.buckets(), one.buckets());
  for (double p : {1.0, 25.0, 50.0, 90.0, 95.0, 99.0, 99.9, 99.99, 100.0}) {
    const auto exact = static_cast<double>(ExactPercentile(all, p));
    EXPECT_EQ(h.Percentile(p), one.Percentile(p)) << "p" << p;
    // The histogram's bound (stats/histogram.h): within 1/256 of the exact.
    EXPECT_NEAR(static_cast<double>(h.Percentile(p)), exact, exact / 256) << "p" << p;
  }
  EXPECT_EQ(h.Percentile(100), kStallNs);
}

TEST(MergeRankResults, MeanAndStddevAreThoseOfAllSamples) {
  const FourRanks f;
  Result<RunResult> got = MergeRankResults(Base(), f.Ranks());
  ASSERT_OK(got);
  const RunResult& merged = *got;
  const std::vector<uint64_t> all = f.All();
  double sum = 0;
  for (uint64_t v : all) sum += static_cast<double>(v);
  const double mean = sum / static_cast<double>(all.size());
  double sq = 0;
  for (uint64_t v : all) sq += (static_cast<double>(v) - mean) * (static_cast<double>(v) - mean);
  const double stddev = std::sqrt(sq / static_cast<double>(all.size()));
  const Moments& m = merged.latency[0].histogram.moments();
  EXPECT_NEAR(m.Mean(), mean, mean * 1e-12);
  EXPECT_NEAR(m.StdDev(), stddev, stddev * 1e-9);
}

TEST(MergeRankResults, SumsCountsOverTheGlobalWindowAndKeepsEachRank) {
  const FourRanks f;
  Result<RunResult> got = MergeRankResults(Base(), f.Ranks());
  ASSERT_OK(got);
  const RunResult& merged = *got;
  const uint64_t events = f.All().size();
  EXPECT_EQ(merged.events, events);
  EXPECT_EQ(merged.errors, 0u + 1 + 2 + 3);
  EXPECT_EQ(merged.counters, std::vector<uint64_t>{10 * events});
  // Earliest start (rank 1: 900) to latest end (rank 2: 3 s).
  EXPECT_EQ(merged.window_start_ns, 900);
  EXPECT_EQ(merged.window_end_ns, 3'000'000'000);
  EXPECT_DOUBLE_EQ(merged.total_time_s, (3'000'000'000 - 900) / 1e9);
  EXPECT_DOUBLE_EQ(merged.events_per_second, static_cast<double>(events) / merged.total_time_s);
  EXPECT_EQ(merged.manifest.threads, 1 + 2 + 3 + 4);
  ASSERT_EQ(merged.threads.size(), 10u);
  ASSERT_TRUE(merged.cluster.has_value());
  const std::vector<RankFigures>& ranks = merged.cluster->ranks;
  ASSERT_EQ(ranks.size(), 4u);
  uint64_t thread_events = 0;
  for (int r = 0; r < 4; ++r) {
    const RankFigures& k = ranks[r];
    EXPECT_EQ(k.rank, r);
    EXPECT_EQ(k.host, "host" + std::to_string(r / 2));
    EXPECT_EQ(k.threads, r + 1);
    EXPECT_EQ(k.first_thread, r * (r + 1) / 2);
    EXPECT_EQ(k.events, f.samples[r].size());
    EXPECT_EQ(k.errors, static_cast<uint64_t>(r));
    // Its own rate, over its own window.
    EXPECT_DOUBLE_EQ(k.events_per_second, static_cast<double>(k.events) / k.total_time_s);
    LatencyHistogram own;
    for (uint64_t v : f.samples[r]) own.Record(v);
    EXPECT_EQ(k.p95_ns, own.Percentile(95));
    for (int t = 0; t < k.threads; ++t) thread_events += merged.threads[k.first_thread + t].events;
  }
  EXPECT_EQ(thread_events, events);
  EXPECT_DOUBLE_EQ(merged.cluster->max_clock_offset_s, 3e-6);
  EXPECT_DOUBLE_EQ(merged.cluster->max_round_trip_s, 6e-6);
  EXPECT_DOUBLE_EQ(merged.cluster->events_fairness.mean, static_cast<double>(events) / 4);
  EXPECT_GT(merged.cluster->events_fairness.stddev, 0);
}

// Each rank ran its share of one global --rate: the merged target is that
// rate, achieved is every event over the global window, late events add up
// and the lags are the worst rank's.
TEST(MergeRankResults, RateFiguresAreThoseOfTheOneGlobalSchedule) {
  const FourRanks f;
  std::vector<RankResult> ranks = f.Ranks();
  for (RankResult& r : ranks) {
    const int k = r.rank.rank;
    r.result.rate = RateFigures{1000, 250, static_cast<uint64_t>(k), 1.0 + k, 4.0 - k};
  }
  Result<RunResult> got = MergeRankResults(Base(), ranks);
  ASSERT_OK(got);
  ASSERT_TRUE(got->rate.has_value());
  const RateFigures& rf = *got->rate;
  EXPECT_EQ(rf.target, 1000);
  EXPECT_DOUBLE_EQ(rf.achieved, static_cast<double>(f.All().size()) / got->total_time_s);
  EXPECT_EQ(rf.late_events, 0u + 1 + 2 + 3);
  EXPECT_EQ(rf.max_lag_ms, 4.0);
  EXPECT_EQ(rf.final_lag_ms, 4.0);
  // Without --rate there is none.
  Result<RunResult> plain = MergeRankResults(Base(), f.Ranks());
  ASSERT_OK(plain);
  EXPECT_FALSE(plain->rate.has_value());
}

TEST(MergeRankResults, TheLowestFailingRankNamesTheFailure) {
  std::vector<RankResult> ranks;
  for (int r = 0; r < 3; ++r) ranks.push_back(MakeRank(r, {1000, 2000}, 1, 0, 1000));
  ranks[2].result.failure = Status::IoError("disk two on fire");
  ranks[1].result.failure = Status::IoError("disk one on fire");
  ranks[2].result.interrupted = true;
  Result<RunResult> got = MergeRankResults(Base(), ranks);
  ASSERT_OK(got);
  const RunResult& merged = *got;
  EXPECT_EQ(merged.failure.code(), StatusCode::kIoError);
  EXPECT_EQ(merged.failure.message(), "rank 1 (host0): disk one on fire");
  EXPECT_TRUE(merged.interrupted);
  EXPECT_EQ(merged.cluster->ranks[2].failure, "disk two on fire");
  EXPECT_EQ(merged.cluster->ranks[0].failure, "");
}

TEST(MergeRankResults, RefusesWhatCannotBeMerged) {
  struct Case {
    const char* name;
    std::vector<RankResult> ranks;
    const char* says;
  };
  RankResult other_kinds = MakeRank(1, {5}, 1, 0, 10);
  other_kinds.result.latency.push_back(LatencyStats{"read", {}});
  const std::vector<Case> cases = {
      {"none", {}, "no rank results"},
      {"twice", {MakeRank(0, {5}, 1, 0, 10), MakeRank(0, {6}, 1, 0, 10)}, "rank 0 sent"},
      {"kinds", {MakeRank(0, {5}, 1, 0, 10), other_kinds}, "other latency kinds"},
  };
  for (const Case& c : cases) {
    Result<RunResult> merged = MergeRankResults(Base(), c.ranks);
    ASSERT_FALSE(merged.ok()) << c.name;
    EXPECT_EQ(merged.status().code(), StatusCode::kInvalidArgument) << c.name;
    EXPECT_NE(merged.status().message().find(c.says), std::string::npos)
        << c.name << ": " << merged.status().message();
  }
}

// An interval of `threads` threads whose events took `samples` ns.
IntervalSnapshot Interval(const std::vector<uint64_t>& samples, int threads, double duration_s) {
  IntervalSnapshot iv;
  iv.t_end_s = 2;
  iv.duration_s = duration_s;
  iv.threads = threads;
  iv.latency.resize(1);
  for (uint64_t s : samples) iv.latency[0].histogram.Record(s);
  iv.events = samples.size();
  iv.errors = 1;
  iv.counters = {3 * samples.size()};
  iv.queue = 2;
  iv.concurrency = 1;
  return iv;
}

TEST(MergeIntervals, SumsTheRanksIntervalsOfOneTick) {
  const FourRanks four;
  std::vector<IntervalSnapshot> parts;
  std::vector<uint64_t> all;
  for (size_t r = 0; r < four.samples.size(); ++r) {
    parts.push_back(Interval(four.samples[r], static_cast<int>(r) + 1, 1.0 + 0.001 * r));
    all.insert(all.end(), four.samples[r].begin(), four.samples[r].end());
  }
  Result<IntervalSnapshot> merged = MergeIntervals(parts);
  ASSERT_OK(merged);
  EXPECT_EQ(merged->t_end_s, 2);
  EXPECT_EQ(merged->duration_s, 1.003);
  EXPECT_EQ(merged->threads, 1 + 2 + 3 + 4);
  EXPECT_EQ(merged->events, all.size());
  EXPECT_EQ(merged->errors, 4u);
  EXPECT_EQ(merged->counters, std::vector<uint64_t>{3 * all.size()});
  EXPECT_EQ(merged->queue, 8u);
  EXPECT_EQ(merged->concurrency, 4u);
  // Derived from the sums.
  EXPECT_DOUBLE_EQ(merged->events_per_second, static_cast<double>(all.size()) / 1.003);
  // The merged histogram is the one of all samples: its p95 is theirs.
  LatencyHistogram exact;
  for (uint64_t s : all) exact.Record(s);
  EXPECT_EQ(merged->latency[0].histogram.Percentile(95), exact.Percentile(95));
  EXPECT_EQ(merged->latency[0].histogram.Max(), kStallNs);
}

TEST(MergeIntervals, RefusesWhatCannotBeMerged) {
  EXPECT_FALSE(MergeIntervals({}).ok());
  IntervalSnapshot other = Interval({5}, 1, 1);
  other.latency.push_back(LatencyStats{"read", {}});
  EXPECT_FALSE(MergeIntervals({Interval({5}, 1, 1), other}).ok());
}

}  // namespace
}  // namespace loadcell
