#include "runner/run_result.h"

#include <gtest/gtest.h>

namespace loadcell {
namespace {

RunResult TwoThreads() {
  RunResult r;
  r.total_time_s = 2;
  r.events = 1000;
  r.errors = 4;
  r.threads = {{600, 0.6, 0.5}, {400, 0.2, 0.2}};
  r.counters = {3000, 10};
  r.latency = {LatencyStats{}};
  for (uint64_t ns : {500000, 1500000, 1600000, 30000000}) r.latency[0].histogram.Record(ns);
  IntervalSnapshot s;
  s.duration_s = 0.5;
  s.events = 100;
  s.errors = 1;
  s.counters = {300, 0};
  r.intervals = {s};
  return r;
}

TEST(FillDerivedFigures, RatesFairnessAndThreadTotals) {
  RunResult r = TwoThreads();
  FillDerivedFigures(r);
  EXPECT_DOUBLE_EQ(r.events_per_second, 500);
  EXPECT_DOUBLE_EQ(r.errors_per_second, 2);
  EXPECT_DOUBLE_EQ(r.fairness.events.mean, 500);
  EXPECT_DOUBLE_EQ(r.fairness.events.stddev, 100);
  EXPECT_DOUBLE_EQ(r.fairness.exec_time_s.mean, 0.4);
  EXPECT_DOUBLE_EQ(r.fairness.busy_time_s.mean, 0.35);
  EXPECT_DOUBLE_EQ(r.threads[0].events_per_second, 300);
  EXPECT_DOUBLE_EQ(r.threads[0].mean_latency_s, 0.001);
  EXPECT_EQ(r.thread_total.events, 1000u);
  EXPECT_DOUBLE_EQ(r.thread_total.exec_time_s, 0.8);
  EXPECT_DOUBLE_EQ(r.thread_total.events_per_second, 500);
  EXPECT_DOUBLE_EQ(r.thread_total.mean_latency_s, 0.0008);
  EXPECT_DOUBLE_EQ(r.intervals[0].events_per_second, 200);
  EXPECT_DOUBLE_EQ(r.intervals[0].errors_per_second, 2);
}

// The figures reporters used to compute themselves: counter rates (HTML
// breakdown, OLTP lines), the threads' extremes (HTML caption) and SQLIO's
// whole-millisecond histogram.
TEST(FillDerivedFigures, CounterRatesExtremesAndWholeMsHistogram) {
  RunResult r = TwoThreads();
  FillDerivedFigures(r);
  EXPECT_EQ(r.counter_rates, (std::vector<double>{1500, 5}));
  EXPECT_EQ(r.intervals[0].counter_rates, (std::vector<double>{600, 0}));
  EXPECT_DOUBLE_EQ(r.fairness.events_extremes.min, 400);
  EXPECT_DOUBLE_EQ(r.fairness.events_extremes.max, 600);
  EXPECT_DOUBLE_EQ(r.fairness.events_extremes.min_from_mean_pct, -20);
  EXPECT_DOUBLE_EQ(r.fairness.events_extremes.max_from_mean_pct, 20);
  EXPECT_DOUBLE_EQ(r.latency_whole_ms_pct[0], 25);
  EXPECT_DOUBLE_EQ(r.latency_whole_ms_pct[1], 50);
  EXPECT_DOUBLE_EQ(r.latency_whole_ms_pct[24], 25);
}

TEST(FillDerivedFigures, NoTimeNoThreadsGivesZeros) {
  RunResult r;
  r.events = 10;
  FillDerivedFigures(r);
  EXPECT_EQ(r.events_per_second, 0);
  EXPECT_EQ(r.fairness.events.mean, 0);
  EXPECT_EQ(r.thread_total.mean_latency_s, 0);
  EXPECT_EQ(r.latency_whole_ms_pct[0], 0);
}

TEST(FillDerivedFigures, Idempotent) {
  RunResult once = TwoThreads();
  FillDerivedFigures(once);
  RunResult twice = once;
  FillDerivedFigures(twice);
  EXPECT_EQ(twice.thread_total.events, once.thread_total.events);
  EXPECT_EQ(twice.fairness.events.stddev, once.fairness.events.stddev);
}

}  // namespace
}  // namespace loadcell
