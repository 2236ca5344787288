// A workload whose workers run their own loop (WorkloadInfo::own_loop, a
// sysbench script's thread_run()): the runner calls RunEvent() once per
// thread and the loop takes each event from ThreadContext::loop, which keeps
// the run's limits (events, time, stop, rate) and times the events.

#include <gtest/gtest.h>

#include <atomic>

#include "runner/recorder.h"
#include "runner/runner.h"
#include "testing/status.h"
#include "unit/runner/fake_workload.h"

namespace loadcell {
namespace {

using testing::MustRun;
using testing::SumThreadEvents;
using testing::TestInfo;
using testing::TestWorkload;

// Each worker loops while loop->More(); event number `unfinished_at` (per
// thread, 1-based) is started and never stopped, and ends the loop.
class OwnLoopWorkload final : public TestWorkload {
 public:
  OwnLoopWorkload() : TestWorkload(OwnInfo()) {}
  std::atomic<int> calls{0};  // RunEvent() calls, every thread
  std::atomic<bool> had_loop{true};
  uint64_t unfinished_at = 0;

  Result<std::unique_ptr<Worker>> NewWorker(const ThreadContext& ctx) override {
    if (ctx.loop == nullptr) had_loop = false;
    return std::unique_ptr<Worker>(new LoopingWorker(*this, ctx.loop));
  }

 private:
  static WorkloadInfo OwnInfo() {
    WorkloadInfo info = TestInfo("own-loop", "test workload", "one event of its own loop");
    info.own_loop = true;
    return info;
  }

  class LoopingWorker final : public Worker {
   public:
    LoopingWorker(OwnLoopWorkload& w, EventLoopControl* loop) : w_(w), loop_(loop) {}
    Status RunEvent() override {
      ++w_.calls;
      if (loop_ == nullptr) return Status::Internal("no loop control");
      for (uint64_t n = 1; loop_->More(); ++n) {
        loop_->EventStart();
        if (n == w_.unfinished_at) break;
        loop_->EventStop();
      }
      return Status::Ok();
    }

   private:
    OwnLoopWorkload& w_;
    EventLoopControl* loop_;
  };
};

// `w` run on `threads` threads with `events` events (0: none) in `time_s`
// (0: no limit) at `rate` (0: none); the run must succeed.
RunResult RunOwnLoop(OwnLoopWorkload& w, int threads, int64_t events, double time_s,
                     double rate = 0) {
  RunConfig c;
  c.threads = threads;
  c.seed = 3;
  c.rand.type = "uniform";
  c.events = events;
  c.time_s = time_s;
  c.rate = rate;
  RunResult r = MustRun(w, c);
  EXPECT_OK(r.failure);
  return r;
}

TEST(OwnLoop, TheLoopRunsOncePerThreadAndTakesTheEventLimit) {
  OwnLoopWorkload w;
  const RunResult r = RunOwnLoop(w, 2, 40, 0);
  EXPECT_TRUE(w.had_loop);
  EXPECT_EQ(w.calls.load(), 2);
  EXPECT_EQ(r.events, 40u);
  EXPECT_EQ(SumThreadEvents(r), 40u);
  EXPECT_EQ(r.latency[0].histogram.Count(), 40u);
}

TEST(OwnLoop, TheTimeLimitEndsTheLoop) {
  OwnLoopWorkload w;
  const RunResult r = RunOwnLoop(w, 1, 0, 0.2);
  EXPECT_EQ(w.calls.load(), 1);
  EXPECT_GT(r.events, 0u);
  EXPECT_EQ(r.latency[0].histogram.Count(), r.events);
}

// sysbench's loop leaves the event whose event() ends the thread unstopped:
// it is not counted.
TEST(OwnLoop, AnEventStartedAndNeverStoppedIsNotCounted) {
  OwnLoopWorkload w;
  w.unfinished_at = 5;
  EXPECT_EQ(RunOwnLoop(w, 1, 100, 0).events, 4u);
}

// Under --rate every event waits for its intended start and has a service
// time; the schedule's events after the time limit are not taken.
TEST(OwnLoop, UnderARateEachEventHasItsIntendedStart) {
  OwnLoopWorkload w;
  const RunResult r = RunOwnLoop(w, 2, 0, 0.3, 100);
  ASSERT_TRUE(r.service.has_value());
  EXPECT_EQ(r.service->histogram.Count(), r.events);
  EXPECT_GT(r.events, 0u);
  // 100/s for 0.3 s: the schedule holds about 30 events; far fewer than an
  // unpaced loop runs.
  EXPECT_LT(r.events, 200u);
}

}  // namespace
}  // namespace loadcell
