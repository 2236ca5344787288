#include "runner/runner.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "core/clock.h"
#include "runner/recorder.h"
#include "testing/status.h"
#include "testing/workload_test_util.h"
#include "unit/runner/fake_workload.h"

namespace loadcell {
namespace {

using testing::CollectingObserver;
using testing::Config;
using testing::FakeWorkload;
using testing::MustRun;
using testing::SumThreadEvents;
using testing::TestInfo;
using testing::TestWorkload;

TEST(RunnerTest, StopsAtTheEventLimitExactly) {
  FakeWorkload w;
  RunResult r = MustRun(w, Config(2, 0, 1000));
  EXPECT_EQ(r.events, 1000u);
  EXPECT_EQ(SumThreadEvents(r), 1000u);
  EXPECT_EQ(w.executed.load(), 1000u);
  EXPECT_EQ(r.latency[0].histogram.Count(), 1000u);
  ASSERT_EQ(r.counter_names.size(), 1u);
  EXPECT_EQ(r.counters[0], 10000u);
  EXPECT_OK(r.failure);
  EXPECT_GE(r.latency[0].histogram.Max(), r.latency[0].histogram.Min());
}

TEST(RunnerTest, BothEventClocksTimeTheSameWay) {
  for (const char* clock : {"auto", "monotonic"}) {
    FakeWorkload w;
    w.sleep_ns = 2 * kNanosPerMilli;
    RunConfig c = Config(1, 0, 20);
    c.clock = clock;
    RunResult r = MustRun(w, c);
    EXPECT_EQ(r.events, 20u) << clock;
    // Each event sleeps 2 ms: both clocks must see at least that.
    EXPECT_GE(r.latency[0].histogram.Min(), static_cast<uint64_t>(2 * kNanosPerMilli)) << clock;
    EXPECT_LT(r.latency[0].histogram.Min(), static_cast<uint64_t>(200 * kNanosPerMilli)) << clock;
    EXPECT_FALSE(r.manifest.system.clock_source.empty());
  }
}

TEST(RunnerTest, PerThreadBudgetRunsOneEventPerThread) {
  FakeWorkload w;
  w.budget.per_thread = 1;
  RunResult r = MustRun(w, Config(4, 0, 0));
  EXPECT_EQ(r.events, 4u);
  for (const auto& t : r.threads) EXPECT_EQ(t.events, 1u);
}

TEST(RunnerTest, WorkloadTotalBudgetCapsEvents) {
  FakeWorkload w;
  w.budget.total = 300;
  RunResult r = MustRun(w, Config(3, 0, 1000));
  EXPECT_EQ(r.events, 300u);
  EXPECT_EQ(r.manifest.event_limit, 300u);
}

TEST(RunnerTest, TimeLimitEndsTheRun) {
  FakeWorkload w;
  w.sleep_ns = 100 * kNanosPerMicro;
  RunResult r = MustRun(w, Config(2, 0.2, 0));
  EXPECT_GE(r.total_time_s, 0.2);
  EXPECT_GT(r.events, 0u);
  EXPECT_EQ(SumThreadEvents(r), r.events);
  // Busy time per thread cannot exceed the measured time by more than an event.
  for (const auto& t : r.threads) EXPECT_LE(t.exec_time_s, r.total_time_s + 0.05);
}

TEST(RunnerTest, WarmupIsExcludedFromEveryFigure) {
  FakeWorkload w;
  w.sleep_ns = 200 * kNanosPerMicro;
  RunConfig c = Config(1, 0.2, 0);
  c.warmup_s = 0.2;
  RunResult r = MustRun(w, c);
  EXPECT_GT(r.events, 0u);
  EXPECT_LT(r.events, w.executed.load());  // warm-up events ran but are not counted
  EXPECT_LT(r.total_time_s, 0.35);         // measured time excludes the warm-up
  EXPECT_EQ(r.latency[0].histogram.Count(), r.events);
}

TEST(RunnerTest, CoolDownRunsOnUnmeasured) {
  // DiskSpd's -C: the threads go on after the measured end; nothing of it
  // is measured and the measured span ends at the time limit.
  FakeWorkload w;
  w.sleep_ns = 200 * kNanosPerMicro;
  RunConfig c = Config(1, 0.2, 0);
  c.cooldown_s = 0.2;
  const Nanos t0 = MonotonicNow();
  RunResult r = MustRun(w, c);
  EXPECT_GE(MonotonicNow() - t0, static_cast<Nanos>(0.38e9));  // the cool-down ran
  EXPECT_GT(r.events, 0u);
  EXPECT_LT(r.events, w.executed.load());  // cool-down events ran but are not counted
  EXPECT_LT(r.total_time_s, 0.3);
  EXPECT_EQ(r.latency[0].histogram.Count(), r.events);
}

TEST(RunnerTest, CoolDownWithoutATimeLimitIsRefused) {
  FakeWorkload w;
  RunConfig c = Config(1, 0, 100);
  c.cooldown_s = 1;
  EXPECT_FALSE(RunWorkload(w, c, Manifest{}, nullptr).ok());
}

// Every kind of limit, with and without a warm-up, on 1, 3 and 4 threads:
// the warm-up takes nothing from any budget and leaves no trace in any
// figure, and each limit measures exactly what it says.
enum class Limit { kEvents, kPerThread, kTotal, kTime };

struct BudgetCase {
  Limit limit;
  bool warmup;
  int threads;
  bool rate = false;  // open loop (--rate) instead of a closed loop
};

std::string CaseName(const ::testing::TestParamInfo<BudgetCase>& info) {
  static const char* kNames[] = {"Events", "PerThread", "Total", "Time"};
  const BudgetCase& c = info.param;
  return std::string(kNames[static_cast<int>(c.limit)]) + (c.warmup ? "Warmup" : "NoWarmup") +
         std::to_string(c.threads) + "Threads" + (c.rate ? "Rate" : "");
}

class BudgetTest : public ::testing::TestWithParam<BudgetCase> {};

TEST_P(BudgetTest, MeasuresExactlyTheBudgetAfterTheWarmup) {
  const BudgetCase& c = GetParam();
  constexpr uint64_t kEvents = 240;    // divisible by 1, 3 and 4
  constexpr uint64_t kPerThread = 60;  // each thread's share
  FakeWorkload w;
  w.sleep_ns = 20 * kNanosPerMicro;
  RunConfig cfg = Config(c.threads, 0, 0);
  const auto threads = static_cast<uint64_t>(c.threads);
  uint64_t expected = 0;  // 0: whatever the time allows
  switch (c.limit) {
    case Limit::kEvents:
      cfg.events = kEvents;
      expected = kEvents;
      break;
    case Limit::kPerThread:
      // As memory does: the shares, and their sum as the total.
      w.budget.per_thread = kPerThread;
      w.budget.total = kPerThread * threads;
      expected = kPerThread * threads;
      break;
    case Limit::kTotal:
      w.budget.total = kEvents;
      expected = kEvents;
      break;
    case Limit::kTime:
      cfg.time_s = 0.1;
      break;
  }
  if (c.warmup) cfg.warmup_s = 0.05;
  if (c.rate) cfg.rate = 4000;
  RunResult r = MustRun(w, cfg);
  ASSERT_OK(r.failure);
  if (expected != 0) {
    EXPECT_EQ(r.events, expected);
  } else {
    EXPECT_GT(r.events, 0u);
    // Under a rate a thread ends when its next intended start is past the end.
    EXPECT_GE(r.total_time_s, c.rate ? 0.09 : 0.1);
  }
  if (c.limit == Limit::kPerThread) {
    for (const ThreadFigures& t : r.threads) EXPECT_EQ(t.events, kPerThread);
  }
  EXPECT_EQ(SumThreadEvents(r), r.events);
  EXPECT_EQ(r.latency[0].histogram.Count(), r.events);
  ASSERT_EQ(r.counters.size(), 1u);
  EXPECT_EQ(r.counters[0], r.events * 10);
  if (c.warmup) {
    EXPECT_GT(w.executed.load(), r.events);  // the warm-up ran, unmeasured
  } else {
    EXPECT_EQ(w.executed.load(), r.events);
  }
  if (c.rate) {
    ASSERT_TRUE(r.service.has_value());
    EXPECT_EQ(r.service->histogram.Count(), r.events);
  }
}

std::vector<BudgetCase> BudgetCases() {
  std::vector<BudgetCase> out;
  for (Limit limit : {Limit::kEvents, Limit::kPerThread, Limit::kTotal, Limit::kTime}) {
    for (bool warmup : {false, true}) {
      for (int threads : {1, 3, 4}) out.push_back({limit, warmup, threads});
      out.push_back({limit, warmup, 3, /*rate=*/true});
    }
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Limits, BudgetTest, ::testing::ValuesIn(BudgetCases()), CaseName);

TEST(RunnerTest, EventLimitSmallerThanTheSharesIsExact) {
  FakeWorkload w;
  w.budget.per_thread = 100;
  w.budget.total = 400;
  RunConfig c = Config(4, 0, 250);
  c.warmup_s = 0.02;
  RunResult r = MustRun(w, c);
  EXPECT_EQ(r.events, 250u);
  EXPECT_EQ(r.manifest.event_limit, 250u);
  for (const ThreadFigures& t : r.threads) EXPECT_LE(t.events, 100u);
}

TEST(RunnerTest, SelfTimedWarmupLeavesNoTrace) {
  FakeWorkload w;
  w.self_timed = true;
  w.sleep_ns = 20 * kNanosPerMicro;
  RunConfig c = Config(3, 0, 90);
  c.warmup_s = 0.05;
  RunResult r = MustRun(w, c);
  EXPECT_EQ(r.events, 90u);
  ASSERT_EQ(r.latency.size(), 2u);
  EXPECT_EQ(r.latency[1].histogram.Count(), 90u);
  EXPECT_EQ(r.counters[0], 900u);
  EXPECT_GT(w.executed.load(), 90u);
}

TEST(RunnerTest, IntervalsCoverOnlyTheirInterval) {
  FakeWorkload w;
  w.sleep_ns = 200 * kNanosPerMicro;
  RunConfig c = Config(2, 0.55, 0);
  c.report_interval_s = 0.1;
  CollectingObserver obs;
  RunResult r = MustRun(w, c, &obs);
  EXPECT_EQ(obs.starts, 1);
  EXPECT_EQ(obs.threads_started, 1);  // once, after OnStart
  ASSERT_GE(obs.intervals.size(), 4u);
  ASSERT_LE(obs.intervals.size(), 5u);
  uint64_t sum = 0;
  for (size_t i = 0; i < obs.intervals.size(); ++i) {
    const auto& iv = obs.intervals[i];
    EXPECT_NEAR(iv.t_end_s, 0.1 * static_cast<double>(i + 1), 1e-9);
    EXPECT_GT(iv.duration_s, 0.05);
    EXPECT_LT(iv.duration_s, 0.2);
    EXPECT_EQ(iv.latency[0].histogram.Count(), iv.events);
    EXPECT_EQ(iv.threads, 2);
    ASSERT_EQ(iv.counters.size(), 1u);
    // Counters and histograms are read one after the other while events
    // run, so within an interval they may disagree by the events that end
    // during the reading (many under a sanitizer); the final figures, read
    // after every thread stopped, agree exactly (checked below).
    EXPECT_NEAR(static_cast<double>(iv.counters[0]), static_cast<double>(iv.events * 10),
                0.2 * static_cast<double>(iv.events * 10) + 20);
    // An interval holds about 0.1 s of events, far fewer than the whole run.
    EXPECT_LT(iv.events, r.events);
    sum += iv.events;
  }
  EXPECT_LE(sum, r.events);
  EXPECT_EQ(r.intervals.size(), obs.intervals.size());
  ASSERT_EQ(r.counters.size(), 1u);
  EXPECT_EQ(r.counters[0], r.events * 10);
}

TEST(RunnerTest, CheckpointReportsAndResets) {
  FakeWorkload w;
  w.sleep_ns = 200 * kNanosPerMicro;
  RunConfig c = Config(1, 0.4, 0);
  c.report_checkpoints = {"0.2"};
  CollectingObserver obs;
  RunResult r = MustRun(w, c, &obs);
  ASSERT_EQ(obs.checkpoints.size(), 1u);
  const RunResult& cp = obs.checkpoints[0];
  EXPECT_TRUE(cp.checkpoint);
  EXPECT_GT(cp.events, 0u);
  EXPECT_NEAR(cp.total_time_s, 0.2, 0.05);
  // The final report covers only the time after the checkpoint.
  EXPECT_NEAR(r.total_time_s, 0.2, 0.1);
  EXPECT_EQ(cp.events + r.events, w.executed.load());
}

TEST(RunnerTest, RateLimitIsOpenLoopAndReportsServiceTime) {
  FakeWorkload w;
  RunConfig c = Config(2, 0.5, 0);
  c.rate = 200;
  RunResult r = MustRun(w, c);
  // Events 0..99 are due in [0, 0.5 s): never more than the schedule allows.
  EXPECT_LE(r.events, 100u);
  EXPECT_GE(r.events, 90u);
  ASSERT_TRUE(r.service.has_value());
  ASSERT_TRUE(r.rate.has_value());
  EXPECT_EQ(r.rate->target, 200);
  EXPECT_EQ(r.service->histogram.Count(), r.events);
  // Latency from the intended start is never shorter than the service time.
  EXPECT_GE(r.latency[0].histogram.moments().sum, r.service->histogram.moments().sum);
}

TEST(RunnerTest, RateThatCannotBeKeptKeepsRunningAndSaysHowFarBehind) {
  FakeWorkload w;
  w.sleep_ns = 5 * kNanosPerMilli;  // at most ~200 events/s on one thread
  RunConfig c = Config(1, 0.4, 0);
  c.rate = 1000;
  RunResult r = MustRun(w, c);
  EXPECT_OK(r.failure);
  ASSERT_TRUE(r.rate.has_value());
  EXPECT_GE(r.total_time_s, 0.4);
  EXPECT_GT(r.rate->late_events, 0u);
  EXPECT_GT(r.rate->final_lag_ms, 100.0);
  EXPECT_GT(r.rate->max_lag_ms, 50.0);
  // Coordinated omission is corrected: the queueing delay is in the latency.
  // Against the service median: one sleep stretched by a loaded machine
  // (a sanitizer build beside other work) moves the service p99, not it.
  ASSERT_TRUE(r.service.has_value());
  EXPECT_GT(r.latency[0].histogram.Percentile(99), 5 * r.service->histogram.Percentile(50));
}

TEST(RunnerTest, WorkerErrorFailsTheRunAndKeepsTheFigures) {
  FakeWorkload w;
  w.fail_at = 5;
  RunResult r = MustRun(w, Config(1, 0, 100));
  EXPECT_FALSE(r.failure.ok());
  EXPECT_EQ(r.failure.message(), "disk on fire");
  EXPECT_EQ(r.events, 4u);
  EXPECT_EQ(r.errors, 1u);
}

TEST(RunnerTest, EintrFromAWorkerFailsTheRunInsteadOfInterruptingIt) {
  FakeWorkload w;
  w.fail_at = 3;
  w.fail_with = PosixError("pread test_file.0", EINTR);
  RunResult r = MustRun(w, Config(1, 0, 100));
  EXPECT_FALSE(r.interrupted);
  ASSERT_FALSE(r.failure.ok());
  EXPECT_EQ(r.failure.code(), StatusCode::kIoError);
  EXPECT_EQ(r.failure.err(), EINTR);
  // The command line exits with ExitCodeFor(failure): a failed run (1), not
  // an interrupted one (130).
  EXPECT_EQ(ExitCodeFor(r.failure), 1);
  EXPECT_EQ(r.events, 2u);
}

TEST(RunnerTest, EndOfWorkIsRecognisedByItsCodeAlone) {
  FakeWorkload w;
  w.fail_at = 4;
  w.fail_with = Status(StatusCode::kEndOfWork, "");  // no message to compare
  RunResult r = MustRun(w, Config(2, 0, 0));
  EXPECT_TRUE(r.failure.ok()) << r.failure.ToString();
  EXPECT_EQ(r.events, 6u);  // 3 per thread, then end of work
  EXPECT_EQ(r.errors, 0u);

  // A cancellation that happens to read "end of work" is not end of work.
  FakeWorkload c;
  c.fail_at = 2;
  c.fail_with = Status::Cancelled("end of work");
  RunResult rc = MustRun(c, Config(1, 0, 10));
  EXPECT_EQ(rc.failure.code(), StatusCode::kCancelled);
  EXPECT_EQ(rc.errors, 1u);
}

TEST(RunnerTest, WorkerCreationErrorStopsBeforeTheRun) {
  FakeWorkload w;
  w.fail_create = true;
  CollectingObserver obs;
  auto r = RunWorkload(w, Config(3, 1, 0), Manifest{}, &obs);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "cannot open the thing");
  EXPECT_EQ(w.executed.load(), 0u);
  EXPECT_EQ(obs.threads_started, 0);
}

TEST(RunnerTest, SeedIsRecordedAndThreadSeedsRepeat) {
  FakeWorkload a, b;
  RunResult ra = MustRun(a, Config(3, 0, 30));
  RunResult rb = MustRun(b, Config(3, 0, 30));
  EXPECT_EQ(ra.manifest.seed, 7u);
  EXPECT_FALSE(ra.manifest.seed_from_time);
  std::set<uint64_t> sa(a.seeds.begin(), a.seeds.end());
  std::set<uint64_t> sb(b.seeds.begin(), b.seeds.end());
  EXPECT_EQ(sa.size(), 3u);  // every thread its own seed
  EXPECT_EQ(sa, sb);         // and the same ones again
}

TEST(RunnerTest, SelfTimedWorkersRecordTheirOwnKinds) {
  FakeWorkload w;
  w.self_timed = true;
  RunResult r = MustRun(w, Config(1, 0, 50));
  ASSERT_EQ(r.latency.size(), 2u);
  EXPECT_EQ(r.latency[0].kind, "event");
  EXPECT_EQ(r.latency[1].kind, "read");
  EXPECT_EQ(r.latency[1].histogram.Count(), 50u);
  EXPECT_EQ(r.latency[0].histogram.Min(), 1000u);
  EXPECT_EQ(r.latency[1].histogram.Max(), 500u);
}

// A self-timed worker that keeps `depth` requests of `service` ns each in
// flight, as an asynchronous I/O engine does: one event per completion, its
// latency from the request's start; the busy time is reported as it passes
// (always something outstanding).
class OverlapWorkload final : public TestWorkload {
 public:
  static constexpr size_t kDepth = 4;
  static constexpr Nanos kService = 2 * kNanosPerMilli;

