// The ranks of an MPI run agree on what they run before they run it, and
// no step before the start waits forever: ranks that would run different
// things are refused in one line (exit 2), a rank's setup error is one line
// naming it with the exit code a run of one process gives, and a rank that
// never reaches MPI's start cannot hold the others. Through the real
// binary under mpirun (testing/mpirun.h); `timeout` (exit 124) would end a
// hang, and every case asserts that it did not come to that.

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "testing/mpirun.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::CountOf;
using testing::LoadcellBinary;
using testing::MpirunCommand;
using testing::ProcessResult;
using testing::RunCommand;
using testing::Show;

// Runs `command` and measures its wall time.
ProcessResult RunTimed(const std::vector<std::string>& command, double& seconds) {
  testing::ChildWatch watch;
  watch.timeout_s = 120;
  const auto t0 = std::chrono::steady_clock::now();
  ProcessResult r = RunCommand(command, watch);
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

// An MPMD job: rank 0 runs loadcell with `rank0`, rank 1 with `rank1`.
std::vector<std::string> TwoRanks(const std::vector<std::string>& rank0,
                                  const std::vector<std::string>& rank1) {
  std::vector<std::string> cmd = MpirunCommand(1, rank0, /*timeout_s=*/90);
  testing::AddLoadcellRank(cmd, rank1);
  return cmd;
}

// The lines of `text` that have any of `marks` in them.
std::vector<std::string> LinesWith(const std::string& text, const std::vector<std::string>& marks) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(at, end - at);
    for (const std::string& mark : marks) {
      if (line.find(mark) != std::string::npos) {
        out.push_back(line);
        break;
      }
    }
    at = end + 1;
  }
  return out;
}

// The lines of `err` that loadcell wrote as errors.
std::vector<std::string> ErrorLines(const std::string& err) {
  return LinesWith(err, {"loadcell: error: "});
}

TEST(MpiVoteTest, RanksThatWouldRunDifferentThingsAreRefusedInOneLine) {
  struct Case {
    const char* name;
    std::vector<std::string> rank0;
    std::vector<std::string> rank1;
    std::string line;  // the one error line, after "loadcell: error: "
  };
  std::vector<Case> cases = {
      {"another test",
       {"cpu", "--time=2"},
       {"memory", "--time=2"},
       "rank 1 runs memory where rank 0 runs cpu"},
      {"no time limit",
       {"cpu", "--time=2"},
       {"cpu", "--time=0"},
       "rank 1 has no time or event limit (--time=0, no --events) where rank 0 has --time=2: "
       "the run would never end; give every rank the same limit"},
      {"another time",
       {"cpu", "--time=2"},
       {"cpu", "--time=3"},
       "--time differs: rank 0 has 2, rank 1 has 3"},
      {"events instead of time",
       {"cpu", "--time=2"},
       {"cpu", "--events=100"},
       "--time differs: rank 0 has 2, rank 1 has none"},
      {"another event",
       {"cpu", "--cpu-max-prime=2000", "--time=2"},
       {"cpu", "--cpu-max-prime=3000", "--time=2"},
       "--cpu-max-prime differs: rank 0 has 2000, rank 1 has 3000"},
      {"another rate",
       {"cpu", "--time=2", "--rate=100"},
       {"cpu", "--time=2"},
       "--rate differs: rank 0 has 100, rank 1 has none"},
      {"mixed limits stay refused",
       {"cpu", "--cpu-max-prime=2000", "--time=2", "--mpi-mixed=on"},
       {"cpu", "--cpu-max-prime=3000", "--time=3", "--mpi-mixed=on"},
       "--time differs: rank 0 has 2, rank 1 has 3"},
  };
  testing::TempDir files;  // "another command": nothing is made in it
  const std::vector<std::string> fileio = {"fileio",
                                           "--file-dir=" + files.path(),
                                           "--file-num=1",
                                           "--file-total-size=1M",
                                           "--file-test-mode=seqrd",
                                           "--time=2"};
  cases.push_back({"another command", testing::Concat(fileio, {"run"}),
                   testing::Concat(fileio, {"prepare"}),
                   "rank 1 runs fileio prepare where rank 0 runs fileio run"});
  for (const Case& c : cases) {
    double seconds = 0;
    const ProcessResult r = RunTimed(TwoRanks(c.rank0, c.rank1), seconds);
    EXPECT_EQ(r.exit_code, 2) << c.name << "\n" << Show(r);
    const std::vector<std::string> lines = ErrorLines(r.err);
    ASSERT_EQ(lines.size(), 1u) << c.name << "\n" << Show(r);
    EXPECT_EQ(lines[0], "loadcell: error: " + c.line) << c.name;
    EXPECT_EQ(CountOf(r.out, "General statistics"), 0u) << c.name << "\n" << Show(r);
    // Refused once MPI started, before any workload's init: a few seconds
    // at most, however loaded the machine (the timeout is 90 s).
    EXPECT_LT(seconds, 45) << c.name << "\n" << Show(r);
  }
  EXPECT_TRUE(std::filesystem::is_empty(files.path()));
}

