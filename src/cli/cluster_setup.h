#pragma once
// The one place that decides whether a run is one of several processes (an
// MPI run) and sets up its cluster: --mpi=auto|on|off, the launcher's
// environment, and what such a run supports so far.

#include <memory>

#include "cluster/cluster.h"
#include "cluster/launch.h"
#include "core/options.h"
#include "core/status.h"

namespace loadcell {

struct TestSetup;

// Takes --mpi out of `options` (marks it consumed): auto when absent, on
// for a bare --mpi. InvalidArgument naming it for another value.
Result<MpiMode> TakeMpiOption(RawOptions& options);

// The cluster of a `run` (or prepare/cleanup) of `setup` under `mode`, as
// JoinCluster (cluster/cluster.h) says: nullptr for a run of one process.
// Under a launcher it refuses first, in one line (InvalidArgument, exit 2,
// before MPI is started, so that every rank refuses alike), a test that
// cannot run per rank yet (WorkloadInfo::runs_per_process) and the options
// not yet merged across ranks (--report-interval, --report-checkpoints,
// --rate).
Result<std::unique_ptr<Cluster>> JoinRunCluster(MpiMode mode, const TestSetup& setup);

}  // namespace loadcell
