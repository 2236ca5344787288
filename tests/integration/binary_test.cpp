// Runs the real loadcell binary: bad input must give exit code 2 and one
// line on stderr naming the offending thing, with no run started; good input
// in each accepted syntax must run.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::ProcessResult;
using testing::RunLoadcell;
using testing::TempDir;

size_t CountLines(const std::string& s) { return std::count(s.begin(), s.end(), '\n'); }

std::string Join(const std::vector<std::string>& args) {
  std::string out;
  for (const auto& a : args) out += a + " ";
  return out;
}

struct BadCase {
  std::vector<std::string> args;
  std::string names;  // what the error line must contain
};

// The rows of tests/data/bad_input.tsv (loadcell.exe too: this file is built
// for Windows and run under Wine by scripts/test-windows): what the line
// names, then the arguments.
std::vector<BadCase> BadCases() {
  std::ifstream in(std::string(LOADCELL_SOURCE_DIR) + "/tests/data/bad_input.tsv");
  std::vector<BadCase> cases;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields;
    std::istringstream row(line);
    for (std::string f; std::getline(row, f, '\t');) fields.push_back(f);
    if (fields.size() < 2) {
      ADD_FAILURE() << "bad_input.tsv: a row needs what it names and one argument: " << line;
      continue;
    }
    cases.push_back({std::vector<std::string>(fields.begin() + 1, fields.end()), fields[0]});
  }
  return cases;
}

// In an empty folder of its own, which stays empty.
void ExpectUsageError(const std::vector<std::string>& args, const std::string& names) {
  SCOPED_TRACE("loadcell " + Join(args));
  const TempDir cwd;
  testing::ChildWatch in_cwd;
  in_cwd.cwd = cwd.path();
  ProcessResult r = RunLoadcell(args, in_cwd);
  EXPECT_TRUE(cwd.IsEmpty()) << "files created in the current folder";
  EXPECT_EQ(r.exit_code, 2) << "stderr: " << r.err << "stdout: " << r.out;
  EXPECT_EQ(CountLines(r.err), 1u) << r.err;
  EXPECT_EQ(r.err.rfind("loadcell: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(names), std::string::npos) << "expected '" << names << "' in: " << r.err;
  // No run was started: nothing at all on stdout.
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.out.find("Threads started"), std::string::npos);
}

TEST(BadInputTest, EachCaseExitsTwoWithOneLineNamingTheProblem) {
  std::vector<BadCase> cases = BadCases();
  ASSERT_GE(cases.size(), 30u);
  for (const BadCase& c : cases) ExpectUsageError(c.args, c.names);
}

TEST(BadInputTest, BadConfigFileLineNamesFileAndLine) {
  TempDir tmp;
  const std::string conf = tmp.Write("bad.conf", "# settings\nthreads=2\n\nthis line is wrong\n");
  ExpectUsageError({"--config-file=" + conf, "cpu"}, conf + " line 4");
}

TEST(BadInputTest, BadValueInConfigFileNamesFileAndLine) {
  TempDir tmp;
  const std::string conf = tmp.Write("bad.conf", "time=1\nthreads=0\n");
  ExpectUsageError({"--config-file=" + conf, "cpu"}, "--threads=0");
  ExpectUsageError({"--config-file=" + conf, "cpu"}, conf + " line 2");
}

// Lines that start a report section ("General statistics:").
std::set<std::string> SectionHeaders(const std::string& out) {
  std::set<std::string> headers;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] != ' ' && line.back() == ':') headers.insert(line);
  }
  return headers;
}

TEST(RunTest, LegacySyntaxPrintsTheSameSectionsAsTheCurrentOne) {
  ProcessResult legacy = RunLoadcell(
      {"--test=cpu", "--num-threads=2", "--max-time=0.5", "--cpu-max-prime=2000", "run"});
  ProcessResult current =
      RunLoadcell({"--threads=2", "cpu", "--time=0.5", "--cpu-max-prime=2000", "run"});
  ASSERT_EQ(legacy.exit_code, 0) << legacy.err;
  ASSERT_EQ(current.exit_code, 0) << current.err;
  EXPECT_NE(legacy.out.find("Number of threads: 2"), std::string::npos) << legacy.out;
  EXPECT_NE(legacy.out.find("Prime numbers limit: 2000"), std::string::npos) << legacy.out;
  EXPECT_NE(legacy.out.find("General statistics:"), std::string::npos) << legacy.out;
  std::set<std::string> a = SectionHeaders(legacy.out);
  std::set<std::string> b = SectionHeaders(current.out);
  EXPECT_FALSE(a.empty());
  EXPECT_EQ(a, b);
}

