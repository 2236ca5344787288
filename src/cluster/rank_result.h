#pragma once
// What one rank sends to rank 0 at the end of a run across processes: who
// it is and the mergeable part of its result.

#include "runner/run_result.h"

namespace loadcell {

struct RankResult {
  // rank, host, threads and clock_offset_s are set; the other figures are
  // filled by the merge from `result`.
  RankFigures rank;
  double round_trip_s = 0;  // of the clock-offset measurement (0 on rank 0)
  // Told to stop by rank 0 (another rank failed, was interrupted or, under
  // --stonewall=on, reached its budget first) before it ended on its own.
  bool stopped_by_cluster = false;
  // The rank's own result. The mergeable part only: window, events, errors,
  // latency, service, threads, counters, failure, interrupted,
  // forced_shutdown, abandoned_threads, rate (what result_codec.h carries).
  RunResult result;
};

}  // namespace loadcell
