#pragma once
// The exact merge of the ranks' results into one (pure: no MPI, no I/O).
//
// - Histograms (every latency kind, the service time): bucket counts summed,
//   so a merged percentile is the percentile of all the ranks' samples
//   within the histogram's bound (stats/histogram.h); count, sum and sum of
//   squares summed, min and max the exact extremes. The mean and standard
//   deviation read from those sums are the combined ones (the parallel
//   formula, in power-sum form).
// - Events, errors and the workload's counters summed.
// - Threads: every rank's thread figures, in rank order (a rank's threads
//   are found through its RankFigures::first_thread).
// - Time: the global window, from the earliest start to the latest end on
//   rank 0's clock, so that throughput is all work over the time all of it
//   took, never a sum of rates over different windows.
// - Failure: the lowest failing rank's, its message prefixed with the rank
//   and host; interrupted and forced_shutdown when any rank's was.

#include <vector>

#include "cluster/rank_result.h"
#include "core/status.h"
#include "runner/run_result.h"

namespace loadcell {

// Merges `ranks` (each rank once, any order; windows on rank 0's clock)
// into one result. `base` gives what is not merged: the manifest (its
// threads become the total) and the counter names; its own figures are
// ignored (rank 0's result is one of `ranks`). Fills every derived figure
// (FillDerivedFigures) and result.cluster; metrics are left to the
// workload. InvalidArgument when `ranks` is empty, a rank appears twice or
// the ranks disagree on the latency kinds.
// `base`'s intervals are kept as they are (the merged ones rank 0 reported).
Result<RunResult> MergeRankResults(const RunResult& base, std::vector<RankResult> ranks);

// The ranks' intervals of one tick merged into one, as the result is:
// events, errors, threads, counters, queue and concurrency summed, the
// histograms' buckets summed; the end is the first's (every rank's interval
// ends on the same tick of the common start), the duration the longest.
// Derived figures filled. InvalidArgument when `parts` is empty or the
// parts disagree on the latency kinds.
Result<IntervalSnapshot> MergeIntervals(const std::vector<IntervalSnapshot>& parts);

}  // namespace loadcell
