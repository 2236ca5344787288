#pragma once
// Lua scripts on the command line:
//   loadcell ./script.lua [options] [prepare|run|cleanup|help|CUSTOM]
//   loadcell --test=./script.lua [options] [COMMAND]           (0.5 form)
// A test word names a script when it is an existing file, or ends in ".lua"
// and is not a built-in test's legacy name (a missing "oltp.lua" still means
// the built-in oltp test).

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "cli/command_line.h"
#include "cli/commands/report_command.h"
#include "cli/test_setup.h"

namespace loadcell {

using RunTestFn = int (*)(TestSetup& setup, const RunExtras& extras, std::ostream& out,
                          std::ostream& err);

// The script a command line names, and the words after it.
struct ScriptCall {
  std::string path;
  std::vector<std::string> rest;
};

// The script `cl` names (as --test= or as its first word), marking --test
// consumed; nullopt when it names none.
std::optional<ScriptCall> FindScript(CommandLine& cl);

// The script at `path` made ready to run: loaded for the run command, the
// options of `options` applied (consumed) and validated; its done(), which
// sysbench runs after the end report, is the setup's after_report.
// InvalidArgument for a bad script or option; without Lua in the build,
// that it is not in this build.
Result<std::unique_ptr<TestSetup>> CreateScriptTest(const std::string& path, RawOptions& options);

// True when a test word (or --test value) names a script: an existing
// regular file, or a name ending in ".lua" whose base name is not a built-in
// test (`is_builtin(base)`), "-" (the script on standard input), or a Lua
// module name that is not a built-in test and that ScriptModulePath finds.
// A missing "oltp.lua" keeps its legacy meaning. Also in a build without
// Lua, so that such a word is told so.
bool IsScriptSpelling(const std::string& spelled, bool (*is_builtin)(const std::string& name));

// The file of Lua module `name` ("oltp_legacy.oltp" is oltp_legacy/oltp)
// found as package.searchpath finds it: the templates of LUA_PATH (";;" in
// it, or no LUA_PATH, adds ./?.lua and /usr/share/sysbench/?.lua); "" when
// none is a regular file.
std::string ScriptModulePath(const std::string& name);

// What `list` shows for Lua scripts, as a name and a summary ("SCRIPT.lua",
// ...); nullopt in a build without Lua.
struct ScriptListEntry {
  std::string name;
  std::string summary;
};
std::optional<ScriptListEntry> ScriptListing();

// sysbench mode: scripts read sysbench 1.0.20's version as sysbench.version
// and sysbench.version_string. Call before any script is loaded.
void UseSysbenchScriptVersion();

// Runs the script `cl` names with `run_test` for the run command and returns
// the exit code; nullopt when `cl` names no script.
std::optional<int> MaybeRunScript(CommandLine& cl, RunTestFn run_test, std::ostream& out,
                                  std::ostream& err);

}  // namespace loadcell
