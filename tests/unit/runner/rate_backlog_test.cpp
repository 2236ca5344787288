// RunConfig::rate_backlog_limit (sysbench mode's event queue): under --rate,
// a schedule that runs that many events ahead of the threads fails the run.

#include <gtest/gtest.h>

#include <string>

#include "runner/runner.h"
#include "testing/status.h"
#include "unit/runner/fake_workload.h"

namespace loadcell {
namespace {

using testing::Config;
using testing::FakeWorkload;
using testing::MustRun;

// One thread whose events take 2 ms each, scheduled 100000/s: the schedule
// is thousands of events ahead of it within a control period.
RunResult RunBehindSchedule(uint64_t backlog_limit) {
  FakeWorkload w;
  w.sleep_ns = 2 * kNanosPerMilli;
  RunConfig c = Config(1, 0.3, 0);
  c.rate = 100000;
  c.rate_backlog_limit = backlog_limit;
  return MustRun(w, c);
}

TEST(RateBacklog, AScheduleTooFarAheadFailsTheRunInSysbenchsWords) {
  const RunResult r = RunBehindSchedule(100);
  EXPECT_EQ(r.failure.code(), StatusCode::kResourceExhausted) << r.failure.ToString();
  EXPECT_EQ(r.failure.message(),
            "The event queue is full. This means the worker threads are unable to keep up with "
            "the specified event generation rate");
}

TEST(RateBacklog, WithoutALimitTheLateRunEndsAsUsual) {
  const RunResult r = RunBehindSchedule(0);
  EXPECT_OK(r.failure);
  EXPECT_GT(r.events, 0u);
}

}  // namespace
}  // namespace loadcell
