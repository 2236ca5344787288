#pragma once
// The MPICH ABI behind the Open MPI typed table of mpi_api.h: MPICH and
// the MPIs that share its ABI (Intel MPI, MVAPICH). Only mpi_api.cpp calls it.

#include "cluster/mpi_api.h"
#include "core/status.h"

namespace loadcell {

// Fills `api` with adapters that call the functions of the MPICH ABI
// library `lib` (opened as `soname`) and with MPICH's predefined handles.
// The first symbol missing sets `status` (kUnavailable, naming it).
void BindMpichAbi(void* lib, const char* soname, MpiApi& api, Status& status);

}  // namespace loadcell