// What changes only the report, the seed or a rank's own threads may differ;
// --mpi-mixed=on lets the test options differ too.
TEST(MpiVoteTest, WhatDoesNotChangeTheEventsMayDiffer) {
  struct Case {
    const char* name;
    std::vector<std::string> rank0;
    std::vector<std::string> rank1;
  };
  const std::vector<Case> cases = {
      {"report options",
       {"cpu", "--cpu-max-prime=2000", "--time=1", "--format=json"},
       {"cpu", "--cpu-max-prime=2000", "--time=1", "--report-interval=1", "--verbosity=2",
        "--rand-seed=5", "--threads=2", "--percentile=99", "--mpi-timeout=10"}},
      {"mixed options",
       {"cpu", "--cpu-max-prime=2000", "--time=1", "--format=json", "--mpi-mixed=on"},
       {"cpu", "--cpu-max-prime=3000", "--time=1", "--mpi-mixed", "--threads=2"}},
  };
  for (const Case& c : cases) {
    double seconds = 0;
    const ProcessResult r = RunTimed(TwoRanks(c.rank0, c.rank1), seconds);
    ASSERT_EQ(r.exit_code, 0) << c.name << "\n" << Show(r);
    const nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
    ASSERT_FALSE(doc.is_discarded()) << c.name << "\n" << Show(r);
    EXPECT_EQ(doc["cluster"]["ranks"].size(), 2u) << c.name << "\n" << Show(r);
    EXPECT_EQ(doc["threads"].size(), 3u) << c.name << "\n" << Show(r);
  }
}

// The error line of a run of one process (after "loadcell: error: ") and
// its exit code.
std::pair<std::string, int> SingleRunError(const std::vector<std::string>& args) {
  const ProcessResult single = testing::RunLoadcell(args);
  const std::vector<std::string> lines = ErrorLines(single.err);
  if (lines.size() != 1) return {"(not one error line) " + Show(single), single.exit_code};
  return {lines[0].substr(lines[0].find("error: ") + 7), single.exit_code};
}

