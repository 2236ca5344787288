#pragma once
// Runs a workload on N threads and produces a RunResult.

#include "core/status.h"
#include "runner/coordinator.h"
#include "runner/run_config.h"
#include "runner/run_result.h"
#include "runner/stop_signal.h"
#include "runner/workload.h"

namespace loadcell {

// Receives interval and checkpoint results while the run goes on; the
// report module's reporters implement it.
class RunObserver {
 public:
  virtual ~RunObserver() = default;
  virtual void OnStart(const Manifest& m) {}
  // Once every thread created its worker (a script's thread_init() ran on
  // each), before they are released; not after a failed start.
  virtual void OnThreadsStarted() {}
  virtual void OnInterval(const IntervalSnapshot& s) {}
  virtual void OnCheckpoint(const RunResult& r) {}
  // Every RunConfig::status_interval_s of measured time (never when it is
  // 0): the figures since the previous status tick, shaped like an interval.
  // For live displays and charts; independent of --report-interval and not
  // added to RunResult::intervals. Called on the runner's control thread.
  virtual void OnStatus(const IntervalSnapshot& s) {}
  // Once the run's threads ended (or were abandoned), before its result is
  // finished with the other participants' (RunCoordinator::Finish); not
  // after a failed start. From the thread that called RunWorkload.
  virtual void OnThreadsEnded() {}
};

// Runs `workload` (already configured and validated) as `cfg` says.
// `manifest` is filled by the caller with options and system info; the
// runner adds the run's own facts (seed, threads, limits) and copies it
// into the result. Returns a result even for a failed or interrupted run
// (see RunResult::failure / interrupted); an error Status only when the run
// could not start (a worker could not be created, or `coordinator` said
// another participant could not). A start that gave way to a stop signal
// (the workload's init or a thread's start returned Cancelled) is a result:
// nothing measured, interrupted, the Cancelled status as its failure, so
// that the report still appears. `coordinator` sees the start and the end
// (runner/coordinator.h); SoloCoordinator() for a run of one process.
Result<RunResult> RunWorkload(Workload& workload, const RunConfig& cfg, Manifest manifest,
                              RunObserver* observer,
                              RunCoordinator& coordinator = SoloCoordinator());

// The manifest's entry of one file target as a workload states it (its
// Facts), with the file system and mount options of the target's folder:
// what the runner records of every workload's targets, and what a front end
// that makes its result's manifest itself (dbsim) records of its folder.
TargetManifest TargetManifestOf(const IoTargetFacts& t);

}  // namespace loadcell
