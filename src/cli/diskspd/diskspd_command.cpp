#include "cli/diskspd/diskspd_command.h"

#include <fcntl.h>
#include <fmt/chrono.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <ctime>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string_view>

#include "cli/app.h"
#include "cli/cli_style.h"
#include "cli/cluster_setup.h"
#include "cli/diskspd/diskspd_mpi.h"
#include "cli/diskspd/diskspd_observer.h"
#include "cli/diskspd/diskspd_own_options.h"
#include "cli/diskspd/diskspd_plan.h"
#include "cli/fio/fio_results.h"
#include "cli/report_file.h"
#include "cluster/cluster.h"
#include "core/progress.h"
#include "core/version.h"
#include "diskspd/diskspd_profile.h"
#include "diskspd/diskspd_switches.h"
#include "diskspd/diskspd_xml_reader.h"
#include "os/cpu_topology.h"
#include "os/host_facts.h"
#include "os/open_flags.h"
#include "os/system_info.h"
#include "report/diskspd/diskspd_report.h"
#include "runner/jobs.h"
#include "runner/merge_results.h"
#include "runner/stop_signal.h"
#include "validity/verdict.h"
#include "workloads/sqlio/sqlio.h"
#include "workloads/sqlio/sqlio_manifest.h"

namespace loadcell {
namespace {

using diskspd::DiskspdSwitches;

// loadcell's rules before anything is written: a write to a device, or to
// an existing file loadcell did not make without --allow-destructive
// (checked before any lock file is made, and again under the locks); the
// folder lock of every target written or created.
Status CheckTargetWrites(const DiskspdPlan& plan, const DiskspdOwnOptions& own) {
  FileSystem& fs = DefaultFileSystem();
  for (const DiskspdTarget& t : plan.targets) {
    const DiskspdSwitches& sw = *t.sw;
    if (sw.write_ratio == 0) continue;
    if (t.device) {
      LC_RETURN_IF_ERROR(CheckDiskspdDeviceWrite(t.path, sw.write_ratio, own.allow_destructive));
      continue;
    }
    if (t.missing || t.created_earlier || own.allow_destructive) continue;
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

Status GuardTargets(const DiskspdPlan& plan, const DiskspdOwnOptions& own,
                    std::vector<FolderLock>& locks, std::set<std::string>& locked) {
  LC_RETURN_IF_ERROR(CheckTargetWrites(plan, own));
  FileSystem& fs = DefaultFileSystem();
  for (const DiskspdTarget& t : plan.targets) {
    if (t.device || (t.sw->write_ratio == 0 && !t.missing)) continue;
    const std::string folder = Dirname(t.path);
    if (locked.contains(folder)) continue;
    LC_ASSIGN_OR_RETURN(FolderLock lock, LockSqlioFolder(fs, folder, "loadcell diskspd"));
    locks.push_back(std::move(lock));
    locked.insert(folder);
  }
  return CheckTargetWrites(plan, own);
}

Status CreateTargets(const DiskspdPlan& plan, std::ostream& err) {
  const bool tty = StderrIsTerminal();
  for (const DiskspdTarget& t : plan.targets) {
    if (!t.missing) continue;
    Result<FileInfo> again = DefaultFileSystem().Stat(t.path);
    if (again.ok() && again->exists) continue;  // the same file named twice
    const std::string& pattern = t.write_buffer;
    const DiskspdSwitches& sw = *t.sw;
    SqlioFill fill = [&sw, &pattern](unsigned char* buf, size_t len, uint64_t off) {
      FillDiskspdBuffer(sw, pattern, buf, len, off);
    };
    LC_RETURN_IF_ERROR(CreateSqlioFile(DefaultFileSystem(), t.path, t.size,
                                       ProgressEnabled() ? &err : nullptr, tty, fill, "diskspd"));
  }
  return Status::Ok();
}

// One job's run parts, kept alive through the run and the report.
struct DiskspdJobRun {
  const DiskspdJob* planned = nullptr;
  std::unique_ptr<FioJobWorkload> workload;
  std::unique_ptr<VerdictStep> verdict;
  std::unique_ptr<CpuSampler> observer;  // -P's counting (not the first job's)
};

std::string UtcNow() {
  const std::time_t now = std::time(nullptr);
  return fmt::format("{:%Y/%m/%d %H:%M:%S} UTC", fmt::gmtime(now));
}

// A switch as the manifest records it, for `compare` to name what two runs
// differ in: the switch ("-b", "-rs", "-Sh" and the other cache modes, the
// access hints "-fr") and its value ("4K"; "" for a switch without one).
ResolvedOption DiskspdManifestOption(const std::string& given) {
  static constexpr std::array<std::string_view, 7> kTwoLetters = {"-ag", "-rs", "-rd", "-Rp",
                                                                  "-vs", "-si", "-Zr"};
  size_t name_len = std::min<size_t>(given.size(), 2);
  for (std::string_view two : kTwoLetters) {
    if (given.starts_with(two)) name_len = two.size();
  }
  const bool letters_only =
      given.size() > 2 && std::all_of(given.begin() + 2, given.end(), [](char c) {
        return std::isalpha(static_cast<unsigned char>(c)) != 0;
      });
  // -S<modes>, -f<hints>, -N<mode>: the letters are the switch.
  if (given.size() > 1 && std::string_view("SfN").find(given[1]) != std::string_view::npos &&
      letters_only) {
    name_len = given.size();
  }
  return {"diskspd", given.substr(0, name_len), given.substr(name_len), false};
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
         "  --allow-destructive  let -w write to an existing file loadcell did not create,\n"
         "                       or to a device holding a file system or partition table\n"
         "Under mpirun every rank runs the test, rank 0 prints one merged report:\n"
         "  --mpi-files=per-rank|shared, --mpi-timeout=TIME, --mpi=auto|on|off (docs/mpi.md)\n"
         "  --verdict=MODE       off, on (the default) or strict: exit 3 when a target's\n"
         "                       verdict is INVALID (docs/validity.md)\n"
         "  --format=json        loadcell's JSON result (each thread's job and the whole\n"
         "                       run, with its verdict) on stdout instead of DiskSpd's\n"
         "                       report, or to --output-file=PATH; --report-html=PATH its\n"
         "                       page; `loadcell report` and `loadcell compare` read it\n"
         "Every switch, and what is not supported yet: docs/diskspd.md.\n";
}

namespace {

// One timespan's run: its jobs, their results and its report, kept alive
// until every timespan is reported.
struct DiskspdTimespanRun {
  std::unique_ptr<Cluster> cluster;  // under MPI: the timespan's across the ranks
  VerdictMode verdict = VerdictMode::kOn;
  std::vector<DiskspdJobRun> runs;
  JobsResult ran;
  DiskspdReport report;
  bool failed = false;
  bool interrupted = false;
};

// The profile: -X's file (read whole, bounded), else the command line's one
// timespan.
Result<diskspd::DiskspdProfile> LoadDiskspdProfile(const DiskspdSwitches& sw) {
  if (sw.profile_path.empty()) return diskspd::DiskspdProfileOf(sw);
  FileSystem& fs = DefaultFileSystem();
  LC_ASSIGN_OR_RETURN(FileInfo st, fs.Stat(sw.profile_path));
  if (!st.exists || !st.is_regular) {
    return Status::InvalidArgument(
        fmt::format("diskspd switch '-X{}': no such profile file", sw.profile_path));
  }
  if (st.size > diskspd::kMaxXmlBytes) {
    return Status::InvalidArgument(
        fmt::format("diskspd -X {}: the profile is {} bytes, more than {}", sw.profile_path,
                    st.size, diskspd::kMaxXmlBytes));
  }
  LC_ASSIGN_OR_RETURN(int fd, fs.Open(sw.profile_path, O_RDONLY));
  std::string text(st.size, '\0');
  Result<size_t> got = fs.PRead(fd, text.data(), text.size(), 0);
  (void)fs.Close(fd);
  if (!got.ok()) return got.status();
  text.resize(*got);
  return diskspd::ParseDiskspdProfile(text, sw.profile_path, sw);
}

// What every report of the run shares: the profile's part, no results.
DiskspdReport ReportShell(const diskspd::DiskspdTimespan& ts, const DiskspdPlan* plan,
                          uint32_t seed) {
  DiskspdReport report;
  report.sw = &ts.sw;
  for (size_t i = 0; i < ts.per_target.size(); ++i) {
    DiskspdReportTarget rt;
    rt.path = ts.per_target[i].targets.front();
    rt.sw = &ts.per_target[i];
    if (plan != nullptr) {
      const DiskspdTarget& t = plan->targets[i];
      rt.size = t.size;
      rt.created = t.missing;
      rt.engine = t.engine;
      rt.open_flags = DiskspdOpenFlagsText(t.open_flags);
      rt.notes = t.notes;
    }
    report.targets.push_back(rt);
  }
  if (plan != nullptr) report.pinned_cpus = plan->pinned_cpus;
  report.engine = plan != nullptr ? plan->engine : "";
  report.open_flags = plan != nullptr ? DiskspdOpenFlagsText(plan->open_flags) : "";
  report.seed = seed;
  report.version = kVersion;
  report.computer = ComputerName();
  report.topology = ReadCpuTopology();
  report.cpu_count = report.topology.ProcessorCount() > 0 ? report.topology.ProcessorCount()
                                                          : ReadSystemInfo().cpus_online;
  report.thread_count = ts.ThreadCount();
  return report;
}

// The cluster of a run across the ranks (nullptr for one process); a rank
// whose `setup` failed ends every rank with it (one line, rank 0's).
Result<std::unique_ptr<Cluster>> JoinDiskspdRanks(const MpiRanks& ranks, const RunPlan& plan,
                                                  const Status& setup) {
  ClusterSettings s = ranks.settings;
  s.plan = plan;
  s.setup = setup;
  return JoinCluster(s, ranks.launch);
}

// Runs one timespan's jobs (under MPI a group across the ranks, with a
// cluster of its own); false when a job could not be prepared or the run
// could not start (its line printed).
bool RunTimespan(const diskspd::DiskspdTimespan& ts, const DiskspdPlan& plan,
                 const DiskspdOwnOptions& own, const RunPlan& run_plan, DiskspdTimespanRun& tr,
                 std::ostream& err) {
  const DiskspdSwitches& sw = ts.sw;
  FileSystem& fs = DefaultFileSystem();
  JobGroup group;
  std::unique_ptr<CpuSampler> sampler;
  std::unique_ptr<ProgressDots> dots;
  const bool reports = !own.ranks.across || own.ranks.launch.rank == 0;
  if (sw.progress_every > 0 && reports) {
    dots = std::make_unique<ProgressDots>(sw.progress_every, err);
  }
  Status prepared = Status::Ok();
  for (const DiskspdJob& pj : plan.jobs) {
    DiskspdJobRun& jr = tr.runs.emplace_back();
    jr.planned = &pj;
    jr.workload = std::make_unique<FioJobWorkload>(pj.settings, fs);
    PrepareContext ctx;
    ctx.seed = pj.settings.pattern.seed;
    if (Status st = jr.workload->Prepare(ctx); !st.ok()) {
      prepared = Status(st.code(), pj.settings.name + ": " + st.message(), st.err());
      break;
    }
    jr.verdict =
        std::make_unique<VerdictStep>(*jr.workload, tr.verdict, 99, pj.cfg.report_interval_s);
    Job job;
    job.name = pj.settings.name;
    job.workload = jr.workload.get();
    job.cfg = pj.cfg;
    job.manifest.tool_version = kVersion;
    job.manifest.test = "diskspd";
    job.manifest.command = "run";
    job.manifest.system = ReadSystemInfo();
    for (const std::string& g : sw.given) job.manifest.options.push_back(DiskspdManifestOption(g));
    job.observer = jr.verdict.get();
    if (sampler == nullptr) {
      sampler = std::make_unique<CpuSampler>(jr.verdict.get(), sw.warmup_s, sw.duration_s);
      sampler->CountInto(dots.get());
      job.observer = sampler.get();
    } else if (dots != nullptr) {
      jr.observer = std::make_unique<CpuSampler>(jr.verdict.get(), 0, 0, false);
      jr.observer->CountInto(dots.get());
      job.observer = jr.observer.get();
    }
    group.jobs.push_back(std::move(job));
    Verbose(sw, err,
            fmt::format("thread {}: target '{}', engine {}, {} outstanding", pj.thread,
                        plan.targets[pj.target].path, pj.settings.engine, pj.settings.iodepth));
  }
  Result<std::unique_ptr<Cluster>> joined = JoinDiskspdRanks(own.ranks, run_plan, prepared);
  if (!joined.ok() || !prepared.ok()) {
    PrintCliError(err, !joined.ok() ? joined.status() : prepared);
    return false;
  }
  tr.cluster = std::move(joined).value();
  group.across = tr.cluster.get();
  tr.report = ReportShell(ts, &plan, plan.seed);
  tr.report.start_time_utc = UtcNow();
  Verbose(sw, err,
          fmt::format("starting: warm-up {}s, measured {}s, cool-down {}s", sw.warmup_s,
                      sw.duration_s, sw.cooldown_s));
  std::vector<JobGroup> groups;
  groups.push_back(std::move(group));
  Result<JobsResult> ran = RunJobs(groups);
  if (sampler != nullptr) sampler->Stop();
  if (dots != nullptr) err << "\n";
  if (!ran.ok()) {
    PrintCliError(err, ran.status());
    return false;
  }
  tr.ran = std::move(*ran);
  Verbose(sw, err, "finished");
  if (sampler != nullptr) tr.report.cpus = DiskspdCpuTable(sampler->start(), sampler->end());
  return true;
}

// The timespan's figures, rows and verdicts from its jobs' results.
void CollectTimespan(const DiskspdPlan& plan, bool per_rank, DiskspdTimespanRun& tr,
                     std::ostream& err) {
  DiskspdReport& report = tr.report;
  for (size_t i = 0; i < tr.ran.jobs.size() && i < tr.runs.size(); ++i) {
    tr.runs[i].verdict->Judge(tr.ran.jobs[i].result);
    const RunResult& r = tr.ran.jobs[i].result;
    tr.interrupted = tr.interrupted || r.interrupted;
    if (!r.failure.ok() && !r.interrupted) {
      tr.failed = true;
      PrintCliError(err, Status(r.failure.code(), tr.ran.jobs[i].name + ": " + r.failure.message(),
                                r.failure.err()));
    }
  }
  report.test_time_s = tr.ran.total.total_time_s;
  // Under MPI every rank's own rows of each job (its threads numbered rank
  // after rank), from the merged result's ranks; each target's threads
  // judged as one (its verdict merged over them).
  const DiskspdRankLayout layout{report.thread_count, plan.targets.size(), per_rank};
  std::vector<std::vector<NamedValidity>> by_target(plan.targets.size());
  for (size_t i = 0; i < tr.ran.jobs.size() && i < tr.runs.size(); ++i) {
    const DiskspdJob& pj = *tr.runs[i].planned;
    const DiskspdTarget& t = plan.targets[pj.target];
    const RunResult& merged = tr.ran.jobs[i].result;
    std::vector<DiskspdRow> rows = DiskspdRankRows(merged, pj, t, layout);
    if (rows.empty()) rows.push_back(DiskspdRowOf(merged, pj.thread, pj.target, t.path, t.size));
    if (i == 0 && merged.cluster) SpreadDiskspdTargets(merged.cluster->ranks, layout, report);
    report.rows.insert(report.rows.end(), rows.begin(), rows.end());
    by_target[pj.target].push_back({fmt::format("thread {}", pj.thread), &merged.validity});
  }
  for (size_t k = 0; k < by_target.size(); ++k) {
    if (by_target[k].empty()) continue;
    report.verdicts.push_back({plan.targets[k].path, MergeVerdicts(by_target[k])});
  }
  // The rows in DiskSpd's order: thread, then target.
  std::stable_sort(report.rows.begin(), report.rows.end(),
                   [](const DiskspdRow& a, const DiskspdRow& b) {
                     return a.thread != b.thread ? a.thread < b.thread : a.target < b.target;
                   });
}

// -Rp: the profile as DiskSpd prints it (XML, or the text's input
// parameters with -Rptext), nothing opened or run.
int PrintDiskspdProfile(const DiskspdSwitches& sw, const diskspd::DiskspdProfile& profile,
                        std::ostream& out) {
  std::vector<DiskspdReport> shells;
  for (const diskspd::DiskspdTimespan& ts : profile.timespans) {
    shells.push_back(ReportShell(ts, nullptr, ts.sw.seed));
  }
  if (sw.format_given && !sw.xml) {
    WriteDiskspdProfileText(shells, out);
  } else {
    WriteDiskspdProfileXml(shells, out);
  }
  return kExitOk;
}

// Every timespan planned and checked before anything is written.
Result<std::vector<DiskspdPlan>> PlanProfile(const diskspd::DiskspdProfile& profile,
                                             std::ostream& err) {
  std::vector<DiskspdPlan> plans;
  std::map<std::string, uint64_t> created;  // by earlier timespans
  for (const diskspd::DiskspdTimespan& ts : profile.timespans) {
    LC_ASSIGN_OR_RETURN(DiskspdPlan plan, PlanDiskspd(ts, DefaultFileSystem(), created));
    for (const DiskspdTarget& t : plan.targets) {
      if (t.missing) created.emplace(t.path, t.size);
    }
    for (const DiskspdTarget& t : plan.targets) {
      if (t.engine == "sync" && t.requests > 1) {
        PrintCliWarning(err, fmt::format("diskspd: -o{} needs an asynchronous engine, and this "
                                         "build or kernel has none: one request at a time per "
                                         "thread",
                                         t.requests));
        break;
      }
    }
    for (const DiskspdTarget& t : plan.targets) {
      if (t.sw->parallel_async && (t.requests <= 1 || t.engine == "sync" || t.engine == "mmap")) {
        // DiskSpd's warning: nothing runs in parallel with one request.
        PrintCliWarning(err, fmt::format("diskspd: -p has no effect on target '{}': its threads "
                                         "keep one request in flight (-o2 or more, an "
                                         "asynchronous engine)",
                                         t.path));
        break;
      }
    }
    plans.push_back(std::move(plan));
  }
  return plans;
}

// Every timespan's missing targets created: by each rank in its own folder,
// or by rank 0 for every rank (shared targets) while the others wait.
Status CreateAllTargets(const std::vector<DiskspdPlan>& plans, const DiskspdOwnOptions& own,
                        Cluster* cluster, std::ostream& err) {
  const auto create = [&]() -> Status {
    for (const DiskspdPlan& plan : plans) LC_RETURN_IF_ERROR(CreateTargets(plan, err));
    return Status::Ok();
  };
  if (cluster == nullptr) return create();
  if (own.ranks.Shared()) return cluster->OnRankZero(create, "create the shared targets");
  return cluster->Agree(create, "create their targets");
}

// loadcell's result of the run (--format=json, --report-html) in the
// schema of runs of several jobs: each thread's job on each target, each
// timespan as a group, the whole run at the top; each with its verdict
// (a timespan's: its targets' merged; the run's: every timespan's).
Status WriteLoadcellResult(const std::vector<std::unique_ptr<DiskspdTimespanRun>>& spans,
                           const FioResultOptions& o, FioResultFiles& files, std::ostream& out) {
  if (!o.json && o.html_file.empty()) return Status::Ok();
  if (spans.empty() || spans.front()->runs.empty()) return Status::Ok();
  const Workload& workload = *spans.front()->runs.front().workload;
  const bool several = spans.size() > 1;
  std::deque<RunResult> results;  // the parts' results, with their metrics (stable addresses)
  std::vector<JobPart> jobs;
  std::vector<JobPart> groups;
  std::vector<const RunResult*> span_totals;
  std::vector<NamedValidity> every_target;
  std::vector<TargetManifest> targets;
  for (size_t k = 0; k < spans.size(); ++k) {
    const DiskspdTimespanRun& tr = *spans[k];
    const std::string prefix = several ? fmt::format("timespan {}: ", k + 1) : "";
    const int group = static_cast<int>(k);
    for (const JobRunResult& j : tr.ran.jobs) {
      RunResult& r = results.emplace_back(j.result);
      if (r.metrics.empty()) r.metrics = workload.Metrics(r);
      jobs.push_back({prefix + j.name, group, 1, &r});
      const std::vector<TargetManifest>& t = j.result.manifest.targets;
      targets.insert(targets.end(), t.begin(), t.end());
    }
    RunResult& total = results.emplace_back(tr.ran.total);
    std::vector<NamedValidity> verdicts;
    for (const DiskspdTargetVerdict& v : tr.report.verdicts) {
      verdicts.push_back({"target " + v.path, &v.validity});
      every_target.push_back({prefix + "target " + v.path, &v.validity});
    }
    total.validity = MergeVerdicts(verdicts);
    total.metrics = workload.Metrics(total);
    groups.push_back(
        {fmt::format("timespan {}", k + 1), group, static_cast<int>(tr.ran.jobs.size()), &total});
    span_totals.push_back(&total);
  }
  RunResult total = *span_totals.front();
  if (several) {  // the timespans one after another
    LC_ASSIGN_OR_RETURN(total, MergeResults(span_totals, {}, RateTargets::kAdded));
    total.intervals.clear();
  }
  total.manifest.test = "diskspd";
  total.manifest.targets = std::move(targets);
  total.manifest.targets_recorded = true;
  total.validity = MergeVerdicts(every_target);
  total.metrics = workload.Metrics(total);
  return files.WriteDocument(o, total, jobs, groups, workload, out);
}

// Writes the timespans' reports: text or XML on `out` (none when
// loadcell's JSON takes it), XML to -Rxml:FILE. False when the file could
// not be written.
bool WriteReports(const std::vector<std::unique_ptr<DiskspdTimespanRun>>& spans,
                  const DiskspdSwitches& first, bool json_on_stdout, ReportFile& xml_file,
                  std::ostream& out, std::ostream& err) {
  std::vector<DiskspdReport> reports;
  reports.reserve(spans.size());
  for (const auto& tr : spans) reports.push_back(tr->report);
  if (json_on_stdout) {
    // loadcell's JSON on stdout instead.
  } else if (first.xml) {
    WriteDiskspdXml(reports, out);
    out << "\n";
  } else {
    WriteDiskspdText(reports, out);
  }
  if (!xml_file.is_open()) return true;
  WriteDiskspdXml(reports, xml_file.stream());
  xml_file.stream() << "\n";
  if (Status st = xml_file.Commit(); !st.ok()) {
    PrintCliError(err, st);
    return false;
  }
  return true;
}

}  // namespace

int RunDiskspdCommand(const std::vector<std::string>& all_args, std::ostream& out,
                      std::ostream& err) {
  DiskspdOwnOptions own;
  std::vector<std::string> args;
  if (std::optional<int> done = TakeOwnOptions(all_args, own, args, out, err)) return *done;
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
  Result<diskspd::DiskspdProfile> profile = LoadDiskspdProfile(sw);
  if (!profile.ok()) {
    PrintCliError(err, profile.status());
    return profile.status().IsUsageError() ? kExitUsage : kExitRunFailed;
  }
  if (Status st = CheckResultOptions(own.results, profile->timespans.front().sw); !st.ok()) {
    PrintCliError(err, st);
    return kExitUsage;
  }
  if (sw.profile_only) return PrintDiskspdProfile(sw, *profile, out);
  // Under MPI each rank's targets in its folder rankN (per-rank); from here a
  // refusal is said once for every rank (rank 0's line naming the rank).
  MoveDiskspdTargets(*profile, own.ranks.RankFolder());
  std::vector<std::string> rank_folders;
  const auto refuse = [&](const Status& st, int code) {
    PrintCliError(err, FailAcrossRanks(own.ranks.settings, st));
    RemoveRankFolders(rank_folders);
    return code;
  };
  Result<std::vector<DiskspdPlan>> plans = PlanProfile(*profile, err);
  if (!plans.ok()) return refuse(plans.status(), kExitUsage);
  if (Status st = MakeDiskspdRankFolders(*plans, own.ranks.RankFolder(), rank_folders); !st.ok()) {
    return refuse(st, ExitCodeFor(st));
  }
  std::vector<FolderLock> locks;
  std::set<std::string> locked;
  const bool reports = !own.ranks.across || own.ranks.launch.rank == 0;
  // Shared targets are rank 0's to guard (every rank would take the same lock).
  for (const DiskspdPlan& plan : *plans) {
    if (own.ranks.Shared() && !reports) break;
    if (Status guarded = GuardTargets(plan, own, locks, locked); !guarded.ok()) {
      return refuse(guarded, kExitUsage);
    }
  }
  const DiskspdSwitches& first = profile->timespans.front().sw;
  ReportFile xml_file;
  if (!first.xml_file.empty() && reports) {
    if (Status st = xml_file.Open("-Rxml", first.xml_file); !st.ok()) {
      return refuse(st, kExitUsage);
    }
  }
  FioResultFiles result_files;  // loadcell's JSON and HTML
  if (reports) {
    if (Status st = result_files.OpenFiles(own.results); !st.ok()) return refuse(st, kExitUsage);
  }
  const RunPlan run_plan = DiskspdRunPlan(sw, own.ranks);
  Result<std::unique_ptr<Cluster>> setup = JoinDiskspdRanks(own.ranks, run_plan, Status::Ok());
  if (!setup.ok()) {
    PrintCliError(err, setup.status());
    RemoveRankFolders(rank_folders);
    return ExitCodeFor(setup.status());
  }
  InstallStopSignalHandlers();
  if (Status created = CreateAllTargets(*plans, own, setup->get(), err); !created.ok()) {
    PrintCliError(err, created);
    RemoveRankFolders(rank_folders);
    return created.IsUsageError() ? kExitUsage : kExitRunFailed;
  }
  std::vector<std::unique_ptr<DiskspdTimespanRun>> spans;
  bool failed = false;
  bool interrupted = false;
  for (size_t i = 0; i < plans->size() && !interrupted; ++i) {
    auto tr = std::make_unique<DiskspdTimespanRun>();
    tr->verdict = own.verdict;
    if (!RunTimespan(profile->timespans[i], (*plans)[i], own, run_plan, *tr, err)) {
      return kExitRunFailed;
    }
    if (reports) {
      CollectTimespan((*plans)[i], own.ranks.PerRank(), *tr, err);
    } else {
      for (const JobRunResult& j : tr->ran.jobs) {
        tr->failed = tr->failed || (!j.result.failure.ok() && !j.result.interrupted);
        tr->interrupted = tr->interrupted || j.result.interrupted;
      }
    }
    failed = failed || tr->failed;
    interrupted = tr->interrupted || StopRequested();
    spans.push_back(std::move(tr));
  }
  if (reports && !WriteReports(spans, first, own.results.JsonOnStdout(), xml_file, out, err)) {
    failed = true;
  }
  if (reports) {
    if (Status st = WriteLoadcellResult(spans, own.results, result_files, out); !st.ok()) {
      PrintCliError(err, st);
      failed = true;
    }
  }
  std::vector<const Validity*> verdicts;
  for (const auto& tr : spans) {
    for (DiskspdJobRun& jr : tr->runs) (void)jr.workload->Cleanup(PrepareContext{});
    for (const DiskspdTargetVerdict& v : tr->report.verdicts) verdicts.push_back(&v.validity);
  }
  RemoveRankFolders(rank_folders);
  if (interrupted) return kExitInterrupted;
  return ExitCodeForVerdicts(verdicts, failed ? kExitRunFailed : kExitOk, err);
}

}  // namespace loadcell
