#pragma once
// The stonewall figures of a run across processes under --stonewall=on
// (pure: no MPI). The first rank to end on its own (its event budget used
// up, not told to stop) sets the stonewall moment; every rank's events up
// to that moment are counted (exactly for a rank that ended by then,
// scaled by the part of its window before the moment for one that was
// still running) and divided by the time from the global window's start.

#include <optional>
#include <vector>

#include "cluster/rank_result.h"
#include "runner/run_result.h"

namespace loadcell {

// `ranks`' windows on rank 0's clock. nullopt when no rank ended on its own
// (every rank was stopped: a failure or an interrupt, not the stonewall).
std::optional<StonewallFigures> ComputeStonewall(const std::vector<RankResult>& ranks);

}  // namespace loadcell