// A rank whose setup fails before MPI starts (its --file-dir cannot be
// used, its sub-folder's place taken by a file, an option it does not know)
// still joins, so that no rank goes ahead (rank 0 prepares or runs nothing)
// and the job says it in one line, rank 0's, naming the rank, with the
// exit code of a run of one process with rank 1's folder and options (and
// that run's error where it is the same).
TEST(MpiVoteTest, ARanksSetupErrorIsOneLineNamingItAndNoRankGoesAhead) {
  const std::vector<std::string> files = {"fileio", "--file-num=2", "--file-total-size=2M",
                                          "--file-block-size=4K"};
  struct Case {
    const char* name;
    // '@' is the test's folder (testing::Expand).
    std::vector<std::string> rank0;
    std::vector<std::string> rank1;
    std::vector<std::string> single;  // the run of one process
    std::string why;                  // "" when the single run's error is the line
  };
  const std::vector<Case> cases = {
      {"an unusable folder", testing::Concat(files, {"--file-dir=@", "prepare"}),
       testing::Concat(files, {"--file-dir=@/no-such-folder", "prepare"}),
       testing::Concat(files, {"--file-dir=@/no-such-folder", "prepare"}), ""},
      {"a file in its sub-folder's place", testing::Concat(files, {"--file-dir=@", "prepare"}),
       testing::Concat(files, {"--file-dir=@", "prepare"}),
       testing::Concat(files, {"--file-dir=@/rank1", "prepare"}),
       "--file-dir=@: rank1, this rank's sub-folder (--mpi-files=per-rank), is not a directory"},
      {"an unknown option",
       {"cpu", "--time=1"},
       {"cpu", "--time=1", "--no-such-option"},
       {"cpu", "--time=1", "--no-such-option"},
       ""},
  };
  for (const Case& c : cases) {
    const testing::TempDir dir;
    const bool file_in_place = c.why.find("rank1, ") != std::string::npos;
    if (file_in_place) dir.Write("rank1", "not a folder");
    const auto [single_why, code] = SingleRunError(testing::Expand(c.single, dir.path()));
    ASSERT_EQ(code, 2) << c.name << ": " << single_why;
    const std::string why = c.why.empty() ? single_why : testing::Expand(c.why, dir.path());
    double seconds = 0;
    const ProcessResult r = RunTimed(
        TwoRanks(testing::Expand(c.rank0, dir.path()), testing::Expand(c.rank1, dir.path())),
        seconds);
    EXPECT_EQ(r.exit_code, code) << c.name << "\n" << Show(r);
    const std::vector<std::string> lines = ErrorLines(r.err);
    ASSERT_EQ(lines.size(), 1u) << c.name << "\n" << Show(r);
    EXPECT_EQ(lines[0].find("loadcell: error: rank 1 ("), 0u) << c.name << ": " << lines[0];
    EXPECT_EQ(lines[0].substr(lines[0].find("): ") + 3), why) << c.name << ": " << lines[0];
    // Rank 0 did not go ahead: no report, nothing in its folder.
    EXPECT_EQ(CountOf(r.out, "General statistics"), 0u) << c.name << "\n" << Show(r);
    EXPECT_FALSE(std::filesystem::exists(dir / "rank0")) << c.name << "\n" << Show(r);
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()),
                            std::filesystem::directory_iterator()),
              file_in_place ? 1 : 0)
        << c.name << "\n"
        << Show(r);
    EXPECT_LT(seconds, 45) << c.name << "\n" << Show(r);
  }
}

// The lines of `r` that end a run: loadcell's errors, sysbench mode's
// FATAL and "invalid option" lines (on stdout, as sysbench prints them).
size_t EndingLines(const ProcessResult& r) {
  const std::vector<std::string> marks = {"loadcell: error: ", "FATAL: ", "invalid option: "};
  return LinesWith(r.out, marks).size() + LinesWith(r.err, marks).size();
}

