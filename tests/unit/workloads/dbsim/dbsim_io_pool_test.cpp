// One simulated user's I/Os in flight at once (--user-depth): the pool runs
// every task of a batch, up to its depth at once and never more, and
// returns the first failure; the meter keeps the most in flight at once.
#include "workloads/dbsim/dbsim_io_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace loadcell {
namespace {

TEST(DbsimIoPool, RunsEveryTaskUpToItsDepthAtOnce) {
  DbsimIoPool pool(4);
  EXPECT_EQ(pool.depth(), 4);
  DbsimDepthMeter meter;
  std::mutex mutex;
  std::condition_variable all_in;
  int inside = 0;
  std::vector<int> ran(4, 0);
  // Each task waits (at most 5 s) until all four are inside at once: they
  // can only all get there when the pool runs them together.
  const Status st = pool.Run(4, [&](size_t i) -> Status {
    meter.Enter();
    std::unique_lock lock(mutex);
    ++inside;
    all_in.notify_all();
    all_in.wait_for(lock, std::chrono::seconds(5), [&] { return inside == 4; });
    ++ran[i];
    lock.unlock();
    meter.Leave();
    return Status::Ok();
  });
  EXPECT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(ran, std::vector<int>(4, 1));
  EXPECT_EQ(meter.peak(), 4);
}

TEST(DbsimIoPool, NeverRunsMoreThanItsDepthAndRunsBatchAfterBatch) {
  DbsimIoPool pool(3);
  std::atomic<int> now{0};
  std::atomic<int> most{0};
  std::atomic<int> count{0};
  for (int batch = 0; batch < 5; ++batch) {
    const Status st = pool.Run(10, [&](size_t) -> Status {
      const int n = ++now;
      int m = most.load();
      while (n > m && !most.compare_exchange_weak(m, n)) {
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      --now;
      ++count;
      return Status::Ok();
    });
    EXPECT_TRUE(st.ok());
  }
  EXPECT_EQ(count.load(), 50);
  EXPECT_LE(most.load(), 3);
}

TEST(DbsimIoPool, ReturnsTheFirstFailureAfterEveryTaskRan) {
  for (int depth : {1, 3}) {
    DbsimIoPool pool(depth);
    std::atomic<int> count{0};
    const Status st = pool.Run(6, [&](size_t i) -> Status {
      ++count;
      if (i == 2) return Status::IoError("task 2 failed");
      if (i == 4) return Status::IoError("task 4 failed");
      return Status::Ok();
    });
    EXPECT_EQ(count.load(), 6) << depth;
    EXPECT_EQ(st.message(), "task 2 failed") << depth;
  }
}

TEST(DbsimDepthMeter, KeepsTheMostInFlightAtOnce) {
  DbsimDepthMeter meter;
  EXPECT_EQ(meter.peak(), 0);
  meter.Enter();
  meter.Enter();
  meter.Leave();
  meter.Enter();
  EXPECT_EQ(meter.peak(), 2);
  meter.Enter();
  EXPECT_EQ(meter.peak(), 3);
}

}  // namespace
}  // namespace loadcell
