#pragma once
// A run across processes (the ranks of an MPI run): this process' place in
// it and the RunCoordinator the runner calls at the start and the end. Only
// JoinCluster knows which implementation there is (today: MPI).

#include <memory>
#include <string>

#include "cluster/launch.h"
#include "core/status.h"
#include "runner/coordinator.h"

namespace loadcell {

class Cluster : public RunCoordinator {
 public:
  virtual int Rank() const = 0;
  virtual int Size() const = 0;
  virtual const std::string& Host() const = 0;  // this rank's host name
  // Rank 0 prints the one report; the others print nothing on stdout.
  bool Reports() const { return Rank() == 0; }
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

}  // namespace loadcell
