// Report lines that scripts parse, against sysbench 1.0.20's own output for
// the same command. Each file under tests/golden/data/sysbench/ starts with
// "$ sysbench ARGS" and holds what sysbench printed; the test runs loadcell
// with the same ARGS and compares the lines a case selects. Remake the files
// with scripts/capture-sysbench-goldens. On Windows it runs loadcell.exe
// (testing/run_binary.h) against the same files.

#include <gtest/gtest.h>

#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::ProcessResult;
using testing::ReadFile;
using testing::RunLoadcell;
using testing::Show;
using testing::TempDir;

std::string DataDir() { return std::string(LOADCELL_SOURCE_DIR) + "/tests/golden/data/sysbench"; }

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// A captured sysbench run: its arguments and its output lines.
struct Golden {
  std::vector<std::string> args;
  std::vector<std::string> lines;
};

Golden ReadGolden(const std::string& name) {
  Golden g;
  std::vector<std::string> lines = Lines(ReadFile(DataDir() + "/" + name + ".txt"));
  EXPECT_FALSE(lines.empty()) << name << ": no golden file; run scripts/capture-sysbench-goldens";
  if (lines.empty()) return g;
  std::istringstream cmd(lines[0]);
  std::string word;
  cmd >> word >> word;  // "$ sysbench"
  while (cmd >> word) g.args.push_back(word);
  g.lines.assign(lines.begin() + 1, lines.end());
  return g;
}

// loadcell's stdout for the golden's arguments: scripts are taken from the
// data folder, fileio works in `dir` (prepared first).
std::vector<std::string> RunSame(const Golden& g, const TempDir& dir) {
  std::vector<std::string> args;
  bool fileio = false;
  for (const std::string& a : g.args) {
    fileio = fileio || a == "fileio";
    const bool script = a.size() > 4 && a.compare(a.size() - 4, 4, ".lua") == 0;
    args.push_back(script ? DataDir() + "/" + a : a);
  }
  if (fileio) {
    args.push_back("--file-dir=" + dir.path());
    std::vector<std::string> prepare;
    for (const std::string& a : args) {
      if (a != "run" && a.rfind("--file-test-mode", 0) != 0 && a.rfind("--events", 0) != 0) {
        prepare.push_back(a);
      }
    }
    prepare.push_back("prepare");
    ProcessResult p = RunLoadcell(prepare);
    EXPECT_EQ(p.exit_code, 0) << Show(p);
  } else if (!args.empty() && args[0].find(".lua") != std::string::npos) {
    args.push_back("--db-driver=sqlite");
    args.push_back("--sqlite-db=" + dir.File("sbtest.db"));
  }
  ProcessResult r = RunLoadcell(args);
  EXPECT_EQ(r.exit_code, 0) << Show(r);
  return Lines(r.out);
}

// The lines matching `pattern`, each with its numbers masked when `mask`.
std::vector<std::string> Select(const std::vector<std::string>& lines, const std::string& pattern,
                                bool mask) {
  const std::regex re(pattern);
  const std::regex number("[0-9]+(\\.[0-9]+)?");
  std::vector<std::string> out;
  for (const std::string& l : lines) {
    if (std::regex_search(l, re)) out.push_back(mask ? std::regex_replace(l, number, "N") : l);
  }
  return out;
}

// The lines from the first that starts with `first` to the next that
// starts with `last`, both included.
std::vector<std::string> Block(const std::vector<std::string>& lines, const std::string& first,
                               const std::string& last) {
  std::vector<std::string> out;
  for (const std::string& l : lines) {
    if (out.empty() && l.rfind(first, 0) != 0) continue;
    out.push_back(l);
    if (out.size() > 1 && l.rfind(last, 0) == 0) break;
  }
  return out;
}

// Runs the golden `name` with loadcell and compares the lines `pattern`
// selects from both outputs; `count` > 0 compares only the first `count`.
void ExpectSameLines(const std::string& name, const std::string& pattern, bool mask,
                     size_t count = 0) {
  TempDir dir;
  const Golden g = ReadGolden(name);
  std::vector<std::string> want = Select(g.lines, pattern, mask);
  std::vector<std::string> got = Select(RunSame(g, dir), pattern, mask);
  if (count > 0) {
    ASSERT_GE(want.size(), count) << name << ": the golden file lacks the lines";
    want.resize(count);
    if (got.size() > count) got.resize(count);
  }
  EXPECT_EQ(got, want) << name;
}

