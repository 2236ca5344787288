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

}  // namespace
}  // namespace loadcell
