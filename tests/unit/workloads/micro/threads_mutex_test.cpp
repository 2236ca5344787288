#include <gtest/gtest.h>

#include <memory>
#include <thread>
#include <vector>

#include "testing/status.h"
#include "testing/workload_test_util.h"
#include "workloads/micro/memory.h"
#include "workloads/micro/mutex.h"
#include "workloads/micro/null.h"
#include "workloads/micro/threads.h"

namespace loadcell {
namespace {

// Creates one worker per thread (on the calling thread), then runs
// `events` events on each from its own std::thread; returns the statuses.
std::vector<Status> RunOnThreads(Workload& w, int threads, int events) {
  std::vector<std::unique_ptr<Worker>> workers;
  for (int t = 0; t < threads; ++t) {
    ThreadContext ctx;
    ctx.thread_id = t;
    ctx.num_threads = threads;
    ctx.seed = 1000 + t;
    auto worker = w.NewWorker(ctx);
    EXPECT_OK(worker);
    workers.push_back(std::move(worker).value());
  }
  std::vector<Status> statuses(static_cast<size_t>(threads * events));
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      for (int e = 0; e < events; ++e) statuses[t * events + e] = workers[t]->RunEvent();
      EXPECT_OK(workers[t]->Finish());
    });
  }
  for (auto& th : pool) th.join();
  return statuses;
}

TEST(ThreadsWorkload, TwoThreadsRunEvents) {
  ThreadsWorkload w;
  ASSERT_OK(testing::Configure(w, {{"thread-yields", "20"}, {"thread-locks", "2"}}, 2));
  ASSERT_OK(w.Init(2));
  for (const Status& s : RunOnThreads(w, 2, 5)) EXPECT_OK(s);
  EXPECT_EQ(w.events_started(), 10u);
  EXPECT_OK(w.Done());
}

TEST(ThreadsWorkload, DefaultsAndValidation) {
  ThreadsWorkload w;
  ASSERT_OK(testing::Configure(w, {}));
  auto d = w.Describe();
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].second, "1000");
  EXPECT_EQ(d[1].second, "8");
  EXPECT_EQ(w.Budget(4).total, 0u);
  EXPECT_EQ(w.Budget(4).per_thread, 0u);

  ThreadsWorkload bad;
  Status s = testing::Configure(bad, {{"thread-locks", "0"}});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("--thread-locks"), std::string::npos) << s.message();
  ThreadsWorkload bad_yields;
  s = testing::Configure(bad_yields, {{"thread-yields", "-1"}});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("--thread-yields"), std::string::npos) << s.message();
}

TEST(ThreadsWorkload, NewWorkerBeforeInitIsAnError) {
  ThreadsWorkload w;
  ASSERT_OK(testing::Configure(w, {}));
  EXPECT_FALSE(w.NewWorker(ThreadContext{}).ok());
}

TEST(MutexWorkload, OneEventPerThreadFromTwoThreads) {
  MutexWorkload w;
  ASSERT_OK(testing::Configure(
      w, {{"mutex-num", "16"}, {"mutex-locks", "2000"}, {"mutex-loops", "50"}}, 2));
  ASSERT_OK(w.Init(2));
  auto statuses = RunOnThreads(w, 2, 2);
  // Per thread: the one event, then end of work.
  for (int t = 0; t < 2; ++t) {
    EXPECT_OK(statuses[t * 2]);
    EXPECT_TRUE(IsEndOfWork(statuses[t * 2 + 1])) << statuses[t * 2 + 1].ToString();
  }
  // Increments under different mutexes may overwrite each other (as in
  // sysbench), so only bounds hold.
  EXPECT_GE(w.shared_increments(), 2000u);
  EXPECT_LE(w.shared_increments(), 4000u);
  EXPECT_OK(w.Done());
}

TEST(MutexWorkload, SingleThreadCountsEveryLock) {
  MutexWorkload w;
  ASSERT_OK(testing::Configure(w, {{"mutex-locks", "1234"}, {"mutex-loops", "0"}}));
  ASSERT_OK(w.Init(1));
  auto statuses = RunOnThreads(w, 1, 1);
  EXPECT_OK(statuses[0]);
  EXPECT_EQ(w.shared_increments(), 1234u);
}

TEST(MutexWorkload, BudgetDescribeAndValidation) {
  MutexWorkload w;
  ASSERT_OK(testing::Configure(w, {}));
  EXPECT_EQ(w.Budget(8).per_thread, 1u);
  EXPECT_EQ(w.Budget(8).total, 0u);
  auto d = w.Describe();
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].second, "4096");
  EXPECT_EQ(d[1].second, "50000");
  EXPECT_EQ(d[2].second, "10000");
  EXPECT_EQ(alignof(PaddedMutex), 256u);

  for (const char* opt : {"mutex-num", "mutex-locks"}) {
    MutexWorkload bad;
    Status s = testing::Configure(bad, {{opt, "0"}});
    ASSERT_FALSE(s.ok()) << opt;
    EXPECT_NE(s.message().find(std::string("--") + opt), std::string::npos) << s.message();
  }
  MutexWorkload bad_loops;
  Status s = testing::Configure(bad_loops, {{"mutex-loops", "-5"}});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("--mutex-loops"), std::string::npos) << s.message();
}

TEST(MemoryWorkload, GlobalBlockWrittenAndReadFromTwoThreads) {
  for (const char* oper : {"write", "read"}) {
    for (const char* mode : {"seq", "rnd"}) {
      MemoryWorkload w;
      ASSERT_OK(testing::Configure(
          w, {{"memory-block-size", "4K"}, {"memory-oper", oper}, {"memory-access-mode", mode}},
          2));
      ASSERT_OK(w.Init(2));
      for (const Status& s : RunOnThreads(w, 2, 50)) EXPECT_OK(s) << oper << " " << mode;
    }
  }
}

TEST(NullWorkload, EventsDoNothingAndSucceed) {
  NullWorkload w;
  ASSERT_OK(testing::Configure(w, {}));
  for (const Status& s : RunOnThreads(w, 2, 100)) EXPECT_OK(s);
}

}  // namespace
}  // namespace loadcell
