#include "runner/recorder.h"

namespace loadcell {

ThreadRecorder::ThreadRecorder(int kinds, bool own_busy_time) : own_busy_time_(own_busy_time) {
  for (int k = 0; k <= kinds; ++k) hist_.push_back(std::make_unique<ConcurrentHistogram>());
  event_ = hist_[0].get();
  for (auto& c : counters_) c.store(0, std::memory_order_relaxed);
}

}  // namespace loadcell
