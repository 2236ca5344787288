// Under --rate, a self-timed workload that the runner paces (it does not pace
// itself: OLTP with think time) times its events through RecordTimedEvent:
// the latency from the intended start, the service time from its own start.
// A stall outside the timed part (think time) delays the events behind it:
// it shows in their latency, not in their service time.

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "core/clock.h"
#include "runner/recorder.h"
#include "runner/runner.h"
#include "testing/status.h"
#include "unit/runner/fake_workload.h"

namespace loadcell {
namespace {

using testing::MustRun;

// Times a very short event itself, then "thinks" (untimed): event number
// `stall_at` (1-based, per thread) thinks `stall` long.
class ThinkingWorkload final : public Workload {
 public:
  uint64_t stall_at = 0;
  std::chrono::milliseconds stall{0};

  WorkloadInfo Info() const override {
    WorkloadInfo info;
    info.name = "thinking";
    info.summary = "test workload";
    info.event_definition = "one call";
    info.self_timed = true;
    return info;
  }
  void RegisterOptions(OptionSet&) override {}
  Result<std::unique_ptr<Worker>> NewWorker(const ThreadContext& ctx) override {
    return std::unique_ptr<Worker>(new ThinkingWorker(*this, ctx.recorder));
  }

 private:
  class ThinkingWorker final : public Worker {
   public:
    ThinkingWorker(const ThinkingWorkload& w, ThreadRecorder* rec) : w_(w), rec_(rec) {}
    Status RunEvent() override {
      const Nanos t0 = MonotonicNow();
      const Nanos t1 = MonotonicNow();
      rec_->RecordTimedEvent(t0, t1);
      if (++n_ == w_.stall_at) std::this_thread::sleep_for(w_.stall);
      return Status::Ok();
    }

   private:
    const ThinkingWorkload& w_;
    ThreadRecorder* rec_;
    uint64_t n_ = 0;
  };
};

TEST(SelfTimedRate, AStallShowsInTheLatencyFromTheIntendedStartNotInTheServiceTime) {
  ThinkingWorkload w;
  w.stall_at = 5;
  w.stall = std::chrono::milliseconds(200);
  RunConfig c;
  c.threads = 1;
  c.time_s = 0.6;
  c.seed = 7;
  c.rand.type = "uniform";
  c.rate = 200;  // one event every 5 ms: ~40 of them wait behind the stall
  RunResult r = MustRun(w, c);
  EXPECT_OK(r.failure);
  ASSERT_TRUE(r.service.has_value());
  ASSERT_GT(r.events, 50u);
  EXPECT_EQ(r.service->histogram.Count(), r.events);
  // The events due during the stall waited for up to 200 ms.
  EXPECT_GE(r.latency[0].histogram.Percentile(99), 100 * kNanosPerMilli);
  EXPECT_GE(r.latency[0].histogram.Max(), 150 * kNanosPerMilli);
  // Their own work took no time: the stall is in no service time.
  EXPECT_LT(r.service->histogram.Percentile(99), r.latency[0].histogram.Percentile(99) / 10);
}

// Without a rate the same worker's latency counts from its own start, and
// there is no service time.
TEST(SelfTimedRate, ClosedLoopCountsFromTheEventsOwnStart) {
  ThinkingWorkload w;
  w.stall_at = 5;
  w.stall = std::chrono::milliseconds(100);
  RunConfig c;
  c.threads = 1;
  c.events = 20;
  c.seed = 7;
  c.rand.type = "uniform";
  RunResult r = MustRun(w, c);
  EXPECT_OK(r.failure);
  EXPECT_EQ(r.events, 20u);
  EXPECT_FALSE(r.service.has_value());
  EXPECT_LT(r.latency[0].histogram.Max(), 50 * kNanosPerMilli);
}

}  // namespace
}  // namespace loadcell
