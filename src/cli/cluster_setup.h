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

// Takes the options of a run across processes out of `options` (marks them
// consumed): --mpi (auto when absent, on when bare), --mpi-timeout,
// --stonewall (on/off, on when bare) and --mpi-files. InvalidArgument in
// one line naming the option and what is valid for a bad value.
Result<ClusterSettings> TakeClusterOptions(RawOptions& options);

// The cluster of a `run` (or prepare/cleanup) of `setup` under `settings`,
// as JoinCluster (cluster/cluster.h) says: nullptr for a run of one process.
// Under a launcher it refuses first, in one line (InvalidArgument, exit 2,
// before MPI is started, so that every rank refuses alike), a test that
// cannot run across ranks (WorkloadInfo: runs_per_process, files_per_process,
// runs_across_processes), the options not yet merged across ranks
// (--report-checkpoints) and --stonewall=on without --events. A test with
// files per process (fileio) is given its rank's sub-folder, rankN
// (--mpi-files=per-rank), or its place in one set of files every rank shares
// (--mpi-files=shared: Workload::ShareFiles). Once joined, setup.cfg gets the
// rank's share (its first global thread, every rank's threads, the common
// seed) and a test that runs across processes (OLTP, Lua) its group
// (Workload::JoinProcesses; its error is returned).
Result<std::unique_ptr<Cluster>> JoinRunCluster(const ClusterSettings& settings, TestSetup& setup);

}  // namespace loadcell
