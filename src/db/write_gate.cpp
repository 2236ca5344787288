#include "db/write_gate.h"

#include <algorithm>
#include <chrono>

namespace loadcell {

bool WriteGate::Enter(double timeout_s) {
  std::unique_lock<std::mutex> lock(mu_);
  if (!held_ && queue_.empty()) {
    held_ = true;
    return true;
  }
  const uint64_t ticket = next_ticket_++;
  queue_.push_back(ticket);
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(std::max(timeout_s, 0.0)));
  const bool turn = cv_.wait_until(lock, deadline,
                                   [&] { return !held_ && queue_.front() == ticket; });
  if (!turn) {
    queue_.erase(std::find(queue_.begin(), queue_.end(), ticket));
    // The caller behind may now be first.
    cv_.notify_all();
    return false;
  }
  queue_.pop_front();
  held_ = true;
  return true;
}

void WriteGate::Leave() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    held_ = false;
  }
  cv_.notify_all();
}

size_t WriteGate::waiting() const {
  std::lock_guard<std::mutex> lock(mu_);
  return queue_.size();
}

}  // namespace loadcell
