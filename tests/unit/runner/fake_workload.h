#pragma once
// FakeWorkload, a configurable workload for the runner's tests, and the
// helpers that run it (runner_test.cpp, runner_posix_test.cpp).

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "core/clock.h"
#include "runner/recorder.h"
#include "runner/runner.h"
#include "runner/stop_signal.h"
#include "testing/status.h"
#include "testing/workload_test_util.h"

namespace loadcell::testing {

// A configurable test workload. Counts every event it runs, measured or not.
class FakeWorkload final : public Workload {
 public:
  std::atomic<uint64_t> executed{0};
  std::atomic<bool> hang{false};
  Nanos sleep_ns = 0;
  uint64_t fail_at = 0;  // 1-based event number (per thread) that fails
  Status fail_with = Status::IoError("disk on fire");  // what that event returns
  bool fail_create = false;
  bool create_honours_stop = false;  // NewWorker gives way to a stop request
  bool self_timed = false;
  EventBudget budget;
  WorkloadFacts facts;  // what Facts() states
  std::mutex mu;
  std::vector<uint64_t> seeds;

  WorkloadInfo Info() const override {
    WorkloadInfo info = TestInfo("fake", "test workload", "one call");
    info.self_timed = self_timed;
    if (self_timed) info.latency_kinds = {"read"};
    info.counter_names = {"bytes"};
    return info;
  }
  void RegisterOptions(OptionSet&) override {}
  EventBudget Budget(int) const override { return budget; }
  WorkloadFacts Facts(const RunResult& /*r*/) const override { return facts; }

  Result<std::unique_ptr<Worker>> NewWorker(const ThreadContext& ctx) override {
    if (fail_create) return Status::IoError("cannot open the thing");
    if (create_honours_stop && StopRequested()) return Status::Cancelled("interrupted");
    {
      std::lock_guard<std::mutex> lock(mu);
      seeds.push_back(ctx.seed);
    }
    return std::unique_ptr<Worker>(new FakeWorker(*this, ctx));
  }

 private:
  class FakeWorker final : public Worker {
   public:
    FakeWorker(FakeWorkload& w, const ThreadContext& ctx) : w_(w), ctx_(ctx) {}
    Status RunEvent() override {
      ++n_;
      w_.executed.fetch_add(1);
      while (w_.hang.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      if (w_.fail_at != 0 && n_ == w_.fail_at) return w_.fail_with;
      if (w_.sleep_ns > 0) std::this_thread::sleep_for(std::chrono::nanoseconds(w_.sleep_ns));
      ctx_.recorder->Add(0, 10);
      if (w_.self_timed) {
        ctx_.recorder->RecordEvent(1000);
        ctx_.recorder->RecordKind(1, 500);
      }
      return Status::Ok();
    }

   private:
    FakeWorkload& w_;
    ThreadContext ctx_;
    uint64_t n_ = 0;
  };
};

// Keeps what the runner tells its observer.
class CollectingObserver final : public RunObserver {
 public:
  std::vector<IntervalSnapshot> intervals;
  std::vector<RunResult> checkpoints;
  int starts = 0;
  int threads_started = 0;  // OnThreadsStarted calls, each after an OnStart
  void OnStart(const Manifest&) override { ++starts; }
  void OnThreadsStarted() override { threads_started += starts; }
  void OnInterval(const IntervalSnapshot& s) override { intervals.push_back(s); }
  void OnCheckpoint(const RunResult& r) override { checkpoints.push_back(r); }
};

inline RunConfig Config(int threads, double time_s, int64_t events) {
  RunConfig c;
  c.threads = threads;
  c.time_s = time_s;
  c.events = events;
  c.seed = 7;
  c.rand.type = "uniform";
  return c;
}

inline RunResult MustRun(Workload& w, const RunConfig& c, RunObserver* obs = nullptr) {
  auto r = RunWorkload(w, c, Manifest{}, obs);
  EXPECT_OK(r);
  return r.ok() ? std::move(r).value() : RunResult{};
}

inline uint64_t SumThreadEvents(const RunResult& r) {
  uint64_t n = 0;
  for (const auto& t : r.threads) n += t.events;
  return n;
}

}  // namespace loadcell::testing
