#include "cli/commands/sweep_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>

#include "cli/app.h"
#include "cli/cluster_setup.h"
#include "cli/command_line.h"
#include "cli/commands/report_command.h"
#include "cli/commands/sweep_args.h"
#include "cli/report_file.h"
#include "cli/script_command.h"
#include "cli/test_setup.h"
#include "core/progress.h"
#include "os/report_stdout.h"
#include "os/system_info.h"
#include "runner/runner.h"
#include "validity/verdict.h"

namespace loadcell {
namespace {

// "threads=4, file-block-size=4K".
std::string PointName(const std::vector<std::string>& options,
                      const std::vector<std::string>& values) {
  std::string s;
  for (size_t i = 0; i < options.size(); ++i) {
    s += (i ? ", " : "") + options[i] + "=" + values[i];
  }
  return s;
}

// The values of each point as shown: a secret option's value (a password) as
// "hidden-N", N its place in the option's list.
std::vector<std::vector<std::string>> ShownValues(
    const std::vector<std::string>& options, const std::vector<std::vector<std::string>>& values) {
  std::vector<std::vector<std::string>> shown = values;
  for (size_t i = 0; i < options.size(); ++i) {
    if (!IsSecretOptionName(options[i])) continue;
    std::vector<std::string> seen;
    for (auto& point : shown) {
      auto at = std::find(seen.begin(), seen.end(), point[i]);
      if (at == seen.end()) at = seen.insert(seen.end(), point[i]);
      point[i] = fmt::format("hidden-{}", at - seen.begin() + 1);
    }
  }
  return shown;
}

// A file-name-safe "threads=4-file-block-size=4K".
std::string PointFileStem(const std::vector<std::string>& options,
                          const std::vector<std::string>& values) {
  std::string s;
  for (size_t i = 0; i < options.size(); ++i) {
    s += (i ? "-" : "") + options[i] + "=" + values[i];
  }
  for (char& c : s) {
    bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == '=' || c == '-' || c == '.' ||
              c == '_' || c == '%';
    if (!ok) c = '_';
  }
  return s;
}

// One file stem per point of `t`, each distinct: a stem that two points
// share (values that differ only in characters a file name cannot hold, or a
// value listed twice) gets "-pointN" (N the point's number from 1).
std::vector<std::string> PointFileStems(const std::vector<std::string>& options,
                                        const SweepTable& t) {
  std::vector<std::string> stems;
  for (size_t p = 0; p < t.values.size(); ++p)
    stems.push_back(PointFileStem(options, ShownValuesOf(t, p)));
  std::vector<std::string> out = stems;
  for (size_t p = 0; p < stems.size(); ++p) {
    if (std::count(stems.begin(), stems.end(), stems[p]) > 1) {
      out[p] += fmt::format("-point{}", p + 1);
    }
  }
  return out;
}

std::string DefaultOutputDir(const std::string& test) {
  std::time_t now = std::time(nullptr);
  const std::tm tm = LocalTime(now);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y%m%d-%H%M%S", &tm);
  return "sweep-" + test + "-" + buf;
}

// Creates `dir` (and parents) and checks that a file can be written in it.
Status PrepareOutputDir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    return Status::InvalidArgument("--output-dir=" + dir + ": cannot create: " + ec.message());
  }
  const std::string probe = dir + "/.loadcell-write-test";
  std::FILE* f = std::fopen(probe.c_str(), "wb");
  if (f == nullptr) {
    return PosixUsageError("--output-dir=" + dir + ": cannot write there", errno);
  }
  std::fclose(f);
  std::remove(probe.c_str());
  return Status::Ok();
}

// Redraws the sweep's progress bar while a run goes (terminal only).
class ProgressTicker final : public Reporter {
 public:
  explicit ProgressTicker(Progress& p) : p_(p) {}
  void OnStatus(const IntervalSnapshot&) override { p_.Advance(0); }
  void OnEnd(const RunResult&) override {}

 private:
  Progress& p_;
};

// Every combination, the first option varying slowest.
std::vector<std::vector<std::string>> Points(const std::vector<std::vector<std::string>>& lists) {
  std::vector<std::vector<std::string>> out = {{}};
  for (const auto& list : lists) {
    std::vector<std::vector<std::string>> next;
    for (const auto& prefix : out) {
      for (const std::string& v : list) {
        next.push_back(prefix);
        next.back().push_back(v);
      }
    }
    out = std::move(next);
  }
  return out;
}

