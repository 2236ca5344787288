#pragma once
// Reporters format results; they compute no statistics (they read the
// histograms' percentiles and the workload's metrics).

#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "core/status.h"
#include "runner/run_config.h"
#include "runner/run_result.h"
#include "runner/runner.h"
#include "runner/workload.h"

namespace loadcell {

class JsonWriter;

struct ReportSettings {
  double percentile = 95;  // the user's chosen percentile (0: off)
  bool histogram = false;  // print the latency histogram
  double report_interval_s = 0;
  std::vector<double> checkpoints_s;  // --report-checkpoints, ascending
  // sysbench mode: the text report exactly as sysbench 1.0.20 prints it,
  // without loadcell's additions (docs/sysbench-mode.md).
  bool sysbench_exact = false;
  // --verbosity: below 3 the text report prints nothing (sysbench's notices).
  int verbosity = 3;
  // --verdict: off prints no verdict anywhere (the result then has none).
  VerdictMode verdict = VerdictMode::kOn;
};

class Reporter : public RunObserver {
 public:
  // OnStart / OnInterval / OnCheckpoint from RunObserver, then:
  virtual void OnEnd(const RunResult& r) = 0;
};

// Text in sysbench 1.0's shape on `out`.
std::unique_ptr<Reporter> MakeTextReporter(std::ostream& out, const Workload& w,
                                           const ReportSettings& s);
// One JSON document with everything (written at OnEnd); schema: docs/json-schema.md.
std::unique_ptr<Reporter> MakeJsonReporter(std::ostream& out, const Workload& w,
                                           const ReportSettings& s);
// The same document with `extra` writing further members of its top-level
// object after the schema's: a front end's own figures beside the run's
// (dbsim's users, files and page checks). Readers of the schema ignore them.
std::unique_ptr<Reporter> MakeJsonReporter(std::ostream& out, const Workload& w,
                                           const ReportSettings& s,
                                           std::function<void(JsonWriter&)> extra);
// One part of a run of several jobs (fio's jobs and groups): its name, its
// group, how many job instances it merges (fio's group_reporting, numjobs)
// and its result.
struct JobPart {
  std::string name;
  int group = 0;
  int instances = 1;
  const RunResult* result = nullptr;
};
// A run of several jobs in loadcell's schema: `total`'s document (every job
// merged) with two more members, `jobs` and `groups`, arrays of the parts'
// own documents, each with its `job` object (docs/json-schema.md, "Runs of
// several jobs"). `workload` names the counters a result does not.
void WriteJobsDocument(std::ostream& out, const RunResult& total, const std::vector<JobPart>& jobs,
                       const std::vector<JobPart>& groups, const Workload& workload,
                       const ReportSettings& s);
// CSV: a header, one row per interval, then a final row.
std::unique_ptr<Reporter> MakeCsvReporter(std::ostream& out, const Workload& w,
                                          const ReportSettings& s);

// Forwards each call to several reporters.
class MultiReporter final : public Reporter {
 public:
  void Add(std::unique_ptr<Reporter> r) { reporters_.push_back(std::move(r)); }
  // An observer that is told of the start only (not owned; it outlives the
  // run): the verdict step's start facts.
  void WatchStart(RunObserver* o) { start_watchers_.push_back(o); }
  void OnStart(const Manifest& m) override {
    for (RunObserver* o : start_watchers_) o->OnStart(m);
    for (auto& r : reporters_) r->OnStart(m);
  }
  void OnThreadsStarted() override {
    for (auto& r : reporters_) r->OnThreadsStarted();
  }
  void OnInterval(const IntervalSnapshot& s) override {
    for (auto& r : reporters_) r->OnInterval(s);
  }
  void OnCheckpoint(const RunResult& x) override {
    for (auto& r : reporters_) r->OnCheckpoint(x);
  }
  void OnStatus(const IntervalSnapshot& s) override {
    for (auto& r : reporters_) r->OnStatus(s);
  }
  void OnEnd(const RunResult& x) override {
    for (auto& r : reporters_) r->OnEnd(x);
  }

 private:
  std::vector<std::unique_ptr<Reporter>> reporters_;
  std::vector<RunObserver*> start_watchers_;
};

}  // namespace loadcell
