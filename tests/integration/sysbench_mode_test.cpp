// sysbench mode (--compat=sysbench; the binary started as `sysbench`) and the
// verbosity levels of both modes, through the binary: what is printed and
// the exit codes, against sysbench 1.0.20's behaviour (docs/sysbench-mode.md).

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::ChildWatch;
using testing::Concat;
using testing::CountOf;
using testing::ProcessResult;
using testing::RunLoadcell;
using testing::Show;

constexpr const char* kBanner = "sysbench 1.0.20 (using loadcell ";

ProcessResult Sysbench(const std::vector<std::string>& args, const std::string& cwd = "") {
  ChildWatch watch;
  watch.cwd = cwd;
  watch.timeout_s = 60;
  return RunLoadcell(Concat({"--compat=sysbench"}, args), watch);
}

// `args` run in sysbench mode and in loadcell's own.
struct BothModes {
  ProcessResult sysbench;
  ProcessResult own;
};
BothModes InBothModes(const std::vector<std::string>& args) {
  return {Sysbench(args), RunLoadcell(args)};
}

bool StartsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

TEST(SysbenchMode, VersionIsSysbenchsLine) {
  const ProcessResult r = Sysbench({"--version"});
  EXPECT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_EQ(r.out, "sysbench 1.0.20\n");
}

TEST(SysbenchMode, UnknownTestIsFatalAfterTheBanner) {
  const ProcessResult r = Sysbench({"foo", "bar"});
  EXPECT_EQ(r.exit_code, 1) << Show(r);
  EXPECT_TRUE(StartsWith(r.out, kBanner)) << Show(r);
  EXPECT_NE(r.out.find("\n\nFATAL: Cannot find benchmark 'foo': no such built-in test, file or "
                       "module\n"),
            std::string::npos)
      << Show(r);
}

TEST(SysbenchMode, CommandWordsAreNotTests) {
  for (const char* word : {"run", "prepare", "cleanup", "help"}) {
    const ProcessResult r = Sysbench({word});
    EXPECT_EQ(r.exit_code, 1) << word << "\n" << Show(r);
    EXPECT_NE(r.out.find(std::string("FATAL: Cannot find benchmark '") + word + "'"),
              std::string::npos)
        << Show(r);
  }
}

TEST(SysbenchMode, AThirdWordIsUnrecognized) {
  const ProcessResult r = Sysbench({"foo", "bar", "baz"});
  EXPECT_EQ(r.exit_code, 1) << Show(r);
  EXPECT_EQ(r.out, "Unrecognized command line argument: baz\n");
}

TEST(SysbenchMode, ABuiltinTestNeedsACommand) {
  const ProcessResult r = Sysbench({"fileio"});
  EXPECT_EQ(r.exit_code, 1) << Show(r);
  EXPECT_NE(r.err.find("The 'fileio' test requires a command argument. See 'sysbench fileio help'"),
            std::string::npos)
      << Show(r);
}

TEST(SysbenchMode, UnsupportedCommandSaysSoAndExitsOne) {
  const ProcessResult r = Sysbench({"cpu", "prepare"});
  EXPECT_EQ(r.exit_code, 1) << Show(r);
  EXPECT_NE((r.out + r.err).find("'cpu' test does not implement the 'prepare' command.\n"),
            std::string::npos)
      << Show(r);
}

TEST(SysbenchMode, UsageErrorsExitOne) {
  const ProcessResult r = Sysbench({"cpu", "--cpu-max-prime=x", "run"});
  EXPECT_EQ(r.exit_code, 1) << Show(r);
  EXPECT_NE(r.out.find("FATAL: "), std::string::npos) << Show(r);
}

