#include "cluster/cluster.h"

#include <atomic>

#include "core/build_features.h"
#include "core/build_info.h"

#if LOADCELL_WITH_MPI
#include "cluster/mpi_cluster.h"
#endif

namespace loadcell {
namespace {

std::atomic<bool> g_join_tried{false};

}  // namespace

Result<std::unique_ptr<Cluster>> JoinCluster(const ClusterSettings& settings,
                                             const LaunchInfo& launch) {
  const MpiMode mode = settings.mode;
  if (mode == MpiMode::kOff) return std::unique_ptr<Cluster>();
  if (mode == MpiMode::kOn && !launch.detected) {
    return Status::InvalidArgument(
        "--mpi=on: no MPI launcher found (start loadcell with mpirun, mpiexec or srun, or give "
        "--mpi=auto or off)");
  }
  if (!launch.detected) return std::unique_ptr<Cluster>();
  g_join_tried.store(true);
  if (IsLeftOut("mpi")) {
    const Status left_out =
        NotInThisBuild("started by an MPI launcher (" + launch.launcher + ")", "mpi");
    return Status(left_out.code(), left_out.message() + "; --mpi=off runs each process on its own");
  }
#if LOADCELL_WITH_MPI
  return MakeMpiCluster(launch, settings);
#else
  return Status::Internal("mpi is left out but not said so");
#endif
}

bool ClusterJoinTried() { return g_join_tried.load(); }

bool ClusterRanksMet() {
#if LOADCELL_WITH_MPI
  return MpiRanksMet();
#else
  return false;
#endif
}

}  // namespace loadcell