TEST(RunTest, TypographicDashesAreAcceptedWithAWarning) {
  // U+2013 en dash, and U+2014 em dash followed by '-'.
  ProcessResult r = RunLoadcell({"cpu", "\xE2\x80\x93time=0.3", "\xE2\x80\x94-cpu-max-prime=1000"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Prime numbers limit: 1000"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("loadcell: warning: '\xE2\x80\x93time=0.3' uses a typographic dash; read as "
                       "'--time=0.3'"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("read as '--cpu-max-prime=1000'"), std::string::npos) << r.err;
}

TEST(RunTest, OptionsAfterTheCommandWord) {
  ProcessResult r = RunLoadcell({"cpu", "run", "--cpu-max-prime=2000", "--time=0.3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Prime numbers limit: 2000"), std::string::npos) << r.out;
  EXPECT_EQ(r.err, "");
}

TEST(RunTest, ConfigFileLosesToCommandLine) {
  TempDir tmp;
  const std::string conf =
      tmp.Write("run.conf", "# a comment\n--time=0.3\ncpu-max-prime = 1500\nnum_threads=2\n");
  ProcessResult r = RunLoadcell({"--config-file=" + conf, "cpu", "--cpu-max-prime=1200"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Prime numbers limit: 1200"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Number of threads: 2"), std::string::npos) << r.out;
}

TEST(RunTest, ConfigFileMayNameTheTest) {
  TempDir tmp;
  const std::string conf = tmp.Write("legacy.conf", "test=cpu\ntime=0.3\ncpu-max-prime=1100\n");
  ProcessResult r = RunLoadcell({"--config-file=" + conf, "run"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Prime numbers limit: 1100"), std::string::npos) << r.out;
}

TEST(CommandTest, ListNamesEveryTest) {
  ProcessResult r = RunLoadcell({"list"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* t : {"cpu", "memory", "threads", "mutex"}) {
    EXPECT_NE(("\n" + r.out).find(std::string("\n") + t + " "), std::string::npos)
        << t << " in " << r.out;
  }
  EXPECT_NE(r.out.find("CPU"), std::string::npos);
}

TEST(CommandTest, TestHelpShowsEventDefinitionAndBothOptionGroups) {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"cpu", "help"}, {"help", "cpu"}, {"--test=cpu", "help"}, {"cpu", "--help"}}) {
    ProcessResult r = RunLoadcell(args);
    ASSERT_EQ(r.exit_code, 0) << Join(args) << r.err;
    EXPECT_NE(r.out.find("cpu options:"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("--cpu-max-prime=N"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("[10000]"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("General options:"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("--threads=N"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("event"), std::string::npos) << r.out;
  }
}

TEST(CommandTest, UsageAndVersion) {
  for (const auto& args : std::vector<std::vector<std::string>>{{"help"}, {"--help"}, {"-h"}}) {
    ProcessResult r = RunLoadcell(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("Usage:"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("loadcell list"), std::string::npos) << r.out;
  }
  for (const auto& args : std::vector<std::vector<std::string>>{{"version"}, {"--version"}}) {
    ProcessResult r = RunLoadcell(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.rfind("loadcell ", 0), 0u) << r.out;
    EXPECT_EQ(CountLines(r.out), 1u) << r.out;
  }
  ProcessResult none = RunLoadcell({});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.out.find("Usage:"), std::string::npos);
}

TEST(OutputTest, JsonOnStdoutParses) {
  ProcessResult r = RunLoadcell({"cpu", "--time=0.3", "--cpu-max-prime=1000", "--format=json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(doc.is_discarded()) << r.out;
  EXPECT_TRUE(doc.is_object());
  EXPECT_NE(r.out.find("\"cpu\""), std::string::npos);
  EXPECT_EQ(r.out.find("Threads started"), std::string::npos);
}

// The warm-up takes nothing from --events nor from memory's byte budget, and
// memory's per-thread shares add up to the whole total on any thread count.
TEST(OutputTest, WarmupAndBudgetsMeasureExactCounts) {
  struct Case {
    std::vector<std::string> args;
    uint64_t events;
    uint64_t bytes;  // memory's counter; 0: not checked
  };
  const std::vector<Case> cases = {
      {{"cpu", "--events=100", "--warmup-time=0.2", "--cpu-max-prime=1000"}, 100, 0},
      {{"cpu", "--events=1000", "--warmup-time=0.2", "--cpu-max-prime=1000"}, 1000, 0},
      {{"cpu", "--events=1000", "--warmup-time=0.1", "--threads=3", "--cpu-max-prime=1000"},
       1000,
       0},
      {{"memory", "--memory-total-size=64M", "--threads=4"}, 65536, 64ULL << 20},
      {{"memory", "--memory-total-size=64M", "--threads=3", "--memory-block-size=1M"},
       63,
       63ULL << 20},
      {{"memory", "--memory-total-size=1G", "--warmup-time=0.02", "--memory-block-size=64K"},
       16384,
       1ULL << 30},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = c.args;
    args.push_back("--format=json");
    args.push_back("run");
    ProcessResult r = RunLoadcell(args);
    ASSERT_EQ(r.exit_code, 0) << Join(args) << r.err;
    nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
    ASSERT_FALSE(doc.is_discarded()) << r.out;
    EXPECT_EQ(doc["summary"]["events"].get<uint64_t>(), c.events) << Join(args);
    if (c.bytes != 0) {
      EXPECT_EQ(doc["summary"]["counters"]["bytes"].get<uint64_t>(), c.bytes) << Join(args);
    }
  }
}

TEST(OutputTest, OutputFileGetsTheFormatAndStdoutTheText) {
  TempDir tmp;
  const std::string json = tmp.File("report.json");
  ProcessResult r = RunLoadcell(
      {"cpu", "--time=0.3", "--cpu-max-prime=1000", "--format=json", "--output-file=" + json});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("General statistics:"), std::string::npos) << r.out;
  const std::string contents = testing::ReadFile(json);
  nlohmann::json doc = nlohmann::json::parse(contents, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << contents;
  EXPECT_TRUE(doc.is_object());
}

TEST(OutputTest, CsvOnStdout) {
  ProcessResult r = RunLoadcell({"cpu", "--time=0.3", "--cpu-max-prime=1000", "--format=csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_GE(CountLines(r.out), 2u) << r.out;
  EXPECT_NE(r.out.substr(0, r.out.find('\n')).find(','), std::string::npos) << r.out;
}

TEST(SignalTest, ForcedShutdownAbandonsAHungEventAndStillReports) {
  // One mutex event per thread that takes far longer than --time: only the
  // forced shutdown can end this run.
  ProcessResult r = RunLoadcell({"mutex", "--threads=2", "--mutex-locks=2000000000",
                                 "--mutex-loops=100000", "--time=0.3", "--forced-shutdown=0.2"},
                                /*sigint_after_ms=*/-1, /*timeout_s=*/20);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("General statistics:"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("--forced-shutdown"), std::string::npos) << r.err;
}

// The suite's table: its lines up to the first blank one.
std::string SuiteTable(const std::string& out) { return out.substr(0, out.find("\n\n") + 1); }

TEST(SuiteTest, RunsTheFourTestsAndPrintsOneTable) {
  ProcessResult r = RunLoadcell({"suite", "--time=0.2", "--mutex-locks=1000"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const std::string table = SuiteTable(r.out);
  EXPECT_EQ(CountLines(table), 7u) << r.out;  // header + 6 tests
  for (const char* t : {"cpu", "memory", "threads", "mutex", "fileio", "oltp_read_write"}) {
    EXPECT_NE(("\n" + table).find(std::string("\n") + t + " "), std::string::npos) << r.out;
  }
  EXPECT_NE(table.find("MiB/s"), std::string::npos) << r.out;
  ExpectUsageError({"suite", "--nosuch=1"}, "--nosuch");
  ExpectUsageError({"suite", "--threads=0"}, "--threads=0");
}

// Every row carries its run's verdict; what was not valid is listed under
// the table. fileio's buffered reads of 64 MiB on a host with more memory
// are INVALID (the cache check), and --verdict=strict then exits 3.
TEST(SuiteTest, EveryRowCarriesItsVerdictAndStrictExitsThreeOnAnInvalidOne) {
  ProcessResult r = RunLoadcell({"suite", "--time=0.2", "--mutex-locks=1000"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const std::string table = SuiteTable(r.out);
  EXPECT_NE(table.find(" verdict "), std::string::npos) << r.out;
  const size_t fileio = ("\n" + table).find("\nfileio ");
  ASSERT_NE(fileio, std::string::npos) << r.out;
  const std::string fileio_row = table.substr(fileio, table.find('\n', fileio) - fileio);
  EXPECT_NE(fileio_row.find("INVALID ("), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nVerdicts (docs/validity.md):\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  fileio: INVALID cache: "), std::string::npos) << r.out;
  // Judged before cleanup: the 10,000-row table (about 2 MiB) is measured,
  // not the empty file that cleanup leaves.
  const size_t tables = r.out.find("oltp_read_write: WARN database: the tables (");
  ASSERT_NE(tables, std::string::npos) << r.out;
  EXPECT_NE(r.out.substr(tables, r.out.find(')', tables) - tables).find(" MiB"), std::string::npos)
      << r.out;
  // cpu's own checks pass or are not made: its row never says INVALID.
  const size_t cpu = table.find("\ncpu ");
  ASSERT_NE(cpu, std::string::npos) << r.out;
  EXPECT_EQ(table.substr(cpu + 1, table.find('\n', cpu + 1) - cpu - 1).find("INVALID"),
            std::string::npos)
      << r.out;

  ProcessResult strict =
      RunLoadcell({"suite", "--time=0.2", "--mutex-locks=1000", "--verdict=strict"});
  EXPECT_EQ(strict.exit_code, 3) << strict.err << strict.out;
  EXPECT_NE(strict.out.find("INVALID ("), std::string::npos) << strict.out;

  ProcessResult off = RunLoadcell({"suite", "--time=0.2", "--mutex-locks=1000", "--verdict=off"});
  EXPECT_EQ(off.exit_code, 0) << off.err << off.out;
  EXPECT_EQ(off.out.find("Verdicts"), std::string::npos) << off.out;
  EXPECT_EQ(off.out.find("valid"), std::string::npos) << off.out;
}

}  // namespace
}  // namespace loadcell