  OverlapWorkload() : TestWorkload(MakeInfo()) {}
  static WorkloadInfo MakeInfo() {
    WorkloadInfo info = TestInfo("overlap", "overlapping events", "one completion");
    info.self_timed = true;
    info.reports_busy_time = true;
    return info;
  }
  Result<std::unique_ptr<Worker>> NewWorker(const ThreadContext& ctx) override {
    return std::unique_ptr<Worker>(new OverlapWorker(ctx.recorder));
  }

 private:
  class OverlapWorker final : public Worker {
   public:
    explicit OverlapWorker(ThreadRecorder* rec) : rec_(rec) {}
    Status RunEvent() override {
      if (started_.empty()) {
        last_ = MonotonicNow();
        started_.assign(kDepth, last_);
      }
      // The oldest request completes `kService` after its start.
      const Nanos due = started_.front() + kService;
      for (Nanos now = MonotonicNow(); now < due; now = MonotonicNow()) {
        std::this_thread::sleep_for(std::chrono::nanoseconds(due - now));
      }
      const Nanos now = MonotonicNow();
      rec_->RecordEvent(static_cast<uint64_t>(now - started_.front()));
      rec_->AddBusy(static_cast<uint64_t>(now - last_));
      last_ = now;
      started_.erase(started_.begin());
      started_.push_back(now);  // the next request starts at once
      return Status::Ok();
    }

