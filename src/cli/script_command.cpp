#include "cli/script_command.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <ostream>

#include "cli/app.h"
#include "cli/cli_style.h"
#include "cli/cluster_setup.h"
#include "cli/sysbench_mode.h"
#include "core/build_features.h"
#include "core/build_info.h"
#include "os/file_system.h"
#include "os/report_stdout.h"
#include "runner/stop_signal.h"
#if LOADCELL_WITH_LUA
#include "lua/lua_host.h"
#include "lua/lua_workload.h"
#endif

namespace loadcell {
namespace {

int FailScript(std::ostream& err, const Status& s, int code) {
  PrintCliError(err, s);
  return code;
}

bool IsTopLevelWord(const std::string& w) {
  return w == "list" || w == "suite" || w == "version" || w == "help";
}

bool EndsWithLua(const std::string& s) {
  return s.size() > 4 && s.compare(s.size() - 4, 4, ".lua") == 0;
}

bool IsRegularPath(const std::string& path) {
  Result<FileInfo> info = DefaultFileSystem().Stat(path);
  return info.ok() && info->is_regular;
}

// The script's base name without ".lua": what a built-in test would be called.
std::string BaseName(const std::string& p) {
  std::string s = Basename(p);
  if (EndsWithLua(s)) s.resize(s.size() - 4);
  return s;
}

#if LOADCELL_WITH_LUA
// Whether the script's run will write a JSON or CSV report to standard
// output (judged from the options as given: the script's main chunk runs
// before they are parsed, and may print).
bool ScriptReportOwnsStdout(const ScriptCall& call, CommandLine& cl) {
  if (!call.rest.empty() && call.rest[0] != "run") return false;
  if (cl.options.Find("help") != nullptr) return false;
  const RawOption* format = cl.options.Find("format");
  const RawOption* output = cl.options.Find("output-file");
  return format != nullptr &&
         ReportOwnsStdout(format->value, output != nullptr ? output->value : std::string());
}

// Applies the command line's options to the script's test and validates it.
// A script without sysbench.cmdline.options (sysbench 0.5 style) takes any
// option, as sysbench does: it reads them as globals.
Status ConfigureScript(TestSetup& setup, LuaScriptWorkload& script, const std::string& path,
                       RawOptions& options) {
  if (setup.general.Find("config-file") == nullptr) {
    if (RawOption* o = options.Find("config-file")) o->consumed = true;
  }
  LC_RETURN_IF_ERROR(setup.general.Apply(options));
  LC_RETURN_IF_ERROR(setup.test_options.Apply(options));
  if (!script.DeclaresOptions()) {
    std::vector<std::pair<std::string, std::string>> undeclared;
    for (RawOption& o : options.entries()) {
      if (o.consumed) continue;
      o.consumed = true;
      undeclared.emplace_back(o.name, o.has_value ? o.value : "on");
    }
    script.SetUndeclaredOptions(undeclared);
  }
  LC_RETURN_IF_ERROR(
      options.CheckAllConsumed("for script '" + path + "'; see 'loadcell " + path + " help'"));
  LC_RETURN_IF_ERROR(setup.cfg.Finalize(setup.general));
  script.SetGeneralOptions(setup.general);
  return setup.workload->Validate(static_cast<int>(setup.cfg.threads));
}

// The script at `path` loaded for `command` as a test whose options are
// registered; `script` is its workload; `raw` the command line's options
// (the main chunk's SQL uses the database options among them). A missing script or a malformed
// options/commands table is a usage error.
Result<std::unique_ptr<TestSetup>> LoadScriptTest(const std::string& path,
                                                  const std::string& command,
                                                  const std::vector<std::string>& argv,
                                                  LuaScriptWorkload** script,
                                                  const RawOptions& raw) {
  LC_ASSIGN_OR_RETURN(std::unique_ptr<LuaScriptWorkload> loaded,
                      LoadLuaScript(path, command, argv, &raw));
  if (SysbenchMode()) loaded->UseSysbenchMessages();
  *script = loaded.get();
  auto setup = std::make_unique<TestSetup>(loaded->Info().name);
  setup->workload = std::move(loaded);
  setup->cfg.RegisterOptions(setup->general);
  setup->workload->RegisterOptions(setup->test_options);
  // sysbench runs done() after the end report: once the run's report is out.
  TestSetup* s = setup.get();
  LuaScriptWorkload* w = *script;
  setup->after_report = [s, w] {
    const StopGuard guard("the script's done()", s->cfg.StopGrace());
    return w->RunDoneHook();
  };
  return setup;
}

// Whether `s`, a script's load failure, is LuaHost::ReadOptions' about a
// malformed sysbench.cmdline.options ("script 'PATH': sysbench.cmdline.options...").
bool IsMalformedOptionsTable(const Status& s) {
  return s.code() == StatusCode::kInvalidArgument &&
         s.message().find("': sysbench.cmdline.options") != std::string::npos;
}

// sysbench's SCRIPT help: the script's help(), else its options, else an
// error saying it has no help (exit 1).
int SysbenchScriptHelp(TestSetup& setup, LuaScriptWorkload& script, const std::string& path,
                       std::ostream& out, std::ostream& err) {
  const std::string text = script.ScriptHelp();
  if (!text.empty()) {
    out << text;
    return kExitOk;
  }
  std::vector<std::pair<std::string, std::string>> names;
  for (const std::string& n : script.DeclaredOptionNames()) {
    std::string dashed = n;
    std::replace(dashed.begin(), dashed.end(), '_', '-');
    names.emplace_back(n, dashed);
  }
  const std::string options = SysbenchScriptOptions(Basename(path), setup.test_options, names);
  if (!options.empty()) {
    out << options;
    return kExitOk;
  }
  err << "'" << Basename(path) << "' test does not implement the 'help' command.\n";
  return kExitRunFailed;
}

// Runs the script's test and then its done(). Returns the exit code.
int RunAndDone(TestSetup& setup, const RunExtras& extras, RunTestFn run_test, std::ostream& out,
               std::ostream& err) {
  const int code = run_test(setup, extras, out, err);
  out << std::flush;
  const Status done = setup.after_report();
  if (!done.ok() && code == kExitOk) return FailScript(err, done, kExitRunFailed);
  return code;
}

// Runs prepare, cleanup or a custom command of the script. A stop signal
// gives the command the grace of --forced-shutdown; one that returns after
// the signal still ends as interrupted (exit 130).
int RunScriptCommand(TestSetup& setup, LuaScriptWorkload& script, const std::string& command,
                     const ClusterSettings& cluster, std::ostream& out, std::ostream& err) {
  // Under a launcher the script learns its rank (prepare and cleanup run on
  // rank 0 unless it asks otherwise: docs/lua.md).
  Result<std::unique_ptr<Cluster>> joined = JoinRunCluster(cluster, setup, command);
  if (!joined.ok()) return FailScript(err, joined.status(), ExitCodeFor(joined.status()));
  const std::unique_ptr<Cluster> ranks = std::move(joined).value();
  PrepareContext ctx;
  ctx.threads = static_cast<int>(setup.cfg.threads);
  ctx.seed = static_cast<uint64_t>(setup.cfg.seed);
  const std::string phase = command == "prepare" || command == "cleanup"
                                ? "the script's " + command
                                : "the script's command '" + command + "'";
  InstallStopSignalHandlers();
  // sysbench starts a parallel command's threads as a run's.
  if (SysbenchMode() && Style().verbosity >= kVerbosityNotice && script.RunsInParallel(command)) {
    out << "Initializing worker threads...\n\n" << std::flush;
  }
  Status s;
  {
    const StopGuard guard(phase, setup.cfg.StopGrace());
    s = script.RunCommand(command, ctx);
  }
  if (StopRequested()) {
    err << "loadcell: interrupted; " << phase << " returned after the stop signal"
        << (s.ok() ? "" : ": " + s.ToString()) << "\n";
    return kExitInterrupted;
  }
  if (!s.ok()) return FailScript(err, s, s.IsUsageError() ? kExitUsage : kExitRunFailed);
  return kExitOk;
}

// Loads and runs the script of `call` (command, options) and returns the exit code.
int RunScript(const ScriptCall& call, CommandLine& cl, RunTestFn run_test, std::ostream& out,
              std::ostream& err) {
  const std::string& path = call.path;
  const std::vector<std::string>& rest = call.rest;  // words after the script
  if (rest.size() > 1) {
    return FailScript(
        err,
        Status::InvalidArgument("unexpected argument '" + rest[1] + "' after '" + rest[0] + "'"),
        kExitUsage);
  }
  std::string command = rest.empty() ? "run" : rest[0];
  // sysbench mode, a script without a command (or on standard input): its
  // main chunk alone, with no command (sysbench.cmdline.command is nil).
  const RawOption* load_only = cl.options.Find("script-load-only");
  if (load_only != nullptr) command.clear();
  if (RawOption* h = cl.options.Find("help"); h != nullptr) {
    h->consumed = true;
    command = "help";
  }

  // sysbench.cmdline.argv: the command line as given.
  std::vector<std::string> argv = cl.args;
  if (argv.empty()) {
    argv = {path};
    if (!rest.empty()) argv.push_back(rest[0]);
  }
  LuaScriptWorkload* script = nullptr;
  Result<std::unique_ptr<TestSetup>> loaded =
      LoadScriptTest(path, command, argv, &script, cl.options);
  if (!loaded.ok() && SysbenchMode() && IsMalformedOptionsTable(loaded.status())) {
    // sysbench reads the table in its own Lua file and names it; loadcell has
    // no such file: its line is 0.
    PrintCliError(err,
                  "`sysbench.cmdline.read_cmdline_options' function failed: [string "
                  "\"sysbench.cmdline.lua\"]:0: wrong table structure in sysbench.cmdline.options");
    return kExitRunFailed;
  }
  if (!loaded.ok()) {
    return FailScript(err, loaded.status(),
                      loaded.status().IsUsageError() ? kExitUsage : kExitRunFailed);
  }
  TestSetup& setup = **loaded;
  if (load_only != nullptr) return kExitOk;
  if (command == "help" && SysbenchMode())
    return SysbenchScriptHelp(setup, *script, path, out, err);
  if (command == "help") {
    out << setup.test << ": " << script->Info().summary << "\n\n";
    std::string text = script->ScriptHelp();
    if (!text.empty()) out << text << "\n";
    out << FormatHelp(setup.test_options) << "\n" << FormatHelp(setup.general) << "\n";
    return kExitOk;
  }

  Result<RunExtras> extras = TakeRunExtras(cl.options);
  if (!extras.ok()) return FailScript(err, extras.status(), kExitUsage);
  Status s = ConfigureScript(setup, *script, path, cl.options);
  if (!s.ok() && SysbenchMode()) {
    if (std::optional<std::string> given =
            SysbenchInvalidOption(s, cl.options, &setup.test_options)) {
      PrintSysbenchInvalidOption(err, *given);
      return kExitRunFailed;
    }
  }
  if (!s.ok()) {
    // Under a launcher: one line for the job, naming the rank.
    const Status said = FailAcrossRanks(extras->cluster, s);
    return FailScript(err, said, said.IsUsageError() ? kExitUsage : ExitCodeFor(said));
  }

  if (command == "run") return RunAndDone(setup, *extras, run_test, out, err);
  if (SysbenchMode() && !script->HasCommand(command)) {
    // sysbench's words, on standard error, exit 1.
    if (command == "prepare" || command == "cleanup") {
      err << "'" << Basename(path) << "' test does not implement the '" << command
          << "' command.\n";
    } else {
      err << "Unknown command: " << command << "\n";
    }
    return kExitRunFailed;
  }
  if (command != "prepare" && command != "cleanup" && !script->HasCommand(command)) {
    return FailScript(
        err,
        Status::InvalidArgument("unknown command '" + command + "' for script '" + path +
                                "'; use prepare, run, cleanup, help or a command of "
                                "sysbench.cmdline.commands"),
        kExitUsage);
  }
  return RunScriptCommand(setup, *script, command, extras->cluster, out, err);
}
#endif  // LOADCELL_WITH_LUA

}  // namespace

std::optional<ScriptCall> FindScript(CommandLine& cl) {
  ScriptCall call;
  RawOption* test = cl.options.Find("test");
  if (test != nullptr && test->has_value && IsScriptSpelling(test->value, &IsBuiltinTest)) {
    call.path = test->value;
    call.rest = cl.words;
  } else if (test == nullptr && !cl.words.empty() && !IsTopLevelWord(cl.words[0]) &&
             IsScriptSpelling(cl.words[0], &IsBuiltinTest)) {
    call.path = cl.words[0];
    call.rest.assign(cl.words.begin() + 1, cl.words.end());
  } else {
    return std::nullopt;
  }
  if (test != nullptr) test->consumed = true;
  // A module name: the file it names.
  if (call.path != "-" && !IsRegularPath(call.path)) {
    const std::string module = ScriptModulePath(call.path);
    if (!module.empty()) call.path = module;
  }
  return call;
}

std::string ScriptModulePath(const std::string& name) {
  if (name.empty() || name.find('/') != std::string::npos || EndsWithLua(name)) return "";
  std::string file = name;
  for (char& c : file) {
    if (c == '.') c = '/';
  }
  const char* env = std::getenv("LUA_PATH");
  std::string templates = env != nullptr ? env : ";;";
  const size_t defaults = templates.find(";;");
  if (defaults != std::string::npos) {
    templates.replace(defaults, 2, ";./?.lua;/usr/share/sysbench/?.lua;");
  }
  for (size_t at = 0; at <= templates.size();) {
    size_t semi = templates.find(';', at);
    if (semi == std::string::npos) semi = templates.size();
    std::string candidate = templates.substr(at, semi - at);
    at = semi + 1;
    if (candidate.find('?') == std::string::npos) continue;
    for (size_t q = candidate.find('?'); q != std::string::npos;
         q = candidate.find('?', q + file.size())) {
      candidate.replace(q, 1, file);
    }
    if (IsRegularPath(candidate)) return candidate;
  }
  return "";
}

Result<std::unique_ptr<TestSetup>> CreateScriptTest(const std::string& path, RawOptions& options) {
#if LOADCELL_WITH_LUA
  LuaScriptWorkload* script = nullptr;
  LC_ASSIGN_OR_RETURN(std::unique_ptr<TestSetup> setup,
                      LoadScriptTest(path, "run", {path, "run"}, &script, options));
  LC_RETURN_IF_ERROR(ConfigureScript(*setup, *script, path, options));
  return setup;
#else
  (void)options;
  return NotInThisBuild("script " + path, "lua");
#endif
}

bool IsScriptSpelling(const std::string& spelled, bool (*is_builtin)(const std::string& name)) {
  if (spelled.empty()) return false;
  if (spelled == "-") return true;
  const bool builtin = is_builtin != nullptr && is_builtin(BaseName(spelled));
  if (IsRegularPath(spelled)) return EndsWithLua(spelled) || !builtin;
  if (EndsWithLua(spelled)) return !builtin;
  return !builtin && (is_builtin == nullptr || !is_builtin(spelled)) &&
         !ScriptModulePath(spelled).empty();
}

std::optional<ScriptListEntry> ScriptListing() {
  if (!LOADCELL_WITH_LUA) return std::nullopt;
  return ScriptListEntry{"SCRIPT.lua",
                         "a Lua script with the sysbench 1.0 API (loadcell SCRIPT.lua [options] "
                         "[prepare|run|cleanup|help])"};
}

void UseSysbenchScriptVersion() {
#if LOADCELL_WITH_LUA
  SetScriptVersion("1.0.20", kSysbenchVersionString, "sysbench");
#endif
}

std::optional<int> MaybeRunScript(CommandLine& cl, RunTestFn run_test, std::ostream& out,
                                  std::ostream& err) {
  std::optional<ScriptCall> call = FindScript(cl);
  if (!call) return std::nullopt;
#if LOADCELL_WITH_LUA
  if (&out == &std::cout && ScriptReportOwnsStdout(*call, cl)) {
    // From the main chunk to done(): only the report goes to stdout.
    ReportStdout report_out;
    return RunScript(*call, cl, run_test, report_out.stream(), err);
  }
  return RunScript(*call, cl, run_test, out, err);
#else
  return FailScript(err, NotInThisBuild("script " + call->path, "lua"), kExitUsage);
#endif
}

}  // namespace loadcell
