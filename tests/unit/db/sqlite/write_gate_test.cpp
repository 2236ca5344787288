// The first-come, first-served gate of SQLite's writers.

#include "db/sqlite/write_gate.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

namespace loadcell {
namespace {

// Waits (without a time limit of its own) until `n` callers are queued.
void WaitForQueue(const WriteGate& gate, size_t n) {
  while (gate.waiting() < n) std::this_thread::yield();
}

TEST(WriteGate, CallersGoInTheOrderTheyCame) {
  WriteGate gate;
  ASSERT_TRUE(gate.Enter(0));
  std::mutex mu;
  std::vector<int> order;
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&, i] {
      ASSERT_TRUE(gate.Enter(60));
      {
        std::lock_guard<std::mutex> lock(mu);
        order.push_back(i);
      }
      gate.Leave();
    });
    WaitForQueue(gate, static_cast<size_t>(i + 1));  // i queues before i + 1 starts
  }
  gate.Leave();
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(gate.waiting(), 0u);
}

// A caller that leaves and comes straight back queues behind those waiting:
// the starvation the gate exists to end.
TEST(WriteGate, ComingBackQueuesBehindTheWaiting) {
  WriteGate gate;
  ASSERT_TRUE(gate.Enter(0));
  std::atomic<bool> other_went{false};
  std::thread other([&] {
    ASSERT_TRUE(gate.Enter(60));
    other_went = true;
    gate.Leave();
  });
  WaitForQueue(gate, 1);
  gate.Leave();
  ASSERT_TRUE(gate.Enter(60));
  EXPECT_TRUE(other_went.load());
  gate.Leave();
  other.join();
}

TEST(WriteGate, TimeOutLeavesTheQueue) {
  WriteGate gate;
  ASSERT_TRUE(gate.Enter(0));
  EXPECT_FALSE(gate.Enter(0));
  EXPECT_EQ(gate.waiting(), 0u);
  // A caller queued behind one that gives up still gets its turn.
  std::atomic<bool> gave_up{false};
  std::thread first([&] {
    EXPECT_FALSE(gate.Enter(0.05));
    gave_up = true;
  });
  WaitForQueue(gate, 1);
  std::thread second([&] {
    EXPECT_TRUE(gate.Enter(60));
    gate.Leave();
  });
  WaitForQueue(gate, 2);
  first.join();
  EXPECT_TRUE(gave_up.load());
  EXPECT_EQ(gate.waiting(), 1u);
  gate.Leave();
  second.join();
  EXPECT_EQ(gate.waiting(), 0u);
  EXPECT_TRUE(gate.Enter(0));
  gate.Leave();
}

}  // namespace
}  // namespace loadcell
