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

}  // namespace loadcell
