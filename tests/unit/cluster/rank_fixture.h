#pragma once
// Rank results built from known samples, for the merge and codec tests.

#include <cstdint>
#include <string>
#include <vector>

#include "cluster/rank_result.h"

namespace loadcell::testing {

// Rank `rank` on `host` whose `threads` threads ran `samples` (latencies in
// ns, dealt round-robin over the threads) between start_ns and end_ns.
// Counter 0 counts 10 per event; errors are `errors`.
inline RankResult MakeRank(int rank, const std::vector<uint64_t>& samples, int threads,
                           int64_t start_ns, int64_t end_ns, uint64_t errors = 0) {
  RankResult r;
  r.rank.rank = rank;
  r.rank.host = "host" + std::to_string(rank / 2);
  r.rank.threads = threads;
  r.rank.clock_offset_s = 1e-6 * rank;
  r.round_trip_s = 2e-6 * rank;
  RunResult& x = r.result;
  x.window_start_ns = start_ns;
  x.window_end_ns = end_ns;
  x.total_time_s = static_cast<double>(end_ns - start_ns) / 1e9;
  x.latency.resize(1);
  x.threads.resize(threads);
  for (size_t i = 0; i < samples.size(); ++i) {
    x.latency[0].histogram.Record(samples[i]);
    ThreadFigures& t = x.threads[i % threads];
    t.events += 1;
    t.exec_time_s += static_cast<double>(samples[i]) / 1e9;
    t.busy_time_s = t.exec_time_s;
  }
  x.events = samples.size();
  x.errors = errors;
  x.counters = {10 * samples.size()};
  return r;
}

}  // namespace loadcell::testing
