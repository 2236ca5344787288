#pragma once
// The exchanges of an MPI run before its measured start, and work that rank
// 0 does alone while the others wait (the prepare and cleanup of files every
// rank shares), over MpiLink's non-blocking messages. Every wait has a
// deadline: a rank that stops answering (a stopped or hung process, a host
// gone) ends the wait after --mpi-timeout of silence, and the error names
// it. Rank 0 says it is still there (kBeat) while the others wait for it.
// Used on the control thread only (MPI_THREAD_FUNNELED).

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cluster/mpi_link.h"
#include "cluster/run_plan.h"
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

// What a rank brings when it joins the run.
struct JoinHello {
  std::string host;
  int threads = 1;  // its --threads
  RunPlan plan;     // what it is about to run
  // Not Ok: its setup failed (its options, its folder) and it joins only
  // to say so; its plan is not compared.
  Status setup;
};

struct MpiJoinOutcome {
  // Ok: the ranks run the same plan. Otherwise the error this rank ends
  // with: on rank 0 one line naming the ranks (InvalidArgument, exit 2: a
  // mismatch of plans; kUnavailable: a rank silent for --mpi-timeout); on
  // the others the same code with an empty message (rank 0 says it: see
  // SaidByRankZero).
  Status status;
  std::vector<std::string> hosts;  // by rank
  int first_thread = 0;            // this rank's first global thread
  int total_threads = 0;           // every rank's threads
  uint64_t seed = 0;               // rank 0's `seed`
  // The rank that did not answer (-1: none): MPI_Finalize would wait for
  // it, so the process must end without it.
  int missing = -1;
};

// "rank N (host)", as every line about a rank names it.
std::string RankName(const MpiPeers& peers, int rank);

// A rank's outcome as the bytes of a message: 1, or 0 and the error's
// code, errno and message. WordStatus reads it back (an unreadable word is
// an error of its own).
std::string StatusWord(const Status& s);
Status WordStatus(const std::string& word);

// The first exchange once MPI has started, with a deadline: every rank
// sends rank 0 its JoinHello; rank 0 compares the plans (ComparePlans) and
// answers each rank with every rank's host, its first thread, the threads
// of all and `seed` (rank 0's), or with the refusal. A rank whose setup
// failed comes first: every rank ends with its error's code, rank 0
// printing it in one line naming the lowest such rank ("rank 1 (host):
// --file-dir=/x: no such directory"). Rank 0 counts a
// rank's silence from its own arrival; the others count rank 0's from
// theirs (rank 0 says it is still there meanwhile). peers.hosts is not
// used (the hosts are what this exchange learns).
MpiJoinOutcome JoinTogether(const MpiPeers& peers, const JoinHello& mine, uint64_t seed);

// An error whose one line rank 0 prints for every rank: the other ranks
// end with its code (`code`) and print nothing.
Status SaidByRankZero(StatusCode code);

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
// deadline. Each rank says whether it is ready (`ready`, its error sent
// along when it is not); rank 0 collects
// the words, then measures each rank's clock offset (8 ping-pongs, the one
// with the shortest round trip kept: offset = the midpoint of rank 0's
// send and receive minus the rank's reading, correct to within half that
// round trip), then names a moment 50 ms ahead on its clock, which every
// rank waits for on its own clock (plus its offset). A failed rank (the
// lowest when several failed): every rank ends before any event with that
// rank's exit code, rank 0 printing its error in one line naming it
// ("rank 2 (host): ..."), the others nothing (SaidByRankZero). A silent rank (nothing from it for
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
