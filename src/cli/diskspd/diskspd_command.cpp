#include "cli/diskspd/diskspd_command.h"

#include <fcntl.h>
#include <fmt/chrono.h>
#include <fmt/format.h>

#include <chrono>
#include <condition_variable>
#include <ctime>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "cli/app.h"
#include "cli/cli_style.h"
#include "cli/diskspd/diskspd_plan.h"
#include "cli/report_file.h"
#include "core/progress.h"
#include "core/version.h"
#include "diskspd/diskspd_switches.h"
#include "os/host_facts.h"
#include "os/open_flags.h"
#include "os/system_info.h"
#include "report/diskspd/diskspd_report.h"
#include "runner/jobs.h"
#include "runner/stop_signal.h"
#include "validity/verdict.h"
#include "workloads/sqlio/sqlio.h"
#include "workloads/sqlio/sqlio_manifest.h"

namespace loadcell {
namespace {

using diskspd::DiskspdSwitches;

// loadcell's own options among DiskSpd's switches.
struct DiskspdOwnOptions {
  bool allow_destructive = false;
};

std::string OpenFlagsText(int flags) {
  std::string s;
  if ((flags & O_DIRECT) != 0) s += "O_DIRECT";
  if ((flags & O_DSYNC) != 0) s += s.empty() ? "O_DSYNC" : "|O_DSYNC";
  return s;
}

// loadcell's rules before anything is written: a write to a device, or to
// an existing file loadcell did not make without --allow-destructive
// (checked before any lock file is made, and again under the locks); the
// folder lock of every target written or created.
Status CheckTargetWrites(const DiskspdSwitches& sw, const DiskspdPlan& plan,
                         const DiskspdOwnOptions& own) {
  FileSystem& fs = DefaultFileSystem();
  if (sw.write_ratio == 0) return Status::Ok();
  for (const DiskspdTarget& t : plan.targets) {
    if (t.device) {
      return Status::InvalidArgument(fmt::format(
          "diskspd: target '{}' is a block device: writing to a device (-w{}) is not supported "
          "by loadcell yet (read tests are)",
          t.path, sw.write_ratio));
    }
    if (t.missing || own.allow_destructive) continue;
    LC_ASSIGN_OR_RETURN(bool ours, SqlioMadeFile(fs, t.path));
    if (!ours) {
      return Status::InvalidArgument(fmt::format(
          "diskspd: -w{} would overwrite '{}', which loadcell did not create (it is not listed "
          "in {}); give --allow-destructive to write to it",
          sw.write_ratio, t.path, JoinPath(Dirname(t.path), kSqlioManifestName)));
    }
  }
  return Status::Ok();
}

Status GuardTargets(const DiskspdSwitches& sw, const DiskspdPlan& plan,
                    const DiskspdOwnOptions& own, std::vector<FolderLock>& locks) {
  LC_RETURN_IF_ERROR(CheckTargetWrites(sw, plan, own));
  FileSystem& fs = DefaultFileSystem();
  std::set<std::string> locked;
  for (const DiskspdTarget& t : plan.targets) {
    if (t.device || (sw.write_ratio == 0 && !t.missing)) continue;
    const std::string folder = Dirname(t.path);
    if (locked.contains(folder)) continue;
    LC_ASSIGN_OR_RETURN(FolderLock lock, LockSqlioFolder(fs, folder, "loadcell diskspd"));
    locks.push_back(std::move(lock));
    locked.insert(folder);
  }
  return CheckTargetWrites(sw, plan, own);
}

Status CreateTargets(const DiskspdSwitches& sw, const DiskspdPlan& plan, std::ostream& err) {
  const bool tty = StderrIsTerminal();
  for (const DiskspdTarget& t : plan.targets) {
    if (!t.missing) continue;
    Result<FileInfo> again = DefaultFileSystem().Stat(t.path);
    if (again.ok() && again->exists) continue;  // the same file named twice
    const std::string& pattern = plan.write_buffer;
    SqlioFill fill = [&sw, &pattern](unsigned char* buf, size_t len, uint64_t off) {
      FillDiskspdBuffer(sw, pattern, buf, len, off);
    };
    LC_RETURN_IF_ERROR(CreateSqlioFile(DefaultFileSystem(), t.path, t.size,
                                       ProgressEnabled() ? &err : nullptr, tty, fill, "diskspd"));
  }
  return Status::Ok();
}

// The host's per-CPU times at the measured start and end of the run: taken
// by a thread of its own, from the moment the first job's threads are
// ready, after the warm-up and after the measured time. Forwards every
// call to the job's own observer (its verdict).
class CpuSampler final : public RunObserver {
 public:
  CpuSampler(RunObserver* inner, double warmup_s, double duration_s)
      : inner_(inner), warmup_s_(warmup_s), duration_s_(duration_s) {}
  ~CpuSampler() override { Stop(); }