// An error found before MPI starts (a test or command not known, an option
// that cannot be read, in loadcell's, sysbench's and SQLIO's command lines)
// is one line for the job, rank 0's, saying that every rank found it (or
// naming the one rank that did), with the exit code a run of one process
// gives; --mpi=off leaves each rank to say its own.
TEST(MpiVoteTest, AnErrorFoundBeforeMpiStartsIsOneLineForTheJob) {
  struct Case {
    const char* name;
    std::vector<std::string> rank0;
    std::vector<std::string> rank1;  // empty: rank0's
    std::string line;                // the job's one line; "" for one line per rank
    int code;
  };
  const std::vector<Case> cases = {
      {"an unknown test",
       {"nosuchtest", "run"},
       {},
       "loadcell: error: every rank: unknown test 'nosuchtest'; run 'loadcell list' to see the "
       "tests",
       2},
      {"an option that cannot be read",
       {"cpu", "--threads=x", "run"},
       {},
       "loadcell: error: every rank: --threads=x: not an integer; use a whole number, "
       "optionally with a K, M or G suffix",
       2},
      {"an unknown command",
       {"cpu", "--time=1", "runn"},
       {},
       "loadcell: error: every rank: unknown command 'runn' for test 'cpu'; use prepare, run, "
       "cleanup or help (did you mean 'run'?)",
       2},
      {"sysbench's form",
       {"--test=nosuch", "run"},
       {},
       "loadcell: error: every rank: unknown test 'nosuch'; run 'loadcell list' to see the tests",
       2},
      {"sysbench mode",
       {"--compat=sysbench", "cpu", "--nosuch=1", "run"},
       {},
       "FATAL: every rank: invalid option: --nosuch=1",
       1},
      {"SQLIO's command line",
       {"sqlio", "-kQ"},
       {},
       "loadcell: error: every rank: sqlio: '-kQ': -k takes R (read) or W (write): -kR or -kW",
       2},
      {"one rank's unknown test",
       {"cpu", "--time=1", "run"},
       {"nosuchtest", "run"},
       "loadcell: error: rank 1 (",
       2},
      {"--mpi=off", {"cpu", "--mpi=off", "--time=1", "runn"}, {}, "", 2},
  };
  for (const Case& c : cases) {
    const std::vector<std::string>& failing = c.rank1.empty() ? c.rank0 : c.rank1;
    const ProcessResult single = testing::RunLoadcell(failing);
    ASSERT_EQ(single.exit_code, c.code) << c.name << "\n" << Show(single);
    ASSERT_EQ(EndingLines(single), 1u) << c.name << "\n" << Show(single);
    double seconds = 0;
    const ProcessResult r =
        RunTimed(TwoRanks(c.rank0, c.rank1.empty() ? c.rank0 : c.rank1), seconds);
    EXPECT_EQ(r.exit_code, c.code) << c.name << "\n" << Show(r);
    if (c.line.empty()) {
      // Each rank its own line, the one a run of one process prints.
      EXPECT_EQ(EndingLines(r), 2u) << c.name << "\n" << Show(r);
      EXPECT_EQ(CountOf(r.err, single.err), 2u) << c.name << "\n" << Show(r);
    } else if (c.code == 1) {
      // sysbench mode: on stdout, as sysbench prints its errors.
      EXPECT_EQ(CountOf(r.out, c.line), 1u) << c.name << "\n" << Show(r);
    } else {
      EXPECT_EQ(EndingLines(r), 1u) << c.name << "\n" << Show(r);
      EXPECT_EQ(CountOf(r.err, c.line), 1u) << c.name << "\n" << Show(r);
    }
    EXPECT_EQ(CountOf(r.out, "General statistics"), 0u) << c.name << "\n" << Show(r);
    EXPECT_LT(seconds, 45) << c.name << "\n" << Show(r);
  }
}

// A rank whose files are gone (its sub-folder removed after the prepare)
// cannot start: every rank ends before any event, with one line, rank 0's,
// naming the rank and its folder, and the exit code a run of one process
// on that folder gives.
TEST(MpiVoteTest, ARankThatCannotStartIsOneLineWithTheSingleRunsExitCode) {
  const testing::TempDir dir;
  const std::vector<std::string> files = {"fileio", "--file-dir=" + dir.path(), "--file-num=2",
                                          "--file-total-size=2M", "--file-block-size=4K"};
  double seconds = 0;
  std::vector<std::string> prepare = files;
  prepare.push_back("prepare");
  const ProcessResult prepared = RunTimed(MpirunCommand(2, prepare, 90), seconds);
  ASSERT_EQ(prepared.exit_code, 0) << Show(prepared);
  std::filesystem::remove_all(dir / "rank1");
  std::vector<std::string> run = files;
  run.insert(run.end(), {"--file-test-mode=rndrd", "--time=2", "run"});
  std::vector<std::string> alone = run;
  alone[1] = "--file-dir=" + (dir / "rank1");
  const auto [why, code] = SingleRunError(alone);
  ASSERT_NE(code, 0) << why;
  const ProcessResult r = RunTimed(MpirunCommand(2, run, 90), seconds);
  EXPECT_EQ(r.exit_code, code) << Show(r) << "\nalone: " << why;
  const std::vector<std::string> lines = ErrorLines(r.err);
  ASSERT_EQ(lines.size(), 1u) << Show(r);
  EXPECT_EQ(lines[0].find("loadcell: error: rank 1 ("), 0u) << lines[0];
  EXPECT_NE(lines[0].find(dir / "rank1"), std::string::npos) << lines[0];
  EXPECT_EQ(CountOf(r.out, "General statistics"), 0u) << Show(r);
  EXPECT_LT(seconds, 60) << Show(r);
}

