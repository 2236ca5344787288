#include "stats/summary.h"

#include <gtest/gtest.h>

#include <cmath>

namespace loadcell {
namespace {

TEST(Fairness, EmptyIsZero) {
  const MeanStd r = Fairness({});
  EXPECT_EQ(r.mean, 0);
  EXPECT_EQ(r.stddev, 0);
}

TEST(Fairness, SingleThreadHasNoSpread) {
  const MeanStd r = Fairness({1234.5});
  EXPECT_DOUBLE_EQ(r.mean, 1234.5);
  EXPECT_EQ(r.stddev, 0);
}

TEST(Fairness, PopulationStdDev) {
  // mean 5; squared deviations 9+1+1+1+0+0+4+16 = 32; 32/8 = 4 -> 2.
  const MeanStd r = Fairness({2, 4, 4, 4, 5, 5, 7, 9});
  EXPECT_DOUBLE_EQ(r.mean, 5);
  EXPECT_DOUBLE_EQ(r.stddev, 2);
}

TEST(Fairness, TwoThreads) {
  // Events 100 and 110: mean 105, population stddev 5 (sample would be 7.07).
  const MeanStd r = Fairness({100, 110});
  EXPECT_DOUBLE_EQ(r.mean, 105);
  EXPECT_DOUBLE_EQ(r.stddev, 5);
}

TEST(Fairness, EqualLargeValuesGiveZeroNotNaN) {
  const MeanStd r = Fairness({1e15 + 1, 1e15 + 1, 1e15 + 1});
  EXPECT_DOUBLE_EQ(r.mean, 1e15 + 1);
  EXPECT_EQ(r.stddev, 0);
  EXPECT_FALSE(std::isnan(r.stddev));
}

TEST(Rate, EventsPerSecond) {
  EXPECT_DOUBLE_EQ(Rate(1000, 10), 100);
  EXPECT_DOUBLE_EQ(Rate(3, 0.5), 6);
  EXPECT_EQ(Rate(1000, 0), 0);
  EXPECT_EQ(Rate(1000, -1), 0);
  EXPECT_EQ(Rate(0, 10), 0);
}

TEST(MibPerSecond, BytesOverSeconds) {
  EXPECT_DOUBLE_EQ(MibPerSecond(10 << 20, 2), 5);
  EXPECT_EQ(MibPerSecond(10 << 20, 0), 0);
}

TEST(MeanOf, ZeroWithoutItems) {
  EXPECT_DOUBLE_EQ(MeanOf(3, 4), 0.75);
  EXPECT_EQ(MeanOf(3, 0), 0);
}

TEST(ExtremesOf, DistanceFromTheMean) {
  const Extremes e = ExtremesOf({90, 100, 110, 100});
  EXPECT_DOUBLE_EQ(e.min, 90);
  EXPECT_DOUBLE_EQ(e.max, 110);
  EXPECT_DOUBLE_EQ(e.min_from_mean_pct, -10);
  EXPECT_DOUBLE_EQ(e.max_from_mean_pct, 10);
  const Extremes none = ExtremesOf({});
  EXPECT_EQ(none.min, 0);
  EXPECT_EQ(none.max_from_mean_pct, 0);
  // Threads that did nothing: no percentage, never NaN.
  EXPECT_EQ(ExtremesOf({0, 0}).min_from_mean_pct, 0);
}

// Sweep's spread: half the range in % of the mean.
TEST(HalfRangePercent, OfTheMean) {
  EXPECT_DOUBLE_EQ(*HalfRangePercent(90, 110, 100), 10);
  EXPECT_FALSE(HalfRangePercent(0, 0, 0).has_value());
}

TEST(PercentChange, FromBase) {
  EXPECT_DOUBLE_EQ(*PercentChange(200, 250), 25);
  EXPECT_DOUBLE_EQ(*PercentChange(200, 100), -50);
  EXPECT_FALSE(PercentChange(0, 5).has_value());
}

TEST(WholeMsPercentages, ColumnsByBucketLowAndTheLastOpen) {
  LatencyHistogram h;
  for (uint64_t ns :
       std::initializer_list<uint64_t>{100000, 900000, 2500000, 23500000, 25000000, 90000000000})
    h.Record(ns);
  const std::array<double, kWholeMsColumns> pct = WholeMsPercentages(h);
  double sum = 0;
  for (double p : pct) sum += p;
  EXPECT_NEAR(sum, 100, 1e-9);
  EXPECT_NEAR(pct[0], 200.0 / 6, 1e-9);
  EXPECT_NEAR(pct[2], 100.0 / 6, 1e-9);
  EXPECT_NEAR(pct[24], 200.0 / 6, 1e-9);  // 25 ms and 90 s
  EXPECT_EQ(WholeMsPercentages(LatencyHistogram()), (std::array<double, kWholeMsColumns>{}));
}

}  // namespace
}  // namespace loadcell
