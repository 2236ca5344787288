#include "workloads/micro/cpu.h"

#include <gtest/gtest.h>

#include <vector>

#include "testing/status.h"
#include "testing/workload_test_util.h"

namespace loadcell {
namespace {

// Primes p with 3 <= p < limit, by a sieve (an independent oracle).
uint64_t SievePrimesBelow(uint64_t limit) {
  if (limit < 4) return 0;
  std::vector<bool> composite(limit, false);
  uint64_t count = 0;
  for (uint64_t i = 2; i < limit; ++i) {
    if (composite[i]) continue;
    if (i >= 3) ++count;
    for (uint64_t j = i * i; j < limit; j += i) composite[j] = true;
  }
  return count;
}

TEST(CountPrimesBelow, MatchesKnownCounts) {
  EXPECT_EQ(CountPrimesBelow(10000), 1228u);  // pi(10^4) = 1229, minus the prime 2
  EXPECT_EQ(CountPrimesBelow(20000), 2261u);  // pi(20000) = 2262
  EXPECT_EQ(CountPrimesBelow(3), 0u);
  EXPECT_EQ(CountPrimesBelow(4), 1u);   // {3}
  EXPECT_EQ(CountPrimesBelow(11), 3u);  // {3, 5, 7}: the limit is excluded
  EXPECT_EQ(CountPrimesBelow(12), 4u);  // {3, 5, 7, 11}
}

TEST(CountPrimesBelow, MatchesSieveForSmallLimits) {
  for (uint64_t limit = 3; limit < 600; ++limit) {
    ASSERT_EQ(CountPrimesBelow(limit), SievePrimesBelow(limit)) << "limit " << limit;
  }
  // Perfect squares of primes are the edge of the sqrt bound.
  for (uint64_t limit : {25u, 26u, 49u, 50u, 121u, 122u, 169u, 170u, 10201u, 10202u}) {
    ASSERT_EQ(CountPrimesBelow(limit), SievePrimesBelow(limit)) << "limit " << limit;
  }
}

TEST(CpuWorkload, DefaultsAndDescribe) {
  CpuWorkload w;
  ASSERT_OK(testing::Configure(w, {}));
  EXPECT_EQ(w.max_prime(), 10000u);
  auto d = w.Describe();
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].first, "Prime numbers limit");
  EXPECT_EQ(d[0].second, "10000");
}

TEST(CpuWorkload, WorkerRunsEvents) {
  CpuWorkload w;
  ASSERT_OK(testing::Configure(w, {{"cpu-max-prime", "100"}}));
  ASSERT_OK(w.Init(1));
  auto worker = w.NewWorker(ThreadContext{});
  ASSERT_OK(worker);
  for (int i = 0; i < 3; ++i) EXPECT_OK((*worker)->RunEvent());
  EXPECT_OK((*worker)->Finish());
}

TEST(CpuWorkload, RejectsTooSmallLimit) {
  CpuWorkload w;
  Status s = testing::Configure(w, {{"cpu-max-prime", "2"}});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("--cpu-max-prime"), std::string::npos) << s.message();
}

TEST(CpuWorkload, AcceptsLargerLimit) {
  CpuWorkload w;
  ASSERT_OK(testing::Configure(w, {{"cpu-max-prime", "20000"}}));
  EXPECT_EQ(w.max_prime(), 20000u);
}

TEST(CpuWorkload, TextSectionHasSysbenchShape) {
  CpuWorkload w;
  RunResult r;
  r.events = 100;
  r.total_time_s = 2;
  EXPECT_EQ(w.TextSection(r), "CPU speed:\n    events per second:    50.00\n");
}

}  // namespace
}  // namespace loadcell
