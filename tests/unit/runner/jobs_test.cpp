#include "runner/jobs.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <thread>
#include <vector>

#include "runner/merge_results.h"
#include "testing/status.h"
#include "unit/runner/fake_workload.h"

namespace loadcell {
namespace {

using testing::Config;
using testing::FakeWorkload;

Job MakeJob(const std::string& name, FakeWorkload& w, RunConfig cfg) {
  Job j;
  j.name = name;
  j.workload = &w;
  j.cfg = cfg;
  return j;
}

TEST(JobsTest, JobsOfAGroupRunTogetherAndMergeExactly) {
  FakeWorkload a, b;
  a.sleep_ns = b.sleep_ns = 2 * kNanosPerMilli;
  std::vector<JobGroup> groups(1);
  groups[0].jobs.push_back(MakeJob("a", a, Config(2, 0, 40)));
  groups[0].jobs.push_back(MakeJob("b", b, Config(1, 0, 30)));
  auto r = RunJobs(groups);
  ASSERT_OK(r);
  ASSERT_EQ(r->jobs.size(), 2u);
  EXPECT_EQ(r->jobs[0].name, "a");
  EXPECT_EQ(r->jobs[0].result.events, 40u);
  EXPECT_EQ(r->jobs[1].result.events, 30u);
  EXPECT_EQ(r->jobs[1].result.threads.size(), 1u);
  // Released together: both started within a few milliseconds of each other
  // (each runs for at least 60 ms).
  const int64_t skew = r->jobs[0].result.window_start_ns - r->jobs[1].result.window_start_ns;
  EXPECT_LT(std::llabs(skew), 20 * kNanosPerMilli);
  ASSERT_EQ(r->groups.size(), 1u);
  const RunResult& g = r->groups[0];
  EXPECT_EQ(g.events, 70u);
  EXPECT_EQ(g.latency[0].histogram.Count(), 70u);
  EXPECT_EQ(g.threads.size(), 3u);
  EXPECT_EQ(g.manifest.threads, 3);
  ASSERT_EQ(g.counters.size(), 1u);
  EXPECT_EQ(g.counters[0], 700u);
  EXPECT_EQ(g.window_start_ns,
            std::min(r->jobs[0].result.window_start_ns, r->jobs[1].result.window_start_ns));
  EXPECT_EQ(g.window_end_ns,
            std::max(r->jobs[0].result.window_end_ns, r->jobs[1].result.window_end_ns));
  EXPECT_EQ(r->total.events, 70u);
  EXPECT_EQ(a.executed.load(), 40u);
  EXPECT_EQ(b.executed.load(), 30u);
}

TEST(JobsTest, AJobWithAStartDelayStartsThatMuchLaterAndRunsItsWholeTime) {
  FakeWorkload a, b;
  std::vector<JobGroup> groups(1);
  RunConfig late = Config(1, 0.1, 0);
  // A delay far above the run's 0.1 s, so that a loaded machine's slow
  // 0.1 s cannot pass for it.
  late.start_delay_s = 2;
  groups[0].jobs.push_back(MakeJob("a", a, Config(1, 0.1, 0)));
  groups[0].jobs.push_back(MakeJob("late", b, late));
  auto r = RunJobs(groups);
  ASSERT_OK(r);
  const RunResult& ra = r->jobs[0].result;
  const RunResult& rb = r->jobs[1].result;
  // Released with its group, it waited its delay (a lower bound: a wait is
  // never shorter), and its time limit counts from its own start.
  // (Job a's own start may come a little after the release: 1.9 s.)
  EXPECT_GE(rb.window_start_ns - ra.window_start_ns, 1900 * kNanosPerMilli);
  EXPECT_GE(rb.total_time_s, 0.1);
  // The delay is not in its measured time (it would make it 2.1 s or more).
  EXPECT_LT(rb.total_time_s, 2.0);
  EXPECT_GT(rb.events, 0u);
}

TEST(JobsTest, GroupsRunOneAfterAnother) {
  FakeWorkload a, b;
  a.sleep_ns = b.sleep_ns = kNanosPerMilli;
  std::vector<JobGroup> groups(2);
  groups[0].jobs.push_back(MakeJob("first", a, Config(1, 0, 20)));
  groups[1].jobs.push_back(MakeJob("second", b, Config(1, 0, 20)));
  auto r = RunJobs(groups);
  ASSERT_OK(r);
  ASSERT_EQ(r->jobs.size(), 2u);
  EXPECT_EQ(r->jobs[1].group, 1);
  EXPECT_GE(r->jobs[1].result.window_start_ns, r->jobs[0].result.window_end_ns);
  ASSERT_EQ(r->groups.size(), 2u);
  EXPECT_EQ(r->groups[0].events, 20u);
  EXPECT_EQ(r->groups[1].events, 20u);
  EXPECT_EQ(r->total.events, 40u);
  EXPECT_EQ(r->total.window_start_ns, r->jobs[0].result.window_start_ns);
  EXPECT_EQ(r->total.window_end_ns, r->jobs[1].result.window_end_ns);
}

TEST(JobsTest, AJobThatCannotStartKeepsItsGroupFromStarting) {
  FakeWorkload a, b, later;
  b.fail_create = true;
  std::vector<JobGroup> groups(2);
  groups[0].jobs.push_back(MakeJob("a", a, Config(1, 0, 10)));
  groups[0].jobs.push_back(MakeJob("b", b, Config(1, 0, 10)));
  groups[1].jobs.push_back(MakeJob("later", later, Config(1, 0, 10)));
  auto r = RunJobs(groups);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("job b: cannot open the thing"), std::string::npos)
      << r.status().ToString();
  EXPECT_EQ(a.executed.load(), 0u);
  EXPECT_EQ(later.executed.load(), 0u);
}

TEST(JobsTest, AFailedJobIsNamedAndLaterGroupsStillRun) {
  FakeWorkload bad, good;
  bad.fail_at = 3;
  std::vector<JobGroup> groups(2);
  groups[0].jobs.push_back(MakeJob("bad", bad, Config(1, 0, 10)));
  groups[1].jobs.push_back(MakeJob("good", good, Config(1, 0, 10)));
  auto r = RunJobs(groups);
  ASSERT_OK(r);
  EXPECT_FALSE(r->jobs[0].result.failure.ok());
  EXPECT_EQ(r->groups[0].failure.message(), "job bad: disk on fire");
  EXPECT_EQ(r->total.failure.message(), "job bad: disk on fire");
  EXPECT_EQ(r->jobs[1].result.events, 10u);
  EXPECT_OK(r->groups[1].failure);
}

// Another process' part of a group, as the group sees it: one start, polls
// that may say stop, one FinishRuns with every job's result in order.
class FakeAcross final : public RunCoordinator {
 public:
  Status Start(const Status& ready) override {
    ++starts;
    start_thread = std::this_thread::get_id();
    return refuse.ok() ? ready : refuse;
  }
  void Poll(Nanos, CoordinatorNews& news) override {
    ++polls;
    if (stop_after_polls > 0 && polls >= stop_after_polls) news.stop = true;
  }
  void FinishRuns(const std::vector<RunResult*>& results) override {
    ++finishes;
    finish_thread = std::this_thread::get_id();
    for (RunResult* r : results) {
      events.push_back(r->events);
      r->events *= 2;  // as a merge with another process' same run
    }
  }
  Status refuse;
  int stop_after_polls = 0;
  std::atomic<int> starts{0}, polls{0}, finishes{0};
  std::thread::id start_thread, finish_thread;
  std::vector<uint64_t> events;
};

TEST(JobsTest, AGroupAcrossProcessesStartsOnceAndFinishesEveryJobAtOnce) {
  FakeWorkload a, b;
  a.sleep_ns = b.sleep_ns = kNanosPerMilli;
  FakeAcross across;
  std::vector<JobGroup> groups(1);
  groups[0].jobs.push_back(MakeJob("a", a, Config(1, 0, 5)));
  groups[0].jobs.push_back(MakeJob("b", b, Config(2, 0, 60)));
  groups[0].across = &across;
  auto r = RunJobs(groups);
  ASSERT_OK(r);
  EXPECT_EQ(across.starts.load(), 1);
  EXPECT_EQ(across.finishes.load(), 1);
  // From the thread that called RunJobs (MPI's), with both jobs' results.
  EXPECT_EQ(across.start_thread, std::this_thread::get_id());
  EXPECT_EQ(across.finish_thread, std::this_thread::get_id());
  EXPECT_EQ(across.events, (std::vector<uint64_t>{5, 60}));
  EXPECT_EQ(r->jobs[0].result.events, 10u);  // the merged results are the jobs'
  EXPECT_EQ(r->jobs[1].result.events, 120u);
  EXPECT_EQ(r->groups[0].events, 130u);
  EXPECT_GT(across.polls.load(), 0);  // a's end did not stop the polls
}

TEST(JobsTest, AStopFromTheOtherProcessesStopsEveryJobOfTheGroup) {
  FakeWorkload a, b;
  a.sleep_ns = b.sleep_ns = kNanosPerMilli;
  FakeAcross across;
  across.stop_after_polls = 2;
  std::vector<JobGroup> groups(1);
  groups[0].jobs.push_back(MakeJob("a", a, Config(1, 30, 0)));
  groups[0].jobs.push_back(MakeJob("b", b, Config(1, 30, 0)));
  groups[0].across = &across;
  auto r = RunJobs(groups);
  ASSERT_OK(r);
  // Both stopped long before their 30 s.
  EXPECT_LT(r->jobs[0].result.total_time_s, 10);
  EXPECT_LT(r->jobs[1].result.total_time_s, 10);
  EXPECT_EQ(across.finishes.load(), 1);
}

TEST(JobsTest, AGroupTheOtherProcessesRefuseDoesNotStart) {
  FakeWorkload a, b;
  FakeAcross across;
  across.refuse = Status::InvalidArgument("rank 1 (h): not ready");
  std::vector<JobGroup> groups(1);
  groups[0].jobs.push_back(MakeJob("a", a, Config(1, 0, 10)));
  groups[0].jobs.push_back(MakeJob("b", b, Config(1, 0, 10)));
  groups[0].across = &across;
  auto r = RunJobs(groups);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "rank 1 (h): not ready");
  EXPECT_EQ(a.executed.load() + b.executed.load(), 0u);
  EXPECT_EQ(across.finishes.load(), 0);
}

