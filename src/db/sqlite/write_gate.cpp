#include "db/sqlite/write_gate.h"

#include <algorithm>
#include <chrono>

namespace loadcell {

bool WriteGate::Enter(double timeout_s) {
  std::unique_lock<std::mutex> lock(mu_);
  if (!held_ && queue_.empty()) {
    held_ = true;
    return true;
  }
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(std::max(timeout_s, 0.0)));
  auto me = queue_.emplace(queue_.end());
  // Leave hands the gate straight to the oldest waiter (held_ stays true, so
  // no newcomer slips in between) and sets its `turn`; the waiter then
  // leaves the queue itself, as does one whose time ran out.
  if (me->cv.wait_until(lock, deadline, [&] { return me->turn; })) {
    queue_.erase(me);
    return true;
  }
  queue_.erase(me);
  return false;
}

void WriteGate::Leave() {
  std::lock_guard<std::mutex> lock(mu_);
  for (Waiter& w : queue_) {
    if (!w.turn) {
      w.turn = true;  // the gate passes to the oldest waiter, still held
      w.cv.notify_one();
      return;
    }
  }
  held_ = false;
}

size_t WriteGate::waiting() const {
  std::lock_guard<std::mutex> lock(mu_);
  return queue_.size();
}

}  // namespace loadcell
