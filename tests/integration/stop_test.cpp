// Stopping a run through the binary: --time and the first stop signal end
// every run within a bounded grace, stuck events included, always with the
// report of what was measured; a burst of signals is one request.

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "report/json/json_reader.h"
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

// An event that runs for hours and never looks at the stop flag.
const std::vector<std::string> kStuckCpu = {"cpu", "--cpu-max-prime=4294967295"};

// The default grace (--forced-shutdown) and what the test allows beyond it.
constexpr double kGrace = 5;
constexpr double kSlack = 3;

// Runs `args` with the JSON report in a file (the text report, whose
// "Threads started!" tells that the signal handlers are in place, on stdout).
class StopTest : public ::testing::Test {
 protected:
  ProcessResult Run(const std::vector<std::string>& args, const ChildWatch& watch) {
    return RunLoadcell(Concat(args, {"--format=json", "--output-file=" + json_}), watch);
  }
  // The JSON report, which must parse.
  Result<ResultData> Report() const { return ReadResultFile(json_); }

  testing::TempDir tmp_;
  const std::string json_ = tmp_.File("report.json");
};

// The JSON report's "abandoned_threads" array without blanks ("" when absent).
std::string AbandonedThreads(const std::string& json) {
  const size_t at = json.find("\"abandoned_threads\":");
  if (at == std::string::npos) return "";
  std::string out;
  for (size_t i = json.find('[', at); i < json.size() && (out.empty() || out.back() != ']'); ++i) {
    if (json[i] != ' ' && json[i] != '\n') out += json[i];
  }
  return out;
}

TEST_F(StopTest, StuckEventEndsWithinTheGraceAfterTheTimeLimitWithAReport) {
  ChildWatch watch;
  watch.during = [](int) {};  // only to time the exit from the start
  watch.marker = "";
  const ProcessResult r = Run(Concat(kStuckCpu, {"--threads=2", "--time=1", "run"}), watch);
  EXPECT_EQ(r.exit_code, 1) << Show(r);
  EXPECT_LT(r.seconds_after_action, 1 + kGrace + kSlack) << Show(r);
  auto report = Report();
  ASSERT_TRUE(report.ok()) << report.status().ToString() << Show(r);
  EXPECT_EQ(CountOf(r.out, "Threads fairness:"), 1u) << Show(r);
  EXPECT_TRUE(report->forced_shutdown);
  EXPECT_EQ(AbandonedThreads(testing::ReadFile(json_)), "[0,1]");
  EXPECT_NE(r.err.find("abandoned threads 0, 1, still inside the workload past the grace after "
                       "the time limit"),
            std::string::npos)
      << r.err;
  // The verdict is still made: the abandoned threads make it INVALID, in
  // the text and the JSON.
  EXPECT_NE(r.out.find("    INVALID errors: 2 threads (0, 1) abandoned inside an event past the "
                       "--forced-shutdown grace: "),
            std::string::npos)
      << Show(r);
  EXPECT_NE(r.out.find("\nVerdict: INVALID ("), std::string::npos) << Show(r);
  ASSERT_TRUE(report->validity.judged) << Show(r);
  EXPECT_EQ(report->validity.overall(), Overall::kInvalid);
  bool named = false;
  for (const CheckOutcome& c : report->validity.checks) {
    if (c.id != "errors") continue;
    named = true;
    EXPECT_EQ(c.level, CheckLevel::kInvalid) << c.seen;
  }
  EXPECT_TRUE(named) << Show(r);
}

TEST_F(StopTest, StuckEventEndsWithinTheGraceAfterOneSigint) {
  ChildWatch watch;
  watch.during = [](int pid) { kill(pid, SIGINT); };
  watch.delay_ms = 200;
  const ProcessResult r = Run(Concat(kStuckCpu, {"--time=0", "run"}), watch);
  EXPECT_EQ(r.exit_code, 130) << Show(r);
  EXPECT_LT(r.seconds_after_action, kGrace + kSlack) << Show(r);
  auto report = Report();
  ASSERT_TRUE(report.ok()) << report.status().ToString() << Show(r);
  EXPECT_EQ(CountOf(r.out, "Threads fairness:"), 1u) << Show(r);
  EXPECT_TRUE(report->interrupted);
  EXPECT_TRUE(report->forced_shutdown);
  EXPECT_NE(r.err.find("abandoned thread 0, still inside the workload past the grace after the "
                       "stop signal"),
            std::string::npos)
      << r.err;
}

TEST_F(StopTest, ABurstOfSigintsGivesOneCompleteReport) {
  ChildWatch watch;
  watch.during = [](int pid) {
    for (int i = 0; i < 3; ++i) {
      kill(pid, SIGINT);
      usleep(20 * 1000);
    }
  };
  watch.delay_ms = 200;
  const ProcessResult r = Run({"cpu", "--time=30", "run"}, watch);
  EXPECT_EQ(r.exit_code, 130) << Show(r);
  auto report = Report();
  ASSERT_TRUE(report.ok()) << report.status().ToString() << Show(r);
  EXPECT_EQ(CountOf(r.out, "Threads fairness:"), 1u) << Show(r);
  EXPECT_TRUE(report->interrupted);
  EXPECT_FALSE(report->forced_shutdown);
  EXPECT_GT(report->events, 0u);
}

