#pragma once
// Whether this process was started by an MPI launcher (mpirun/mpiexec of
// Open MPI or MPICH, Slurm's srun), read from the environment the launcher
// sets, and the --mpi=auto|on|off choice. No MPI library is needed for it.

#include <functional>
#include <string>
#include <string_view>

#include "core/status.h"

namespace loadcell {

enum class MpiMode {
  kAuto,  // an MPI run when a launcher is detected
  kOn,    // an MPI run; without a launcher a usage error
  kOff,   // never: each process runs on its own, as without a launcher
};

// "auto", "on", "off" (and the usual on/off spellings: yes/no, true/false,
// 1/0). InvalidArgument naming --mpi and the valid values otherwise.
Result<MpiMode> ParseMpiMode(std::string_view value);

struct LaunchInfo {
  bool detected = false;
  // What was detected, for messages: "Open MPI", "PMIx", "PMI", "Slurm".
  std::string launcher;
  int rank = 0;  // as the launcher says (MPI itself has the last word)
  int size = 1;
};

// The value of an environment variable, or nullptr when unset.
using EnvLookup = std::function<const char*(const char*)>;

// Looks, in this order, at OMPI_COMM_WORLD_SIZE (+ _RANK: Open MPI's
// mpirun), PMIX_RANK (+ PMIX_SIZE when set: a PMIx launcher), PMI_SIZE and
// PMI_RANK (MPICH's Hydra, Intel MPI), SLURM_PROCID and SLURM_NTASKS
// (srun). A variable that is not a number counts as unset.
LaunchInfo DetectLaunch(const EnvLookup& env);
// The same from the process environment.
LaunchInfo DetectLaunch();

}  // namespace loadcell
