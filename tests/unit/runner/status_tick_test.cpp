// RunObserver::OnStatus: the observer-only series of status ticks.

#include <gtest/gtest.h>
#include <time.h>

#include <vector>

#include "runner/runner.h"
#include "testing/status.h"
#include "testing/workload_test_util.h"

namespace loadcell {
namespace {

// Sleeps 200 us per event.
class SleepyWorkload final : public testing::TestWorkload {
 public:
  SleepyWorkload() : TestWorkload(testing::TestInfo("sleepy", "sleeps", "one short sleep")) {}
  Result<std::unique_ptr<Worker>> NewWorker(const ThreadContext&) override {
    return std::unique_ptr<Worker>(new SleepyWorker());
  }

 private:
  class SleepyWorker final : public Worker {
   public:
    Status RunEvent() override {
      timespec ts{0, 200000};
      nanosleep(&ts, nullptr);
      return Status::Ok();
    }
  };
};

class StatusObserver final : public RunObserver {
 public:
  std::vector<IntervalSnapshot> status;
  int intervals = 0;
  void OnInterval(const IntervalSnapshot&) override { ++intervals; }
  void OnStatus(const IntervalSnapshot& s) override { status.push_back(s); }
};

RunConfig Config(double time_s, double status_s) {
  RunConfig c;
  c.threads = 2;
  c.time_s = time_s;
  c.seed = 1;
  c.status_interval_s = status_s;
  return c;
}

TEST(StatusTickTest, TicksAreAnObserverOnlySeries) {
  SleepyWorkload w;
  StatusObserver obs;
  Result<RunResult> r = RunWorkload(w, Config(0.55, 0.1), Manifest(), &obs);
  ASSERT_OK(r);
  EXPECT_EQ(obs.intervals, 0);
  EXPECT_TRUE(r->intervals.empty());  // not added to the result
  ASSERT_GE(obs.status.size(), 4u);
  ASSERT_LE(obs.status.size(), 5u);
  uint64_t sum = 0;
  for (size_t i = 0; i < obs.status.size(); ++i) {
    const IntervalSnapshot& s = obs.status[i];
    EXPECT_NEAR(s.t_end_s, 0.1 * static_cast<double>(i + 1), 1e-9);
    EXPECT_EQ(s.threads, 2);
    ASSERT_FALSE(s.latency.empty());
    EXPECT_EQ(s.latency[0].histogram.Count(), s.events);
    EXPECT_GT(s.events, 0u);
    sum += s.events;
  }
  EXPECT_LE(sum, r->events);
}

TEST(StatusTickTest, NoTicksWhenThePeriodIsZero) {
  SleepyWorkload w;
  StatusObserver obs;
  Result<RunResult> r = RunWorkload(w, Config(0.2, 0), Manifest(), &obs);
  ASSERT_OK(r);
  EXPECT_TRUE(obs.status.empty());
}

}  // namespace
}  // namespace loadcell
