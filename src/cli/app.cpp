#include "cli/app.h"

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>

#include "cli/cli_style.h"
#include "cli/cluster_setup.h"
#include "cli/command_line.h"
#include "cli/commands/compare_command.h"
#include "cli/commands/report_command.h"
#include "cli/commands/suite.h"
#include "cli/commands/sweep_command.h"
#include "cli/dbsim/dbsim_command.h"
#include "cli/diskspd/diskspd_command.h"
#include "cli/fio/fio_command.h"
#include "cli/report_file.h"
#include "cli/script_command.h"
#include "cli/sqlio/sqlio_command.h"
#include "cli/sysbench_compat.h"
#include "cli/sysbench_mode.h"
#include "cli/test_setup.h"
#include "core/build_info.h"
#include "core/version.h"
#include "os/report_stdout.h"
#include "report/reporter.h"
#include "runner/runner.h"
#include "validity/verdict.h"
#include "workloads/builtin.h"

namespace loadcell {
namespace {

void PrintError(std::ostream& err, const Status& s) { PrintCliError(err, s); }

void PrintWarning(std::ostream& err, const std::string& w) { PrintCliWarning(err, w); }

// The --verbosity the command line gives (the last one), 3 when none or not
// a level: read before anything is printed; the option itself is checked
// with the others.
int VerbosityOf(const std::vector<std::string>& args) {
  int level = kVerbosityNotice;
  for (const std::string& a : args) {
    if (a == "--") break;
    if (a.rfind("--verbosity=", 0) != 0) continue;
    const std::string v = a.substr(12);
    if (v.size() == 1 && v[0] >= '0' && v[0] <= '5') level = v[0] - '0';
  }
  return level;
}

// Exit code for a status that stopped us before or instead of a run.
int ExitFor(const Status& s) { return ExitCodeFor(s); }

std::string Usage() {
  std::string out =
      "loadcell " + std::string(kVersion) +
      ": a multi-threaded system benchmark, compatible with sysbench 1.0\n"
      "\n"
      "Usage:\n"
      "  loadcell [options] TEST [options] [prepare|run|cleanup|help]\n"
      "  loadcell --test=TEST [options] [prepare|run|cleanup|help]   (sysbench 0.4/0.5 form)\n"
      "  loadcell list       list the tests\n"
      "  loadcell suite      quick suite: cpu, memory, threads, mutex, fileio, oltp (SQLite), ~2 s "
      "each\n"
      "  loadcell report RESULT.json [-o REPORT.html]   HTML report of a saved JSON result\n"
      "  loadcell compare A.json B.json [...]            results side by side (A1 A2 -- B1 B2:\n"
      "                                                  repeated runs per side)\n"
      "  loadcell sweep --threads=1,2,4 [--OPTION=V1,V2...] [--repeat=N] [--output-dir=DIR]\n"
      "                 -- TEST [options] run            a matrix of runs and its table\n"
      "  loadcell sqlio -kR -s30 -frandom -b8 -Fparam.txt   SQLIO's command line (see\n"
      "                                                  'loadcell sqlio --help')\n"
      "  loadcell fio JOBFILE... | --name=JOB --rw=... ...  fio's job files and command\n"
      "                                                  line (see 'loadcell fio --help')\n"
      "  loadcell diskspd -b8K -d30 -o4 -r -w25 FILE     DiskSpd's command line (see\n"
      "                                                  'loadcell diskspd --help')\n"
      "  loadcell dbsim -cfg sqliosim.cfg.ini -dir DIR   a database's I/O simulated, every\n"
      "                                                  page checked ('loadcell dbsim --help')\n"
      "  loadcell help       this text (also --help)\n"
      "  loadcell version    the version (also --version)\n"
      "\n"
      "Commands of a test: run (the default), prepare, cleanup, help.\n"
      "Options are --name=value or a bare --flag (= on); they may stand anywhere.\n"
      "Sizes take K, M, G, T suffixes (powers of 1024); times take us, ms, s, m, h.\n"
      "--config-file=PATH reads name=value lines; the command line wins.\n"
      "--report-html=PATH also writes an HTML report with charts; --quiet: no progress display.\n"
      "Under mpirun/mpiexec/srun every rank runs the test and rank 0 prints one merged report\n"
      "(--mpi=auto|on|off; auto: when a launcher is detected; --mpi-timeout=5s: how long to\n"
      "wait for a silent rank; --stonewall=on with --events: the first rank done stops all;\n"
      "--mpi-files=per-rank|shared for fileio and sqlio; every rank must run the same test,\n"
      "limits and test options unless --mpi-mixed=on (then only the options may differ);\n"
      "see docs/mpi.md).\n"
      "Exit codes: 0 done, 1 the run failed, 2 bad usage, 3 INVALID under --verdict=strict,\n"
      "130 interrupted.\n"
      "\n";
  // The general options, as every test registers them.
  RunConfig cfg;
  OptionSet general("General options");
  cfg.RegisterOptions(general);
  out += FormatHelp(general);
  out += "\nTests:\n";
  size_t width = 0;
  for (const WorkloadEntry& e : BuiltinWorkloads()) width = std::max(width, e.name.size());
  for (const WorkloadEntry& e : BuiltinWorkloads()) {
    out += "  " + e.name + std::string(width - e.name.size() + 2, ' ') + e.summary + "\n";
  }
  out += "\nSee 'loadcell TEST help' for the options of each test.\n";
  return out;
}

int PrintList(std::ostream& out) {
  size_t width = 0;
  for (const WorkloadEntry& e : BuiltinWorkloads()) width = std::max(width, e.name.size());
  for (const WorkloadEntry& e : BuiltinWorkloads()) {
    std::unique_ptr<Workload> w = e.make();
    out << e.name << std::string(width - e.name.size() + 2, ' ') << w->Info().summary << "\n";
  }
  if (std::optional<ScriptListEntry> script = ScriptListing()) {
    out << script->name << std::string(width - script->name.size() + 2, ' ') << script->summary
        << "\n";
  }
  return kExitOk;
}

int PrintTestHelp(const TestSetup& setup, std::ostream& out) {
  if (SysbenchMode()) {
    out << SysbenchTestHelp(setup.test_options);
    return kExitOk;
  }
  const WorkloadInfo info = setup.workload->Info();
  out << setup.test << ": " << info.summary << "\n\n"
      << "What one event is: " << info.event_definition << "\n\n"
      << FormatHelp(setup.test_options) << "\n"
      << FormatHelp(setup.general) << "\n"
      << "Commands: " << (info.supports_prepare ? "prepare, run, cleanup" : "run") << ", help\n";
  return kExitOk;
}

std::unique_ptr<Reporter> MakeReporter(const std::string& format, std::ostream& os,
                                       const Workload& w, const ReportSettings& s) {
  if (format == "json") return MakeJsonReporter(os, w, s);
  if (format == "csv") return MakeCsvReporter(os, w, s);
  return MakeTextReporter(os, w, s);
}

ReportSettings SettingsFor(const RunConfig& cfg) {
  ReportSettings settings;
  settings.percentile = cfg.percentile;
  settings.histogram = cfg.histogram;
  settings.report_interval_s = cfg.report_interval_s;
  settings.checkpoints_s = cfg.CheckpointTimes();
  settings.sysbench_exact = SysbenchMode();
  settings.verbosity = static_cast<int>(cfg.verbosity);
  // sysbench mode prints no verdict (sysbench has none).
  settings.verdict = SysbenchMode() ? VerdictMode::kOff : cfg.verdict_mode();
  return settings;
}

// A rank other than 0 of a run across processes: runs its share and prints
// nothing on stdout (rank 0 prints the one merged report); its errors go to
// `err` as usual.
int RunSilentRank(TestSetup& setup, Cluster& cluster, std::ostream& err) {
  InstallStopSignalHandlers();
  Result<RunResult> result =
      RunWorkload(*setup.workload, setup.cfg, BuildManifest(setup, "run"), nullptr, cluster);
  if (!result.ok()) {
    PrintError(err, result.status());
    return ExitFor(result.status());
  }
  return ExitCodeAfterRun(*result, kExitOk, err);
}

int RunTestOn(TestSetup& setup, const RunExtras& extras, std::ostream& out, std::ostream& err) {
  Result<std::unique_ptr<Cluster>> joined = JoinRunCluster(extras.cluster, setup, "run");
  if (!joined.ok()) {
    PrintError(err, joined.status());
    return ExitFor(joined.status());
  }
  const std::unique_ptr<Cluster> cluster = std::move(joined).value();
  if (cluster && !cluster->Reports()) return RunSilentRank(setup, *cluster, err);
  Workload& workload = *setup.workload;
  // sysbench mode: a --rate the threads cannot keep up with fills sysbench's
  // event queue and fails the run, as in sysbench.
  if (SysbenchMode()) setup.cfg.rate_backlog_limit = RunConfig::kSysbenchEventQueue;
  const RunConfig& cfg = setup.cfg;
  // sysbench mode: loadcell's own warnings about the run are not sysbench's.
  if (!SysbenchMode()) {
    for (const std::string& w : workload.Warnings(static_cast<int>(cfg.threads))) {
      PrintWarning(err, w);
    }
  }
  for (const std::string& n : setup.notes) PrintCliNote(err, n);
  const ReportSettings settings = SettingsFor(cfg);

  MultiReporter reporters;
  RunAddons addons;  // --report-html, live status (first: erased before the report)
  if (Status s = addons.Attach(extras, workload, settings, setup.cfg, reporters, err); !s.ok()) {
    PrintError(err, s);
    return kExitUsage;
  }
  // The report file is put in place only once the run has produced a report
  // (also a failed or interrupted run's): a usage error or a failed start
  // leaves an existing file of that name untouched.
  ReportFile file;
  if (!cfg.output_file.empty()) {
    if (!cfg.config_file.empty() && SamePath(cfg.output_file, cfg.config_file)) {
      PrintError(err, Status::InvalidArgument("--output-file=" + cfg.output_file +
                                              ": the same file as --config-file"));
      return kExitUsage;
    }
    if (Status s = file.Open("--output-file", cfg.output_file); !s.ok()) {
      PrintError(err, s);
      return kExitUsage;
    }
    reporters.Add(MakeReporter(cfg.format, file.stream(), workload, settings));
    reporters.Add(MakeTextReporter(out, workload, settings));
  } else {
    reporters.Add(MakeReporter(cfg.format, out, workload, settings));
  }

  Manifest manifest = BuildManifest(setup, "run");
  InstallStopSignalHandlers();
  RunCoordinator& coordinator = cluster ? *cluster : SoloCoordinator();
  VerdictStep verdict(workload, settings.verdict, settings.percentile, settings.report_interval_s);
  reporters.WatchStart(&verdict);
  Result<RunResult> result =
      RunWorkload(workload, cfg, std::move(manifest), &reporters, coordinator);
  if (!result.ok()) {
    out.flush();
    // The run's start: fileio's Init refuses a run without a mode.
    if (std::optional<std::string> words =
            SysbenchMode() ? SysbenchOptionError(result.status(), RawOptions()) : std::nullopt) {
      PrintCliError(err, *words);
      return kExitRunFailed;
    }
    if (std::optional<SysbenchLines> lines =
            SysbenchMode() ? SysbenchRunStartError(result.status()) : std::nullopt) {
      PrintCliError(err, lines->fatal);
      for (const std::string& w : lines->warnings) PrintCliWarning(err, w);
      return kExitRunFailed;
    }
    PrintError(err, result.status());
    return ExitFor(result.status());  // 130 for an interrupt
  }
  verdict.Judge(*result);
  reporters.OnEnd(*result);
  out.flush();
  if (result->forced_shutdown) {
    // Threads still hang inside the workload: ExitCodeAfterRun leaves at
    // once, so the report file and the add-ons are finished first.
    if (Status s = file.Commit(); !s.ok()) PrintError(err, s);
    if (Status s = addons.Finish(); !s.ok()) PrintError(err, s);
    return ExitCodeAfterRun(*result, kExitRunFailed, err);
  }
  int code = kExitOk;
  if (Status s = addons.Finish(); !s.ok()) {
    PrintError(err, s);
    code = kExitRunFailed;
  }
  if (Status s = file.Commit(); !s.ok()) {
    PrintError(err, s);
    code = kExitRunFailed;
  }
  return ExitCodeAfterRun(*result, code, err);
}

// A JSON or CSV report on standard output has standard output to itself:
// everything else written there during the run (a Lua script's print(), a
// workload's notes) goes to standard error.
int RunTest(TestSetup& setup, const RunExtras& extras, std::ostream& out, std::ostream& err) {
  if (&out != &std::cout || !ReportOwnsStdout(setup.cfg.format, setup.cfg.output_file)) {
    return RunTestOn(setup, extras, out, err);
  }
  ReportStdout report_out;
  return RunTestOn(setup, extras, report_out.stream(), err);
}

int PrepareOrCleanup(TestSetup& setup, Command command, const ClusterSettings& cluster,
                     std::ostream& err) {
  const std::string word(CommandName(command));
  if (!setup.workload->Info().supports_prepare) {
    if (SysbenchMode()) {
      err << "'" << setup.test << "' test does not implement the '" << word << "' command.\n";
      return kExitRunFailed;
    }
    PrintError(err, Status::FailedPrecondition(
                        "'" + setup.test + "' test does not implement the '" + word + "' command"));
    return kExitUsage;
  }
  // Under a launcher: refused as its run would be, and a test with files
  // per rank gets its rank's sub-folder, so that ranks never prepare the
  // same files at once; a test that runs across ranks (OLTP) gets the
  // cluster, kept until its prepare or cleanup is done. With files every
  // rank shares, rank 0 alone prepares (or cleans up) while the others wait
  // for its outcome.
  Result<std::unique_ptr<Cluster>> joined = JoinRunCluster(cluster, setup, word);
  if (!joined.ok()) {
    PrintError(err, joined.status());
    return ExitFor(joined.status());
  }
  const std::unique_ptr<Cluster> ranks = std::move(joined).value();
  const bool files_shared =
      ranks && cluster.files == MpiFiles::kShared && setup.workload->Info().files_shared;
  PrepareContext ctx;
  ctx.threads = static_cast<int>(setup.cfg.threads);
  ctx.seed = static_cast<uint64_t>(setup.cfg.seed);
  ctx.sysbench_output = SysbenchMode();
  InstallStopSignalHandlers();
  Status s;
  {
    const StopGuard guard(word, setup.cfg.StopGrace());
    auto work = [&] {
      return command == Command::kPrepare ? setup.workload->Prepare(ctx)
                                          : setup.workload->Cleanup(ctx);
    };
    const char* what =
        command == Command::kPrepare ? "prepare the shared files" : "clean up the shared files";
    s = files_shared ? ranks->OnRankZero(work, what) : work();
  }
  if (!s.ok()) {
    PrintError(err, s);
    return ExitFor(s);
  }
  return kExitOk;
}

}  // namespace

namespace {

// "threads 0, 3" (at most the first 16 named).
std::string ThreadList(const std::vector<int>& ids) {
  std::string out = ids.size() == 1 ? "thread " : "threads ";
  for (size_t i = 0; i < ids.size() && i < 16; ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(ids[i]);
  }
  if (ids.size() > 16) out += " and " + std::to_string(ids.size() - 16) + " more";
  return out;
}

// After a forced shutdown: names the abandoned threads and leaves at once,
// 130 after a stop signal, else 1 (the workload must not be destroyed under
// threads still inside it).
[[noreturn]] void LeaveAbandoned(const RunResult& result, std::ostream& err) {
  if (result.interrupted) {
    err << "loadcell: interrupted; the report covers the time until the interrupt\n";
  }
  err << "loadcell: error: abandoned " << ThreadList(result.abandoned_threads)
      << ", still inside the workload past the grace after "
      << (result.interrupted ? "the stop signal" : "the time limit")
      << " (--forced-shutdown); the report covers what was measured\n";
  err.flush();
  std::_Exit(result.interrupted ? kExitInterrupted : kExitRunFailed);
}

}  // namespace

bool ReportOwnsStdout(const std::string& format, const std::string& output_file) {
  return (format == "json" || format == "csv") && output_file.empty();
}

int ExitCodeAfterRun(const RunResult& result, int code, std::ostream& err) {
  if (result.forced_shutdown) LeaveAbandoned(result, err);
  const Status& failure = result.failure;
  if (!failure.ok() && failure.code() != StatusCode::kCancelled) {
    PrintError(err, failure);
    return kExitRunFailed;
  }
  if (result.interrupted || failure.code() == StatusCode::kCancelled) {
    // What the phase that gave way said (the partial file it removed).
    if (failure.code() == StatusCode::kCancelled && failure.message() != "interrupted") {
      PrintError(err, failure);
    }
    err << "loadcell: interrupted; the report covers the time until the interrupt\n";
    return kExitInterrupted;
  }
  return ExitCodeForVerdicts({&result.validity}, code, err);
}

int ExitCodeForVerdicts(const std::vector<const Validity*>& verdicts, int code, std::ostream& err) {
  if (code != kExitOk) return code;
  size_t invalid = 0;
  for (const Validity* v : verdicts) {
    const bool strict = v != nullptr && v->judged && v->mode == VerdictMode::kStrict;
    if (strict && v->overall() == Overall::kInvalid) ++invalid;
  }
  if (invalid == 0) return code;
  if (verdicts.size() == 1) {
    err << "loadcell: the result is INVALID (--verdict=strict; the verdict above says why)\n";
  } else {
    err << "loadcell: " << invalid << " of " << verdicts.size()
        << " results are INVALID (--verdict=strict; the verdicts above say why)\n";
  }
  return kExitInvalid;
}

Result<VerdictMode> ParseVerdictOption(const std::string& who, const std::string& value) {
  if (std::optional<VerdictMode> mode = VerdictModeNamed(value)) return *mode;
  return Status::InvalidArgument(who + "--verdict=" + value + ": the verdict is off, on or strict");
}

namespace {

int RunCommandLineHere(const std::vector<std::string>& given, std::ostream& out,
                       std::ostream& err) {
  std::vector<std::string> args = given;
  Result<bool> sysbench = TakeCompatOption(args);
  if (!sysbench.ok()) {
    PrintError(err, sysbench.status());
    return kExitUsage;
  }
  CliStyle style;
  style.dialect = *sysbench ? CliDialect::kSysbench : CliDialect::kLoadcell;
  style.verbosity = VerbosityOf(args);
  SetStyle(style);
  if (*sysbench) return RunSysbenchCommandLine(args, &RunParsedCommandLine, out, err);
  if (args.empty()) {
    out << Usage();
    return kExitUsage;
  }
  // report, compare and sweep read their own arguments (sweep and compare use "--").
  if (args[0] == "report" || args[0] == "compare" || args[0] == "sweep") {
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (args[0] == "report") return RunReportCommand(rest, out, err);
    if (args[0] == "compare") return RunCompareCommand(rest, out, err);
    return RunSweepCommand(rest, out, err);
  }
  // fio's job files and command-line jobs.
  if (args[0] == "fio") {
    return RunFioCommand(std::vector<std::string>(args.begin() + 1, args.end()), out, err);
  }
  // DiskSpd's command line (-b8K -d30 -o4 -t8 -r -w25 target ...).
  if (args[0] == "diskspd") {
    return RunDiskspdCommand(std::vector<std::string>(args.begin() + 1, args.end()), out, err);
  }
  // A database engine's I/O simulated and verified (SQLIOSim's -cfg file).
  if (args[0] == "dbsim") {
    return RunDbsimCommand(std::vector<std::string>(args.begin() + 1, args.end()), out, err);
  }
  // SQLIO's own syntax (-kR -s30 -Fparam.txt ...).
  if (args[0] == "sqlio") {
    return RunSqlioCommand(std::vector<std::string>(args.begin() + 1, args.end()), out, err);
  }
  Result<CommandLine> parsed = TokenizeArgs(args);
  if (!parsed.ok()) {
    PrintError(err, parsed.status());
    return kExitUsage;
  }
  return RunParsedCommandLine(*parsed, out, err);
}

}  // namespace

int RunCommandLine(const std::vector<std::string>& given, std::ostream& out, std::ostream& err) {
  const ClusterSettings spelled = SpelledClusterSettings(given);
  if (!SaysErrorsAcrossRanks(spelled)) return RunCommandLineHere(given, out, err);
  // Under a launcher: an error found before the ranks join is said once for
  // the job.
  HeldCliErrors held(err);
  const int code = RunCommandLineHere(given, out, err);
  return SayHeldErrorsAcrossRanks(spelled, held.Take(), code, err);
}

int RunParsedCommandLine(CommandLine& cl, std::ostream& out, std::ostream& err) {
  for (const std::string& w : cl.warnings) PrintWarning(err, w);

  // The file's options join before the words are read: it may name the test.
  if (Status s = MergeConfigFile(cl.options); !s.ok()) {
    PrintError(err, s);
    return kExitUsage;
  }
  // A Lua script (sysbench 1.0 API) as the test.
  if (std::optional<int> code = MaybeRunScript(cl, &RunTest, out, err)) return *code;
  Result<Invocation> interpreted = Interpret(cl, &IsBuiltinTest);
  if (!interpreted.ok()) {
    PrintError(err, interpreted.status());
    return kExitUsage;
  }
  const Invocation& inv = *interpreted;
  switch (inv.command) {
    case Command::kUsage:
      out << Usage();
      return kExitOk;
    case Command::kVersion:
      out << "loadcell " << kVersion << " (" << OptionalPartsLine() << ")\n";
      return kExitOk;
    case Command::kList:
      return PrintList(out);
    default:
      break;
  }

  if (inv.command == Command::kSuite) return RunSuite(cl.options, out, err);
  if (const RawOption* d = cl.options.Find("db-driver"); d != nullptr && d->value == "help") {
    out << DbDriverHelp();
    return kExitOk;
  }

  Result<std::unique_ptr<TestSetup>> created = CreateTest(inv.test, inv.test_spelled);
  if (!created.ok()) {
    PrintError(err, created.status());
    return kExitUsage;
  }
  TestSetup& setup = **created;
  if (inv.command == Command::kTestHelp) return PrintTestHelp(setup, out);

  Result<RunExtras> extras = TakeRunExtras(cl.options);
  if (!extras.ok()) {
    PrintError(err, extras.status());
    return kExitUsage;
  }
  if (Status s = ConfigureTest(setup, cl.options, /*check_unknown=*/true); !s.ok()) {
    if (std::optional<std::string> given =
            SysbenchMode() ? SysbenchInvalidOption(s, cl.options) : std::nullopt) {
      PrintSysbenchInvalidOption(err, *given);
      return kExitRunFailed;
    }
    if (std::optional<std::string> words =
            SysbenchMode() ? SysbenchOptionError(s, cl.options) : std::nullopt) {
      PrintCliError(err, *words);
      return kExitRunFailed;
    }
    // Under a launcher: one line for the job, naming the rank.
    const Status said = FailAcrossRanks(extras->cluster, s);
    PrintError(err, said);
    return said.IsUsageError() ? kExitUsage : ExitFor(said);
  }
  if (inv.command == Command::kPrepare || inv.command == Command::kCleanup) {
    return PrepareOrCleanup(setup, inv.command, extras->cluster, err);
  }
  return RunTest(setup, *extras, out, err);
}

}  // namespace loadcell