  void OnStart(const Manifest& m) override {
    if (inner_ != nullptr) inner_->OnStart(m);
  }
  void OnThreadsStarted() override {
    if (inner_ != nullptr) inner_->OnThreadsStarted();
    if (thread_.joinable()) return;
    thread_ = std::thread([this] { Sample(); });
  }
  void OnInterval(const IntervalSnapshot& s) override {
    if (inner_ != nullptr) inner_->OnInterval(s);
  }
  void OnCheckpoint(const RunResult& r) override {
    if (inner_ != nullptr) inner_->OnCheckpoint(r);
  }
  void OnStatus(const IntervalSnapshot& s) override {
    if (inner_ != nullptr) inner_->OnStatus(s);
  }

  // Ends the sampling (an end not reached yet is taken now).
  void Stop() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
  }
  const std::vector<PerCpuTimes>& start() const { return start_; }
  const std::vector<PerCpuTimes>& end() const { return end_; }

 private:
  void Sample() {
    using Secs = std::chrono::duration<double>;
    const auto t0 = std::chrono::steady_clock::now();
    std::unique_lock<std::mutex> lock(mu_);
    const auto measure =
        t0 + std::chrono::duration_cast<std::chrono::steady_clock::duration>(Secs(warmup_s_));
    cv_.wait_until(lock, measure, [this] { return stop_; });
    start_ = ReadPerCpuTimes();
    const auto end = measure + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                   Secs(duration_s_));
    cv_.wait_until(lock, end, [this] { return stop_; });
    end_ = ReadPerCpuTimes();
  }

  RunObserver* inner_;
  double warmup_s_;
  double duration_s_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
  std::vector<PerCpuTimes> start_;
  std::vector<PerCpuTimes> end_;
};

// One job's run parts, kept alive through the run and the report.
struct DiskspdJobRun {
  const DiskspdJob* planned = nullptr;
  std::unique_ptr<FioJobWorkload> workload;
  std::unique_ptr<VerdictStep> verdict;
};

std::string UtcNow() {
  const std::time_t now = std::time(nullptr);
  return fmt::format("{:%Y/%m/%d %H:%M:%S} UTC", fmt::gmtime(now));
}

void Verbose(const DiskspdSwitches& sw, std::ostream& err, const std::string& line) {
  if (sw.verbose) err << "diskspd: " << line << "\n";
}

}  // namespace

std::string DiskspdUsage() {
  return "Usage: loadcell diskspd [switches] target1 [target2 ...]\n"
         "DiskSpd 2.2's command line, run by loadcell: DiskSpd's switches, units and\n"
         "defaults (-b64K -d10 -W5 -o2 -t1; sizes with K, M, G, T or b), DiskSpd's text\n"
         "report or -Rxml, loadcell's verdict after it. loadcell's additions:\n"
         "  -Rxml:FILE           the XML report also to FILE (the text on stdout)\n"
         "  --allow-destructive  let -w write to an existing file loadcell did not create\n"
         "Every switch, and what is not supported yet: docs/diskspd.md.\n";
}

