#include "runner/jobs.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

#include "runner/merge_results.h"
#include "runner/stop_signal.h"

namespace loadcell {
namespace {

// The common start of one group: each job's run says here that it is ready
// (or why not) and waits until every job of the group has. With `across`
// (other processes running the same group) the first job, on the thread
// that called RunJobs, also starts with them once every job here is ready,
// polls them for the group while it runs, and finishes every job's run
// with them once all of them ended.
class GroupSync final {
 public:
  GroupSync(size_t jobs, RunCoordinator* across)
      : jobs_(jobs), left_(jobs), across_(across), results_(jobs, nullptr) {}

  // Returns Ok when every job (and process) was ready; else the error the
  // job ends with: its own when it was not ready, the first failing job's
  // (named), or the other processes' when it was.
  Status Arrive(size_t index, const std::string& name, const Status& ready) {
    std::unique_lock<std::mutex> lock(mu_);
    if (!ready.ok() && failure_.ok()) {
      failure_ = Status(ready.code(), "job " + name + ": " + ready.message(), ready.err());
    }
    --left_;
    if (across_ != nullptr && index == 0) {
      cv_.wait(lock, [this] { return left_ == 0; });
      const Status here = failure_;
      lock.unlock();
      const Status go = across_->Start(here);
      lock.lock();
      if (!go.ok()) failure_ = go;
      started_ = true;
      cv_.notify_all();
    } else if (left_ == 0 && across_ == nullptr) {
      started_ = true;
      cv_.notify_all();
    } else {
      if (left_ == 0) cv_.notify_all();
      cv_.wait(lock, [this] { return started_; });
    }
    if (failure_.ok()) return Status::Ok();
    return ready.ok() ? failure_ : ready;
  }

  // The first job's poll reaches the other processes; a stop they say
  // stops every job.
  void Poll(size_t index, Nanos now, CoordinatorNews& news) {
    if (across_ == nullptr) return;
    if (index == 0) PollAcross(now);
    if (stop_.load()) news.stop = true;
  }

  // Each job's run ends here; the first job's waits for the others (polling
  // the other processes meanwhile), finishes them all with the other
  // processes, then lets them go on with their results merged.
  void Finish(size_t index, RunResult& result) {
    if (across_ == nullptr) return;
    std::unique_lock<std::mutex> lock(mu_);
    results_[index] = &result;
    ++finished_;
    if (index != 0) {
      cv_.notify_all();
      cv_.wait(lock, [this] { return merged_; });
      return;
    }
    while (finished_ < jobs_) {
      lock.unlock();
      PollAcross(MonotonicNow());
      lock.lock();
      cv_.wait_for(lock, std::chrono::milliseconds(50), [this] { return finished_ == jobs_; });
    }
    const std::vector<RunResult*> all = results_;
    lock.unlock();
    across_->FinishRuns(all);
    lock.lock();
    merged_ = true;
    cv_.notify_all();
  }

  Status failure() {
    std::lock_guard<std::mutex> lock(mu_);
    return failure_;
  }

 private:
  void PollAcross(Nanos now) {
    CoordinatorNews news;  // its intervals: each job reports its own
    across_->Poll(now, news);
    if (news.stop) stop_.store(true);
  }

  const size_t jobs_;
  std::mutex mu_;
  std::condition_variable cv_;
  size_t left_;                      // GUARDED_BY(mu_): jobs not yet arrived
  bool started_ = false;             // GUARDED_BY(mu_)
  Status failure_;                   // GUARDED_BY(mu_): the first job that could not start, named
  RunCoordinator* const across_;     // null: this process alone
  std::vector<RunResult*> results_;  // GUARDED_BY(mu_): each job's, once it ended
  size_t finished_ = 0;              // GUARDED_BY(mu_)
  bool merged_ = false;              // GUARDED_BY(mu_)
  std::atomic<bool> stop_{false};    // the other processes said stop
};

// One job's coordinator: its start, polls and end are the group's.
class JobStart final : public RunCoordinator {
 public:
  JobStart(GroupSync& group, size_t index, std::string name)
      : group_(group), index_(index), name_(std::move(name)) {}
  Status Start(const Status& ready) override { return group_.Arrive(index_, name_, ready); }
  void Poll(Nanos now, CoordinatorNews& news) override { group_.Poll(index_, now, news); }
  void Finish(RunResult& result) override { group_.Finish(index_, result); }

 private:
  GroupSync& group_;
  const size_t index_;
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
Result<std::vector<RunResult>> RunGroup(std::vector<Job>& jobs, RunCoordinator* across) {
  GroupSync barrier(jobs.size(), across);
  std::vector<std::unique_ptr<JobStart>> starts;
  starts.reserve(jobs.size());
  for (size_t i = 0; i < jobs.size(); ++i) {
    starts.push_back(std::make_unique<JobStart>(barrier, i, jobs[i].name));
  }
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
    LC_ASSIGN_OR_RETURN(std::vector<RunResult> results, RunGroup(jobs, groups[g].across));
    std::vector<const RunResult*> parts;
    std::vector<std::string> names;
    // The process' CPU time over a job's run is every job's of the group.
    int64_t together = 0;
    for (const Job& j : jobs) together += j.cfg.threads;
    for (size_t i = 0; i < jobs.size(); ++i) {
      results[i].concurrent_threads = static_cast<int>(together);
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
