#include "runner/schedule.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <vector>

#include "core/clock.h"

namespace loadcell {
namespace {

TEST(RateScheduleTest, IntendedStartsDoNotDrift) {
  RateSchedule s(1000, 3.0);  // one event every 333333333.33 ns
  EXPECT_EQ(s.IntendedStart(0), 1000);
  EXPECT_EQ(s.IntendedStart(1), 1000 + 333333333);
  EXPECT_EQ(s.IntendedStart(3), 1000 + kNanosPerSecond);
  // After three million events the schedule is still exact to the ns.
  EXPECT_EQ(s.IntendedStart(3000000), 1000 + 1000000 * kNanosPerSecond);
}

TEST(RateScheduleTest, DueByMatchesIntendedStarts) {
  RateSchedule s(0, 7.0);
  EXPECT_EQ(s.DueBy(-1), 0u);
  EXPECT_EQ(s.DueBy(0), 1u);  // event 0 is due at the start
  for (uint64_t k = 1; k < 200; ++k) {
    Nanos t = s.IntendedStart(k);
    EXPECT_EQ(s.DueBy(t - 1), k) << k;
    EXPECT_EQ(s.DueBy(t), k + 1) << k;
  }
}

TEST(RateScheduleTest, FakeClockDrivesAnOpenLoop) {
  // A worker that takes 3 periods per event falls behind; the schedule does
  // not wait for it, so the lag (due - taken) grows by 2 per event.
  FakeClock clock(0);
  RateSchedule s(0, 1000.0);  // 1 ms period
  uint64_t taken = 0;
  for (int i = 0; i < 10; ++i) {
    Nanos intended = s.IntendedStart(taken++);
    clock.SleepUntil(intended);
    clock.Advance(3 * kNanosPerMilli);  // service time
  }
  EXPECT_EQ(clock.Now(), 30 * kNanosPerMilli);
  EXPECT_EQ(s.DueBy(clock.Now()), 31u);
  EXPECT_EQ(s.DueBy(clock.Now()) - taken, 21u);
}

// Three processes with 2, 1 and 3 threads share one schedule: together
// their tickets are every event of it exactly once, each at the intended
// start the whole schedule gives it, and each process' DueBy counts its own.
TEST(RateScheduleTest, SharesInterleaveIntoTheOneSchedule) {
  const RateSchedule whole(500, 9.0);
  const std::vector<ScheduleShare> shares = {{0, 2, 6}, {2, 1, 6}, {3, 3, 6}};
  std::map<Nanos, int> starts;  // intended start -> how many tickets have it
  for (const ScheduleShare& sh : shares) {
    const RateSchedule part(500, 9.0, sh);
    EXPECT_DOUBLE_EQ(part.share_period_ns(), whole.period_ns() * 6 / static_cast<double>(sh.count));
    for (uint64_t t = 0; t < 60 * sh.count; ++t) {
      ++starts[part.IntendedStart(t)];
      if (t > 0) {
        EXPECT_LT(part.IntendedStart(t - 1), part.IntendedStart(t));
      }
    }
    for (uint64_t t = 0; t < 50; ++t) {
      const Nanos at = part.IntendedStart(t);
      EXPECT_EQ(part.DueBy(at - 1), t) << sh.first << " " << t;
      EXPECT_EQ(part.DueBy(at), t + 1) << sh.first << " " << t;
    }
  }
  ASSERT_EQ(starts.size(), 360u);
  uint64_t k = 0;
  for (const auto& [at, n] : starts) {
    EXPECT_EQ(at, whole.IntendedStart(k++));
    EXPECT_EQ(n, 1);
  }
  // The shares' due counts add up to the whole schedule's at any moment.
  for (Nanos now = 0; now < 3 * kNanosPerSecond; now += 37 * kNanosPerMilli) {
    uint64_t sum = 0;
    for (const ScheduleShare& sh : shares) sum += RateSchedule(500, 9.0, sh).DueBy(now);
    EXPECT_EQ(sum, whole.DueBy(now)) << now;
  }
}

TEST(ArrivalScheduleTest, LinearCountsUnitsFromTheStart) {
  // 4096 units (bytes) per ms: an event of 4096 bytes every millisecond,
  // one of 8192 two.
  ArrivalSchedule s(500, 4096.0 * 1000, ArrivalProcess::kLinear, 1);
  EXPECT_TRUE(s.limited());
  EXPECT_EQ(s.Next(), 500);
  s.Take(4096);
  EXPECT_EQ(s.Next(), 500 + kNanosPerMilli);
  s.Take(8192);
  EXPECT_EQ(s.Next(), 500 + 3 * kNanosPerMilli);
  for (int i = 0; i < 3000; ++i) s.Take(4096);
  EXPECT_EQ(s.Next(), 500 + 3003 * kNanosPerMilli);  // no drift
  EXPECT_EQ(s.units_taken(), 3003u * 4096);

  ArrivalSchedule none(500, 0, ArrivalProcess::kLinear, 1);
  EXPECT_FALSE(none.limited());
  none.Take(4096);
  EXPECT_EQ(none.Next(), 500);
}

TEST(ArrivalScheduleTest, PoissonGapsAreExponentialWithTheRatesMean) {
  // 1000 events per second: gaps of mean 1 ms; an exponential law's
  // standard deviation equals its mean (a linear schedule's is 0).
  ArrivalSchedule s(0, 1000, ArrivalProcess::kPoisson, 7);
  const int n = 40000;
  double sum = 0, sum_sq = 0;
  int shorter_than_mean = 0;
  Nanos prev = s.Next();
  for (int i = 0; i < n; ++i) {
    s.Take(1);
    const double gap = static_cast<double>(s.Next() - prev);
    prev = s.Next();
    sum += gap;
    sum_sq += gap * gap;
    if (gap < 1e6) ++shorter_than_mean;
  }
  const double mean = sum / n;
  const double sd = std::sqrt(sum_sq / n - mean * mean);
  EXPECT_NEAR(mean, 1e6, 0.03 * 1e6);
  EXPECT_NEAR(sd, 1e6, 0.05 * 1e6);
  // P(gap < mean) = 1 - 1/e for an exponential law.
  EXPECT_NEAR(static_cast<double>(shorter_than_mean) / n, 1 - std::exp(-1.0), 0.02);

  // The same seed, the same arrivals; another seed, others.
  ArrivalSchedule a(0, 1000, ArrivalProcess::kPoisson, 9);
  ArrivalSchedule b(0, 1000, ArrivalProcess::kPoisson, 9);
  ArrivalSchedule c(0, 1000, ArrivalProcess::kPoisson, 10);
  for (int i = 0; i < 10; ++i) {
    a.Take(1);
    b.Take(1);
    c.Take(1);
  }
  EXPECT_EQ(a.Next(), b.Next());
  EXPECT_NE(a.Next(), c.Next());
}

TEST(TickerTest, TicksWithoutDriftAndSkipsMissedTicks) {
  Ticker t(100, 10);
  ASSERT_TRUE(t.enabled());
  EXPECT_EQ(t.next(), 110);
  t.AdvancePast(110);
  EXPECT_EQ(t.next(), 120);
  t.AdvancePast(121);  // a little late: next tick stays on the grid
  EXPECT_EQ(t.next(), 130);
  t.AdvancePast(175);  // several periods late: the missed ticks are skipped
  EXPECT_EQ(t.next(), 180);
  t.AdvancePast(179);  // not yet due: unchanged
  EXPECT_EQ(t.next(), 180);
  EXPECT_FALSE(Ticker(0, 0).enabled());
}

TEST(TimelineTest, WarmupComesBeforeTheMeasuredTime) {
  Timeline t = Timeline::Make(1000, 2.0, 10.0);
  EXPECT_EQ(t.start, 1000);
  EXPECT_EQ(t.measure_start, 1000 + 2 * kNanosPerSecond);
  EXPECT_EQ(t.end, 1000 + 12 * kNanosPerSecond);
  EXPECT_EQ(Timeline::Make(5, 0, 0).end, 0);
}

}  // namespace
}  // namespace loadcell
