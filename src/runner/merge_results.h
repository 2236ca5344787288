#pragma once
// Results added together exactly (pure: no threads, no I/O): the one merge
// that both the jobs of a group (runner/jobs.h) and the ranks of a run across
// processes (cluster/merge.h) use.
//
// - Histograms: bucket counts summed (a merged percentile is the percentile
//   of every part's samples, within the histogram's bound); count, sums and
//   extremes exact. Latency kinds are matched by name: a kind that only some
//   parts measured holds only theirs.
// - Events, errors and counters summed; counters matched by name when the
//   parts name them, else by position.
// - Threads: every part's thread figures, in the order added.
// - Time: the caller sets the window (the earliest start to the latest end);
//   throughput is then all work over the time all of it took.

#include <string>
#include <vector>

#include "core/status.h"
#include "runner/run_result.h"

namespace loadcell {

// How the parts' --rate targets combine: one global target that every part
// ran a share of (the ranks), or each part's own target (the jobs).
enum class RateTargets { kShared, kAdded };

// Adds `part`'s mergeable figures to `out`: events, errors, latency (by
// kind name), service, counters, threads (appended; abandoned threads
// renumbered), interrupted, forced_shutdown, rate. Leaves the window, the
// manifest and failure to the caller.
void AddResultFigures(const RunResult& part, RunResult& out, RateTargets rates);

// The parts of a run that ran at the same time or one after another, merged:
// AddResultFigures over them in order, the window from the earliest start
// to the latest end, the manifest of the first (threads: the sum), the
// failure of the first failing part with `names[i] + ": "` before its
// message (names may be empty: no prefix), intervals merged by position
// (MergeIntervalsByName) while every part has one. Every derived figure
// filled; metrics left to the caller. InvalidArgument when `parts` is empty.
Result<RunResult> MergeResults(const std::vector<const RunResult*>& parts,
                               const std::vector<std::string>& names, RateTargets rates);

// Intervals of one tick merged: events, errors, threads, counters, queue and
// concurrency summed, histograms by kind name; the end is the first's, the
// duration the longest. Derived figures filled. InvalidArgument when empty.
Result<IntervalSnapshot> MergeIntervalsByName(const std::vector<const IntervalSnapshot*>& parts);

}  // namespace loadcell
