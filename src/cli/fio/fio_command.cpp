#include "cli/fio/fio_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <sstream>

#include "cli/app.h"
#include "cli/cli_style.h"
#include "cli/cluster_setup.h"
#include "cli/fio/fio_disk_util.h"
#include "cli/fio/fio_logs.h"
#include "cli/fio/fio_mpi.h"
#include "cli/fio/fio_plan.h"
#include "cli/fio/fio_results.h"
#include "cli/report_file.h"
#include "cluster/cluster.h"
#include "core/version.h"
#include "fio/fio_options.h"
#include "fio/job_file.h"
#include "os/system_info.h"
#include "report/fio/fio_report.h"
#include "runner/jobs.h"
#include "runner/merge_results.h"
#include "runner/stop_signal.h"
#include "validity/verdict.h"

namespace loadcell {
namespace {

struct FioProgramOptions {
  bool normal = true;
  bool json = false;
  bool json_plus = false;
  std::string output;
  bool parse_only = false;
  bool readonly = false;                   // fio's --readonly: no job writes, trims or makes a file
  bool allow_destructive = false;          // loadcell's own: writes to a device holding data
                                           // or to a file loadcell did not lay out
  VerdictMode verdict = VerdictMode::kOn;  // loadcell's own: --verdict=off|on|strict
  bool output_format_given = false;
  FioResultOptions results;  // loadcell's own: --format=json, --output-file, --report-html
};

// A switch that takes no value (fio's getopt refuses one too).
bool IsBareSwitch(const std::string& name) {
  return name == "parse-only" || name == "readonly" || name == "allow-destructive";
}

Result<FioProgramOptions> ReadProgramOptions(const std::vector<fio::FioRawOption>& given) {
  FioProgramOptions p;
  for (const fio::FioRawOption& o : given) {
    if (IsBareSwitch(o.name) && !o.value.empty()) {
      return Status::InvalidArgument("--" + o.name + "=" + o.value + ": --" + o.name +
                                     " takes no value");
    }
    if (o.name == "output-format") {
      p.output_format_given = true;
      p.normal = p.json = p.json_plus = false;
      size_t start = 0;
      while (start <= o.value.size()) {
        const size_t comma = std::min(o.value.find(',', start), o.value.size());
        const std::string f = o.value.substr(start, comma - start);
        if (f == "normal") {
          p.normal = true;
        } else if (f == "json") {
          p.json = true;
        } else if (f == "json+") {
          p.json_plus = true;
        } else {
          return Status::InvalidArgument("--output-format=" + o.value + ": '" + f +
                                         "' is not one of normal, json, json+ (terse is not "
                                         "supported by loadcell)");
        }
        start = comma + 1;
      }
    } else if (o.name == "output") {
      p.output = o.value;
    } else if (o.name == "parse-only") {
      p.parse_only = true;
    } else if (o.name == "readonly") {
      p.readonly = true;
    } else if (o.name == "allow-destructive") {
      p.allow_destructive = true;
    } else if (o.name == "verdict") {
      LC_ASSIGN_OR_RETURN(p.verdict, ParseVerdictOption("", o.value));
    } else if (IsFioResultOption(o.name)) {
      LC_RETURN_IF_ERROR(ReadFioResultOption(o, p.results));
    } else if (o.name == "eta" && o.value != "always" && o.value != "never" && o.value != "auto") {
      // loadcell prints no ETA line whatever it is (stdout stays fio's
      // report), but a value fio's documentation does not name is refused.
      return Status::InvalidArgument("--eta=" + o.value + ": not one of always, never, auto");
    }
    // warnings-fatal: loadcell refuses what fio would warn about.
  }
  LC_RETURN_IF_ERROR(
      CheckFioResultOptions(p.results, p.parse_only, p.output, p.output_format_given));
  return p;
}

// The options of `job` as given, from its `first` up to its `end`: each
// name once with its last value (later ones override), in the order first
// given.
std::vector<std::pair<std::string, std::string>> GivenOptions(const fio::FioJobOptions& job,
                                                              size_t first = 0,
                                                              size_t end = SIZE_MAX) {
  std::vector<std::pair<std::string, std::string>> out;
  end = std::min(end, job.options.size());
  for (size_t i = first; i < end; ++i) {
    const fio::FioRawOption& o = job.options[i];
    bool replaced = false;
    for (auto& [k, v] : out) {
      if (k == o.name) {
        v = o.value;
        replaced = true;
      }
    }
    if (!replaced) out.emplace_back(o.name, o.value);
  }
  return out;
}

// The value the job was given for `name` (or `alias`), else `fallback`.
std::string GivenValue(const fio::FioJobOptions& job, const char* name, const char* alias,
                       const char* fallback) {
  std::string v = fallback;
  for (const fio::FioRawOption& o : job.options) {
    if (o.name == name || o.name == alias) v = o.value;
  }
  return v;
}

std::string RwText(const fio::FioJobOptions& job) {
  return GivenValue(job, "rw", "readwrite", "read");
}

// One job instance's run parts, kept alive through the run and the report.
struct JobRun {
  const FioPlannedJob* planned = nullptr;
  std::unique_ptr<FioJobWorkload> workload;
  std::unique_ptr<VerdictStep> verdict;
  std::vector<std::string> logs;  // the log files written
};

}  // namespace

std::string FioUsage() {
  return "Usage: loadcell fio [--output-format=normal|json|json+[,...]] [--output=FILE]\n"
         "                    [--section=NAME] [--parse-only] [--readonly] [--allow-destructive]\n"
         "                    [--verdict=off|on|strict] [--format=json [--output-file=PATH]]\n"
         "                    [--report-html=PATH] JOBFILE...\n"
         "       loadcell fio [global options] --name=JOB [job options] [--name=JOB2 ...]\n"
         "fio 3.33's job files and command-line jobs, run by loadcell; fio's text and JSON\n"
         "output. Supported options and every difference from fio: docs/fio.md.\n"
         "--readonly: refuse a job that writes or trims, or that would make or extend a file.\n"
         "--allow-destructive: let a job write to a device that holds a partition table or\n"
         "a file system, or to an existing file loadcell did not lay out.\n"
         "--verdict: each job's validity verdict (docs/validity.md) after its report: off,\n"
         "on (the default) or strict (exit 3 when a job's verdict is INVALID).\n"
         "--format=json: loadcell's JSON result (every job, each job and group) to\n"
         "--output-file=PATH, else on stdout instead of fio's report; --report-html=PATH: its\n"
         "HTML page. 'loadcell report' and 'loadcell compare' read the JSON.\n"
         "Under mpirun every rank runs every job: --mpi-files=per-rank|shared,\n"
         "--mpi-timeout=TIME, --mpi=auto|on|off (docs/mpi.md).\n";
}

namespace {

// The clusters of a run across ranks (cluster/cluster.h): one for the
// join and the layout, one per group of jobs (a cluster runs one start and
// one end). All null for a run of one process.
struct FioClusters {
  std::unique_ptr<Cluster> setup;
  std::vector<std::unique_ptr<Cluster>> groups;
  bool Reports() const { return setup == nullptr || setup->Reports(); }
};

Result<std::unique_ptr<Cluster>> JoinFioRanks(const FioRanks& ranks, const RunPlan& plan) {
  ClusterSettings s = ranks.settings;
  s.plan = plan;
  return JoinCluster(s, ranks.launch);
}

// fio's header lines: each job's line (its first clone's), loadcell's
// version, the threads.
void SayHeader(const FioPlan& plan, const std::vector<fio::FioJobOptions>& jobs,
               std::ostream& say) {
  int instances = 0;
  for (const auto& step : plan.steps) {
    for (const FioPlannedJob& pj : step) {
      ++instances;
      const FioJobSettings& s = pj.settings;
      if (pj.instance.clone_index != 0) continue;
      say << fmt::format(
          "{}: (g={}): rw={}, bs=(R) {}B-{}B, (W) {}B-{}B, (T) {}B-{}B, "
          "ioengine={}, iodepth={}\n",
          pj.instance.name, pj.instance.group_id, RwText(jobs[pj.instance.job]),
          s.pattern.bs[0].min, s.pattern.bs[0].max, s.pattern.bs[1].min, s.pattern.bs[1].max,
          s.pattern.bs[2].min, s.pattern.bs[2].max,
          GivenValue(jobs[pj.instance.job], "ioengine", "ioengine", "psync"), s.iodepth);
    }
  }
  say << "loadcell-" << kVersion << "\n"
      << fmt::format("Starting {} thread{}\n", instances, instances == 1 ? "" : "s");
}

// Lays out every job's files (each job's "Laying out IO file" line on
// `say`); the first failure, named by its job.
Status LayOutJobs(std::vector<JobRun>& runs, std::ostream& say) {
  for (JobRun& jr : runs) {
    const FioPlannedJob& pj = *jr.planned;
    PrepareContext ctx;
    ctx.seed = pj.settings.pattern.seed;
    // fio's line, only for the files it lays out: how many, their bytes in
    // whole MiB.
    const std::vector<size_t> laid = jr.workload->FilesToLayOut();
    if (!laid.empty()) {
      uint64_t bytes = 0;
      for (size_t f : laid) bytes += pj.settings.FileSize(f);
      const char* s = laid.size() > 1 ? "s" : "";
      // Said before the layout starts, as fio (which may take a while).
      say << fmt::format("{}: Laying out IO file{} ({} file{} / {}{}MiB)\n", pj.instance.name, s,
                         laid.size(), s, laid.size() > 1 ? "total " : "", bytes >> 20)
          << std::flush;
    }
    if (Status st = jr.workload->Prepare(ctx); !st.ok()) {
      return Status(st.code(), "job " + pj.instance.name + ": " + st.message(), st.err());
    }
  }
  return Status::Ok();
}

// A job's name in a verdict merged over its group: "job a", "job a #2" for
// its second clone (numjobs).
std::string JobVerdictName(const FioPlannedJob& pj) {
  std::string name = "job " + pj.instance.name;
  if (pj.instance.clone_index > 0) name += fmt::format(" #{}", pj.instance.clone_index + 1);
  return name;
}

// The report's jobs (each, or its group as one with group_reporting) and
// groups, from the jobs' results (under MPI, rank 0's merges of every
// rank's). `merged` keeps the merges the report points into.
Status BuildReport(const std::vector<JobRun>& runs, const std::vector<fio::FioJobOptions>& jobs,
                   const JobsResult& ran, FioReport& report,
                   std::vector<std::unique_ptr<RunResult>>& merged, bool& failed,
                   std::ostream& err) {
  std::map<int, std::vector<size_t>> by_group;
  for (size_t i = 0; i < ran.jobs.size(); ++i) {
    by_group[runs[i].planned->instance.group_id].push_back(i);
  }
  std::map<int, bool> group_reported;
  for (size_t i = 0; i < ran.jobs.size(); ++i) {
    const FioPlannedJob& pj = *runs[i].planned;
    const fio::FioJobSpec& spec = *pj.spec;
    const RunResult& r = ran.jobs[i].result;
    if (!r.failure.ok()) {
      failed = true;
      PrintCliError(err,
                    Status(r.failure.code(), "job " + pj.instance.name + ": " + r.failure.message(),
                           r.failure.err()));
    }
    const int gid = pj.instance.group_id;
    FioReportJob job;
    job.name = pj.instance.name;
    job.groupid = gid;
    job.error = r.failure.ok() ? 0 : (r.failure.err() != 0 ? r.failure.err() : 5);
    job.failure = r.failure.ok() ? "" : r.failure.message();
    job.description = spec.description;
    // fio's "job options": the job's own, its globals in "global options";
    // a job of the command line's has its --name=NAME first, as fio records it.
    const fio::FioJobOptions& given = jobs[pj.instance.job];
    job.options = GivenOptions(given, given.global_count);
    if (given.origin.command_line) {
      job.options.insert(job.options.begin(), {"name", given.section_name});
    }
    job.rw = RwText(jobs[pj.instance.job]);
    job.engine = pj.settings.engine;
    job.thread = spec.thread;
    job.iodepth = pj.settings.iodepth;
    for (double p : spec.percentile_list) job.percentiles.push_back(p * 100);
    job.clat_percentiles = spec.clat_percentiles;
    job.lat_percentiles = spec.lat_percentiles;
    job.unified = spec.unified_rw_reporting == fio::FioUnifiedReporting::kMixed ? FioUnified::kMixed
                  : spec.unified_rw_reporting == fio::FioUnifiedReporting::kBoth
                      ? FioUnified::kBoth
                      : FioUnified::kNone;
    job.result = &r;
    job.logs = runs[i].logs;
    job.cpus = runs[i].workload->ran_on_cpus();
    if (spec.group_reporting) {
      if (group_reported[gid]) continue;
      group_reported[gid] = true;
      std::vector<const RunResult*> parts;
      std::vector<std::string> names;
      std::vector<NamedValidity> verdicts;
      for (size_t k : by_group[gid]) {
        parts.push_back(&ran.jobs[k].result);
        names.push_back("job " + ran.jobs[k].name);
        verdicts.push_back({JobVerdictName(*runs[k].planned), &ran.jobs[k].result.validity});
        if (k != i) job.logs.insert(job.logs.end(), runs[k].logs.begin(), runs[k].logs.end());
      }
      LC_ASSIGN_OR_RETURN(RunResult m, MergeResults(parts, names, RateTargets::kAdded));
      AddFioRanks(parts, m);  // under MPI: each rank's row of the group
      // The group's jobs judged as one: each check at its gravest.
      m.validity = MergeVerdicts(verdicts);
      merged.push_back(std::make_unique<RunResult>(std::move(m)));
      job.result = merged.back().get();
      job.jobs = static_cast<int>(parts.size());
    }
    report.jobs.push_back(std::move(job));
  }
  for (const auto& [gid, members] : by_group) {
    std::vector<const RunResult*> parts;
    for (size_t k : members) parts.push_back(&ran.jobs[k].result);
    Result<RunResult> m = MergeResults(parts, {}, RateTargets::kAdded);
    if (!m.ok()) continue;
    AddFioRanks(parts, *m);  // under MPI: each rank's row of the group
    merged.push_back(std::make_unique<RunResult>(std::move(m).value()));
    report.groups.emplace_back(gid, merged.back().get());
  }
  return Status::Ok();
}

// The jobs core's groups of the planned jobs (their verdicts made); under
// MPI each with a cluster of its own, joined here.
Status MakeGroups(const FioPlan& plan, const std::vector<fio::FioJobOptions>& jobs,
                  VerdictMode verdict, std::vector<JobRun>& runs, const FioRanks& ranks,
                  const RunPlan& run_plan, FioClusters& clusters, std::vector<JobGroup>& groups) {
  size_t at = 0;
  for (const auto& step : plan.steps) {
    JobGroup& g = groups.emplace_back();
    for (size_t k = 0; k < step.size(); ++k, ++at) {
      JobRun& jr = runs[at];
      const FioPlannedJob& pj = *jr.planned;
      jr.verdict = std::make_unique<VerdictStep>(*jr.workload, verdict, 99, 0.5);
      Job job;
      job.name = pj.instance.name;
      job.workload = jr.workload.get();
      job.cfg = pj.cfg;
      job.cfg.report_interval_s = 0.5;  // fio's bw and iops samples
      job.manifest.tool_version = kVersion;
      job.manifest.test = "fio";
      job.manifest.command = "run";
      job.manifest.options = FioManifestOptions(GivenOptions(jobs[pj.instance.job]));
      job.observer = jr.verdict.get();
      g.jobs.push_back(std::move(job));
    }
    if (clusters.setup != nullptr) {
      LC_ASSIGN_OR_RETURN(std::unique_ptr<Cluster> c, JoinFioRanks(ranks, run_plan));
      g.across = c.get();
      clusters.groups.push_back(std::move(c));
    }
  }
  return Status::Ok();
}

// The fio logs of every job that ran (under MPI each rank its own);
// `failed` when one could not be written (its line printed).
void WriteLogs(std::vector<JobRun>& runs, const JobsResult& ran, std::ostream& err, bool& failed) {
  for (size_t i = 0; i < ran.jobs.size() && i < runs.size(); ++i) {
    JobRun& jr = runs[i];
    if (Status st = WriteFioLogs(*jr.planned, jr.workload->log(), &jr.logs); !st.ok()) {
      PrintCliError(err, st);
      failed = true;
    }
  }
}

// The verdicts and fio's reports of the jobs that ran (on
// `file` when --output was given, else `out` unless loadcell's JSON takes
// it), then loadcell's own; `failed` when a log, a job or a report file
// failed.
Status Report(std::vector<JobRun>& runs, const std::vector<fio::FioJobOptions>& jobs,
              JobsResult& ran, const FioProgramOptions& prog, FioReport& report, ReportFile& file,
              FioResultFiles& results, std::ostream& out, std::ostream& err, bool& failed) {
  for (size_t i = 0; i < ran.jobs.size() && i < runs.size(); ++i) {
    runs[i].verdict->Judge(ran.jobs[i].result);
  }
  // Each job (or its group as one, group_reporting) and each group's merge.
  report.version = std::string("loadcell-") + kVersion;
  report.timestamp_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
  std::vector<std::unique_ptr<RunResult>> merged;  // kept for the report's pointers
  LC_RETURN_IF_ERROR(BuildReport(runs, jobs, ran, report, merged, failed, err));
  // fio's "global options": those in force when it finished reading, the
  // last job's globals here (a global section after the last job, which
  // fio would also list, sets nothing loadcell runs).
  if (!jobs.empty() && jobs.back().global_count > 0) {
    report.global_options = GivenOptions(jobs.back(), 0, jobs.back().global_count);
    report.has_global_options = true;
  }
  std::ostringstream dropped;  // fio's report when loadcell's JSON takes stdout and no --output
  std::ostream* dest =
      file.is_open() ? &file.stream() : (prog.results.JsonOnStdout() ? &dropped : &out);
  if (prog.normal) {
    *dest << "\n";
    WriteFioText(report, *dest);
  }
  if (prog.json) WriteFioJson(report, false, *dest);
  if (prog.json_plus) WriteFioJson(report, true, *dest);
  if (Status st = file.Commit(); !st.ok()) {
    PrintCliError(err, st);
    failed = true;
  }
  if (Status st = results.Write(prog.results, report, ran, *runs.front().workload, out); !st.ok()) {
    PrintCliError(err, st);
    failed = true;
  }
  return Status::Ok();
}

}  // namespace

namespace {

// The planning's options: the rank's folder and log names under MPI, and
// the folders whose files the jobs lay out or change locked into `locks`
// from the planning to the end (shared files are rank 0's to lock: every
// rank would take the same lock; --parse-only takes none).
FioPlanOptions PlanOptionsOf(const FioProgramOptions& prog, const FioRanks& ranks,
                             FioFolderLocks& locks) {
  FioPlanOptions o;
  o.allow_destructive = prog.allow_destructive;
  o.readonly = prog.readonly;
  o.rank_folder = ranks.RankFolder();
  // Under MPI each rank writes its own logs, named for its rank.
  if (ranks.across) o.log_suffix = fmt::format(".rank{}", ranks.launch.rank);
  if (!prog.parse_only && (!ranks.Shared() || ranks.launch.rank == 0)) o.locks = &locks;
  return o;
}

// One run of each planned job, in the plan's order.
std::vector<JobRun> JobRunsOf(const FioPlan& plan) {
  std::vector<JobRun> runs;
  for (const auto& step : plan.steps) {
    for (const FioPlannedJob& pj : step) {
      JobRun& jr = runs.emplace_back();
      jr.planned = &pj;
      jr.workload = std::make_unique<FioJobWorkload>(pj.settings, DefaultFileSystem());
    }
  }
  return runs;
}

// The layout: each rank its own files (rankN, listed in `rank_folders`),
// or rank 0 the shared ones while the others wait (`setup`: the ranks'
// cluster, null without MPI); a rank that fails ends every rank.
Status LayOutOnRanks(const FioPlan& plan, const FioRanks& ranks, Cluster* setup,
                     std::vector<JobRun>& runs, std::vector<std::string>& rank_folders,
                     std::ostream& say) {
  const auto lay_out = [&]() -> Status {
    if (ranks.PerRank()) {
      LC_RETURN_IF_ERROR(MakeFioRankFolders(plan, ranks.RankFolder(), rank_folders));
    }
    return LayOutJobs(runs, say);
  };
  if (setup == nullptr) return lay_out();
  if (ranks.Shared()) return setup->OnRankZero(lay_out, "lay out the shared files");
  return setup->Agree(lay_out, "lay out their files");
}

// Each job's cleanup; a failure is said and sets `failed`.
void CleanUpJobs(std::vector<JobRun>& runs, std::ostream& err, bool& failed) {
  for (JobRun& jr : runs) {
    if (Status st = jr.workload->Cleanup(PrepareContext{}); !st.ok()) {
      PrintCliError(err, st);
      failed = true;
    }
  }
}

// Runs the groups between two readings of the devices' counters (fio's
// disk_util); under MPI `disks` holds every rank's devices, one row per
// device of each host.
Result<JobsResult> RunJobsWithDiskUtil(const FioPlan& plan, std::vector<JobGroup>& groups,
                                       const FioClusters& clusters,
                                       std::vector<FioDiskUtil>& disks) {
  const std::vector<FioDisk> devices = FioDisksWithSlaves(FioDiskNames(plan));
  const FioDiskSnapshot before = TakeFioDiskSnapshot(devices);
  Result<JobsResult> ran = RunJobs(groups);
  const FioDiskSnapshot after = TakeFioDiskSnapshot(devices);
  if (!ran.ok()) return ran;
  disks = FioDiskUtilBetween(before, after);
  if (clusters.setup != nullptr) disks = GatherFioDisks(*clusters.setup, disks);
  return ran;
}

}  // namespace

int RunFioCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    out << FioUsage();
    return args.empty() ? kExitUsage : kExitOk;
  }
  fio::FioParseEnv env = fio::DefaultFioParseEnv();
  env.mb_memory = ReadSystemInfo().memory_bytes >> 20;
  Result<fio::FioCommandLine> cl = fio::ParseFioCommandLine(args, env);
  if (!cl.ok()) {
    PrintCliError(err, cl.status());
    return kExitUsage;
  }
  Result<FioProgramOptions> prog = ReadProgramOptions(cl->program_options);
  Result<FioRanks> ranks = ReadFioRanks(cl->program_options);
  if (!prog.ok() || !ranks.ok()) {
    PrintCliError(err, !prog.ok() ? prog.status() : ranks.status());
    return kExitUsage;
  }
  FioFolderLocks locks;  // held to the end
  // From here a refusal is said once for every rank (rank 0's line naming
  // the rank), and no rank goes ahead. The locks go first (with a rank
  // folder made for one): once a rank has left, mpirun may end the others.
  const auto refuse = [&](const Status& st) {
    locks.Release();
    PrintCliError(err, FailAcrossRanks(ranks->settings, st));
    return kExitUsage;
  };
  Result<std::vector<fio::FioJobOptions>> jobs = fio::ReadFioJobs(*cl, env);
  if (jobs.ok() && jobs->empty()) {
    jobs = Status::InvalidArgument("no jobs given: name a job file or --name=JOB");
  }
  if (!jobs.ok()) return refuse(jobs.status());
  Result<std::vector<fio::FioJobSpec>> specs = fio::BuildFioJobSpecs(*jobs);
  if (!specs.ok()) return refuse(specs.status());
  const std::vector<fio::FioRunStep> steps = fio::ScheduleFioJobs(*specs);
  Result<FioPlan> plan =
      PlanFioJobs(*specs, steps, DefaultFileSystem(), PlanOptionsOf(*prog, *ranks, locks));
  if (!plan.ok()) return refuse(plan.status());
  if (prog->parse_only) return kExitOk;
  const bool reports = !ranks->across || ranks->launch.rank == 0;
  // --output: opened before anything is laid out (a folder that cannot take
  // it is a usage error), the file appears whole at the end; rank 0's.
  ReportFile file;
  FioResultFiles results;  // loadcell's own JSON and HTML
  if (reports) {
    Status st = prog->output.empty() ? Status::Ok() : file.Open("--output", prog->output);
    if (st.ok()) st = results.Open(prog->results, *plan);
    if (!st.ok()) return refuse(st);
  }
  if (Status st = CheckFioLogTargets(*plan, prog->output, DefaultFileSystem()); !st.ok()) {
    return refuse(st);
  }

  // Under MPI the ranks join here (their plans compared); each group of
  // jobs then starts and ends across the ranks with a cluster of its own.
  FioClusters clusters;
  const RunPlan run_plan = FioRunPlan(*jobs, *ranks);
  Result<std::unique_ptr<Cluster>> joined = JoinFioRanks(*ranks, run_plan);
  if (!joined.ok()) {
    locks.Release();
    PrintCliError(err, joined.status());
    return ExitCodeFor(joined.status());
  }
  clusters.setup = std::move(joined).value();

  // fio's header lines go with the normal report only: stdout stays pure
  // JSON otherwise (and only rank 0 prints them).
  std::ostringstream quiet;
  const bool no_say = !prog->normal || !clusters.Reports() ||
                      (prog->results.JsonOnStdout() && prog->output.empty());
  std::ostream& say = no_say ? quiet : (prog->output.empty() ? out : err);
  SayHeader(*plan, *jobs, say);

  std::vector<JobRun> runs = JobRunsOf(*plan);
  std::vector<std::string> rank_folders;
  // mpirun passes Ctrl-C on as SIGTERM: each rank stops its jobs, rank 0
  // reports what was measured.
  if (ranks->across) InstallStopSignalHandlers();
  if (Status laid = LayOutOnRanks(*plan, *ranks, clusters.setup.get(), runs, rank_folders, say);
      !laid.ok()) {
    PrintCliError(err, laid);
    RemoveRankFolders(rank_folders);
    return kExitRunFailed;
  }
  std::vector<JobGroup> groups;
  if (Status st = MakeGroups(*plan, *jobs, prog->verdict, runs, *ranks, run_plan, clusters, groups);
      !st.ok()) {
    PrintCliError(err, st);
    return ExitCodeFor(st);
  }
  std::vector<FioDiskUtil> disks;
  Result<JobsResult> ran = RunJobsWithDiskUtil(*plan, groups, clusters, disks);
  if (!ran.ok()) {
    PrintCliError(err, ran.status());
    RemoveRankFolders(rank_folders);
    return kExitRunFailed;
  }
  bool failed = false;
  WriteLogs(runs, *ran, err, failed);
  std::vector<const Validity*> verdicts;  // rank 0's, of the jobs merged over the ranks
  if (clusters.Reports()) {
    FioReport report;
    if (ranks->across) {
      report.ranks = ranks->launch.size;
      report.mpi_files = ranks->Shared() ? "shared" : "per-rank";
    }
    report.disks = disks;
    if (Status st = Report(runs, *jobs, *ran, *prog, report, file, results, out, err, failed);
        !st.ok()) {
      PrintCliError(err, st);
      return kExitRunFailed;
    }
    for (const JobRunResult& j : ran->jobs) verdicts.push_back(&j.result.validity);
  } else {
    for (const JobRunResult& j : ran->jobs) failed = failed || !j.result.failure.ok();
  }
  CleanUpJobs(runs, err, failed);
  RemoveRankFolders(rank_folders);
  return ExitCodeForVerdicts(verdicts, failed ? kExitRunFailed : kExitOk, err);
}

}  // namespace loadcell
