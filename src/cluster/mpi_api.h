#pragma once
// The MPI library, loaded with dlopen for MPI runs only (as the database
// client libraries are: os/dynamic_lib.h), so that a run without a launcher
// neither maps libmpi nor pays for its start-up.
//
// Two ABIs, one table. The table is typed by Open MPI's mpi.h (the build's
// only MPI header):
// - Open MPI (libmpi.so.40, the 3.x-5.x ABI): the functions are libmpi's
//   own; the predefined handles (MPI_COMM_WORLD, MPI_BYTE, MPI_INT, MPI_MIN)
//   are the addresses of global objects (ompi_mpi_comm_world...), which
//   mpi.h's macros would make link-time references: looked up with dlsym.
// - MPICH and the MPIs that share its ABI (libmpich.so.12; libmpi.so.12:
//   Intel MPI, MVAPICH): handles are ints and MPI_Status another struct, so
//   each function is an adapter (mpi_mpich.cpp) that turns the Open MPI
//   typed arguments into MPICH's and back; its handles in the table carry
//   MPICH's int values.
// So code that calls MPI through this table never sees which one it is, on
// two conditions: it takes the predefined handles and MPI_ANY_SOURCE (whose
// values differ: Open MPI's -1 is MPICH's MPI_PROC_NULL) from the table,
// never from mpi.h's macros; and it passes MPI_STATUS_IGNORE, MPI_IN_PLACE
// and MPI_THREAD_* from mpi.h (the adapters translate those). A function
// added to LOADCELL_MPI_FUNCTIONS whose argument types the adapter does not
// know fails to compile (mpi_mpich.cpp).

#ifndef LOADCELL_CLUSTER_MPI_API_H_
#define LOADCELL_CLUSTER_MPI_API_H_

// The C API only: without this, mpi.h also pulls in the deprecated C++
// bindings (which would need libmpi_cxx).
#define OMPI_SKIP_MPICXX 1
#include <mpi.h>

#include "cluster/launch.h"
#include "core/status.h"

namespace loadcell {

// clang-format off
#define LOADCELL_MPI_FUNCTIONS(X) \
  X(MPI_Init_thread)              \
  X(MPI_Finalize)                 \
  X(MPI_Finalized)                \
  X(MPI_Comm_rank)                \
  X(MPI_Comm_size)                \
  X(MPI_Abort)                    \
  X(MPI_Send)                     \
  X(MPI_Recv)                     \
  X(MPI_Isend)                    \
  X(MPI_Iprobe)                   \
  X(MPI_Get_count)                \
  X(MPI_Ibarrier)                 \
  X(MPI_Iallreduce)               \
  X(MPI_Ibcast)                   \
  X(MPI_Test)                     \
  X(MPI_Allgather)                \
  X(MPI_Gather)                   \
  X(MPI_Gatherv)
// clang-format on

// `name` is the identifier being declared: it cannot be parenthesised.
// NOLINTNEXTLINE(bugprone-macro-parentheses)
#define LOADCELL_DECLARE_FUNCTION_POINTER_(name) decltype(&::name) name = nullptr;

// libmpi's functions and the predefined handles this program uses.
struct MpiApi {
  LOADCELL_MPI_FUNCTIONS(LOADCELL_DECLARE_FUNCTION_POINTER_)
  MPI_Comm comm_world = nullptr;
  MPI_Datatype byte = nullptr;
  MPI_Datatype int_type = nullptr;
  MPI_Op op_min = nullptr;
  int any_source = MPI_ANY_SOURCE;
  // Which library: "Open MPI (libmpi.so.40)", "MPICH (libmpich.so.12)".
  const char* library = "";
};

#undef LOADCELL_DECLARE_FUNCTION_POINTER_

// Loads the MPI library of the launcher `launch` names once per process
// (later calls return the first outcome, whatever their launcher): Open
// MPI's mpirun: Open MPI; a PMI launcher (MPICH's Hydra, Intel MPI): the
// MPICH ABI (libmpich.so.12, then libmpi.so.12); PMIx or Slurm (either MPI
// may run there): Open MPI, then the MPICH ABI. The first library that
// opens is the one. On failure: kUnavailable with a one-line message naming
// the libraries tried, the packages that provide them and the loader's
// reason. Mpi() is the table LoadMpi() filled; call it only after LoadMpi()
// returned Ok.
Status LoadMpi(const LaunchInfo& launch);
const MpiApi& Mpi();

// MPI itself, once per process (MPI cannot start again once it ended): the
// first call initialises it (MPI_THREAD_FUNNELED: only the control thread
// calls MPI), later calls do nothing. It then lasts until the process exits
// (MPI_Finalize from an atexit handler), so that one process may run several
// runs, each with a cluster of its own (a sweep). After AbandonMpi() the
// process ends without MPI_Finalize (a rank is missing: it would wait for it).
// MPI_Init waits for every rank of the job to reach it, and no deadline can
// be given to it: a watchdog thread ends the process (exit 1; one line on
// stderr for the job, said by the first of the host's ranks whose watchdog
// ends: MpiRollCall::TakeTheWord) when it has not returned within
// MpiInitDeadline(timeout_s), so
// that a rank stopped or hung before MPI started cannot hold the others
// forever (the launcher then ends the rest of the job). The line names
// this rank (`launch.rank`) and, from the marks the ranks leave before
// MPI_Init (mpi_roll_call.h), the ranks that never reached it.
// REQUIRES: LoadMpi() returned Ok.
void StartMpiOnce(double timeout_s, const LaunchInfo& launch);
void AbandonMpi();

// How long MPI_Init may take: --mpi-timeout (`timeout_s`), and at least
// kMinMpiInitDeadlineS (the ranks are started one after another and MPI's
// own start takes a while on a loaded host).
inline constexpr double kMinMpiInitDeadlineS = 10;
double MpiInitDeadline(double timeout_s);

}  // namespace loadcell

#endif  // LOADCELL_CLUSTER_MPI_API_H_
