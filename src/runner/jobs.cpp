#include "runner/jobs.h"

#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

#include "runner/merge_results.h"
#include "runner/stop_signal.h"

namespace loadcell {
namespace {

// The common start of one group: each job's run says here that it is ready
// (or why not) and waits until every job of the group has.
class GroupBarrier final {
 public:
  explicit GroupBarrier(size_t jobs) : left_(jobs) {}

  // Returns Ok when every job was ready; else the error the job ends with:
  // its own when it was not ready, the first failing job's (named) when it
  // was.
  Status Arrive(const std::string& name, const Status& ready) {
    std::unique_lock<std::mutex> lock(mu_);
    if (!ready.ok() && failure_.ok()) {
      failure_ = Status(ready.code(), "job " + name + ": " + ready.message(), ready.err());
    }
    if (--left_ == 0) {
      cv_.notify_all();
    } else {
      cv_.wait(lock, [this] { return left_ == 0; });
    }
    if (failure_.ok()) return Status::Ok();
    return ready.ok() ? failure_ : ready;
  }

  Status failure() {
    std::lock_guard<std::mutex> lock(mu_);
    return failure_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  size_t left_;     // GUARDED_BY(mu_): jobs not yet arrived
  Status failure_;  // GUARDED_BY(mu_): the first job that could not start, named
};

// One job's coordinator: its start is the group's.
class JobStart final : public RunCoordinator {
 public:
  JobStart(GroupBarrier& barrier, std::string name) : barrier_(barrier), name_(std::move(name)) {}
  Status Start(const Status& ready) override { return barrier_.Arrive(name_, ready); }

 private:
  GroupBarrier& barrier_;
  const std::string name_;
};

Status CheckGroups(const std::vector<JobGroup>& groups) {
  if (groups.empty()) return Status::InvalidArgument("no jobs to run");
  for (size_t g = 0; g < groups.size(); ++g) {
    if (groups[g].jobs.empty()) {
      return Status::InvalidArgument("job group " + std::to_string(g) + " has no job");
    }
    for (const Job& j : groups[g].jobs) {
      if (j.workload == nullptr) return Status::InvalidArgument("job " + j.name + " has no test");
    }
  }
  return Status::Ok();
}

// Runs the jobs of one group together; every job's result, in order, or
// the error that kept the group from starting.
Result<std::vector<RunResult>> RunGroup(std::vector<Job>& jobs) {
  GroupBarrier barrier(jobs.size());
  std::vector<std::unique_ptr<JobStart>> starts;
  starts.reserve(jobs.size());
  for (const Job& j : jobs) starts.push_back(std::make_unique<JobStart>(barrier, j.name));
  std::vector<std::optional<Result<RunResult>>> results(jobs.size());
  auto run_one = [&](size_t i) {
    Job& j = jobs[i];
    results[i].emplace(RunWorkload(*j.workload, j.cfg, j.manifest, j.observer, *starts[i]));
  };
  std::vector<std::thread> others;
  for (size_t i = 1; i < jobs.size(); ++i) others.emplace_back(run_one, i);
  run_one(0);
  for (std::thread& t : others) t.join();

  if (Status st = barrier.failure(); !st.ok()) return st;
  std::vector<RunResult> out;
  for (size_t i = 0; i < jobs.size(); ++i) {
    Result<RunResult>& r = *results[i];
    if (!r.ok()) {
      const Status& st = r.status();
      return Status(st.code(), "job " + jobs[i].name + ": " + st.message(), st.err());
    }
    out.push_back(std::move(r).value());
  }
  return out;
}

}  // namespace

Result<JobsResult> RunJobs(std::vector<JobGroup>& groups) {
  LC_RETURN_IF_ERROR(CheckGroups(groups));
  JobsResult out;
  for (size_t g = 0; g < groups.size(); ++g) {
    if (g > 0 && StopRequested()) break;
    std::vector<Job>& jobs = groups[g].jobs;
    LC_ASSIGN_OR_RETURN(std::vector<RunResult> results, RunGroup(jobs));
    std::vector<const RunResult*> parts;
    std::vector<std::string> names;
    for (size_t i = 0; i < jobs.size(); ++i) {
      out.jobs.push_back({jobs[i].name, static_cast<int>(g), std::move(results[i])});
    }
    for (size_t i = out.jobs.size() - jobs.size(); i < out.jobs.size(); ++i) {
      parts.push_back(&out.jobs[i].result);
      names.push_back("job " + out.jobs[i].name);
    }
    LC_ASSIGN_OR_RETURN(RunResult merged, MergeResults(parts, names, RateTargets::kAdded));
    out.groups.push_back(std::move(merged));
  }
  std::vector<const RunResult*> groups_run;
  for (const RunResult& r : out.groups) groups_run.push_back(&r);
  LC_ASSIGN_OR_RETURN(out.total, MergeResults(groups_run, {}, RateTargets::kAdded));
  // Groups one after another have no common ticks.
  if (out.groups.size() > 1) out.total.intervals.clear();
  return out;
}

}  // namespace loadcell