TEST(SysbenchLines, PercentileZeroDisablesPercentileStats) {
  ExpectSameLines("percentile_disabled", "^ {9}.*percentile", /*mask=*/false);
}

// fileio's header, from the open flags to the mode, line for line.
void ExpectSameFileIoHeader(const std::string& name) {
  TempDir dir;
  const Golden g = ReadGolden(name);
  const std::vector<std::string> want = Block(g.lines, "Extra file open flags", "Doing ");
  ASSERT_FALSE(want.empty());
  EXPECT_EQ(Block(RunSame(g, dir), "Extra file open flags", "Doing "), want) << name;
}

TEST(SysbenchLines, FileIoRandomReadHeaderHasNumberOfIoRequests) {
  ExpectSameFileIoHeader("fileio_rndrd");
}

TEST(SysbenchLines, FileIoRandomReadWriteHeader) { ExpectSameFileIoHeader("fileio_rndrw"); }

TEST(SysbenchLines, FileIoSequentialHeaderHasNoNumberOfIoRequests) {
  ExpectSameFileIoHeader("fileio_seqrd");
}

// sysbench keeps "lat (ms,0%): 0.00" on the interval line.
TEST(SysbenchLines, PercentileZeroIntervalLine) {
  ExpectSameLines("interval_percentile_disabled", "^\\[ .* \\] thds:", /*mask=*/true,
                  /*count=*/1);
}

TEST(SysbenchLines, RateQueueLineHasConcurrency) {
  ExpectSameLines("rate_queue", "^\\[ .* \\] queue", /*mask=*/true, /*count=*/1);
}

TEST(SysbenchLines, MemoryHeading) {
  TempDir dir;
  const Golden g = ReadGolden("memory");
  const std::vector<std::string> want = Block(g.lines, "Running memory speed test", "  scope:");
  ASSERT_EQ(want.size(), 5u);
  EXPECT_EQ(Block(RunSame(g, dir), "Running memory speed test", "  scope:"), want);
}

TEST(SysbenchLines, CheckpointLabelsAndHeader) {
  ExpectSameLines("checkpoints", "Checkpoint report:|^Report checkpoint", /*mask=*/false);
}

TEST(SysbenchLines, LuaReportCsvFromIntermediateHookIsPlainCsv) {
  ExpectSameLines("lua_report_csv", "[0-9],[0-9]", /*mask=*/true, /*count=*/1);
}

TEST(SysbenchLines, LuaDoneRunsAfterTheReport) {
  ExpectSameLines("lua_done", "^done\\(\\) ran|^Threads fairness:|^General statistics:",
                  /*mask=*/false);
}

TEST(SysbenchLines, LuaScriptWithoutDatabasePrintsNoDatabaseLines) {
  ExpectSameLines("lua_no_database", "^Database:|^SQL statistics:|queries performed:",
                  /*mask=*/false);
}

TEST(SysbenchLines, LuaOptTimeWithEventsAlone) {
  ExpectSameLines("lua_opt_time", "^sysbench\\.opt\\.time=", /*mask=*/false);
}

// Where loadcell differs from sysbench on purpose, its own lines.

// sysbench takes whole seconds only; loadcell labels a fractional
// checkpoint with its exact time, not rounded to "[ 0s ]".
TEST(LoadcellLines, FractionalCheckpointLabelIsExact) {
  ProcessResult r = RunLoadcell({"cpu", "--time=1", "--report-checkpoints=0.3", "run"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_EQ(Select(Lines(r.out), "Checkpoint report:|^Report checkpoint", /*mask=*/false),
            (std::vector<std::string>{"Report checkpoint(s) at 0.3 seconds",
                                      "[ 0.3s ] Checkpoint report:"}));
}

// --events without --time runs until the events are done; the header says
// that sysbench would have stopped after its 10 s default.
TEST(LoadcellLines, EventsAloneHeaderSaysThereIsNoTimeLimit) {
  ProcessResult r = RunLoadcell({"cpu", "--events=5", "run"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_NE(r.out.find("time limit: none (--events alone; sysbench would stop after 10 s)"),
            std::string::npos)
      << r.out;
  ProcessResult both = RunLoadcell({"cpu", "--events=5", "--time=0", "run"});
  ASSERT_EQ(both.exit_code, 0) << Show(both);
  EXPECT_EQ(both.out.find("sysbench would stop"), std::string::npos) << both.out;
}

}  // namespace
}  // namespace loadcell