// The options of one point: the test's, then the point's values (they win).
RawOptions PointOptions(const RawOptions& base, const std::vector<std::string>& names,
                        const std::vector<std::string>& values) {
  RawOptions raw = base;
  for (size_t i = 0; i < names.size(); ++i) {
    raw.Add("--" + names[i], values[i], true, "sweep");
  }
  return raw;
}

int FailSweep(std::ostream& err, const Status& s, int code) {
  err << "loadcell: error: " << s.ToString() << "\n";
  return code;
}

// The test after "--", read as `loadcell TEST ... run` would read it.
struct SweepTest {
  CommandLine cl;
  Invocation inv;
  std::string script;  // the Lua script's path when the test is one
};

// A point's test, configured with `raw` (the test's options and the point's).
Result<std::unique_ptr<TestSetup>> ConfiguredSetup(const SweepTest& test, const RawOptions& raw) {
  RawOptions copy = raw;
  if (!test.script.empty()) return CreateScriptTest(test.script, copy);
  LC_ASSIGN_OR_RETURN(std::unique_ptr<TestSetup> setup,
                      CreateTest(test.inv.test, test.inv.test_spelled));
  LC_RETURN_IF_ERROR(ConfigureTest(*setup, copy, /*check_unknown=*/true));
  return setup;
}

Status RunOnly(const std::string& command) {
  if (command == "run") return Status::Ok();
  return Status::InvalidArgument("sweep: runs the 'run' command only, not '" + command +
                                 "' (prepare the files or tables once before the sweep)");
}

// The script the test's words name (`script.lua [run]`), as a run of it.
Result<bool> ReadSweepScript(SweepTest& t) {
  std::optional<ScriptCall> call = FindScript(t.cl);
  if (!call) return false;
  if (!call->rest.empty()) LC_RETURN_IF_ERROR(RunOnly(call->rest[0]));
  if (call->rest.size() > 1) {
    return Status::InvalidArgument("sweep: unexpected argument '" + call->rest[1] + "' after '" +
                                   call->rest[0] + "'");
  }
  t.script = call->path;
  t.inv.test = TestNameFromSpelling(call->path);
  t.inv.test_spelled = call->path;
  t.inv.command = Command::kRun;
  return true;
}

// Reads the test's command line; its --quiet and --report-html join the
// sweep's. InvalidArgument for anything but a run.
Result<SweepTest> ReadSweepTest(SweepArgs& sa, std::ostream& err) {
  SweepTest t;
  LC_ASSIGN_OR_RETURN(t.cl, TokenizeArgs(sa.test_args));
  for (const std::string& w : t.cl.warnings)
    err << "loadcell: warning: " << EscapeControlBytes(w) << "\n";
  LC_RETURN_IF_ERROR(MergeConfigFile(t.cl.options));
  // The --mpi options of the run, after "--" as for a run, win over the sweep's own.
  bool cluster_options = false;
  for (const char* name : {"mpi", "mpi-timeout", "stonewall", "mpi-files", "mpi-mixed"}) {
    cluster_options = cluster_options || t.cl.options.Find(name) != nullptr;
  }
  LC_ASSIGN_OR_RETURN(RunExtras test_extras, TakeRunExtras(t.cl.options));
  if (cluster_options) sa.extras.cluster = test_extras.cluster;
  if (test_extras.quiet) sa.extras.quiet = true;
  if (!test_extras.report_html.empty()) sa.extras.report_html = test_extras.report_html;
  LC_ASSIGN_OR_RETURN(const bool script, ReadSweepScript(t));
  if (script) return t;
  LC_ASSIGN_OR_RETURN(t.inv, Interpret(t.cl, &IsBuiltinTest));
  LC_RETURN_IF_ERROR(RunOnly(std::string(CommandName(t.inv.command))));
  return t;
}

