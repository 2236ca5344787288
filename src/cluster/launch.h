#pragma once
// Whether this process was started by an MPI launcher (mpirun/mpiexec of
// Open MPI or MPICH, Slurm's srun), read from the environment the launcher
// sets, and the --mpi=auto|on|off choice. No MPI library is needed for it.

#include <functional>
#include <string>
#include <string_view>

#include "cluster/run_plan.h"
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

// How the ranks of a run on files (fileio) share them: --mpi-files.
enum class MpiFiles {
  kPerRank,  // each rank its own set, in a sub-folder named after the rank
  kShared,   // one set, prepared by rank 0, used by every rank
};

// "per-rank" or "shared"; InvalidArgument naming --mpi-files otherwise.
Result<MpiFiles> ParseMpiFiles(std::string_view value);

// The bounds of --mpi-timeout, in seconds.
inline constexpr double kMinMpiTimeoutS = 0.5;
inline constexpr double kMaxMpiTimeoutS = 3600;
inline constexpr double kDefaultMpiTimeoutS = 5;

// A duration within [kMinMpiTimeoutS, kMaxMpiTimeoutS] (core/option_values.h
// spellings: 5, 5s, 500ms, 2m); InvalidArgument naming --mpi-timeout and the
// range otherwise.
Result<double> ParseMpiTimeout(std::string_view value);

// The options of a run across processes (cli/cluster_setup.h takes them).
struct ClusterSettings {
  MpiMode mode = MpiMode::kAuto;  // --mpi
  // --mpi-timeout: how long a rank that waits for another (rank 0 for a
  // rank's result at the end, a rank for rank 0's word) goes on waiting
  // after the last message it had from it.
  double timeout_s = kDefaultMpiTimeoutS;
  // --stonewall=on: the first rank to reach its event budget stops every rank.
  bool stonewall = false;
  MpiFiles files = MpiFiles::kPerRank;  // --mpi-files
  int threads = 1;                      // this rank's --threads (the cluster adds every rank's up)
  // --mpi-mixed=on: the ranks may run with different test options (not
  // another test, command or limits).
  bool mixed = false;
  // What this rank is about to run: the ranks compare it when they join
  // (run_plan.h), and refuse to run plans that differ.
  RunPlan plan;
  // Not Ok: this rank's setup failed (its options, its folder); it joins
  // the others only to end them with that error (one line, rank 0's).
  Status setup;
};

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
