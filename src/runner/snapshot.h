#pragma once
// Cumulative snapshots of the per-thread recorders and their differences:
// every interval, checkpoint and final figure is `later - earlier`, so no
// worker ever resets anything on the hot path.

#include <memory>
#include <string>
#include <vector>

#include "runner/recorder.h"
#include "runner/run_result.h"
#include "stats/histogram.h"

namespace loadcell {

struct Snapshot {
  std::vector<LatencyHistogram> kinds;  // merged over threads; [0] = events
  LatencyHistogram service;             // merged; empty unless --rate
  std::vector<uint64_t> thread_events;
  std::vector<double> thread_latency_ns;  // per thread: sum of event times
  std::vector<double> thread_busy_ns;     // per thread: wall time running events
  std::vector<uint64_t> counters;         // kMaxCounters, summed over threads
  uint64_t errors = 0;
};

// Reads every recorder once (any thread may call it while workers run).
Snapshot TakeSnapshot(const std::vector<std::unique_ptr<ThreadRecorder>>& recorders, int kinds);

// Fills out.latency, out.service, out.threads, out.events, out.errors and
// out.counters (first CounterNames-many entries are meaningful; all
// kMaxCounters are copied) with `now - base`. With exact_min_max the
// min/max of each histogram are the exact ones recorded since the last
// ResetMinMax (REQUIRES: it happened when `base` was taken); otherwise they
// are the bounds of the occupied buckets.
void Diff(const Snapshot& now, const Snapshot& base, bool exact_min_max,
          const std::vector<std::string>& kind_names, RunResult& out);

}  // namespace loadcell