// One sweep as it runs: fills the table's runs point by point, each run's
// JSON in the output folder, until a run fails or a stop is requested.
class SweepRun final {
 public:
  // `silent`: this process is a rank other than 0 of a run across
  // processes: it runs its share of every point and writes nothing.
  SweepRun(const SweepArgs& sa, const SweepTest& test, SweepTable& table, bool silent,
           std::ostream& out, std::ostream& err)
      : sa_(sa),
        test_(test),
        table_(table),
        out_(out),
        err_(err),
        progress_("sweep", table.values.size() * static_cast<uint64_t>(sa.repeat), "runs"),
        tty_(!silent && !sa.extras.quiet && StderrIsTerminal()),
        silent_(silent),
        stems_(PointFileStems(sa.options, table)) {}

  // Runs every point. Returns the exit code so far: 0, kExitRunFailed (failure()
  // says why) or kExitInterrupted. A run that failed with its report (or
  // abandoned hung threads) prints the table and ends the process' work
  // there: RunAll then returns after printing, with aborted() true.
  int RunAll() {
    for (size_t p = 0; p < table_.values.size() && code_ == 0; ++p) {
      const RawOptions raw = PointOptions(test_.cl.options, sa_.options, table_.values[p]);
      for (int rep = 1; rep <= sa_.repeat && code_ == 0 && !aborted_; ++rep) RunOnce(p, rep, raw);
      if (aborted_) return kExitRunFailed;
    }
    progress_.Done();
    return code_;
  }
  bool aborted() const { return aborted_; }
  const std::string& failure() const { return failure_; }
  // The points (in order) with a run whose verdict is INVALID under
  // --verdict=strict.
  const std::vector<size_t>& strict_invalid() const { return strict_invalid_; }

 private:
  void Stop(int code, std::string failure = "") {
    code_ = code;
    failure_ = std::move(failure);
    if (code == kExitInterrupted) table_.interrupted = true;
  }
  // "" for an error rank 0 of an MPI run prints for every rank (an empty
  // message: SaidByRankZero).
  std::string PointFailure(size_t p, const std::string& why) const {
    if (why.empty()) return "";
    return "sweep point " + PointName(sa_.options, ShownValuesOf(table_, p)) + ": " + why;
  }
  std::string RunPath(size_t p, int rep) const {
    return sa_.output_dir + "/" + table_.test + "-" + stems_[p] +
           (sa_.repeat > 1 ? fmt::format("-run{}", rep) : "") + ".json";
  }

  void RunOnce(size_t p, int rep, const RawOptions& raw) {
    if (StopRequested()) return Stop(kExitInterrupted);
    Result<std::unique_ptr<TestSetup>> created = ConfiguredSetup(test_, raw);
    if (!created.ok()) return Stop(kExitRunFailed, PointFailure(p, created.status().ToString()));
    TestSetup& setup = **created;
    // Under a launcher each point runs across every rank, with a cluster of
    // its own (MPI itself lasts for the whole sweep).
    Result<std::unique_ptr<Cluster>> joined = JoinRunCluster(sa_.extras.cluster, setup, "run");
    if (!joined.ok()) {
      return Stop(joined.status().IsUsageError() ? kExitUsage : kExitRunFailed,
                  PointFailure(p, joined.status().ToString()));
    }
    const std::unique_ptr<Cluster> cluster = std::move(joined).value();
    RunCoordinator& coordinator = cluster ? *cluster : SoloCoordinator();
    if (silent_) return RunShare(p, setup, coordinator);
    for (const std::string& w : setup.workload->Warnings(static_cast<int>(setup.cfg.threads))) {
      if (warned_.insert(w).second) err_ << "loadcell: warning: " << EscapeControlBytes(w) << "\n";
    }
    const std::string path = RunPath(p, rep);
    // The point's JSON appears whole or not at all (an interrupted point is
    // never put in place).
    ReportFile file;
    if (Status s = file.Open("--output-dir", path); !s.ok()) {
      return Stop(kExitRunFailed, s.ToString());
    }
    ReportSettings settings;
    settings.percentile = setup.cfg.percentile;
    settings.histogram = setup.cfg.histogram;
    settings.report_interval_s = setup.cfg.report_interval_s;
    settings.verdict = setup.cfg.verdict_mode();
    MultiReporter reporters;
    // Each point's JSON carries its verdict (docs/validity.md).
    VerdictStep verdict(*setup.workload, settings.verdict, settings.percentile,
                        settings.report_interval_s);
    reporters.WatchStart(&verdict);
    reporters.Add(MakeJsonReporter(file.stream(), *setup.workload, settings));
    if (tty_) {
      reporters.Add(std::make_unique<ProgressTicker>(progress_));
      setup.cfg.status_interval_s = 0.25;
    }
    Result<RunResult> result = RunWorkload(*setup.workload, setup.cfg, BuildManifest(setup, "run"),
                                           &reporters, coordinator);
    if (!result.ok()) {
      if (result.status().code() == StatusCode::kCancelled) return Stop(kExitInterrupted);
      return Stop(kExitRunFailed, PointFailure(p, result.status().ToString()));
    }
    verdict.Judge(*result);
    reporters.OnEnd(*result);
    if (setup.after_report && !result->forced_shutdown) {
      if (Status done = setup.after_report(); !done.ok() && result->failure.ok()) {
        result->failure = done;
      }
    }
    if (result->interrupted) return Stop(kExitInterrupted);
    if (Status s = file.Commit(); !s.ok()) return Stop(kExitRunFailed, s.ToString());
    Keep(p, path, *result);
  }

