#pragma once
// The one place that decides whether a run is one of several processes (an
// MPI run) and sets up its cluster: --mpi=auto|on|off, the launcher's
// environment, and what such a run supports so far.

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "cli/cli_style.h"
#include "cluster/cluster.h"
#include "cluster/launch.h"
#include "core/options.h"
#include "core/status.h"

namespace loadcell {

struct TestSetup;

// Takes the options of a run across processes out of `options` (marks them
// consumed): --mpi (auto when absent, on when bare), --mpi-timeout,
// --stonewall (on/off, on when bare) and --mpi-files. InvalidArgument in
// one line naming the option and what is valid for a bad value.
Result<ClusterSettings> TakeClusterOptions(RawOptions& options);

// The cluster of a `run` (or prepare/cleanup) of `setup` under `settings`,
// as JoinCluster (cluster/cluster.h) says: nullptr for a run of one process.
// Under a launcher it refuses first, in one line (InvalidArgument, exit 2,
// before MPI is started, so that every rank refuses alike), a test that
// cannot run across ranks (WorkloadInfo: runs_per_process, files_per_process,
// runs_across_processes), the options not yet merged across ranks
// (--report-checkpoints) and --stonewall=on without --events. A test with
// files per process (fileio) is given its rank's sub-folder, rankN
// (--mpi-files=per-rank), or its place in one set of files every rank shares
// (--mpi-files=shared: Workload::ShareFiles). Once joined, setup.cfg gets the
// rank's share (its first global thread, every rank's threads, the common
// seed) and a test that runs across processes (OLTP, Lua) its group
// (Workload::JoinProcesses; its error is returned). The ranks compare what
// they are about to run (RunPlanOf) when they join: a rank whose plan
// differs from rank 0's ends every rank, rank 0 saying how in one line
// (exit 2).
Result<std::unique_ptr<Cluster>> JoinRunCluster(const ClusterSettings& settings, TestSetup& setup,
                                                const std::string& command);

// `error`, this rank's failed setup (its options or its folder refused),
// as the process ends with it. Under a launcher (--mpi not off, a build
// with MPI) the ranks join to say so: on rank 0 one line naming the lowest
// rank whose setup failed and its error, on the others the same code with
// nothing to print (SaidByRankZero), so that no rank goes ahead and the
// job's one line names the rank. Otherwise `error` itself.
Status FailAcrossRanks(const ClusterSettings& settings, const Status& error);

// --mpi and --mpi-timeout as `args` (the whole command line) spell them,
// read before anything else is ("--mpi", "--mpi=V", "--mpi-timeout=V"); a
// value that cannot be read counts as absent (its error comes later).
ClusterSettings SpelledClusterSettings(const std::vector<std::string>& args);

// Whether a rank under `settings` says its errors found before MPI starts
// once for the job: a launcher detected, --mpi not off, a build with MPI.
bool SaysErrorsAcrossRanks(const ClusterSettings& settings);

// Ends a rank whose command line ended with `code` after the error lines
// `held` (HeldCliErrors), found before it tried to join the others (a test
// or command it does not know, an option it cannot read, a test that does
// not run across ranks): the ranks join (FailAcrossRanks) to say the first
// of them in one line for the job, rank 0's, naming the rank ("every
// rank: ..." when each failed alike), and every rank ends with the lowest
// failed rank's exit code (2 for a usage error, as a run of one process).
// When there is nothing to join for (`code` 0, no line held, a rank that
// went on to join) or MPI cannot start, the lines are printed as they were,
// by each rank. Each line goes to the stream it was for (`err` when none
// is named). Returns the exit code.
int SayHeldErrorsAcrossRanks(const ClusterSettings& settings, std::vector<HeldCliError> held,
                             int code, std::ostream& err);

// What a rank runs when it runs `command` ("run", "prepare"...) of `setup`
// under `settings`: the test, the command, for a run its limits (--time
// and --events after their resolution, --rate, --warmup-time), the
// settings of the run across ranks (--stonewall, --mpi-files, --mpi-mixed)
// and the options that change what an event is: every option of the test
// but where its files are (--file-dir) and its secrets, and the random
// numbers' distribution. What only changes what is printed or where
// (--format, --report-interval, --verbosity, --output-file...), the seed
// (every rank uses rank 0's) and --threads (each rank its own) are not in it.
RunPlan RunPlanOf(const TestSetup& setup, const std::string& command,
                  const ClusterSettings& settings);

}  // namespace loadcell