   private:
    ThreadRecorder* rec_;
    std::vector<Nanos> started_;
    Nanos last_ = 0;
  };
};

TEST(RunnerTest, OverlappingEventsCountTheirWallTimeOnceAsBusyTime) {
  OverlapWorkload w;
  RunResult r = MustRun(w, Config(2, 0, 160));
  ASSERT_EQ(r.events, 160u);
  ASSERT_EQ(r.threads.size(), 2u);
  int checked = 0;
  for (const ThreadFigures& t : r.threads) {
    EXPECT_LE(t.busy_time_s, r.total_time_s);
    // A thread that started late may have run only a few events.
    if (t.events < 2 * OverlapWorkload::kDepth) continue;
    ++checked;
    // Every event lasted at least kService, so the latencies sum to at
    // least events x kService.
    EXPECT_GE(t.exec_time_s, static_cast<double>(t.events) * 2e-3);
    EXPECT_GT(t.busy_time_s, 0);
    // kDepth requests run side by side: the sum of latencies counts the
    // same wall time about kDepth times over.
    EXPECT_LT(t.busy_time_s, t.exec_time_s / 2) << t.busy_time_s << " vs " << t.exec_time_s;
  }
  EXPECT_GE(checked, 1);
}

TEST(RunnerTest, BusyTimeIsTheLatencySumWhenEventsRunOneAtATime) {
  for (bool self_timed : {false, true}) {
    FakeWorkload w;
    w.self_timed = self_timed;
    RunResult r = MustRun(w, Config(2, 0, 400));
    ASSERT_EQ(r.threads.size(), 2u);
    for (const ThreadFigures& t : r.threads) {
      EXPECT_DOUBLE_EQ(t.busy_time_s, t.exec_time_s) << self_timed;
    }
    EXPECT_GT(r.threads[0].exec_time_s + r.threads[1].exec_time_s, 0);
  }
}

// A self-paced worker: takes each intended start from the pacer, waits for
// it, and records latency from it and service time from its own start.
class PacedWorkload final : public TestWorkload {
 public:
  std::atomic<int> with_pacer{0};
  std::atomic<int> without_pacer{0};

