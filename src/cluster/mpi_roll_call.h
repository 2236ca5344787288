#pragma once
// Which ranks of the job reached MPI_Init, for the line of the watchdog that
// ends a rank whose MPI_Init does not return (mpi_api.h, StartMpiOnce).
// MPI cannot say who is missing before it has started, so each rank marks
// itself present before MPI_Init: a listening socket in Linux's abstract
// namespace, named by the user, the launcher's process that started the
// job's ranks on this host, the job's size and the rank. The kernel takes
// the mark away with the socket, also when the process is killed, so
// nothing is ever left behind. When every rank of the job runs on this
// host (the launcher says how many do), the ranks without a mark are the
// missing ones; otherwise the line says which of this host's ranks
// arrived. A rank whose mark is there but whose process is stopped now
// (SIGSTOP, a debugger: its state in /proc, the process the kernel names
// as the mark's holder) is named as stopped in MPI_Init; one that hangs
// there while running cannot be told from the ranks that wait for it.

#include <sys/types.h>

#include <string>
#include <vector>

#include "cluster/launch.h"

namespace loadcell {

class MpiRollCall {
 public:
  // Marks this rank (launch.rank of launch.size) present; does nothing when
  // the launcher was not detected or the socket cannot be made.
  explicit MpiRollCall(const LaunchInfo& launch);
  MpiRollCall(const MpiRollCall&) = delete;
  MpiRollCall& operator=(const MpiRollCall&) = delete;
  ~MpiRollCall() { Leave(); }

  // Takes the mark away; idempotent.
  void Leave();

  // Notes which ranks' marks are there now. A rank whose own watchdog gave
  // up first has left by the time another's looks: a rank once seen is
  // counted as having reached MPI_Init.
  void Look();

  // Whether this rank says the watchdog's line for the job: the first of
  // this host's ranks to ask takes the word (one more abstract socket,
  // which only one process can hold) and keeps it until it exits; true also
  // when there is no roll call (nothing to agree with).
  bool TakeTheWord();

  // What the marks say (now, and at every Look before), for the watchdog's
  // line: "rank 2 did not reach MPI_Init", "rank 2 reached MPI_Init and was
  // stopped in it (SIGSTOP or a debugger)" (its mark's process, which the
  // kernel names, is stopped now), "of the ranks on this host (3), 0 and 1
  // reached MPI_Init; ...", or empty when nothing can be said.
  std::string Absent();

 private:
  LaunchInfo launch_;
  int local_size_ = 0;          // the job's ranks on this host, 0 when not known
  int socket_ = -1;             // -1: no roll call
  std::vector<bool> seen_;      // per rank: its mark was there at a Look
  std::vector<pid_t> holders_;  // per rank seen: the process that held its mark (-1: unknown)
};

}  // namespace loadcell
