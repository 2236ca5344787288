#include "cli/script_command.h"

#include <ostream>

#include "cli/app.h"
#include "lua/lua_workload.h"

namespace loadcell {
namespace {

int Fail(std::ostream& err, const Status& s, int code) {
  err << "loadcell: error: " << s.ToString() << "\n";
  return code;
}

bool IsTopLevelWord(const std::string& w) {
  return w == "list" || w == "suite" || w == "version" || w == "help";
}

// Runs the script's test and then its done(), which sysbench calls after the
// end report. Returns the exit code.
int RunAndDone(TestSetup& setup, LuaScriptWorkload& script, const RunExtras& extras,
               RunTestFn run_test, std::ostream& out, std::ostream& err) {
  const int code = run_test(setup, extras, out, err);
  out << std::flush;
  Status done = script.RunDoneHook();
  if (!done.ok() && code == kExitOk) return Fail(err, done, kExitRunFailed);
  return code;
}

}  // namespace

std::optional<int> MaybeRunScript(CommandLine& cl, RunTestFn run_test, std::ostream& out,
                                  std::ostream& err) {
  std::string path;
  std::vector<std::string> rest;  // words after the script
  RawOption* test = cl.options.Find("test");
  if (test != nullptr && test->has_value && IsScriptSpelling(test->value, &IsBuiltinTest)) {
    path = test->value;
    rest = cl.words;
  } else if (test == nullptr && !cl.words.empty() && !IsTopLevelWord(cl.words[0]) &&
             IsScriptSpelling(cl.words[0], &IsBuiltinTest)) {
    path = cl.words[0];
    rest.assign(cl.words.begin() + 1, cl.words.end());
  } else {
    return std::nullopt;
  }
  if (test != nullptr) test->consumed = true;
  if (rest.size() > 1) {
    return Fail(
        err,
        Status::InvalidArgument("unexpected argument '" + rest[1] + "' after '" + rest[0] + "'"),
        kExitUsage);
  }
  std::string command = rest.empty() ? "run" : rest[0];
  if (RawOption* h = cl.options.Find("help"); h != nullptr) {
    h->consumed = true;
    command = "help";
  }

  std::vector<std::string> argv = {path};
  if (!rest.empty()) argv.push_back(rest[0]);
  Result<std::unique_ptr<LuaScriptWorkload>> loaded = LoadLuaScript(path, command, argv);
  if (!loaded.ok()) {
    return Fail(err, loaded.status(),
                loaded.status().code() == StatusCode::kNotFound ? kExitUsage : kExitRunFailed);
  }
  LuaScriptWorkload* script = loaded->get();
  auto setup = std::make_unique<TestSetup>(script->Info().name);
  setup->workload = std::move(loaded).value();
  setup->cfg.RegisterOptions(setup->general);
  setup->workload->RegisterOptions(setup->test_options);

  if (command == "help") {
    out << setup->test << ": " << script->Info().summary << "\n\n";
    std::string text = script->ScriptHelp();
    if (!text.empty()) out << text << "\n";
    out << FormatHelp(setup->test_options) << "\n" << FormatHelp(setup->general) << "\n";
    return kExitOk;
  }

  Result<RunExtras> extras = TakeRunExtras(cl.options);
  if (!extras.ok()) return Fail(err, extras.status(), kExitUsage);
  if (setup->general.Find("config-file") == nullptr) {
    if (RawOption* o = cl.options.Find("config-file")) o->consumed = true;
  }
  Status s = setup->general.Apply(cl.options);
  if (s.ok()) s = setup->test_options.Apply(cl.options);
  if (s.ok() && !script->DeclaresOptions()) {
    // A script without sysbench.cmdline.options (sysbench 0.5 style) takes
    // any option, as sysbench does: it reads them as globals.
    std::vector<std::pair<std::string, std::string>> undeclared;
    for (RawOption& o : cl.options.entries()) {
      if (o.consumed) continue;
      o.consumed = true;
      undeclared.emplace_back(o.name, o.has_value ? o.value : "on");
    }
    script->SetUndeclaredOptions(undeclared);
  }
  if (s.ok()) {
    s = cl.options.CheckAllConsumed("for script '" + path + "'; see 'loadcell " + path + " help'");
  }
  if (s.ok()) s = setup->cfg.Finalize(setup->general);
  if (s.ok()) {
    script->SetGeneralOptions(setup->general);
    s = setup->workload->Validate(static_cast<int>(setup->cfg.threads));
  }
  if (!s.ok()) return Fail(err, s, s.IsUsageError() ? kExitUsage : ExitCodeFor(s));

  if (command == "run") return RunAndDone(*setup, *script, *extras, run_test, out, err);
  PrepareContext ctx;
  ctx.threads = static_cast<int>(setup->cfg.threads);
  ctx.seed = static_cast<uint64_t>(setup->cfg.seed);
  if (command != "prepare" && command != "cleanup" && !script->HasCommand(command)) {
    return Fail(err,
                Status::InvalidArgument("unknown command '" + command + "' for script '" + path +
                                        "'; use prepare, run, cleanup, help or a command of "
                                        "sysbench.cmdline.commands"),
                kExitUsage);
  }
  s = script->RunCommand(command, ctx);
  if (!s.ok()) return Fail(err, s, s.IsUsageError() ? kExitUsage : kExitRunFailed);
  return kExitOk;
}

}  // namespace loadcell
