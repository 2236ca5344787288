#pragma once
// The cluster of an MPI run (cluster.h): loads libmpi (mpi_api.h),
// initialises MPI and coordinates the ranks. Only JoinCluster calls it.

#include <memory>

#include "cluster/cluster.h"
#include "cluster/launch.h"
#include "core/status.h"

namespace loadcell {

// Loads libmpi and initialises MPI (MPI_THREAD_FUNNELED: only the control
// thread calls MPI). kUnavailable when the library cannot be loaded.
Result<std::unique_ptr<Cluster>> MakeMpiCluster(const LaunchInfo& launch,
                                                const ClusterSettings& settings);

// Whether the ranks of this process' MPI job have met (MPI started, and
// this rank went on to tell rank 0 what it runs): from then on the job's
// outcome is said for it (a rank's setup error by rank 0, a silent rank
// named).
bool MpiRanksMet();

}  // namespace loadcell