  PacedWorkload() : TestWorkload(MakeInfo()) {}
  static WorkloadInfo MakeInfo() {
    WorkloadInfo info = TestInfo("paced", "self-paced events", "one call");
    info.self_timed = true;
    info.self_paced = true;
    return info;
  }
  Result<std::unique_ptr<Worker>> NewWorker(const ThreadContext& ctx) override {
    ++(ctx.pacer != nullptr ? with_pacer : without_pacer);
    return std::unique_ptr<Worker>(new PacedWorker(ctx));
  }

 private:
  class PacedWorker final : public Worker {
   public:
    explicit PacedWorker(const ThreadContext& ctx) : rec_(ctx.recorder), pacer_(ctx.pacer) {}
    Status RunEvent() override {
      if (pacer_ == nullptr) {
        rec_->RecordEvent(1000);
        return Status::Ok();
      }
      const Nanos intended = pacer_->TakeStart();
      if (intended == Pacer::kNoStart) return EndOfWork();
      while (MonotonicNow() < intended) {
        if (pacer_->Stopping()) return EndOfWork();
        std::this_thread::sleep_for(std::chrono::microseconds(100));
      }
      const Nanos t0 = MonotonicNow();
      pacer_->Started(intended, t0);
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      const Nanos t1 = MonotonicNow();
      rec_->RecordEvent(static_cast<uint64_t>(t1 - intended));
      rec_->RecordService(static_cast<uint64_t>(t1 - t0));
      return Status::Ok();
    }

