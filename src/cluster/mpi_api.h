#pragma once
// The MPI library, loaded with dlopen for MPI runs only (as the database
// client libraries are: db/dynamic_lib.h), so that a run without a launcher
// neither maps libmpi nor pays for its start-up.
//
// Supported: Open MPI (libmpi.so.40, the 3.x-5.x ABI). Its mpi.h gives the
// types and the function signatures; its predefined handles
// (MPI_COMM_WORLD, MPI_BYTE, MPI_INT, MPI_MIN) are the addresses of global
// objects (ompi_mpi_comm_world...), which mpi.h's macros would make link-time
// references: they are looked up with dlsym instead. MPICH (integer
// handles, libmpi.so.12) has another ABI and is not supported by this build.

#ifndef LOADCELL_CLUSTER_MPI_API_H_
#define LOADCELL_CLUSTER_MPI_API_H_

// The C API only: without this, mpi.h also pulls in the deprecated C++
// bindings (which would need libmpi_cxx).
#define OMPI_SKIP_MPICXX 1
#include <mpi.h>

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
};

#undef LOADCELL_DECLARE_FUNCTION_POINTER_

// Loads libmpi once per process (later calls return the first outcome). On
// failure: kUnavailable with a one-line message naming the library, the
// package that provides it and the loader's reason. Mpi() is the table
// LoadMpi() filled; call it only after LoadMpi() returned Ok.
Status LoadMpi();
const MpiApi& Mpi();

}  // namespace loadcell

#endif  // LOADCELL_CLUSTER_MPI_API_H_