TEST(JobsTest, EmptyGroupsAndJobsWithoutATestAreRefused) {
  std::vector<JobGroup> none;
  EXPECT_EQ(RunJobs(none).status().code(), StatusCode::kInvalidArgument);
  std::vector<JobGroup> empty(1);
  EXPECT_EQ(RunJobs(empty).status().code(), StatusCode::kInvalidArgument);
  std::vector<JobGroup> no_test(1);
  no_test[0].jobs.push_back(Job{});
  EXPECT_EQ(RunJobs(no_test).status().code(), StatusCode::kInvalidArgument);
}

class ManyCounters final : public Workload {
 public:
  WorkloadInfo Info() const override {
    WorkloadInfo i = testing::TestInfo("many", "too many counters", "none");
    i.counter_names.assign(kMaxCounters + 1, "c");
    return i;
  }
  void RegisterOptions(OptionSet&) override {}
  Result<std::unique_ptr<Worker>> NewWorker(const ThreadContext&) override {
    return Status::Internal("never made");
  }
};

TEST(JobsTest, AWorkloadWithMoreCountersThanARecorderKeepsIsRefused) {
  ManyCounters w;
  auto r = RunWorkload(w, Config(1, 0, 1), Manifest{}, nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInternal);
  EXPECT_NE(r.status().message().find("more counters"), std::string::npos);
}

