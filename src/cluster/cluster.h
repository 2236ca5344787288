#pragma once
// A run across processes (the ranks of an MPI run): this process' place in
// it and the RunCoordinator the runner calls at the start and the end. Only
// JoinCluster knows which implementation there is (today: MPI).

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cluster/launch.h"
#include "core/status.h"
#include "runner/coordinator.h"
#include "runner/workload.h"

namespace loadcell {

class Cluster : public RunCoordinator, public ProcessGroup {
 public:
  // Rank 0 prints the one report; the others print nothing on stdout.
  bool Reports() const { return Rank() == 0; }
  // Runs `work` on rank 0 alone (the prepare or cleanup of files every rank
  // shares) while the other ranks wait for it, for as long as it takes: rank
  // 0 says it is still there meanwhile, and a rank 0 silent for
  // --mpi-timeout ends the wait. Returns on rank 0 what `work` returned; on
  // the others Ok when it succeeded, else an error naming rank 0 and `what`
  // ("prepare the shared files").
  virtual Status OnRankZero(const std::function<Status()>& work, const std::string& what) = 0;
  // Every rank's `mine` (a few figures of the same step on every rank)
  // gathered on rank 0: there every rank's, in rank order, "" for a rank
  // silent for --mpi-timeout; on the others nothing (they send theirs and
  // go on). A collective: every rank calls it at the same point.
  virtual std::vector<std::string> GatherOnRankZero(const std::string& mine) = 0;
  // Rank 0's seed for a run without --rand-seed, the same on every rank.
  virtual uint64_t CommonSeed() const = 0;
};

// The cluster this process belongs to as `settings.mode` and `launch` say
// (the other settings shape the run across processes): nullptr
// for a run of one process (off, or auto without a launcher). Under a
// launcher it loads the MPI library and initialises MPI, once per process
// (a later cluster of the same process, the next run of a sweep, uses it
// again); MPI ends when the process exits.
// Errors: InvalidArgument (exit 2), one line: --mpi=on without a launcher,
// or a launcher (or --mpi=on) in a build without MPI. kUnavailable: the
// MPI library could not be loaded or MPI could not start.
Result<std::unique_ptr<Cluster>> JoinCluster(const ClusterSettings& settings,
                                             const LaunchInfo& launch);

// Whether this process has called JoinCluster under a launcher (--mpi not
// off), and whether its ranks have met there (MPI started and the ranks
// exchanged what they run: the job's outcome is then said for it).
bool ClusterJoinTried();
bool ClusterRanksMet();

}  // namespace loadcell