int RunDiskspdCommand(const std::vector<std::string>& all_args, std::ostream& out,
                      std::ostream& err) {
  DiskspdOwnOptions own;
  std::vector<std::string> args;
  for (const std::string& a : all_args) {
    if (a == "--allow-destructive") {
      own.allow_destructive = true;
    } else if (a == "--help") {
      out << DiskspdUsage();
      return kExitOk;
    } else if (a.rfind("--", 0) == 0) {
      PrintCliError(err, fmt::format("diskspd: unknown option '{}' (loadcell's own options here: "
                                     "--allow-destructive, --help)",
                                     a));
      return kExitUsage;
    } else {
      args.push_back(a);
    }
  }
  if (args.empty()) {
    err << DiskspdUsage();
    return kExitUsage;
  }
  Result<DiskspdSwitches> parsed = diskspd::ParseDiskspdCommandLine(args, "loadcell diskspd");
  if (!parsed.ok()) {
    PrintCliError(err, parsed.status());
    return kExitUsage;
  }
  const DiskspdSwitches& sw = *parsed;
  if (sw.help) {
    out << DiskspdUsage();
    return kExitOk;
  }
  FileSystem& fs = DefaultFileSystem();
  Result<DiskspdPlan> planned = PlanDiskspd(sw, fs);
  if (!planned.ok()) {
    PrintCliError(err, planned.status());
    return kExitUsage;
  }
  const DiskspdPlan& plan = *planned;
  if (plan.engine == "sync" && sw.requests > 1) {
    PrintCliWarning(err, fmt::format("diskspd: -o{} needs an asynchronous engine, and this build "
                                     "or kernel has none: one request at a time per thread",
                                     sw.requests));
  }
  std::vector<FolderLock> locks;
  if (Status guarded = GuardTargets(sw, plan, own, locks); !guarded.ok()) {
    PrintCliError(err, guarded);
    return kExitUsage;
  }
  ReportFile xml_file;
  if (!sw.xml_file.empty()) {
    if (Status st = xml_file.Open("-Rxml", sw.xml_file); !st.ok()) {
      PrintCliError(err, st);
      return kExitUsage;
    }
  }
  InstallStopSignalHandlers();
  if (Status created = CreateTargets(sw, plan, err); !created.ok()) {
    PrintCliError(err, created);
    return created.IsUsageError() ? kExitUsage : kExitRunFailed;
  }

  std::vector<DiskspdJobRun> runs;
  JobGroup group;
  std::unique_ptr<CpuSampler> sampler;
  for (const DiskspdJob& pj : plan.jobs) {
    DiskspdJobRun& jr = runs.emplace_back();
    jr.planned = &pj;
    jr.workload = std::make_unique<FioJobWorkload>(pj.settings, fs);
    PrepareContext ctx;
    ctx.seed = pj.settings.pattern.seed;
    if (Status st = jr.workload->Prepare(ctx); !st.ok()) {
      PrintCliError(err, Status(st.code(), pj.settings.name + ": " + st.message(), st.err()));
      return kExitRunFailed;
    }
    jr.verdict = std::make_unique<VerdictStep>(*jr.workload, pj.cfg.verdict_mode(), 99,
                                               pj.cfg.report_interval_s);
    Job job;
    job.name = pj.settings.name;
    job.workload = jr.workload.get();
    job.cfg = pj.cfg;
    job.manifest.tool_version = kVersion;
    job.manifest.test = "diskspd";
    job.manifest.command = "run";
    job.manifest.system = ReadSystemInfo();
    for (const std::string& g : sw.given) job.manifest.options.push_back({"diskspd", g, "", false});
    job.observer = jr.verdict.get();
    if (sampler == nullptr) {
      sampler = std::make_unique<CpuSampler>(jr.verdict.get(), sw.warmup_s, sw.duration_s);
      job.observer = sampler.get();
    }
    group.jobs.push_back(std::move(job));
    Verbose(sw, err,
            fmt::format("thread {}: target '{}', engine {}, {} outstanding", pj.thread,
                        plan.targets[pj.target].path, pj.settings.engine, pj.settings.iodepth));
  }
  const std::string start_time = UtcNow();
  Verbose(sw, err,
          fmt::format("starting: warm-up {}s, measured {}s, cool-down {}s", sw.warmup_s,
                      sw.duration_s, sw.cooldown_s));
  std::vector<JobGroup> groups;
  groups.push_back(std::move(group));
  Result<JobsResult> ran = RunJobs(groups);
  if (sampler != nullptr) sampler->Stop();
  if (!ran.ok()) {
    PrintCliError(err, ran.status());
    return kExitRunFailed;
  }
  Verbose(sw, err, "finished");
  bool failed = false;
  bool interrupted = false;
  for (size_t i = 0; i < ran->jobs.size() && i < runs.size(); ++i) {
    runs[i].verdict->Judge(ran->jobs[i].result);
    const RunResult& r = ran->jobs[i].result;
    interrupted = interrupted || r.interrupted;
    if (!r.failure.ok() && !r.interrupted) {
      failed = true;
      PrintCliError(err, Status(r.failure.code(), ran->jobs[i].name + ": " + r.failure.message(),
                                r.failure.err()));
    }
  }

  DiskspdReport report;
  report.sw = &sw;
  for (const DiskspdTarget& t : plan.targets) report.targets.push_back({t.path, t.size, t.missing});
  report.engine = plan.engine;
  report.open_flags = OpenFlagsText(plan.open_flags);
  report.seed = plan.seed;
  report.version = kVersion;
  report.computer = ComputerName();
  report.start_time_utc = start_time;
  report.cpu_count = ReadSystemInfo().cpus_online;
  report.thread_count = sw.ThreadCount();
  report.test_time_s = ran->total.total_time_s;
  if (sampler != nullptr) report.cpus = DiskspdCpuTable(sampler->start(), sampler->end());
  std::set<size_t> judged_targets;
  for (size_t i = 0; i < ran->jobs.size() && i < runs.size(); ++i) {
    const DiskspdJob& pj = *runs[i].planned;
    const DiskspdTarget& t = plan.targets[pj.target];
    report.rows.push_back(DiskspdRowOf(ran->jobs[i].result, pj.thread, pj.target, t.path, t.size));
    if (judged_targets.insert(pj.target).second) {
      report.verdicts.emplace_back(
          fmt::format("Verdict for target '{}' (thread {}):", t.path, pj.thread),
          &ran->jobs[i].result.validity);
    }
  }
  // The rows in DiskSpd's order: thread, then target.
  std::stable_sort(report.rows.begin(), report.rows.end(),
                   [](const DiskspdRow& a, const DiskspdRow& b) {
                     return a.thread != b.thread ? a.thread < b.thread : a.target < b.target;
                   });
  if (sw.xml) {
    WriteDiskspdXml(report, out);
    out << "\n";
  } else {
    WriteDiskspdText(report, out);
  }
  if (xml_file.is_open()) {
    WriteDiskspdXml(report, xml_file.stream());
    xml_file.stream() << "\n";
    if (Status st = xml_file.Commit(); !st.ok()) {
      PrintCliError(err, st);
      failed = true;
    }
  }
  for (DiskspdJobRun& jr : runs) (void)jr.workload->Cleanup(PrepareContext{});
  if (interrupted) return kExitInterrupted;
  return failed ? kExitRunFailed : kExitOk;
}

}  // namespace loadcell