// A run of each kind stopped by one signal, with the JSON report on stdout:
// stdout is that report alone, it parses, and it says it was interrupted.
// "@" in an argument stands for a temporary folder, prepared first.
struct InterruptedRun {
  const char* name;
  std::vector<std::string> prepare;  // empty: nothing to prepare
  std::vector<std::string> run;
};

const std::vector<std::string> kFileioRun = {"fileio", "--file-dir=@", "--file-num=2",
                                             "--file-total-size=1M", "--file-test-mode=rndrw"};
const std::vector<std::string> kSqliteRun = {"oltp_read_write", "--db-driver=sqlite",
                                             "--sqlite-db=@/db.sqlite", "--tables=1",
                                             "--table-size=100"};

const InterruptedRun kInterruptedRuns[] = {
    {"cpu", {}, {"cpu", "--threads=2"}},
    {"fileio", Concat(kFileioRun, {"prepare"}), kFileioRun},
    {"oltp_sqlite", Concat(kSqliteRun, {"prepare"}), kSqliteRun},
    {"memory", {}, {"memory", "--memory-total-size=1000T"}},
};

void PrintTo(const InterruptedRun& c, std::ostream* os) { *os << c.name; }

std::vector<std::string> InFolder(const std::vector<std::string>& args, const std::string& dir) {
  std::vector<std::string> out;
  for (std::string a : args) {
    if (size_t at = a.find('@'); at != std::string::npos) a.replace(at, 1, dir);
    out.push_back(a);
  }
  return out;
}

class InterruptedRunTest : public ::testing::TestWithParam<InterruptedRun> {};

TEST_P(InterruptedRunTest, JsonOnStdoutParsesAndHasTheFlag) {
  testing::TempDir tmp;
  if (!GetParam().prepare.empty()) {
    const ProcessResult p = RunLoadcell(InFolder(GetParam().prepare, tmp.path()));
    ASSERT_EQ(p.exit_code, 0) << Show(p);
  }
  ChildWatch watch;
  watch.during = [](int pid) { kill(pid, SIGINT); };
  watch.marker = "";
  watch.delay_ms = 700;
  const ProcessResult r = RunLoadcell(
      Concat(InFolder(GetParam().run, tmp.path()), {"--time=30", "--format=json", "run"}), watch);
  EXPECT_EQ(r.exit_code, 130) << Show(r);
  auto report = ParseResultJson(r.out, "stdout");
  ASSERT_TRUE(report.ok()) << report.status().ToString() << Show(r);
  EXPECT_TRUE(report->interrupted) << r.out;
  EXPECT_LT(report->total_time_s, 29) << r.out;
  EXPECT_NE(r.err.find("loadcell: interrupted; the report covers the time until the interrupt"),
            std::string::npos)
      << r.err;
}

INSTANTIATE_TEST_SUITE_P(Runs, InterruptedRunTest, ::testing::ValuesIn(kInterruptedRuns),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(StopSignalTest, GnuTimeoutSignallingProcessAndGroupStillGetsTheJsonReport) {
  if (std::system("command -v timeout >/dev/null 2>&1") != 0) GTEST_SKIP() << "no timeout(1)";
  const std::string command =
      std::string("timeout -s INT 0.3 ") + LOADCELL_BINARY + " cpu --format=json run 2>/dev/null";
  for (int i = 0; i < 8; ++i) {
    SCOPED_TRACE(i);
    std::FILE* p = popen(command.c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::string out;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof(buf), p)) > 0) out.append(buf, n);
    pclose(p);
    auto report = ParseResultJson(out, "stdout");
    EXPECT_TRUE(report.ok()) << report.status().ToString() << "\n" << out;
  }
}

// SIGINT during a plain run: the report of what was measured, exit 130;
// with the report in a file, the whole report in place of the old one.
TEST(SignalTest, SigintGivesExit130AndAReport) {
  ProcessResult r = RunLoadcell({"cpu", "--time=30", "--cpu-max-prime=1000"},
                                /*sigint_after_ms=*/300, /*timeout_s=*/20);
  EXPECT_EQ(r.exit_code, 130) << r.err;
  EXPECT_NE(r.out.find("General statistics:"), std::string::npos) << r.out;
}

TEST(OutputSafety, AnInterruptedRunStillPutsItsWholeReportInPlace) {
  testing::TempDir dir;
  dir.Write("res.json", "OLD");
  ProcessResult r = RunLoadcell(
      {"cpu", "--time=30", "--format=json", "--output-file=" + dir.File("res.json"), "run"},
      /*sigint_after_ms=*/300);
  EXPECT_EQ(r.exit_code, 130) << r.err;
  const std::string json = testing::ReadFile(dir.File("res.json"));
  EXPECT_NE(json.find("\"interrupted\": true"), std::string::npos) << json.substr(0, 200);
  std::vector<std::string> left;
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
    left.push_back(e.path().filename().string());
  }
  EXPECT_EQ(left, std::vector<std::string>{"res.json"});
}

}  // namespace
}  // namespace loadcell
