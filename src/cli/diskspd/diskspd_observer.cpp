#include "cli/diskspd/diskspd_observer.h"

#include <chrono>

namespace loadcell {

void ProgressDots::Add(uint64_t ios) {
  std::lock_guard<std::mutex> lock(mu_);
  count_ += ios;
  bool any = false;
  for (; every_ > 0 && count_ >= every_; count_ -= every_) {
    out_ << '.';
    any = true;
  }
  if (any) out_.flush();
}

void CpuSampler::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void CpuSampler::Sample() {
  using Secs = std::chrono::duration<double>;
  const auto t0 = std::chrono::steady_clock::now();
  std::unique_lock<std::mutex> lock(mu_);
  const auto measure =
      t0 + std::chrono::duration_cast<std::chrono::steady_clock::duration>(Secs(warmup_s_));
  cv_.wait_until(lock, measure, [this] { return stop_; });
  start_ = ReadPerCpuTimes();
  const auto end =
      measure + std::chrono::duration_cast<std::chrono::steady_clock::duration>(Secs(duration_s_));
  cv_.wait_until(lock, end, [this] { return stop_; });
  end_ = ReadPerCpuTimes();
}

}  // namespace loadcell