  // A rank other than 0: its share of point `p`, nothing written (rank 0
  // writes the merged result); a failure or an interrupt ends the sweep.
  void RunShare(size_t p, TestSetup& setup, RunCoordinator& coordinator) {
    Result<RunResult> result =
        RunWorkload(*setup.workload, setup.cfg, BuildManifest(setup, "run"), nullptr, coordinator);
    if (!result.ok()) {
      if (result.status().code() == StatusCode::kCancelled) return Stop(kExitInterrupted);
      return Stop(kExitRunFailed, PointFailure(p, result.status().ToString()));
    }
    if (result->forced_shutdown) std::_Exit(kExitRunFailed);
    if (setup.after_report) (void)setup.after_report();
    if (result->interrupted) return Stop(kExitInterrupted);
    if (!result->failure.ok()) Stop(kExitRunFailed, PointFailure(p, result->failure.ToString()));
  }

  // After a run that wrote its JSON to `path`: keeps it in the table, or
  // stops the sweep (an interrupted run is not kept).
  void Keep(size_t p, const std::string& path, const RunResult& result) {
    if (result.forced_shutdown || !result.failure.ok()) {
      Stop(kExitRunFailed,
           PointFailure(p, result.forced_shutdown
                               ? std::string("--forced-shutdown abandoned hung threads")
                               : result.failure.ToString()));
      progress_.Done();
      out_ << FormatSweep(table_, sa_.format);
      out_.flush();
      err_ << "loadcell: error: " << failure_ << "\n";
      err_.flush();
      // Hung threads may still use the workload: leave at once.
      if (result.forced_shutdown) std::_Exit(kExitRunFailed);
      aborted_ = true;
      return;
    }
    Result<ResultData> data = ReadResultFile(path);
    if (!data.ok()) return Stop(kExitRunFailed, data.status().message());
    table_.runs[p].push_back(std::move(data).value());
    const Validity& v = result.validity;
    const bool invalid =
        v.judged && v.mode == VerdictMode::kStrict && v.overall() == Overall::kInvalid;
    if (invalid && (strict_invalid_.empty() || strict_invalid_.back() != p)) {
      strict_invalid_.push_back(p);
    }
    progress_.Advance(1);
  }

  const SweepArgs& sa_;
  const SweepTest& test_;
  SweepTable& table_;
  std::ostream& out_;
  std::ostream& err_;
  Progress progress_;
  const bool tty_;
  const bool silent_;
  const std::vector<std::string> stems_;  // each point's file stem, distinct
  std::set<std::string> warned_;          // warnings printed once per sweep
  int code_ = 0;
  std::string failure_;
  bool aborted_ = false;
  std::vector<size_t> strict_invalid_;
};

// --verdict=strict: exit 3 when a point's run is INVALID, the points named
// (as a single run's strict exit is, docs/cli.md); `code` otherwise.
int ExitCodeForStrictPoints(const SweepArgs& sa, const SweepTable& table,
                            const std::vector<size_t>& invalid, int code, std::ostream& err) {
  if (code != kExitOk || invalid.empty()) return code;
  err << "loadcell: sweep: " << invalid.size() << " of " << table.values.size()
      << (table.values.size() == 1 ? " point is" : " points are")
      << " INVALID (--verdict=strict; their verdicts in the table and JSON files say why): ";
  for (size_t i = 0; i < invalid.size(); ++i) {
    err << (i ? "; " : "") << PointName(sa.options, ShownValuesOf(table, invalid[i]));
  }
  err << "\n";
  return kExitInvalid;
}

