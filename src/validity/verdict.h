#pragma once
// The verdict step of a run (docs/validity.md): notes the host's facts when
// the run starts (as a RunObserver: OnStart), and after the run gathers the
// end's facts, runs every check (validity/check.h) and stores the verdict in
// the result, before the reporters print it. Nothing here runs per event.

#include <optional>

#include "os/host_facts.h"
#include "runner/run_result.h"
#include "runner/runner.h"
#include "runner/validity.h"
#include "runner/workload.h"
#include "validity/check.h"

namespace loadcell {

class VerdictStep final : public RunObserver {
 public:
  // The verdict of a run of `w` (which outlives the step); `percentile` and
  // `report_interval_s` as the run prints them.
  VerdictStep(const Workload& w, VerdictMode mode, double percentile, double report_interval_s);

  // Notes the host's CPU times, the CPUs' frequencies and throttle counts,
  // and the counters of the devices under the workload's files (Facts() of
  // an empty result: its settings).
  void OnStart(const Manifest& m) override;
  // Notes the time, loadcell's CPU time and the host's CPU times when the
  // run ends, for a verdict made later (a job judged once the jobs after it
  // ran): its CPU window is then the run's own. Without it, Judge's moment.
  void OnThreadsEnded() override;

  // Fills r.validity (left unjudged with --verdict=off): the end's facts,
  // then the checks over them and the workload's facts; its cost in
  // r.validity.cost_ms.
  void Judge(RunResult& r) const;

 private:
  void DeviceWindows(validity::HostFacts& host) const;
  void CpuWindow(validity::HostWindow& w) const;
  // The host's CPU times now, or those OnEnd noted.
  HostCpuTimes EndHostTimes() const;
  std::vector<PerCpuTimes> EndPerCpuTimes() const;
  void IoWindow(const DirtyMemory& dirty_end, validity::HostWindow& w) const;

  const Workload& workload_;
  VerdictMode mode_;
  double percentile_;
  double report_interval_s_;
  bool started_ = false;
  int64_t start_ns_ = 0;
  double start_cpu_s_ = 0;
  uint64_t start_host_busy_ = 0;
  uint64_t start_host_total_ = 0;
  std::optional<uint64_t> start_host_steal_;  // none where the system states no steal
  bool start_host_known_ = false;
  std::vector<int> cpus_;  // the CPUs the process may use, at the start
  // The CPUs the workers may run on when they are fewer than the host's
  // (the workload's pinning, else the process' affinity), and their times
  // at the start; empty when the workers may use every CPU.
  std::vector<int> worker_cpus_;
  std::vector<PerCpuTimes> start_per_cpu_;
  CpuFrequencyFacts start_frequencies_;
  // OnEnd's readings (ended_: it was called).
  bool ended_ = false;
  int64_t end_ns_ = 0;
  double end_cpu_s_ = 0;
  HostCpuTimes end_host_;
  std::vector<PerCpuTimes> end_per_cpu_;
  // The folder of each distinct device under the files, and its counters
  // at the start.
  std::vector<std::pair<std::string, DeviceCounters>> start_devices_;
  ProcessIo start_io_;
  DirtyMemory start_dirty_;
};

namespace validity {

// Why the counters of the device under the folder `dir` at the run's
// `start` and `end` give no window ("" when they do): the reason a reading
// states (no block device, a counter file the process may not read, a
// volume that gives none), or the device changed between the two.
std::string DeviceWindowUnknown(const std::string& dir, const DeviceCounters& start,
                                const DeviceCounters& end);

// The facts at the end of the run for each of `io`'s targets: holes in the
// files read, the write cache of the device under the folder written, the
// device's block sizes.
std::vector<TargetEndFacts> GatherTargetFacts(const std::vector<IoTargetFacts>& io);

// The CPU time of `cpus` summed from the per-CPU times `all` (busy: user
// and kernel; total: with idle); unknown unless every one of `cpus` is in
// `all`. Steal is not stated per CPU (steal_known false).
HostCpuTimes CpuTimesOf(const std::vector<PerCpuTimes>& all, const std::vector<int>& cpus);

// The CPUs of `worker_cpus` (else of `allowed`) when they are fewer than
// the host's `online` CPUs; empty when the workers may use them all.
std::vector<int> WorkerCpuSubset(const std::vector<int>& worker_cpus,
                                 const std::vector<int>& allowed, size_t online);

// The frequency and throttle figures of `w` from the CPUs' facts at the
// start and the end (the same CPUs, in the same order).
void FillFrequencyWindow(const CpuFrequencyFacts& start, const CpuFrequencyFacts& end,
                         HostWindow& w);

}  // namespace validity

}  // namespace loadcell
