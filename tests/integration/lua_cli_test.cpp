// Lua scripts through the real binary: how a script is named on the command
// line, help, custom commands, and what a failing script prints and returns.

#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using loadcell::testing::ProcessResult;
using loadcell::testing::RunLoadcell;
using loadcell::testing::Show;

class LuaCli : public ::testing::Test {
 protected:
  std::string Write(const std::string& name, const std::string& text) {
    return tmp_.Write(name, text);
  }
  testing::TempDir tmp_;
  const std::string dir_ = tmp_.path();
};

TEST_F(LuaCli, EmptyEventRunsWithEventLimitAndThreads) {
  const std::string s = Write("empty.lua", "function event()\nend\n");
  auto r = RunLoadcell({s, "--threads=2", "--events=1000", "run"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_NE(r.out.find("total number of events:              1000"), std::string::npos) << r.out;
  // 0.5 form: --test=path of an existing script; run is the default.
  auto legacy = RunLoadcell({"--test=" + s, "--max-requests=10"});
  ASSERT_EQ(legacy.exit_code, 0) << Show(legacy);
  EXPECT_NE(legacy.out.find("total number of events:              10\n"), std::string::npos);
}

TEST(LuaList, ListNamesScripts) {
  ProcessResult r = RunLoadcell({"list"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_NE(("\n" + r.out).find("\nSCRIPT.lua "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("sysbench 1.0 API"), std::string::npos) << r.out;
}

TEST_F(LuaCli, RuntimeErrorPrintsWhatWasMeasuredAndExits1) {
  const std::string s = Write("bad.lua",
                              "local n = 0\nfunction event()\n  n = n + 1\n"
                              "  if n == 5 then error('boom') end\nend\n");
  auto r = RunLoadcell({s, "--events=100"});
  EXPECT_EQ(r.exit_code, 1) << Show(r);
  EXPECT_NE(r.err.find(s + ":4: boom"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("total number of events:              4"), std::string::npos) << r.out;
}

TEST_F(LuaCli, SyntaxErrorNamesScriptAndLineAndExits1) {
  const std::string s = Write("syntax.lua", "function event()\n  if then\nend\n");
  auto r = RunLoadcell({s, "run"});
  EXPECT_EQ(r.exit_code, 1) << Show(r);
  EXPECT_NE(r.err.find("syntax error in script: " + s + ":2:"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("Threads started"), std::string::npos);
}

TEST_F(LuaCli, ThreadInitErrorStopsBeforeTheRun) {
  const std::string s =
      Write("ti.lua", "function event() end\nfunction thread_init()\n  error('no db')\nend\n");
  auto r = RunLoadcell({s, "--threads=2", "--time=5"});
  EXPECT_EQ(r.exit_code, 1) << Show(r);
  EXPECT_NE(r.err.find(s + ":3: no db"), std::string::npos) << r.err;
  // No event ran: no report.
  EXPECT_EQ(r.out.find("General statistics"), std::string::npos) << r.out;
}

TEST_F(LuaCli, NoEventFunctionIsAClearError) {
  const std::string s = Write("noevent.lua", "x = 1\n");
  auto r = RunLoadcell({s, "--events=1"});
  // A failed run, not a usage error: exit 1 (sysbench exits 1 too).
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("cannot find the event() function in " + s), std::string::npos) << r.err;
}

TEST_F(LuaCli, HelpListsScriptOptionsAndCallsHelp) {
  const std::string s = Write("opts.lua",
                              "sysbench.cmdline.options = {rows_per_call = {'Rows per call', 4}}\n"
                              "function help() print('custom help text') end\n"
                              "function event() end\n");
  auto r = RunLoadcell({s, "help"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_NE(r.out.find("--rows-per-call=N"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Rows per call"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("custom help text"), std::string::npos) << r.out;
  auto unknown = RunLoadcell({s, "--rows-per-cal=3"});
  EXPECT_EQ(unknown.exit_code, 2) << Show(unknown);
}

TEST_F(LuaCli, CustomCommand) {
  const std::string s = Write("cmd.lua",
                              "function event() end\n"
                              "sysbench.cmdline.commands = {greet = {function() "
                              "print('hi from ' .. sysbench.cmdline.command) end}}\n");
  auto r = RunLoadcell({s, "greet"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_EQ(r.out, "hi from greet\n");
  auto bad = RunLoadcell({s, "gret"});
  EXPECT_EQ(bad.exit_code, 2) << Show(bad);
  EXPECT_NE(bad.err.find("unknown command 'gret'"), std::string::npos) << bad.err;
}

// A sysbench 0.5 style script (tests/integration/scripts/oltp_legacy_05.lua,
// options as globals, db_* functions) through prepare, run and cleanup on
// SQLite, with the 0.5 spelling of the command line.
TEST_F(LuaCli, Sysbench05ScriptPrepareRunCleanup) {
  const std::string script =
      std::string(LOADCELL_SOURCE_DIR) + "/tests/integration/scripts/oltp_legacy_05.lua";
  const std::vector<std::string> common = {"--test=" + script, "--db-driver=sqlite",
                                           "--sqlite-db=" + dir_ + "/legacy.db",
                                           "--oltp-table-size=300", "--oltp-tables-count=2"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = common;
    args.insert(args.end(), extra.begin(), extra.end());
    return RunLoadcell(args);
  };
  auto prep = with({"prepare"});
  ASSERT_EQ(prep.exit_code, 0) << Show(prep);
  EXPECT_NE(prep.out.find("Creating table 'legacy2'"), std::string::npos) << prep.out;
  auto run = with({"--max-requests=50", "--oltp-point-selects=3", "run"});
  ASSERT_EQ(run.exit_code, 0) << Show(run);
  EXPECT_NE(run.out.find("thread 0 checked 50 prepared point selects"), std::string::npos)
      << run.out;
  // Per event: 3 point selects + 1 sum + 1 prepared select = 5 reads; one
  // prepared update; BEGIN and COMMIT.
  EXPECT_NE(run.out.find("read:                            250\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("write:                           50\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("other:                           100\n"), std::string::npos) << run.out;
  auto skip = with({"--max-requests=5", "--oltp-skip-trx=on", "run"});
  ASSERT_EQ(skip.exit_code, 0) << Show(skip);
  EXPECT_NE(skip.out.find("other:                           0\n"), std::string::npos) << skip.out;
  auto clean = with({"cleanup"});
  ASSERT_EQ(clean.exit_code, 0) << Show(clean);
  EXPECT_NE(clean.out.find("Dropping table 'legacy1'"), std::string::npos) << clean.out;
  // The tables are gone: running again fails with the SQL error and its line.
  auto gone = with({"--max-requests=1", "run"});
  EXPECT_NE(gone.exit_code, 0) << Show(gone);
  EXPECT_NE(gone.err.find("oltp_legacy_05.lua:"), std::string::npos) << gone.err;
}

TEST_F(LuaCli, MissingScriptFileIsAUsageError) {
  auto r = RunLoadcell({dir_ + "/missing.lua", "run"});
  EXPECT_EQ(r.exit_code, 2) << Show(r);
  EXPECT_NE(r.err.find("cannot open script"), std::string::npos) << r.err;
}

// A malformed sysbench.cmdline.options or commands table is one line naming
// the script, the table (or entry) and the problem, exit 2; each row is one
// way to get the definitions wrong.
struct MalformedDefinition {
  const char* name;
  const char* script;  // before "function event() end"
  const char* problem;
};

const MalformedDefinition kMalformedDefinitions[] = {
    {"options_not_a_table", "sysbench.cmdline.options = 5",
     "sysbench.cmdline.options: must be a table of name = {\"description\", default}, got a "
     "number"},
    {"option_not_a_table", "sysbench.cmdline.options = {rows = 5}",
     "sysbench.cmdline.options: entry 'rows' must be name = {\"description\", default}"},
    {"option_without_a_name", "sysbench.cmdline.options = {{'rows', 1}}",
     "sysbench.cmdline.options: entry with a number key must be"},
    {"option_description_not_a_string", "sysbench.cmdline.options = {rows = {{}, 1}}",
     "sysbench.cmdline.options.rows: the description (the first item) must be a string"},
    {"option_default_a_function", "sysbench.cmdline.options = {rows = {'d', print}}",
     "sysbench.cmdline.options.rows: the default (the second item) must be a boolean, number, "
     "string or list, got a function"},
    {"commands_not_a_table", "sysbench.cmdline.commands = 7",
     "sysbench.cmdline.commands: must be a table of name = function or {function, parallel}, got "
     "a number"},
    {"command_not_a_function", "sysbench.cmdline.commands = {go = 5}",
     "sysbench.cmdline.commands: entry 'go' must be name = function or {function, parallel}"},
    {"command_parallel_not_a_boolean", "sysbench.cmdline.commands = {go = {print, 'yes'}}",
     "sysbench.cmdline.commands: entry 'go' must be"},
};

void PrintTo(const MalformedDefinition& d, std::ostream* os) { *os << d.name; }

class LuaMalformedDefinition : public ::testing::TestWithParam<MalformedDefinition> {};

TEST_P(LuaMalformedDefinition, IsOneLineNamingScriptAndProblemExit2) {
  testing::TempDir tmp;
  const std::string s =
      tmp.Write("bad.lua", std::string(GetParam().script) + "\nfunction event() end\n");
  for (const char* command : {"run", "prepare", "help"}) {
    auto r = RunLoadcell({s, "--events=1", command});
    EXPECT_EQ(r.exit_code, 2) << command << ": " << Show(r);
    const std::string line = "loadcell: error: script '" + s + "': " + GetParam().problem;
    EXPECT_EQ(r.err.rfind(line, 0), 0u) << Show(r);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << Show(r);
  }
}

INSTANTIATE_TEST_SUITE_P(Tables, LuaMalformedDefinition, ::testing::ValuesIn(kMalformedDefinitions),
                         [](const auto& info) { return std::string(info.param.name); });

// An error object without a location still names the script and the hook.
TEST_F(LuaCli, HookErrorWithoutALocationNamesTheScript) {
  const std::string s = Write("obj.lua",
                              "function init() error({code = 1}) end\n"
                              "function event() end\n");
  auto r = RunLoadcell({s, "--events=1"});
  EXPECT_EQ(r.exit_code, 1) << Show(r);
  EXPECT_NE(r.err.find("script error in init(): error object (a table) (script '" + s + "')"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace loadcell
