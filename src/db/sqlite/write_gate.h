#pragma once

// A first-come, first-served gate for SQLite's one writer at a time.
//
// SQLite lets one connection write at a time and makes the others wait in a
// busy handler that sleeps and polls (1, 2, 5, ... 100 ms). A thread that
// commits and begins again at once wins the lock nearly every time, so under
// a write-heavy load one thread did almost all transactions while the others
// waited whole seconds: the run measured the busy handler's sleeps, not
// SQLite. Connections of one driver (one file) instead queue here before
// they write and leave when their transaction ends, in the order they came.
// Other processes on the same file still meet SQLite's busy handler.

#include <condition_variable>
#include <cstddef>
#include <list>
#include <mutex>

namespace loadcell {

class WriteGate {
 public:
  // Waits for the caller's turn, at most `timeout_s` seconds. False when the
  // time ran out (the caller is then out of the queue).
  bool Enter(double timeout_s);
  // Ends the caller's turn; the longest waiting caller goes next.
  void Leave();

  // For tests: callers waiting now.
  size_t waiting() const;

 private:
  // One waiting caller, woken alone when its turn comes (waking every
  // waiter at each hand-over cost a quarter of the transactions of a
  // 4-thread write load).
  struct Waiter {
    std::condition_variable cv;
    bool turn = false;  // handed the gate by Leave
  };

  mutable std::mutex mu_;
  std::list<Waiter> queue_;  // oldest first
  bool held_ = false;
};

}  // namespace loadcell