   private:
    ThreadRecorder* rec_;
    Pacer* pacer_;
  };
};

TEST(RunnerTest, SelfPacedWorkersGetThePacerOnlyUnderARate) {
  PacedWorkload closed;
  RunResult rc = MustRun(closed, Config(2, 0, 20));
  EXPECT_EQ(rc.events, 20u);
  EXPECT_EQ(closed.with_pacer.load(), 0);
  EXPECT_FALSE(rc.service.has_value());

  PacedWorkload open;
  RunConfig c = Config(2, 0.3, 0);
  c.rate = 200;
  RunResult ro = MustRun(open, c);
  EXPECT_EQ(open.with_pacer.load(), 2);
  // Events 0..59 are due in [0, 0.3 s); the pacer hands out no more.
  EXPECT_LE(ro.events, 60u);
  EXPECT_GE(ro.events, 50u);
  ASSERT_TRUE(ro.service.has_value());
  EXPECT_EQ(ro.service->histogram.Count(), ro.events);
  EXPECT_GE(ro.latency[0].histogram.moments().sum, ro.service->histogram.moments().sum);
  ASSERT_TRUE(ro.rate.has_value());

  // With --events, the budget still counts exactly.
  PacedWorkload limited;
  RunConfig l = Config(3, 0, 30);
  l.rate = 500;
  l.warmup_s = 0.02;
  RunResult rl = MustRun(limited, l);
  EXPECT_EQ(rl.events, 30u);
  ASSERT_TRUE(rl.service.has_value());
  EXPECT_EQ(rl.service->histogram.Count(), 30u);
}

TEST(RunnerTest, ForcedShutdownLeavesHungThreadsBehind) {
  FakeWorkload* w = new FakeWorkload();  // hung threads may use it after the run
  w->hang = true;
  RunConfig c = Config(2, 0.1, 0);
  c.forced_shutdown = "0.1";
  RunResult r = MustRun(*w, c);
  EXPECT_TRUE(r.forced_shutdown);
  EXPECT_GE(r.total_time_s, 0.1);
  w->hang = false;  // let the abandoned threads finish; `w` stays allocated
  static FakeWorkload* keep_alive = nullptr;
  keep_alive = w;
  (void)keep_alive;
}

}  // namespace
}  // namespace loadcell