TEST(MergeResultsTest, KindsAndCountersAreMatchedByName) {
  RunResult x, y;
  x.latency = {{"event", {}}, {"read", {}}};
  x.latency[0].histogram.Record(1000);
  x.latency[1].histogram.Record(1000);
  x.counter_names = {"reads", "bytes"};
  x.counters = {1, 4096};
  x.events = 1;
  y.latency = {{"event", {}}, {"write", {}}};
  y.latency[0].histogram.Record(3000);
  y.latency[1].histogram.Record(3000);
  y.counter_names = {"bytes", "writes"};
  y.counters = {8192, 1};
  y.events = 1;
  x.window_start_ns = 10;
  x.window_end_ns = 1'000'000'010;
  y.window_start_ns = 5;
  y.window_end_ns = 500;
  auto m = MergeResults({&x, &y}, {}, RateTargets::kAdded);
  ASSERT_OK(m);
  ASSERT_EQ(m->latency.size(), 3u);
  EXPECT_EQ(m->latency[0].histogram.Count(), 2u);
  EXPECT_EQ(m->latency[1].kind, "read");
  EXPECT_EQ(m->latency[1].histogram.Count(), 1u);
  EXPECT_EQ(m->latency[2].kind, "write");
  EXPECT_EQ(m->latency[2].histogram.Count(), 1u);
  ASSERT_EQ(m->counter_names, (std::vector<std::string>{"reads", "bytes", "writes"}));
  EXPECT_EQ(m->counters, (std::vector<uint64_t>{1, 12288, 1}));
  EXPECT_EQ(m->window_start_ns, 5);
  EXPECT_EQ(m->window_end_ns, 1'000'000'010);
  EXPECT_DOUBLE_EQ(m->total_time_s, 1.000000005);
  EXPECT_DOUBLE_EQ(m->events_per_second, 2 / 1.000000005);
}

TEST(MergeResultsTest, RateTargetsAddForJobsAndAreSharedForRanks) {
  RunResult x, y;
  x.rate = RateFigures{100, 0, 2, 5, 1};
  y.rate = RateFigures{50, 0, 3, 9, 0};
  auto added = MergeResults({&x, &y}, {}, RateTargets::kAdded);
  ASSERT_OK(added);
  EXPECT_DOUBLE_EQ(added->rate->target, 150);
  EXPECT_EQ(added->rate->late_events, 5u);
  EXPECT_DOUBLE_EQ(added->rate->max_lag_ms, 9);
  auto shared = MergeResults({&x, &y}, {}, RateTargets::kShared);
  ASSERT_OK(shared);
  EXPECT_DOUBLE_EQ(shared->rate->target, 50);
}

}  // namespace
}  // namespace loadcell
