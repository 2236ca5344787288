#pragma once
// What `loadcell diskspd` watches while its jobs run (the first job's
// observer): DiskSpd's -P progress dots and the host's per-CPU times at the
// measured start and end, for DiskSpd's CPU table.

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <ostream>
#include <thread>
#include <vector>

#include "os/host_facts.h"
#include "runner/runner.h"

namespace loadcell {

// DiskSpd's -P: a dot on stderr for every `every` I/Os completed, counted
// over the measured time's intervals (of -D's length) of every job.
class ProgressDots {
 public:
  ProgressDots(uint64_t every, std::ostream& out) : every_(every), out_(out) {}
  // Counts `ios` more, a dot for every `every` of them.
  void Add(uint64_t ios);

 private:
  uint64_t every_;
  std::ostream& out_;
  std::mutex mu_;
  uint64_t count_ = 0;
};

// The host's per-CPU times at the measured start and end of the run: taken
// by a thread of its own, from the moment the first job's threads are
// ready, after the warm-up and after the measured time (only the first
// job's samples). Forwards every call to the job's own observer (its
// verdict), and counts the job's I/Os for -P.
class CpuSampler final : public RunObserver {
 public:
  CpuSampler(RunObserver* inner, double warmup_s, double duration_s, bool sample = true)
      : inner_(inner), warmup_s_(warmup_s), duration_s_(duration_s), sample_(sample) {}
  ~CpuSampler() override { Stop(); }

  void OnStart(const Manifest& m) override {
    if (inner_ != nullptr) inner_->OnStart(m);
  }
  void OnThreadsStarted() override {
    if (inner_ != nullptr) inner_->OnThreadsStarted();
    if (!sample_ || thread_.joinable()) return;
    thread_ = std::thread([this] { Sample(); });
  }
  void OnInterval(const IntervalSnapshot& s) override {
    if (inner_ != nullptr) inner_->OnInterval(s);
    if (dots_ != nullptr) dots_->Add(s.events);
  }
  void OnCheckpoint(const RunResult& r) override {
    if (inner_ != nullptr) inner_->OnCheckpoint(r);
  }
  // -P: every job's completed I/Os go to `dots`.
  void CountInto(ProgressDots* dots) { dots_ = dots; }
  void OnStatus(const IntervalSnapshot& s) override {
    if (inner_ != nullptr) inner_->OnStatus(s);
  }
  void OnThreadsEnded() override {
    if (inner_ != nullptr) inner_->OnThreadsEnded();
  }

  // Ends the sampling (an end not reached yet is taken now).
  void Stop();
  const std::vector<PerCpuTimes>& start() const { return start_; }
  const std::vector<PerCpuTimes>& end() const { return end_; }

 private:
  void Sample();

  RunObserver* inner_;
  ProgressDots* dots_ = nullptr;
  double warmup_s_;
  double duration_s_;
  bool sample_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
  std::vector<PerCpuTimes> start_;
  std::vector<PerCpuTimes> end_;
};

}  // namespace loadcell
