#pragma once
// A run as a set of jobs (fio's model): each job a workload with its own
// threads and settings (RunConfig), run by RunWorkload as a run of one job
// is; the jobs of a group run at the same time, released at one moment;
// the groups run one after another. The result holds every job's own
// result, each group's merge and the total (runner/merge_results.h).
// fileio, SQLIO, OLTP and the other tests are runs of one job in one group:
// RunWorkload, unchanged.

#include <string>
#include <vector>

#include "core/status.h"
#include "runner/coordinator.h"
#include "runner/run_config.h"
#include "runner/run_result.h"
#include "runner/runner.h"
#include "runner/workload.h"

namespace loadcell {

struct Job {
  std::string name;
  // Options parsed and validated, prepared; outlives RunJobs.
  Workload* workload = nullptr;
  RunConfig cfg;
  Manifest manifest;
  RunObserver* observer = nullptr;  // may be null
};

struct JobGroup {
  std::vector<Job> jobs;
  // The group's jobs run across processes too (the ranks of an MPI run,
  // each running the same group): one Start for the whole group, polled by
  // its first job, and one FinishRuns with every job's result, in order, so
  // that each job is merged with the same job of the other processes. Null:
  // this process alone. Must outlive RunJobs; its calls come from the thread
  // that called RunJobs (MPI's).
  RunCoordinator* across = nullptr;
};

struct JobRunResult {
  std::string name;
  int group = 0;  // index into the groups given
  RunResult result;
};

struct JobsResult {
  // Every job that ran, group by group, in the order given; each result's
  // concurrent_threads is its group's threads, every job's summed.
  std::vector<JobRunResult> jobs;
  // Each group's jobs merged (RateTargets::kAdded), index = group; only the
  // groups that ran.
  std::vector<RunResult> groups;
  // Every group merged: all the work over the span from the first group's
  // start to the last one's end. Its intervals are the group's when one
  // group ran; none when several did (they have no common ticks).
  RunResult total;
};

// Runs `groups` in order. Within a group every job's threads are created
// first; when each job is ready they are all released together (a job that
// cannot start keeps the whole group from starting: the error, "job NAME:
// ...", is returned and no later group runs). With the group's `across`
// the jobs start once every process' jobs of the group are ready, and a
// stop it says (another process failed, or was interrupted) stops every
// job of the group. A job's failure is its result's (the group's and the
// total's carry the first, named); later groups still run, as fio's do. A
// stop request ends the group running and skips the rest. InvalidArgument
// for an empty group or a job without a workload.
Result<JobsResult> RunJobs(std::vector<JobGroup>& groups);

}  // namespace loadcell