// Rank 2 is stopped before it reaches MPI_Init (a shell that is to exec
// loadcell after 5 s, stopped as soon as it wrote its pid: the 5 s are the
// margin for the watch to stop it first on a loaded machine): ranks 0 and 1 wait inside
// MPI_Init, which has no deadline of its own; their watchdog ends them
// after 10 s (--mpi-timeout=3, at least 10 s for MPI's start) with one line,
// and the launcher then ends the stopped rank. Under Open MPI's mpirun and
// MPICH's mpiexec.
TEST(MpiVoteTest, ARankThatNeverReachesMpiInitCannotHoldTheOthers) {
  for (const bool mpich : {false, true}) {
    const char* name = mpich ? "mpiexec.mpich" : "mpirun.openmpi";
    const testing::TempDir dir;
    const std::string pid_file = dir / "rank2.pid";
    const std::vector<std::string> args = {"cpu", "--time=2", "--mpi-timeout=3"};
    std::vector<std::string> cmd = mpich ? testing::MpichCommand(2, args, /*timeout_s=*/90)
                                         : MpirunCommand(2, args, /*timeout_s=*/90);
    std::string shell = "echo $$ > " + pid_file + ".tmp && mv " + pid_file + ".tmp " + pid_file +
                        " && sleep 5 && exec " + LoadcellBinary();
    for (const std::string& a : args) shell += " " + a;
    testing::AddShellRank(cmd, shell);
    int stopped = 0;
    testing::ChildWatch watch;
    watch.timeout_s = 120;
    watch.marker = "";
    watch.during = [&](int) {
      stopped = testing::WaitForPidFile(pid_file);
      if (stopped > 0) kill(stopped, SIGSTOP);
    };
    const ProcessResult r = RunCommand(cmd, watch);
    ASSERT_GT(stopped, 0) << name << "\n" << Show(r);
    const bool gone = !testing::StillRunning(stopped);
    if (!gone) kill(stopped, SIGKILL);
    EXPECT_TRUE(gone) << name << ": rank 2 was left behind";
    // The launcher's exit code is its own account of the job: Open MPI's
    // mpirun gives the first failed rank's (1); MPICH's Hydra gives either
    // that or 9, the SIGKILL with which it ends the stopped rank, whichever
    // it hears of first. Never 124: no hang.
    if (mpich) {
      EXPECT_TRUE(r.exit_code == 1 || r.exit_code == 9) << name << "\n" << Show(r);
    } else {
      EXPECT_EQ(r.exit_code, 1) << name << "\n" << Show(r);
    }
    // One line for the job: the first rank whose watchdog ends says it.
    EXPECT_EQ(CountOf(r.err,
                      "loadcell: error: MPI did not start within 10 s (--mpi-timeout, at least "
                      "10 s): MPI_Init did not return on rank "),
              1u)
        << name << "\n"
        << Show(r);
    // Every rank runs on this host: the marks name the one that is missing.
    EXPECT_EQ(CountOf(r.err, "; rank 2 did not reach MPI_Init; no rank ran it"), 1u) << name << "\n"
                                                                                     << Show(r);
    EXPECT_EQ(CountOf(r.out, "General statistics"), 0u) << name << "\n" << Show(r);
    // 10 s of waiting and the launcher's own end, with margin for a loaded
    // machine (a hang would last until `timeout`: 90 s).
    EXPECT_LT(r.seconds_after_action, 60) << name << "\n" << Show(r);
  }
}

