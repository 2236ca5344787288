#pragma once
// The exchanges of an MPI run before its measured start, and work that rank
// 0 does alone while the others wait (the prepare and cleanup of files every
// rank shares), over MpiLink's non-blocking messages. Every wait has a
// deadline: a rank that stops answering (a stopped or hung process, a host
// gone) ends the wait after --mpi-timeout of silence, and the error names
// it. Rank 0 says it is still there (kBeat) while the others wait for it.
// Used on the control thread only (MPI_THREAD_FUNNELED).

#include <functional>
#include <string>
#include <vector>

#include "cluster/mpi_link.h"
#include "core/clock.h"
#include "core/status.h"

namespace loadcell {

// What the exchanges need to know of the cluster.
struct MpiPeers {
  MpiLink* link = nullptr;
  int rank = 0;
  int size = 1;
  const std::vector<std::string>* hosts = nullptr;  // by rank
  double timeout_s = 5;                             // --mpi-timeout
  Nanos beat_ns = 0;                                // how often rank 0 says it is there
};

struct MpiStartOutcome {
  // Ok: release the threads now (the common start has come). Otherwise
  // the error the run ends with before any event.
  Status status;
  Nanos offset_ns = 0;      // rank 0's clock minus this rank's
  Nanos round_trip_ns = 0;  // of the ping-pong that measured it
  // The rank that did not answer (-1: none): MPI_Finalize would wait for
  // it, so the process must end without it.
  int missing = -1;
};

// The start vote, the clock offset and the common start, every one with a
// deadline. Each rank says whether it is ready (`ready`); rank 0 collects
// the words, then measures each rank's clock offset (8 ping-pongs, the one
// with the shortest round trip kept: offset = the midpoint of rank 0's
// send and receive minus the rank's reading, correct to within half that
// round trip), then names a moment 50 ms ahead on its clock, which every
// rank waits for on its own clock (plus its offset). A failed rank: every
// rank ends, the others naming it. A silent rank (nothing from it for
// --mpi-timeout once rank 0 was ready, or nothing from rank 0 for as long):
// every rank that can still be told ends, naming it.
MpiStartOutcome StartTogether(const MpiPeers& peers, const Status& ready);

// Runs `work` on rank 0 alone, on a thread of its own, while rank 0's
// control thread says it is still there; the other ranks wait for its
// outcome. Returns on rank 0 what `work` returned; on the others Ok when it
// succeeded, otherwise an error naming rank 0 and `what` ("prepare the
// shared files"). A rank 0 silent for --mpi-timeout: an error saying so,
// and *missing_root set (the process must end without MPI_Finalize).
Status RunOnRankZero(const MpiPeers& peers, const std::function<Status()>& work,
                     const std::string& what, bool* missing_root);

}  // namespace loadcell