// Configures every point before anything runs. Returns the exit code when
// one is refused (the error printed).
std::optional<int> ValidatePoints(const SweepArgs& sa, const SweepTest& test,
                                  const SweepTable& table, std::ostream& err) {
  for (size_t p = 0; p < table.values.size(); ++p) {
    Result<std::unique_ptr<TestSetup>> setup =
        ConfiguredSetup(test, PointOptions(test.cl.options, sa.options, table.values[p]));
    if (!setup.ok()) {
      err << "loadcell: error: sweep point " << PointName(sa.options, ShownValuesOf(table, p))
          << ": " << setup.status().ToString() << "\n";
      return setup.status().IsUsageError() ? kExitUsage : ExitCodeFor(setup.status());
    }
  }
  return std::nullopt;
}

}  // namespace

namespace {

int RunSweep(SweepArgs& sa, std::ostream& out, std::ostream& err) {
  Result<SweepTest> test = ReadSweepTest(sa, err);
  if (!test.ok()) return FailSweep(err, test.status(), kExitUsage);

  SweepTable table;
  table.test = test->inv.test;
  table.options = sa.options;
  table.repeat = sa.repeat;
  table.values = Points(sa.lists);
  table.shown = ShownValues(sa.options, table.values);
  table.runs.resize(table.values.size());
  if (std::optional<int> refused = ValidatePoints(sa, *test, table, err)) return *refused;
  // Under a launcher rank 0 writes and prints the sweep; the other ranks
  // run their share of every point.
  const LaunchInfo launch = DetectLaunch();
  if (sa.extras.cluster.mode != MpiMode::kOff && launch.detected && launch.rank != 0) {
    InstallStopSignalHandlers();
    SweepRun share(sa, *test, table, /*silent=*/true, out, err);
    const int code = share.RunAll();
    if (!share.failure().empty()) err << "loadcell: error: " << share.failure() << "\n";
    return code;
  }
  if (sa.output_dir.empty()) sa.output_dir = DefaultOutputDir(table.test);
  if (Status s = PrepareOutputDir(sa.output_dir); !s.ok()) return FailSweep(err, s, kExitUsage);
  ReportFile html;
  if (!sa.extras.report_html.empty()) {
    if (Status s = html.Open("--report-html", sa.extras.report_html); !s.ok()) {
      return FailSweep(err, s, kExitUsage);
    }
  }

  InstallStopSignalHandlers();
  SweepRun run(sa, *test, table, /*silent=*/false, out, err);
  int code = run.RunAll();
  if (run.aborted()) return code;
  out << FormatSweep(table, sa.format);
  out.flush();
  if (html.is_open()) {
    html.stream() << RenderSweepHtml(SweepToFigures(table));
    if (Status s = html.Commit(); !s.ok()) {
      err << "loadcell: error: " << s.ToString() << "\n";
      if (code == 0) code = kExitRunFailed;
    }
  }
  if (!sa.extras.quiet) {
    err << "loadcell: sweep: JSON results in " << sa.output_dir << "\n";
  }
  if (!run.failure().empty()) err << "loadcell: error: " << run.failure() << "\n";
  if (code == kExitInterrupted) {
    err << "loadcell: interrupted; the table holds the points that finished\n";
  }
  return ExitCodeForStrictPoints(sa, table, run.strict_invalid(), code, err);
}

}  // namespace

int RunSweepCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  Result<SweepArgs> parsed = ParseSweepArgs(args);
  if (!parsed.ok()) return FailSweep(err, parsed.status(), kExitUsage);
  SweepArgs& sa = *parsed;
  for (const std::string& w : sa.warnings) {
    err << "loadcell: warning: " << EscapeControlBytes(w) << "\n";
  }
  if (&out == &std::cout && sa.format == "csv") {
    // The CSV table has standard output to itself: a script's print() and
    // anything else written there go to standard error.
    ReportStdout report_out;
    return RunSweep(sa, report_out.stream(), err);
  }
  return RunSweep(sa, out, err);
}

}  // namespace loadcell