// The same with the rank stopped inside MPI_Init rather than before it: it
// is stopped as soon as its mark of presence appears (the roll call, made
// right before MPI_Init), so the others wait in MPI_Init for a rank that is
// there and does not go on. Their watchdog ends the job all the same, and
// its line names the stopped rank.
TEST(MpiVoteTest, ARankStoppedInsideMpiInitCannotHoldTheOthers) {
  const testing::TempDir dir;
  const std::string pid_file = dir / "rank2.pid";
  const std::vector<std::string> args = {"cpu", "--time=2", "--mpi-timeout=3"};
  std::vector<std::string> cmd = MpirunCommand(2, args, /*timeout_s=*/90);
  std::string shell = "echo $$ > " + pid_file + ".tmp && mv " + pid_file + ".tmp " + pid_file +
                      " && exec " + LoadcellBinary();
  for (const std::string& a : args) shell += " " + a;
  testing::AddShellRank(cmd, shell);
  const std::string mark_of_rank2 = "-3-2\n";  // ...-<size>-<rank> in /proc/net/unix
  const std::string mark_prefix = "@loadcell-mpi-start-" + std::to_string(getuid()) + "-";
  int stopped = 0;
  bool inside = false;
  testing::ChildWatch watch;
  watch.timeout_s = 120;
  watch.marker = "";
  watch.during = [&](int) {
    const int pid = testing::WaitForPidFile(pid_file);
    if (pid <= 0) return;
    for (int i = 0; i < 20000 && !inside; ++i) {
      const std::string unix_sockets = testing::ReadFile("/proc/net/unix");
      for (size_t at = unix_sockets.find(mark_prefix); at != std::string::npos;
           at = unix_sockets.find(mark_prefix, at + 1)) {
        const size_t end = unix_sockets.find('\n', at);
        if (unix_sockets.compare(end - 4, 5, mark_of_rank2) == 0) inside = true;
      }
      if (!inside) std::this_thread::sleep_for(std::chrono::microseconds(500));
    }
    kill(pid, SIGSTOP);
    stopped = pid;
  };
  const ProcessResult r = RunCommand(cmd, watch);
  ASSERT_GT(stopped, 0) << Show(r);
  EXPECT_TRUE(inside) << "rank 2's mark never appeared\n" << Show(r);
  const bool gone = !testing::StillRunning(stopped);
  if (!gone) kill(stopped, SIGKILL);
  EXPECT_TRUE(gone) << "rank 2 was left behind";
  EXPECT_EQ(r.exit_code, 1) << Show(r);
  // One line for the job: the first rank whose watchdog ends says it.
  EXPECT_EQ(CountOf(r.err,
                    "loadcell: error: MPI did not start within 10 s (--mpi-timeout, at "
                    "least 10 s): MPI_Init did not return on rank "),
            1u)
      << Show(r);
  // Rank 2 reached MPI_Init: no rank is named missing, also by a rank whose
  // watchdog ends after another's has left; rank 2 is named as stopped in
  // it (its mark's process is stopped).
  EXPECT_EQ(CountOf(r.err,
                    "; rank 2 reached MPI_Init and was stopped in it (SIGSTOP or a debugger); no "
                    "rank ran it"),
            1u)
      << Show(r);
  EXPECT_EQ(CountOf(r.err, "did not reach MPI_Init"), 0u) << Show(r);
  EXPECT_EQ(CountOf(r.out, "General statistics"), 0u) << Show(r);
  EXPECT_LT(r.seconds_after_action, 60) << Show(r);
}

}  // namespace
}  // namespace loadcell