// The header and report exactly as sysbench lays them out: no options block,
// no seed, one percentile, two decimals.
TEST(SysbenchMode, CpuReportHasSysbenchsShape) {
  const ProcessResult r = Sysbench({"cpu", "--cpu-max-prime=1000", "--events=100", "run"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_TRUE(StartsWith(r.out, kBanner)) << Show(r);
  EXPECT_NE(r.out.find("Number of threads: 1\n"
                       "Initializing random number generator from current time\n\n\n"
                       "Prime numbers limit: 1000\n\n"
                       "Initializing worker threads...\n\nThreads started!\n\n"),
            std::string::npos)
      << Show(r);
  EXPECT_EQ(r.out.find("Options:"), std::string::npos) << Show(r);
  EXPECT_EQ(r.out.find("50th percentile"), std::string::npos) << Show(r);
  EXPECT_NE(r.out.find("\n         95th percentile: "), std::string::npos) << Show(r);
  EXPECT_NE(r.out.find("    total number of events:              100\n"), std::string::npos)
      << Show(r);
}

TEST(SysbenchMode, MutexPrintsNoSettingsLines) {
  const ProcessResult r = Sysbench({"mutex", "--mutex-locks=10", "--mutex-loops=10", "run"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_NE(r.out.find("from current time\n\n\nInitializing worker threads...\n\nThreads "
                       "started!\n\n\nGeneral statistics:"),
            std::string::npos)
      << Show(r);
}

TEST(SysbenchMode, TestHelpIsTheOptionsSection) {
  const ProcessResult r = Sysbench({"cpu", "help"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_NE(r.out.find("\n\ncpu options:\n  --cpu-max-prime=N "), std::string::npos) << Show(r);
  EXPECT_EQ(r.out.find("General options"), std::string::npos) << Show(r);
}

TEST(SysbenchMode, HelpListsSysbenchsSections) {
  const ProcessResult r = Sysbench({"--help"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  for (const char* s :
       {"Usage:\n  sysbench [options]... [testname] [command]\n",
        "Commands implemented by most tests: prepare run cleanup help\n", "General options:\n",
        "Compiled-in database drivers:\n", "Compiled-in tests:\n  fileio - ", "\n  mutex - "}) {
    EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << Show(r);
  }
  // Only the tests sysbench has built in (the suite wants a file for each).
  EXPECT_EQ(r.out.find("  oltp_read_write - "), std::string::npos) << Show(r);
}

TEST(SysbenchMode, FileioPrepareSaysWhatSysbenchSays) {
  testing::TempDir dir;
  const ProcessResult r =
      Sysbench({"fileio", "--file-num=2", "--file-total-size=2M", "prepare"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_NE(r.out.find("2 files, 1024Kb each, 2Mb total\nCreating files for the test...\n"
                       "Extra file open flags: (none)\nCreating file test_file.0\n"
                       "Creating file test_file.1\n2097152 bytes written in "),
            std::string::npos)
      << Show(r);
  EXPECT_EQ(r.err.find("prepare:"), std::string::npos) << "no progress display\n" << Show(r);
}

// Both modes: the creation lines sysbench prints, beside loadcell's own.
TEST(FileioPrepareLines, NameEachFileCreatedOrReused) {
  testing::TempDir dir;
  const std::vector<std::string> args = {"fileio", "--file-num=2", "--file-total-size=2M",
                                         "--file-dir=" + dir.path(), "prepare"};
  const ProcessResult first = RunLoadcell(args);
  ASSERT_EQ(first.exit_code, 0) << Show(first);
  EXPECT_NE(first.out.find("Extra file open flags: (none)\n"), std::string::npos) << Show(first);
  EXPECT_NE(first.out.find("Creating file test_file.0\nCreating file test_file.1\n"),
            std::string::npos)
      << Show(first);
  std::filesystem::remove(std::filesystem::path(dir.path()) / "test_file.1");
  const ProcessResult second = RunLoadcell(args);
  ASSERT_EQ(second.exit_code, 0) << Show(second);
  EXPECT_NE(second.out.find("Reusing existing file test_file.0\nCreating file test_file.1\n"),
            std::string::npos)
      << Show(second);
}

// sysbench's words for a fileio run without its files, and with files of
// another size, at --verbosity=2 (no banner): FATAL, then sysbench's advice.
TEST(SysbenchMode, FileioRunWithoutFilesOrWithShortOnesInSysbenchsWords) {
  testing::TempDir dir;
  const std::vector<std::string> args = {"fileio", "--file-num=4", "--file-total-size=32M",
                                         "--verbosity=2"};
  const ProcessResult none = Sysbench(Concat(args, {"--file-test-mode=rndrw", "run"}), dir.path());
  EXPECT_EQ(none.exit_code, 1) << Show(none);
  EXPECT_EQ(none.out + none.err,
            "FATAL: Cannot open file 'test_file.0' errno = 2 (No such file or directory)\n"
            "WARNING: Did you forget to run the prepare step?\n")
      << Show(none);
  const ProcessResult prepared =
      Sysbench(Concat(args, {"--file-total-size=1M", "prepare"}), dir.path());
  ASSERT_EQ(prepared.exit_code, 0) << Show(prepared);
  EXPECT_EQ(prepared.out + prepared.err, "") << "--verbosity=2: no prepare lines\n"
                                             << Show(prepared);
  const ProcessResult shorter =
      Sysbench(Concat(args, {"--file-test-mode=rndwr", "--events=1", "run"}), dir.path());
  EXPECT_EQ(shorter.exit_code, 1) << Show(shorter);
  EXPECT_EQ(shorter.out + shorter.err,
            "FATAL: Size of file 'test_file.0' is 256KiB, but at least 8MiB is expected.\n"
            "WARNING: Did you run 'prepare' with different --file-total-size or --file-num "
            "values?\n")
      << Show(shorter);
  const ProcessResult cleaned = Sysbench(Concat(args, {"cleanup"}), dir.path());
  EXPECT_EQ(cleaned.exit_code, 0) << Show(cleaned);
  EXPECT_EQ(cleaned.out + cleaned.err, "") << Show(cleaned);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "cleanup removed what prepare made";
}

// sysbench's prepare of files already there, with flags given out of its
// order, and its cleanup: no loadcell summary lines, no page-cache warning.
TEST(SysbenchMode, FileioReusedFilesFlagsAndCleanupAsSysbenchSaysThem) {
  testing::TempDir dir;
  const std::vector<std::string> args = {"fileio", "--file-num=1", "--file-total-size=16K"};
  ASSERT_EQ(Sysbench(Concat(args, {"prepare"}), dir.path()).exit_code, 0);
  const ProcessResult again =
      Sysbench(Concat(args, {"--file-extra-flags=dsync,sync", "prepare"}), dir.path());
  ASSERT_EQ(again.exit_code, 0) << Show(again);
  EXPECT_NE(again.out.find("Extra file open flags: sync dsync \nReusing existing file "
                           "test_file.0\nNo bytes written.\n"),
            std::string::npos)
      << Show(again);
  const ProcessResult run =
      Sysbench(Concat(args, {"--file-test-mode=rndrd", "--events=10", "run"}), dir.path());
  EXPECT_EQ(run.exit_code, 0) << Show(run);
  EXPECT_EQ(run.err.find("warning"), std::string::npos) << Show(run);
  const ProcessResult cleaned = Sysbench(Concat(args, {"cleanup"}), dir.path());
  EXPECT_EQ(cleaned.exit_code, 0) << Show(cleaned);
  EXPECT_TRUE(StartsWith(cleaned.out, kBanner)) << Show(cleaned);
  EXPECT_NE(cleaned.out.find("\nRemoving test files...\n"), std::string::npos) << Show(cleaned);
  EXPECT_EQ(cleaned.out.find("Removed"), std::string::npos) << Show(cleaned);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

// loadcell's own mode: below notices (--verbosity=2) prepare and cleanup say
// nothing; the cleanup still removes every file.
TEST(Verbosity, TwoSilencesFileioPrepareAndCleanup) {
  testing::TempDir dir;
  const std::vector<std::string> args = {"fileio", "--file-num=2", "--file-total-size=2M",
                                         "--file-dir=" + dir.path(), "--verbosity=2"};
  const ProcessResult prepared = RunLoadcell(Concat(args, {"prepare"}));
  ASSERT_EQ(prepared.exit_code, 0) << Show(prepared);
  EXPECT_EQ(prepared.out + prepared.err, "") << Show(prepared);
  const ProcessResult cleaned = RunLoadcell(Concat(args, {"cleanup"}));
  EXPECT_EQ(cleaned.exit_code, 0) << Show(cleaned);
  EXPECT_EQ(cleaned.out + cleaned.err, "") << Show(cleaned);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

// Verbosity, in loadcell's own mode: below 3 no report, below 2 no warning.
TEST(Verbosity, ZeroPrintsNoReport) {
  const ProcessResult r = RunLoadcell({"cpu", "--events=10", "--verbosity=0", "run"});
  EXPECT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_EQ(r.out, "");
}

TEST(Verbosity, OneSilencesWarningsTwoKeepsThem) {
  const std::vector<std::string> small = {"memory", "--memory-block-size=4K",
                                          "--memory-total-size=4M", "run"};
  const ProcessResult quiet = RunLoadcell(Concat(small, {"--verbosity=1"}));
  EXPECT_EQ(quiet.exit_code, 0) << Show(quiet);
  EXPECT_EQ(quiet.err.find("warning"), std::string::npos) << Show(quiet);
  EXPECT_EQ(quiet.out, "");
  const ProcessResult warned = RunLoadcell(Concat(small, {"--verbosity=2"}));
  EXPECT_EQ(warned.exit_code, 0) << Show(warned);
  EXPECT_NE(warned.err.find("warning"), std::string::npos) << Show(warned);
  EXPECT_EQ(warned.out, "");
}

TEST(Verbosity, ErrorsAreAlwaysPrinted) {
  const ProcessResult r = RunLoadcell({"cpu", "--cpu-max-prime=x", "--verbosity=0", "run"});
  EXPECT_EQ(r.exit_code, 2) << Show(r);
  EXPECT_NE(r.err.find("loadcell: error: "), std::string::npos) << Show(r);
}

// As sysbench: the memory test runs total-size / block-size events, --events
// notwithstanding (1G of 4K blocks: 262144).
TEST(MemoryEvents, TotalSizeDecidesNotEvents) {
  const ProcessResult r =
      RunLoadcell({"memory", "--memory-total-size=64M", "--memory-block-size=4K", "--events=1",
                   "--format=json", "run"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_NE(r.out.find("\"events\": 16384"), std::string::npos) << Show(r);
}

// --mysql-dry-run: no server at all, every statement succeeds with no rows.
TEST(MysqlDryRun, AScriptRunsWithoutAServer) {
  testing::TempDir dir;
  const std::string script = dir.path() + "/q.lua";
  std::ofstream(script) << "function thread_init() drv = sysbench.sql.driver(); "
                           "con = drv:connect() end\n"
                           "function event() con:query('SELECT 1') end\n";
  const ProcessResult r =
      Sysbench({script, "--db-driver=mysql", "--mysql-dry-run", "--mysql-host=127.0.0.1",
                "--mysql-port=1", "--events=100", "run"});
  EXPECT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_NE(r.out.find("    total number of events:              100\n"), std::string::npos)
      << Show(r);
}

// Both modes, as sysbench's cmd_run.t: a script's own thread_run() replaces
// the event loop (it runs once and calls no event()).
TEST(ScriptThreadRun, ReplacesTheEventLoopInBothModes) {
  testing::TempDir dir;
  const std::string script =
      dir.Write("cmd_run.lua",
                "function thread_run()\n  print('function thread_run()')\nend\n"
                "function event()\n  print('event')\nend\n");
  const BothModes r = InBothModes({"--verbosity=0", script, "run"});
  for (const ProcessResult* p : {&r.sysbench, &r.own}) {
    EXPECT_EQ(p->exit_code, 0) << Show(*p);
    EXPECT_EQ(p->out, "function thread_run()\n") << Show(*p);
  }
}

// Both modes, as sysbench's cmdline.t: what a script's worker interpreters
// print while they start (main chunk, thread_init()) comes before "Threads
// started!".
TEST(ScriptThreadStart, ThreadInitPrintsBeforeThreadsStarted) {
  testing::TempDir dir;
  const std::string script = dir.Write("ti.lua",
                                       "function thread_init() print('in thread_init') end\n"
                                       "function event() print('in event') end\n");
  for (const bool sysbench : {true, false}) {
    const std::vector<std::string> args = {script, "--events=1", "run"};
    const ProcessResult r = sysbench ? Sysbench(args) : RunLoadcell(args);
    EXPECT_EQ(r.exit_code, 0) << Show(r);
    EXPECT_NE(r.out.find("Initializing worker threads...\n\nin thread_init\nThreads started!\n\n"
                         "in event\n"),
              std::string::npos)
        << Show(r);
  }
}

// sysbench's words for a script's missing or unknown command, its unknown
// options and its option values it cannot read: exit 1.
TEST(SysbenchMode, ScriptCommandAndOptionErrorsInSysbenchsWords) {
  testing::TempDir dir;
  const std::string script =
      dir.Write("cl.lua",
                "sysbench.cmdline.options = {bool_opt = {'Flag', false}}\n"
                "function event() end\n"
                "sysbench.cmdline.commands = {cmd2 = {function() print('cmd2 ' .. "
                "sysbench.tid) end, sysbench.cmdline.PARALLEL_COMMAND}}\n");
  const struct {
    std::vector<std::string> args;
    std::string line;
  } kCases[] = {
      {{script, "prepare"}, "'cl.lua' test does not implement the 'prepare' command.\n"},
      {{script, "cleanup"}, "'cl.lua' test does not implement the 'cleanup' command.\n"},
      {{script, "cmd3"}, "\nUnknown command: cmd3\n"},
      {{"--non-existing-option=3", script, "prepare"},
       "\ninvalid option: --non-existing-option=3\n"},
      {{script, "--bool-opt=5", "prepare"}, "\ninvalid option: --bool-opt=5\n"},
      {{"fileio", "--invalid-option", "prepare"}, "\ninvalid option: --invalid-option\n"},
  };
  for (const auto& c : kCases) {
    const ProcessResult r = Sysbench(c.args);
    EXPECT_EQ(r.exit_code, 1) << Show(r);
    EXPECT_TRUE(r.out.find(c.line) != std::string::npos || r.err.find(c.line) != std::string::npos)
        << c.line << Show(r);
    EXPECT_EQ(r.out.find("FATAL"), std::string::npos) << Show(r);
  }
  // A parallel command starts its threads as sysbench says.
  const ProcessResult par = Sysbench({"--threads=2", script, "cmd2"});
  EXPECT_EQ(par.exit_code, 0) << Show(par);
  EXPECT_NE(par.out.find("\n\nInitializing worker threads...\n\ncmd2 "), std::string::npos)
      << Show(par);
  EXPECT_EQ(CountOf(par.out, "cmd2 "), 2u) << Show(par);
}

// sysbench.cmdline.argv is the command line as given, argv[0] the program;
// a malformed options table gets sysbench's words.
TEST(SysbenchMode, ScriptArgvAndMalformedOptionsTable) {
  testing::TempDir dir;
  const std::string script = dir.Write("argv.lua",
                                       "local a = sysbench.cmdline.argv\n"
                                       "print(a[0] .. ' ' .. table.concat(a, ' ') .. ' ' .. "
                                       "tostring(sysbench.cmdline.command))\n");
  const ProcessResult r = Sysbench({"--opt1", "--opt2=val", script});
  EXPECT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_NE(r.out.find("\nsysbench --opt1 --opt2=val " + script + " nil\n"), std::string::npos)
      << Show(r);
  const std::string bad =
      dir.Write("bad.lua", "sysbench.cmdline.options = {{}}\nfunction help() end\n");
  const ProcessResult m = Sysbench({bad, "help"});
  EXPECT_EQ(m.exit_code, 1) << Show(m);
  EXPECT_NE(m.out.find("FATAL: `sysbench.cmdline.read_cmdline_options' function failed: [string "
                       "\"sysbench.cmdline.lua\"]:0: wrong table structure in "
                       "sysbench.cmdline.options\n"),
            std::string::npos)
      << Show(m);
}

// sysbench's opt_rate.t: a rate the threads cannot keep up with fills
// sysbench's event queue (exit 1); loadcell's own mode refuses a rate above
// its bound as bad usage (exit 2).
TEST(SysbenchMode, AnUnreachableRateFillsTheEventQueue) {
  const BothModes r = InBothModes({"--rate=2000000000", "cpu", "run", "--verbosity=1"});
  const ProcessResult& sb = r.sysbench;
  EXPECT_EQ(sb.exit_code, 1) << Show(sb);
  EXPECT_EQ(sb.out,
            "FATAL: The event queue is full. This means the worker threads are unable to keep up "
            "with the specified event generation rate\n")
      << Show(sb);
  const ProcessResult& own = r.own;
  EXPECT_EQ(own.exit_code, 2) << Show(own);
  EXPECT_NE(own.err.find("--rate=2000000000: must be 0 (no limit) or between"), std::string::npos)
      << Show(own);
}

// sysbench's drivers.t: a --db-driver that names no driver is told when the
// script asks for the driver, and the hook that asked fails in sysbench's
// words; loadcell's own mode refuses it before the script runs (exit 2).
TEST(SysbenchMode, AnUnknownDriverFailsWhereTheScriptAsksForIt) {
  testing::TempDir dir;
  const std::string script =
      dir.Write("drv.lua",
                "function cleanup()\n  local drv = sysbench.sql.driver()\nend\n"
                "function event() end\n");
  const BothModes r = InBothModes({"--db-driver=nonexisting", script, "cleanup"});
  const ProcessResult& sb = r.sysbench;
  EXPECT_EQ(sb.exit_code, 1) << Show(sb);
  EXPECT_NE(sb.out.find("\n\nFATAL: invalid database driver name: 'nonexisting'\n"
                        "FATAL: `cleanup' function failed: " +
                        script + ":2: failed to initialize the DB driver\n"),
            std::string::npos)
      << Show(sb);
  const ProcessResult& own = r.own;
  EXPECT_EQ(own.exit_code, 2) << Show(own);
  EXPECT_NE(own.err.find("--db-driver=nonexisting: unknown database driver"), std::string::npos)
      << Show(own);
}

// sysbench's test_memory.t and test_fileio.t: the option values sysbench
// refuses in words of its own (exit 1); loadcell's own mode keeps its words.
TEST(SysbenchMode, RefusedTestOptionsInSysbenchsWords) {
  const struct {
    std::vector<std::string> args;
    std::string line;
  } kCases[] = {
      {{"memory", "--memory-block-size=-1", "run"},
       "FATAL: Invalid value for memory-block-size: -1\n"},
      {{"memory", "--memory-block-size=0", "run"},
       "FATAL: Invalid value for memory-block-size: 0\n"},
      {{"memory", "--memory-block-size=9", "run"},
       "FATAL: Invalid value for memory-block-size: 9\n"},
      {{"fileio", "--file-test-mode=foo", "run"}, "FATAL: Invalid IO operations mode: foo.\n"},
      {{"fileio", "--file-num=1", "run"}, "FATAL: Missing required argument: --file-test-mode\n"},
  };
  testing::TempDir dir;
  for (const auto& c : kCases) {
    const BothModes r =
        InBothModes(c.args[0] == "fileio" ? Concat(c.args, {"--file-dir=" + dir.path()}) : c.args);
    EXPECT_EQ(r.sysbench.exit_code, 1) << Show(r.sysbench);
    EXPECT_NE(r.sysbench.out.find("\n\n" + c.line), std::string::npos)
        << c.line << Show(r.sysbench);
    EXPECT_NE(r.own.exit_code, 0) << Show(r.own);
    EXPECT_NE(r.own.err.find("loadcell: error: "), std::string::npos) << Show(r.own);
  }
}

}  // namespace
}  // namespace loadcell
