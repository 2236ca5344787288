// The verdict's interval, thread and rate checks through the binary
// (docs/validity.md), each made to find what it looks for by a Lua script
// whose events are paced by their count (scripts/verdict_pace.lua; POSIX:
// its sleep is usleep through the FFI): steady-state, warm-up, fairness and
// the rate's lag. Each run is a second or two. The seam tests of the same
// checks are tests/unit/validity/checks_test.cpp's.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"
#include "testing/verdict_run.h"

namespace loadcell {
namespace {

using testing::ProcessResult;
using testing::RunLoadcell;
using testing::ShowVerdictRun;
using testing::VerdictCheckOf;

// A run of verdict_pace.lua with `shape` and `extra` options, as JSON.
nlohmann::json PacedRun(const std::string& shape, const std::vector<std::string>& extra) {
  std::vector<std::string> args = {
      std::string(LOADCELL_SOURCE_DIR) + "/tests/integration/scripts/verdict_pace.lua",
      "--shape=" + shape, "--format=json"};
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back("run");
  const ProcessResult r = RunLoadcell(args);
  EXPECT_EQ(r.exit_code, 0) << ShowVerdictRun(r);
  nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << ShowVerdictRun(r);
  return j.is_discarded() ? nlohmann::json::object() : j;
}

// Each event sleeps longer than the last: 7 intervals of 0.2 s whose rate
// falls from thousands to about a hundred a second.
TEST(VerdictChecks, ARateThatFallsAllRunLongIsNoSteadyState) {
  const nlohmann::json j = PacedRun("slowing", {"--time=1.4", "--report-interval=0.2"});
  const nlohmann::json c = VerdictCheckOf(j, "steady-state");
  ASSERT_FALSE(c.is_null()) << j.dump();
  EXPECT_EQ(c["level"], "warn") << c.dump();
  EXPECT_NE(c["seen"].get<std::string>().find("in the first third of the intervals"),
            std::string::npos)
      << c.dump();
  EXPECT_GT(c["figures"]["first_third_events_per_second"].get<double>(),
            c["figures"]["last_third_events_per_second"].get<double>())
      << c.dump();
  EXPECT_GT(c["figures"]["drift"].get<double>(), 0.2) << c.dump();
  EXPECT_NE(c["advice"].get<std::string>().find("--warmup-time"), std::string::npos) << c.dump();
}

// The first 1000 events do nothing, then 2 ms each: the first interval runs
// far above the median of the others.
TEST(VerdictChecks, AFirstIntervalFarAboveTheRestIsAWarmUpInTheFigures) {
  const nlohmann::json j = PacedRun("fast", {"--time=1", "--report-interval=0.2"});
  const nlohmann::json c = VerdictCheckOf(j, "warm-up");
  ASSERT_FALSE(c.is_null()) << j.dump();
  EXPECT_EQ(c["level"], "warn") << c.dump();
  EXPECT_NE(c["seen"].get<std::string>().find("the start is in the figures"), std::string::npos)
      << c.dump();
  EXPECT_GT(c["figures"]["ratio"].get<double>(), 1.5) << c.dump();
  EXPECT_EQ(c["advice"], "add --warmup-time (at least 0.2s)") << c.dump();
}

// Thread 0 sleeps forty times as long per event as the other three: it does
// far fewer events than their mean.
TEST(VerdictChecks, AThreadFarBehindTheOthersIsUnfair) {
  const nlohmann::json j = PacedRun("unfair", {"--threads=4", "--time=1"});
  const nlohmann::json c = VerdictCheckOf(j, "fairness");
  ASSERT_FALSE(c.is_null()) << j.dump();
  EXPECT_EQ(c["level"], "warn") << c.dump();
  EXPECT_EQ(c["figures"]["threads"], 4) << c.dump();
  EXPECT_GT(c["figures"]["min_below_mean"].get<double>(), 0.25) << c.dump();
  EXPECT_NE(c["seen"].get<std::string>().find("the slowest of 4 threads did "), std::string::npos)
      << c.dump();
}

// Under --rate=100 events of 2 ms keep the rate, but three events of 100 ms
// early in the run make the ones after them start late, by more than the
// latency median, before the schedule is caught up.
// One of four threads runs empty events back to back, the others sleep
// 20 ms per event: the process' CPU time over its threads is about a
// quarter of theirs, and only that thread's own CPU time (with its wait for
// a CPU on a busy host) shows it saturated.
TEST(VerdictChecks, OneSaturatedWorkerAmongIdleOnesIsAClientLimit) {
  const nlohmann::json j = PacedRun("one_busy", {"--threads=4", "--time=1"});
  const nlohmann::json c = VerdictCheckOf(j, "client-cpu");
  ASSERT_FALSE(c.is_null()) << j.dump();
  EXPECT_EQ(c["level"], "warn") << c.dump();
  EXPECT_NE(c["seen"].get<std::string>().find("worker thread 1 of 4 "), std::string::npos)
      << c.dump();
  EXPECT_EQ(c["figures"]["busiest_worker"], 1) << c.dump();
  EXPECT_GE(c["figures"]["busiest_worker_wanting_cpu"].get<double>(), 0.9) << c.dump();
  EXPECT_LT(c["figures"]["other_workers_cpu_max"].get<double>(), 0.5) << c.dump();
  EXPECT_LT(c["figures"]["cpu_per_thread"].get<double>(), 0.9) << c.dump();
}

TEST(VerdictChecks, EventsThatStartLateUnderARateWarn) {
  const nlohmann::json j = PacedRun("stalls", {"--rate=100", "--time=2"});
  const nlohmann::json c = VerdictCheckOf(j, "rate");
  ASSERT_FALSE(c.is_null()) << j.dump();
  EXPECT_EQ(c["level"], "warn") << c.dump();
  EXPECT_NE(c["seen"].get<std::string>().find("of the events started more than 1 ms late"),
            std::string::npos)
      << c.dump();
  EXPECT_GT(c["figures"]["max_lag_ms"].get<double>(),
            c["figures"]["latency_median_ms"].get<double>())
      << c.dump();
  EXPECT_GT(c["figures"]["late_fraction"].get<double>(), 0.01) << c.dump();
}

// Errors a script declares ignorable (sysbench.hooks.sql_error_ignorable)
// on SQLite: every other event fails once on a missing table and is
// restarted; the run succeeds, and the errors check warns with the count
// (the figures count only what succeeded), in the text and the JSON.
TEST(VerdictChecks, IgnoredDatabaseErrorsWarnWithTheirCount) {
  testing::TempDir dir;
  const std::string script =
      dir.Write("ignored.lua",
                "local n = 0\n"
                "function thread_init()\n"
                "  con = sysbench.sql.driver():connect()\n"
                "end\n"
                "function sysbench.hooks.sql_error_ignorable(err)\n"
                "  return true\n"
                "end\n"
                "function event()\n"
                "  n = n + 1\n"
                "  if n % 4 == 1 then con:query(\"SELECT * FROM no_such_table\") end\n"
                "  con:query(\"SELECT 1\")\n"
                "end\n");
  const std::vector<std::string> base = {script, "--db-driver=sqlite",
                                         "--sqlite-db=" + (dir / "x.db"), "--events=100"};
  std::vector<std::string> json_args = base;
  json_args.insert(json_args.end(), {"--format=json", "run"});
  const ProcessResult r = RunLoadcell(json_args);
  ASSERT_EQ(r.exit_code, 0) << ShowVerdictRun(r);
  const nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << ShowVerdictRun(r);
  const uint64_t ignored = j["summary"]["counters"].value("ignored_errors", uint64_t{0});
  EXPECT_GE(ignored, 20u) << j["summary"].dump();
  const nlohmann::json c = VerdictCheckOf(j, "errors");
  ASSERT_FALSE(c.is_null()) << j.dump();
  EXPECT_EQ(c["level"], "warn") << c.dump();
  EXPECT_EQ(c["figures"]["ignored_errors"].get<double>(), static_cast<double>(ignored)) << c.dump();
  EXPECT_NE(c["seen"].get<std::string>().find(std::to_string(ignored) + " ignored_errors"),
            std::string::npos)
      << c.dump();
  EXPECT_NE(c["seen"].get<std::string>().find(": the figures count only what succeeded"),
            std::string::npos)
      << c.dump();
  // SQLite has no --sqlite-ignore-errors: the advice names no such option.
  EXPECT_EQ(c["advice"].get<std::string>().find("ignore-errors"), std::string::npos) << c.dump();
  // The text's verdict has the line, and the run is valid with warnings at
  // most (nothing here is INVALID).
  std::vector<std::string> text_args = base;
  text_args.push_back("run");
  const ProcessResult t = RunLoadcell(text_args);
  ASSERT_EQ(t.exit_code, 0) << ShowVerdictRun(t);
  EXPECT_NE(t.out.find("    WARN errors: "), std::string::npos) << t.out;
  EXPECT_NE(t.out.find(" ignored_errors"), std::string::npos) << t.out;
  EXPECT_EQ(testing::VerdictLastLine(t.out).rfind("Verdict: valid with warnings (", 0), 0u)
      << t.out;
}

}  // namespace
}  // namespace loadcell
