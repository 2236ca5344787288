// The report, compare and sweep commands and --report-html, through the
// binary: exit codes, one-line errors, files written.

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "testing/html_chart.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::ChartPoints;
using testing::ReadFile;
using testing::TempDir;

using testing::ProcessResult;
using testing::RunLoadcell;

int Lines(const std::string& s) { return testing::OutputLines(s); }

// A short cpu run saved as JSON at `path`.
void SaveCpuResult(const std::string& path, const std::string& threads = "1") {
  ProcessResult r = RunLoadcell({"cpu", "--time=0.2", "--threads=" + threads,
                                 "--cpu-max-prime=2000", "--format=json", "--output-file=" + path});
  ASSERT_EQ(r.exit_code, 0) << r.err;
}

TEST(ReportCommandsTest, ReportHtmlOfARunHasItsCharts) {
  TempDir dir;
  ProcessResult r = RunLoadcell({"cpu", "--time=0.5", "--threads=2", "--cpu-max-prime=2000",
                                 "--report-html=" + (dir / "run.html")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("General statistics"), std::string::npos);  // the text report as usual
  const std::string html = ReadFile(dir / "run.html");
  // No --report-interval: the page samples every 0.1 s of the 0.5 s run.
  EXPECT_GE(ChartPoints(html, "throughput"), 4);
  EXPECT_LE(ChartPoints(html, "throughput"), 5);
  EXPECT_EQ(ChartPoints(html, "threads"), 2);
  EXPECT_GT(ChartPoints(html, "histogram"), 0);
}

TEST(ReportCommandsTest, ReportFromASavedResult) {
  TempDir dir;
  SaveCpuResult(dir / "r.json");
  ProcessResult r = RunLoadcell({"report", dir / "r.json", "-o", dir / "r.html"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string html = ReadFile(dir / "r.html");
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(ChartPoints(html, "threads"), 1);
  // To stdout without -o.
  ProcessResult s = RunLoadcell({"report", dir / "r.json"});
  EXPECT_EQ(s.exit_code, 0);
  EXPECT_EQ(s.out, html);
}

// A result saved before counters_per_second and the threads' extremes were
// in the schema still makes a page, without the sentence they give.
TEST(ReportCommandsTest, ReportFromAnOlderResultWithoutTheDerivedFields) {
  TempDir dir;
  SaveCpuResult(dir / "new.json", "2");
  std::string json = ReadFile(dir / "new.json");
  ASSERT_NE(json.find("\"counters_per_second\""), std::string::npos) << json;
  ASSERT_NE(json.find("\"min_from_mean_pct\""), std::string::npos) << json;
  json = std::regex_replace(json, std::regex(",\\s*\"counters_per_second\": \\{[^}]*\\}"), "");
  json = std::regex_replace(
      json,
      std::regex(",\\s*\"min\": [^,]*,\\s*\"max\": [^,]*,\\s*\"min_from_mean_pct\": [^,]*,"
                 "\\s*\"max_from_mean_pct\": [-0-9.e]*"),
      "");
  ASSERT_EQ(json.find("counters_per_second"), std::string::npos) << json;
  ASSERT_EQ(json.find("from_mean_pct"), std::string::npos) << json;
  std::ofstream(dir / "old.json") << json;

  ProcessResult fresh = RunLoadcell({"report", dir / "new.json"});
  ASSERT_EQ(fresh.exit_code, 0) << fresh.err;
  EXPECT_NE(fresh.out.find("Slowest thread"), std::string::npos);
  ProcessResult old = RunLoadcell({"report", dir / "old.json", "-o", dir / "old.html"});
  ASSERT_EQ(old.exit_code, 0) << old.err;
  EXPECT_EQ(old.err, "");
  const std::string html = ReadFile(dir / "old.html");
  EXPECT_EQ(ChartPoints(html, "threads"), 2);
  EXPECT_EQ(html.find("Slowest thread"), std::string::npos);
}

TEST(ReportCommandsTest, NotALoadcellResultIsOneLineExit2) {
  TempDir dir;
  std::ofstream(dir / "x.json") << "{\"schema\": \"loadcell-result/1\",\n \"manifest\": [1]}";
  ProcessResult r = RunLoadcell({"report", dir / "x.json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(Lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("not a loadcell result: manifest: expected an object, found an array"),
            std::string::npos)
      << r.err;
  std::ofstream(dir / "y.json") << "{\n\"schema\": ";
  r = RunLoadcell({"compare", dir / "y.json", dir / "x.json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(Lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("y.json: not a loadcell result: line 2"), std::string::npos) << r.err;
}

TEST(ReportCommandsTest, UnwritableOutputPathIsOneLineExit2) {
  TempDir dir;
  SaveCpuResult(dir / "r.json");
  ProcessResult r = RunLoadcell({"report", dir / "r.json", "-o", dir / "no/such/dir/r.html"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(Lines(r.err), 1) << r.err;
  r = RunLoadcell({"cpu", "--time=0.1", "--report-html=" + (dir / "no/such/dir/r.html")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(Lines(r.err), 1) << r.err;
  EXPECT_EQ(r.out.find("General statistics"), std::string::npos);  // nothing ran
}

TEST(ReportCommandsTest, CompareTwoRunsAndGroups) {
  TempDir dir;
  SaveCpuResult(dir / "a.json");
  SaveCpuResult(dir / "b.json", "2");
  ProcessResult r = RunLoadcell({"compare", dir / "a.json", dir / "b.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("B vs A"), std::string::npos);
  EXPECT_NE(r.err.find("warning: B differs from A in --threads: 1 in A, 2 in B"), std::string::npos)
      << r.err;
  r = RunLoadcell({"compare", "--format=csv", dir / "a.json", dir / "a.json", "--", dir / "b.json",
                   dir / "b.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Lines(r.out), 3) << r.out;  // header, A, B
  EXPECT_EQ(r.out.rfind("result,runs,files,", 0), 0u);
}

TEST(ReportCommandsTest, CompareOfDifferentTestsIsOneLineExit2) {
  TempDir dir;
  SaveCpuResult(dir / "a.json");
  ProcessResult m = RunLoadcell({"memory", "--time=0.1", "--memory-total-size=1M", "--format=json",
                                 "--output-file=" + (dir / "m.json")});
  ASSERT_EQ(m.exit_code, 0) << m.err;
  ProcessResult r = RunLoadcell({"compare", dir / "a.json", dir / "m.json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(Lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("'cpu' result but"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
}

TEST(ReportCommandsTest, SweepRunsTheMatrixAndWritesEveryRun) {
  TempDir dir;
  ProcessResult r = RunLoadcell(
      {"sweep", "--threads=1,2", "--cpu-max-prime=1000,2000", "--output-dir=" + (dir / "out"),
       "--report-html=" + (dir / "s.html"), "--", "cpu", "--time=0.2", "run"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Lines(r.out), 7) << r.out;  // title, blank, header, 4 points
  EXPECT_TRUE(std::regex_search(
      r.out,
      std::regex("\nthreads +cpu-max-prime +events/s +p95 \\(ms\\) +p99 \\(ms\\) +verdict\n")))
      << r.out;
  // Each point's verdict in its row's last cell.
  EXPECT_TRUE(std::regex_search(
      r.out, std::regex("\n +2 +2000 .* (valid|valid with warnings \\([0-9]+\\)|INVALID "
                        "\\([0-9]+\\))\n")))
      << r.out;
  for (const char* f :
       {"cpu-threads=1-cpu-max-prime=1000.json", "cpu-threads=2-cpu-max-prime=2000.json"}) {
    EXPECT_TRUE(std::filesystem::exists(dir / ("out/" + std::string(f)))) << f;
    // Each point's result carries its verdict.
    EXPECT_NE(ReadFile(dir / ("out/" + std::string(f))).find("\"validity\": {"), std::string::npos)
        << f;
  }
  const std::string html = ReadFile(dir / "s.html");
  EXPECT_EQ(ChartPoints(html, "saturation-throughput"), 4);
  EXPECT_EQ(ChartPoints(html, "saturation-p99"), 4);
}

// Two points whose file names would be one (here a value listed twice) get
// one file each, neither overwriting the other.
TEST(ReportCommandsTest, SweepPointsThatShareAFileNameGetOneFileEach) {
  TempDir dir;
  ProcessResult r = RunLoadcell({"sweep", "--threads=1,2,1", "--output-dir=" + (dir / "out"), "--",
                                 "cpu", "--events=20", "run"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir / "out")) {
    files.push_back(e.path().filename().string());
  }
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files, (std::vector<std::string>{"cpu-threads=1-point1.json",
                                             "cpu-threads=1-point3.json", "cpu-threads=2.json"}));
}

// Sweep's own options and its "--" get the main command line's repair of
// typographic dashes (an en dash, an em dash, a minus sign), with a warning.
TEST(ReportCommandsTest, SweepReadsTypographicDashesAsTheMainCommandLineDoes) {
  TempDir dir;
  ProcessResult r =
      RunLoadcell({"sweep", "\xE2\x80\x93threads=1,2", "\xE2\x88\x92-repeat=1",
                   "--output-dir=" + (dir / "out"), "\xE2\x80\x94", "cpu", "--events=20", "run"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Lines(r.out), 5) << r.out;  // title, blank, header, 2 points
  EXPECT_NE(r.err.find("read as '--threads=1,2'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("read as '--repeat=1'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("read as '--'"), std::string::npos) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir / "out/cpu-threads=2.json"));
}

TEST(ReportCommandsTest, SweepValueTheTestRejectsStopsBeforeRunning) {
  TempDir dir;
  ProcessResult r = RunLoadcell({"sweep", "--threads=1,2", "--cpu-max-prime=1000,0",
                                 "--output-dir=" + (dir / "out"), "--", "cpu", "--time=5", "run"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(Lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("sweep point threads=1, cpu-max-prime=0:"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));  // nothing ran, nothing written
  EXPECT_TRUE(r.out.empty());
}

// A Lua script as sweep's test, as the main command takes it: by a path, or
// a name ending in .lua; its own options can be swept, its done() runs after
// each point, and with --format=csv its print() stays off the table.
TEST(ReportCommandsTest, SweepRunsALuaScript) {
  TempDir dir;
  const std::string script =
      dir.Write("sum.lua",
                "sysbench.cmdline.options = { rows = {'numbers summed per event', 1} }\n"
                "function event() local n = 0 for i = 1, sysbench.opt.rows do n = n + i end end\n"
                "function done() print('DONE') end\n");
  struct Form {
    std::vector<std::string> test;
    std::string format;
  };
  const std::vector<Form> forms = {
      {{script, "--events=50", "run"}, "text"},
      {{"sum.lua", "--events=50"}, "text"},  // a name ending in .lua, in the current folder
      {{script, "--events=50", "run"}, "csv"},
  };
  for (const Form& form : forms) {
    SCOPED_TRACE(form.test[0] + " " + form.format);
    const std::string out_dir = dir / ("out-" + form.format + std::to_string(form.test.size()));
    std::vector<std::string> args = {"sweep",
                                     "--threads=1,2",
                                     "--rows=1,10",
                                     "--output-dir=" + out_dir,
                                     "--format=" + form.format,
                                     "--"};
    args.insert(args.end(), form.test.begin(), form.test.end());
    testing::ChildWatch in_dir;
    in_dir.cwd = dir.path();
    ProcessResult r = RunLoadcell(args, in_dir);
    ASSERT_EQ(r.exit_code, 0) << testing::Show(r);
    for (const char* f : {"sum-threads=1-rows=1.json", "sum-threads=2-rows=10.json"}) {
      EXPECT_TRUE(std::filesystem::exists(out_dir + "/" + f)) << f;
    }
    // done() once per point, each on stderr with csv (the table alone on stdout).
    const std::string& done_stream = form.format == "csv" ? r.err : r.out;
    int done = 0;
    for (size_t at = done_stream.find("DONE\n"); at != std::string::npos;
         at = done_stream.find("DONE\n", at + 1)) {
      ++done;
    }
    EXPECT_EQ(done, 4) << testing::Show(r);
    if (form.format == "csv") {
      EXPECT_EQ(r.out.rfind("threads,rows,runs,", 0), 0u) << r.out;
      EXPECT_EQ(Lines(r.out), 5) << r.out;  // header, 4 points
    } else {
      EXPECT_NE(r.out.find("Sweep of sum: 4 points"), std::string::npos) << r.out;
    }
  }
}

// A script's prepare is not swept: refused in one line before anything runs.
TEST(ReportCommandsTest, SweepOfAScriptRunsOnlyItsRunCommand) {
  TempDir dir;
  const std::string script = dir.Write("p.lua",
                                       "function prepare() print('PREPARED') end\n"
                                       "function event() end\n");
  ProcessResult r = RunLoadcell(
      {"sweep", "--threads=1,2", "--output-dir=" + (dir / "out"), "--", script, "prepare"});
  EXPECT_EQ(r.exit_code, 2) << testing::Show(r);
  EXPECT_EQ(Lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("sweep: runs the 'run' command only, not 'prepare'"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.out.find("PREPARED"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
}

}  // namespace
}  // namespace loadcell
