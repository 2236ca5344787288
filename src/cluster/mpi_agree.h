#pragma once
// ProcessGroup::Agree across the ranks of an MPI run, with a deadline:
// each rank does its part of a prepare or cleanup on a thread of its own
// while its control thread says it is still there, then votes; rank 0
// collects the votes and tells every rank the outcome. A rank that stops
// answering (a stopped or hung process, a host gone) ends the vote after
// --mpi-timeout of silence with one line naming it, however long the others'
// parts take. Used on the control thread only (MPI_THREAD_FUNNELED): `work`
// must not call MPI.

#include <functional>
#include <string>
#include <vector>

#include "cluster/mpi_start.h"
#include "core/status.h"

namespace loadcell {

struct MpiAgreeOutcome {
  // Ok when every rank's part was; this rank's own error when its part
  // failed; otherwise the error of the lowest failing rank, named ("rank 2
  // (host): ..."), or the silence of a rank (kUnavailable, naming it and
  // `what`).
  Status status;
  // The rank that did not answer (-1: none): MPI_Finalize would wait for
  // it, so the process must end without it.
  int missing = -1;
};

// Every rank calls it, the same number of times. `what` says what the
// ranks were doing, for the line about a silent rank ("prepare").
MpiAgreeOutcome AgreeTogether(const MpiPeers& peers, const std::function<Status()>& work,
                              const std::string& what);

// Cluster::GatherOnRankZero: every rank calls it at the same point. On
// rank 0 every rank's `mine` in rank order ("" for a rank silent for the
// timeout); on the others empty, once theirs is sent.
std::vector<std::string> GatherTogether(const MpiPeers& peers, const std::string& mine);

}  // namespace loadcell
