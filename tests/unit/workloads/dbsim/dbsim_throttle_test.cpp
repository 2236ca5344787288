// SQLIOSim's throttle (TargetIODuration, MaxOutstandingIO, AllowIOBursts):
// I/Os slower than the target cut the number admitted at once to one, and
// the next one waits (its wait counted) until the one in flight completes;
// I/Os under the target let the limit grow again; a burst passes it.
#include "workloads/dbsim/dbsim_throttle.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace loadcell {
namespace {

TEST(DbsimIoGate, StartsAtMaxOutstandingAndAdmitsThatManyAtOnce) {
  DbsimIoGate gate(100, 3);
  EXPECT_EQ(gate.limit(), 3);
  DbsimIoSlot a = gate.Enter(false);
  DbsimIoSlot b = gate.Enter(false);
  DbsimIoSlot c = gate.Enter(false);
  std::atomic<bool> admitted{false};
  std::thread fourth([&] {
    DbsimIoSlot d = gate.Enter(false);
    admitted = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(admitted.load());  // the fourth waits for a slot
  a.Done();
  fourth.join();
  EXPECT_TRUE(admitted.load());
  EXPECT_EQ(DbsimIoGate(100, 0).limit(), DbsimIoGate::kMaxOutstanding);
}

TEST(DbsimIoGate, IosSlowerThanTheTargetCutTheLimitAndTheNextOneWaits) {
  DbsimIoGate gate(1, 0);  // a 1 ms target, no MaxOutstandingIO
  for (int i = 0; i < 40; ++i) {
    DbsimIoSlot slot = gate.Enter(false);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    slot.Done();
  }
  EXPECT_GT(gate.average_ns(), 1'000'000);
  EXPECT_EQ(gate.limit(), 1);
  DbsimIoSlot held = gate.Enter(false);
  std::atomic<bool> admitted{false};
  int64_t waited = 0;
  std::thread second([&] {
    DbsimIoSlot slot = gate.Enter(false);
    admitted = true;
    waited = slot.waited_ns();
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_FALSE(admitted.load());  // throttled while the first is in flight
  held.Done();
  second.join();
  EXPECT_TRUE(admitted.load());
  EXPECT_GT(waited, 0);  // the wait is what the user's report counts
  // A burst (AllowIOBursts) passes the throttle while an I/O is in flight.
  DbsimIoSlot again = gate.Enter(false);
  std::atomic<bool> burst_admitted{false};
  std::thread burst([&] {
    DbsimIoSlot slot = gate.Enter(true);
    burst_admitted = true;
  });
  burst.join();
  EXPECT_TRUE(burst_admitted.load());
}

TEST(DbsimIoGate, IosUnderTheTargetLetTheLimitGrowBack) {
  DbsimIoGate gate(50, 8);
  for (int i = 0; i < 20; ++i) {
    DbsimIoSlot slot = gate.Enter(false);
    std::this_thread::sleep_for(std::chrono::milliseconds(60));
    slot.Done();
  }
  EXPECT_EQ(gate.limit(), 1);
  // Fast I/Os: the average falls under the target, the limit climbs to 8.
  for (int i = 0; i < 200; ++i) gate.Enter(false).Done();
  EXPECT_LT(gate.average_ns(), 50'000'000);
  EXPECT_EQ(gate.limit(), 8);
}

}  // namespace
}  // namespace loadcell
