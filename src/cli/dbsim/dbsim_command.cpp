#include "cli/dbsim/dbsim_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <optional>

#include "cli/app.h"
#include "cli/cli_style.h"
#include "cli/dbsim/dbsim_args.h"
#include "cli/dbsim/dbsim_crash.h"
#include "cli/dbsim/dbsim_error_log.h"
#include "cli/dbsim/dbsim_files.h"
#include "cli/dbsim/dbsim_outputs.h"
#include "cli/dbsim/dbsim_preset.h"
#include "cli/dbsim/dbsim_report.h"
#include "cli/report_file.h"
#include "core/version.h"
#include "dbsim/dbsim_config.h"
#include "dbsim/fault_file_system.h"
#include "dbsim/null_file_system.h"
#include "os/system_info.h"
#include "os/thread.h"
#include "runner/jobs.h"
#include "runner/stop_signal.h"
#include "validity/verdict.h"
#include "workloads/dbsim/dbsim_users.h"
#include "workloads/sqlio/sqlio_manifest.h"

namespace loadcell {
namespace {

constexpr uint64_t kDefaultDataMb = 100;
constexpr uint64_t kDefaultLogMb = 50;
// InnoDB's doublewrite buffer: two blocks of 64 pages.
constexpr uint64_t kDoublewritePages = 128;
constexpr const char* kDoublewriteName = "dbsim.dblwr";

// InnoDB's doublewrite buffer: kDoublewritePages pages in a file of their
// own beside the data files.
Status AddDoublewriteArea(DbsimConfig& config, uint32_t page_size) {
  for (const auto& f : config.files) {
    if (f.name == kDoublewriteName) {
      return Status::InvalidArgument(
          fmt::format("dbsim: [File{}] FileName={} is the doublewrite area's name (give another)",
                      f.number, f.name));
    }
  }
  DbsimFileConfig area;
  area.name = kDoublewriteName;
  area.initial_mb = std::max<uint64_t>(1, kDoublewritePages * page_size / kDbsimMiB);
  area.max_mb = area.initial_mb;
  area.doublewrite_area = true;
  config.files.push_back(area);
  return Status::Ok();
}

// The configuration: the preset's (or SQLIOSim's defaults) with the file's
// keys over it, two files when it names none;
// the switches applied.
Result<DbsimConfig> LoadConfig(const DbsimArgs& a) {
  DbsimConfig config;
  if (!a.preset.empty()) {
    LC_ASSIGN_OR_RETURN(DbsimPresetBase preset, DbsimPreset(a.preset));
    config = std::move(preset.config);
  }
  config.page_size = a.page_size;  // before the file: its sizes are checked against it
  if (!a.cfg.empty()) {
    auto text = ReadFileToString(DefaultFileSystem(), a.cfg);
    if (!text.ok()) return ReadFailureAsUsageError("dbsim", text.status(), "-cfg " + a.cfg);
    LC_ASSIGN_OR_RETURN(config, ParseDbsimConfig(*text, a.cfg, config));
  }
  if (config.files.empty()) {
    config.files.push_back(
        {1, "sqliosim.mdx", kDefaultDataMb, kDefaultDataMb, 0, false, false, false, false});
    config.files.push_back({2, "sqliosim.ldx", config.default_log_mb, config.default_log_mb, 0,
                            false, true, false, false});
  }
  if (a.size_mb > 0) {  // before the doublewrite area is added
    // SQLIOSim's -size: the data files start at MB and may grow to twice
    // that; the log is half a data file, at most 50 MB.
    const auto size = static_cast<uint64_t>(a.size_mb);
    for (auto& f : config.files) {
      f.initial_mb = f.log_file ? std::clamp<uint64_t>(size / 2, 1, kDefaultLogMb) : size;
      f.max_mb = f.log_file ? f.initial_mb : size * 2;
    }
  }
  // Each file large enough for the users' runs of pages and the log writer
  // (a -cfg file's [FileN] were checked as it was read; these are -size's,
  // or SQLIOSim's two).
  for (const auto& f : config.files) {
    if (const std::string small = DbsimFileTooSmall(config, f); !small.empty()) {
      return Status::InvalidArgument(fmt::format(
          "dbsim: {}{}", a.size_mb > 0 ? fmt::format("-size {}: ", a.size_mb) : "", small));
    }
  }
  if (a.duration_s > 0) config.test_cycle_duration_s = a.duration_s;
  if (a.user_depth > 0) config.user_depth = a.user_depth;
  config.verify = a.verify;
  config.null_engine = a.null_engine;
  if (config.doublewrite) LC_RETURN_IF_ERROR(AddDoublewriteArea(config, a.page_size));
  return config;
}

// -save's text: the configuration in force, the switches applied, with
// what it does not hold as comments.
std::string SavedConfig(const DbsimArgs& a, const DbsimConfig& config) {
  std::vector<std::string> comments = {
      fmt::format("loadcell dbsim {}: the configuration of a run (-save), its switches applied",
                  kVersion),
      fmt::format("page size {} bytes: run it again with --page-size={}", a.page_size,
                  a.page_size)};
  if (!a.preset.empty()) {
    comments.push_back(fmt::format(
        "preset {}: run it again with --preset={} (its log blocks, checkpoint and doublewrite "
        "are not keys of this file)",
        a.preset, a.preset));
  }
  if (config.user_depth > 1) {
    comments.push_back(fmt::format("{} I/Os in flight per user: run it again with --user-depth={}",
                                   config.user_depth, config.user_depth));
  }
  if (config.null_engine) comments.emplace_back("the null engine: run it again with --engine=null");
  if (!config.verify) comments.emplace_back("pages not verified: run it again with --verify=off");
  return FormatDbsimConfig(config, comments);
}

// The users of one cycle, each a job.
struct DbsimUsers {
  VerdictMode verdict = VerdictMode::kOn;
  std::string dir;  // the files' folder, for the verdict's facts
  std::vector<std::unique_ptr<DbsimUserWorkload>> workloads;
  std::vector<std::unique_ptr<VerdictStep>> verdicts;
};

// SQLIOSim's UserCount=-1: min(CPUCount * 2, 8).
int64_t UserCount(const DbsimConfig& c, int64_t count) {
  if (count >= 0) return count;
  const int64_t cpus = c.cpu_count > 0 ? c.cpu_count : std::max(1, ReadSystemInfo().cpus_online);
  return std::min<int64_t>(cpus * 2, 8);
}

bool AnyFile(const DbsimConfig& c, bool DbsimFileConfig::*flag) {
  return std::any_of(c.files.begin(), c.files.end(),
                     [flag](const DbsimFileConfig& f) { return f.*flag; });
}

// Affinity and IOAffinity name only CPUs this process may run on.
Status CheckAffinity(const DbsimConfig& config) {
  const std::vector<int> allowed = AllowedCpus();
  const std::pair<const char*, int64_t> masks[] = {{"Affinity", config.affinity},
                                                   {"IOAffinity", config.io_affinity}};
  for (const auto& [key, mask] : masks) {
    for (int cpu : DbsimAffinityCpus(mask)) {
      if (allowed.empty() || std::find(allowed.begin(), allowed.end(), cpu) != allowed.end()) {
        continue;
      }
      return Status::InvalidArgument(
          fmt::format("dbsim: [CONFIG] {}={} names CPU {}, which this process may not run "
                      "on (valid: a mask of CPUs {} to {} it may use, or 0 for all)",
                      key, mask, cpu, allowed.front(), allowed.back()));
    }
  }
  return Status::Ok();
}

// One user of a cycle as a job: `threads` threads for the cycle's length
// (0: until every thread ends its work).
Job PlanUser(const DbsimConfig& config, DbsimUserKind kind, int64_t threads, double time_s,
             int64_t cycle, uint64_t seed, DbsimDatabase& db, DbsimUsers& users) {
  auto& w = users.workloads.emplace_back(
      std::make_unique<DbsimUserWorkload>(DbsimUserSettings{kind, &config, seed, users.dir}, db));
  Job job;
  job.name = DbsimUserName(kind);
  if (config.test_cycles > 1) job.name += fmt::format(", cycle {}", cycle + 1);
  job.workload = w.get();
  job.cfg.threads = threads;
  job.cfg.time_s = time_s;
  job.cfg.time_given = time_s > 0;
  job.cfg.seed = static_cast<int64_t>(seed | 1);
  job.cfg.rand.type = "uniform";
  job.cfg.percentile = 99;
  job.manifest.tool_version = kVersion;
  job.manifest.test = "dbsim";
  job.manifest.command = "run";
  job.manifest.system = ReadSystemInfo();
  job.observer =
      users.verdicts.emplace_back(std::make_unique<VerdictStep>(*w, users.verdict, 99, 0)).get();
  return job;
}

// A cycle: its users together for TestCycleDuration, then the audit pass
// of every page (as SQLIOSim's, outside the cycle's length): two groups
// (kDbsimGroupsPerCycle).
void PlanCycle(const DbsimConfig& config, int64_t cycle, uint64_t seed, DbsimDatabase& db,
               DbsimUsers& users, std::vector<JobGroup>& groups) {
  const std::vector<std::pair<DbsimUserKind, int64_t>> kinds = {
      {DbsimUserKind::kRandom, UserCount(config, config.random_users)},
      {DbsimUserKind::kLogWriter, 1},
      {DbsimUserKind::kCheckpoint, 1},
      {DbsimUserKind::kReadAhead, config.read_ahead_users},
      {DbsimUserKind::kAudit, config.audit_users},
      {DbsimUserKind::kBulkUpdate, UserCount(config, config.bulk_update_users)},
      {DbsimUserKind::kShrink, AnyFile(config, &DbsimFileConfig::shrinkable) ? 1 : 0}};
  JobGroup run;
  for (const auto& [kind, threads] : kinds) {
    if (threads <= 0) continue;
    run.jobs.push_back(PlanUser(config, kind, threads,
                                static_cast<double>(config.test_cycle_duration_s), cycle, seed, db,
                                users));
  }
  groups.push_back(std::move(run));
  JobGroup audit;
  audit.jobs.push_back(PlanUser(config, DbsimUserKind::kCycleAudit, 1, 0, cycle, seed, db, users));
  groups.push_back(std::move(audit));
}

// Runs the groups and prints the report; the exit code.
// The error log's last entry: the page checks, those failed and on how many
// distinct pages, the verdict.
std::string LogSummary(const JobsResult& ran, const DbsimDatabase& db, const Validity& verdict) {
  std::string kinds;
  for (int k = 1; k < kDbPageFaultKinds; ++k) {
    const auto kind = static_cast<DbPageFault>(k);
    if (db.FaultCount(kind) == 0) continue;
    kinds += fmt::format("{}{} {}", kinds.empty() ? " (" : ", ", DbPageFaultName(kind),
                         db.FaultCount(kind));
  }
  const std::vector<uint64_t>& c = ran.total.counters;
  if (!kinds.empty()) {
    const uint64_t pages = db.TotalFaultPages();
    kinds += fmt::format(") on {} page{}", pages, pages == 1 ? "" : "s");
  }
  return fmt::format("run ended: {} page checks, {} failed{}; verdict {}",
                     kDbsimPagesChecked < static_cast<int>(c.size()) ? c[kDbsimPagesChecked] : 0,
                     db.TotalFaults(), kinds,
                     verdict.judged ? OverallName(verdict.overall()) : "not judged");
}

int RunDbsimAndReport(const DbsimArgs& a, const DbsimConfig& config, const DbsimDatabase& db,
                      DbsimUsers& users, std::vector<JobGroup>& groups,
                      const DbsimReportInput& report, DbsimOutputs& outputs, std::ostream& out,
                      std::ostream& err) {
  DbsimErrorLog& log = outputs.log;
  Result<JobsResult> ran = RunJobs(groups);
  // The run ended or stopped cleanly: the journal's last durable lines
  // made durable too.
  const Status journal_end = db.journal() != nullptr ? db.journal()->Finish() : Status::Ok();
  if (!ran.ok()) {
    PrintCliError(err, ran.status());
    return kExitRunFailed;
  }
  bool failed = false;
  if (!journal_end.ok()) {
    PrintCliError(err, journal_end);
    failed = true;
  }
  for (size_t i = 0; i < ran->jobs.size() && i < users.verdicts.size(); ++i) {
    users.verdicts[i]->Judge(ran->jobs[i].result);
    const Status& f = ran->jobs[i].result.failure;
    if (!f.ok() && !IsEndOfWork(f) && !ran->jobs[i].result.interrupted) {
      failed = true;
      PrintCliError(err, Status(f.code(), ran->jobs[i].name + ": " + f.message(), f.err()));
      log.Entry("ERROR", ran->jobs[i].name, f.message());
    }
  }
  if (report.injected != nullptr && report.injected->Fired() == 0) {
    // The run checked pages no fault reached: what it was asked to test was
    // not tested (too few I/Os of the first data file in the time).
    failed = true;
    PrintCliError(err, Status::FailedPrecondition(fmt::format(
                           "dbsim: {} never fired: the first data file took too few I/Os of "
                           "its direction in the run; nothing was broken, so nothing was tested",
                           report.injected_option)));
  }
  DbsimReportInput full = report;
  full.result = &*ran;
  // Every user judged as one: each check at its gravest, the users named.
  std::vector<NamedValidity> verdicts;
  for (const JobRunResult& job : ran->jobs) verdicts.push_back({job.name, &job.result.validity});
  full.verdict = MergeVerdicts(verdicts);
  if (!config.verify && full.verdict.judged)
    full.verdict.checks.push_back(DbsimUnverifiedOutcome());
  if (a.json) {
    WriteDbsimJson(full, out);
  } else {
    WriteDbsimText(full, out);
  }
  if (outputs.html.is_open()) {
    Status st = WriteDbsimHtml(full, outputs.html.stream());
    if (st.ok()) st = outputs.html.Commit();
    if (!st.ok()) {
      PrintCliError(err, st);
      failed = true;
    }
  }
  if (config.delete_files_at_shutdown) {
    for (const auto& f : config.files) (void)RemoveDbsimFile(DefaultFileSystem(), a.dir, f.name);
  } else {
    // A file the shrink user resized is listed again at its size now.
    for (const auto& f : config.files) {
      if (!f.shrinkable) continue;
      if (Status st = RecordDbsimFileSize(DefaultFileSystem(), a.dir, f.name); !st.ok()) {
        PrintCliError(err, st);
        failed = true;
      }
    }
  }
  if (Status st = log.Finish(LogSummary(*ran, db, full.verdict)); !st.ok()) {
    PrintCliError(err, st);
    failed = true;
  }
  if (ran->total.interrupted) return kExitInterrupted;
  return ExitCodeForVerdicts({&full.verdict},
                             failed || db.TotalFaults() > 0 ? kExitRunFailed : kExitOk, err);
}

// Creates the files, runs every cycle's users and reports them. REQUIRES:
// the configuration checked and the folder's lock held.
int RunDbsimSimulation(const DbsimArgs& a, const DbsimConfig& config, DbsimOutputs& outputs,
                       std::ostream& out, std::ostream& err) {
  InstallStopSignalHandlers();
  if (outputs.save.is_open()) {
    outputs.save.stream() << SavedConfig(a, config);
    if (Status st = outputs.save.Commit(); !st.ok()) {
      PrintCliError(err, st);
      return kExitRunFailed;
    }
  }
  const uint64_t seed = static_cast<uint64_t>(MonotonicNow()) | 1;
  if (Status st = CreateDbsimFiles(a, config, seed, err); !st.ok()) {
    PrintCliError(err, st);
    return st.IsUsageError() ? kExitUsage : kExitRunFailed;
  }
  DbFaultFileSystem faulty(DefaultFileSystem());
  DbNullFileSystem null(DefaultFileSystem());
  FileSystem& fs = config.null_engine            ? static_cast<FileSystem&>(null)
                   : a.fault != DbIoFault::kNone ? static_cast<FileSystem&>(faulty)
                                                 : DefaultFileSystem();
  DbsimOpenFiles open{&fs, {}};
  DbsimDatabase db(fs, config.stop_on_error);
  std::string log_name;
  if (Status st = OpenDbsimDatabase(a, config, seed, open, db, log_name,
                                    config.null_engine ? &null : nullptr);
      !st.ok()) {
    PrintCliError(err, st);
    return kExitRunFailed;
  }
  if (outputs.log.is_open()) {
    outputs.log.Begin(
        fmt::format("loadcell dbsim: {} data file{}, {}-byte pages, {} s x {} cycle{}; "
                    "configuration: {}{}",
                    db.data_files(), db.data_files() == 1 ? "" : "s", a.page_size,
                    config.test_cycle_duration_s, config.test_cycles,
                    config.test_cycles == 1 ? "" : "s",
                    a.cfg.empty() ? "SQLIOSim's defaults" : a.cfg,
                    a.preset.empty() ? "" : ", preset " + a.preset),
        db.start_ns());
    db.SetFaultSink([&log = outputs.log](const DbsimFaultRecord& f) { log.Fault(f); });
  }
  if (a.fault != DbIoFault::kNone) {
    // On the first data file's I/O: a misdirected write lands on the next
    // page, a torn one keeps half the page.
    const uint64_t amount = a.fault == DbIoFault::kMisdirectWrite ? a.page_size : a.page_size / 2;
    faulty.Arm(a.fault, DbFaultFileSystem::kAnyOffset, amount, a.fault_skip, open.first_data_fd);
  }
  std::optional<DbCrashJournal> journal;
  if (!a.journal.empty()) {
    Result<DbCrashJournal> made = DbCrashJournal::Create(DefaultFileSystem(), a.journal);
    if (!made.ok()) {
      PrintCliError(err, made.status());
      return kExitRunFailed;
    }
    journal.emplace(std::move(*made));
    db.SetJournal(&*journal);
  }
  DbsimUsers users;
  users.verdict = a.verdict;
  users.dir = a.dir;
  std::vector<JobGroup> groups;
  for (int64_t c = 0; c < config.test_cycles; ++c) {
    PlanCycle(config, c, seed, db, users, groups);
  }
  DbsimReportInput report;
  report.db = &db;
  report.log_name = log_name;
  report.page_size = a.page_size;
  report.duration_s = static_cast<double>(config.test_cycle_duration_s);
  report.cycles = config.test_cycles;
  report.config = &config;
  report.cfg_path = a.cfg;
  report.preset = a.preset;
  report.page_size_given = a.page_size_given;
  report.dir = a.dir;
  report.workload = users.workloads.front().get();
  for (const auto& w : users.workloads) report.users.push_back(w.get());
  if (a.fault != DbIoFault::kNone) {
    report.injected = &faulty;
    report.injected_option =
        fmt::format("--inject-fault={}:{}", DbIoFaultName(a.fault), a.fault_skip);
  }
  if (!a.json) {
    WriteDbsimHeader(report, out);
    out.flush();
  }
  return RunDbsimAndReport(a, config, db, users, groups, report, outputs, out, err);
}

}  // namespace

std::string DbsimUsage() {
  return "Usage: loadcell dbsim [-cfg FILE] [-dir DIR] [-d SECONDS] [-size MB] [options]\n"
         "A database engine's I/O (random users, log writer, checkpoint, read-ahead,\n"
         "audit, bulk update, shrink) simulated on files loadcell creates, every page\n"
         "read back checked.\n"
         "SQLIOSim's configuration file and switches:\n"
         "  -cfg FILE   the configuration ([CONFIG], the users' sections, [FileN])\n"
         "  -dir DIR    the folder of the files (default: the current one)\n"
         "  -d SECONDS  each cycle's length (replaces TestCycleDuration)\n"
         "  -size MB    the data files' size (their InitialSize; MaxSize twice it; the\n"
         "              log half of it, at most 50 MB)\n"
         "  -log FILE   the XML error log: every page that failed its check (else the\n"
         "              configuration's ErrorFile; none without either)\n"
         "  -save FILE  write the configuration of the run (the switches applied)\n"
         "loadcell's own:\n"
         "  --preset=NAME         sqlserver, postgresql or innodb: the engine's page size,\n"
         "                        read-ahead, log and checkpoint (the -cfg file's keys win)\n"
         "  --page-size=BYTES     8192 by default (a power of two, 1024 to 65536)\n"
         "  --user-depth=N        I/Os each user thread keeps in flight (1 to 64; 1 by\n"
         "                        default; MaxOutstandingIO bounds them all together)\n"
         "  --engine=null         I/O that completes at once and reaches no file (the\n"
         "                        pages kept in memory, still checked): the simulation's\n"
         "                        own cost; sync (the default) does the I/O\n"
         "  --verify=off          no page stamped or checked, no key table (the audit\n"
         "                        users only read): for speed against other tools\n"
         "  --allow-destructive   replace a file of the same name loadcell did not create\n"
         "  --journal=FILE        record each page write's intent and durability in FILE\n"
         "  --verify-after-crash  with --journal: check every page against the journal\n"
         "  --format=json         the report as one JSON document on stdout\n"
         "  --report-html=FILE    also the run's HTML page (its users and files as tables)\n"
         "  --verdict=MODE        off, on (the default) or strict: exit 3 when the\n"
         "                        verdict is INVALID (docs/validity.md)\n"
         "Every key, check and user: docs/dbsim.md.\n";
}

int RunDbsimCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  Result<DbsimArgs> parsed = ParseDbsimArgs(args);
  if (!parsed.ok()) {
    PrintCliError(err, parsed.status());
    return kExitUsage;
  }
  const DbsimArgs& a = *parsed;
  if (a.help) {
    out << DbsimUsage();
    return kExitOk;
  }
  Result<DbsimConfig> loaded = LoadConfig(a);
  if (!loaded.ok()) {
    PrintCliError(err, loaded.status());
    return kExitUsage;
  }
  const DbsimConfig& config = *loaded;
  if (!config.not_simulated.empty()) {
    std::string keys;
    for (const auto& k : config.not_simulated) keys += (keys.empty() ? "" : ", ") + k;
    PrintCliWarning(err, "dbsim: accepted but not simulated yet: " + keys);
  }
  if (Status st = CheckAffinity(config); !st.ok()) {
    PrintCliError(err, st);
    return kExitUsage;
  }
  if (!a.journal.empty() && (AnyFile(config, &DbsimFileConfig::shrinkable) ||
                             AnyFile(config, &DbsimFileConfig::sparse))) {
    PrintCliError(err, Status::InvalidArgument(
                           "dbsim: --journal with a Shrinkable or Sparse file: the crash check "
                           "of resized and sparse files is not built (give both FALSE)"));
    return kExitUsage;
  }
  if (!a.journal.empty() && !a.verify_after_crash) {
    if (Status st = CheckDbsimJournalPath(a.dir, config, a.journal); !st.ok()) {
      PrintCliError(err, st);
      return kExitUsage;
    }
  }
  if (a.verify_after_crash) {
    return RunDbsimVerifyAfterCrash(a.dir, config, a.page_size, a.journal, out, err);
  }
  if (Status st = CheckDbsimFiles(a, config); !st.ok()) {
    PrintCliError(err, st);
    return kExitUsage;
  }
  auto lock = LockSqlioFolder(DefaultFileSystem(), a.dir, "loadcell dbsim");
  if (!lock.ok()) {
    PrintCliError(err, lock.status());
    return kExitUsage;
  }
  DbsimOutputs outputs;  // under the lock, and gone before it
  if (Status st = OpenDbsimOutputs(a, config, outputs); !st.ok()) {
    PrintCliError(err, st);
    return st.IsUsageError() ? kExitUsage : kExitRunFailed;
  }
  return RunDbsimSimulation(a, config, outputs, out, err);
}

}  // namespace loadcell
