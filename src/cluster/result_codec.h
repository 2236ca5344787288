#pragma once
// A rank's result as bytes, for the gather to rank 0: the one place where
// the mergeable part of a RunResult is serialised. Versioned: the first
// bytes are a magic and the format version, and a reader refuses any other
// version (every rank runs the same binary, so a mismatch means a broken
// message or a mixed installation, never something to convert).
// Native byte order (the ranks of one run share an architecture).

#include <string>
#include <string_view>
#include <vector>

#include "cluster/rank_result.h"
#include "core/status.h"

namespace loadcell {

inline constexpr uint32_t kRankResultVersion = 3;

// The bytes of `r`: r.rank's identity (rank, host, threads, clock offset),
// r.round_trip_s, r.stopped_by_cluster and the mergeable part of r.result
// (see RankResult).
// Histograms are sent sparse: only their occupied buckets.
std::string EncodeRankResult(const RankResult& r);

// The inverse of EncodeRankResult. InvalidArgument naming what is wrong for
// bytes of another version, truncated or with trailing bytes.
Result<RankResult> DecodeRankResult(std::string_view bytes);

// Several runs of one rank that ended together (the jobs of a group, each
// its own run: RunCoordinator::FinishRuns), each with its intervals, for
// the merge of each run with the same run of the other ranks.
struct RankRun {
  RankResult result;
  std::vector<IntervalSnapshot> intervals;
};
std::string EncodeRankRuns(const std::vector<RankRun>& runs);
// InvalidArgument for bytes of another version, truncated, damaged or with
// trailing bytes (also within a run's result or interval).
Result<std::vector<RankRun>> DecodeRankRuns(std::string_view bytes);

// One --report-interval interval of a rank, for its merge at rank 0: the
// raw figures (end, duration, threads, events, errors, latency, counters,
// queue, concurrency); the derived ones are left for after the merge.
std::string EncodeInterval(const IntervalSnapshot& iv);
Result<IntervalSnapshot> DecodeInterval(std::string_view bytes);

}  // namespace loadcell
