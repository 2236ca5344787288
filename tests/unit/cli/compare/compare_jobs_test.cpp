// Results of several jobs (fio's) compared job by job: matched by name (the
// k-th of a name with the k-th), the job set, a job's target facts and the
// options that change what it measures (cli/commands/comparability.h,
// compare_jobs.h).

#include "cli/commands/compare_jobs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <string>
#include <vector>

#include "cli/commands/comparability.h"
#include "cli/commands/compare_command.h"
#include "testing/csv_rows.h"

namespace loadcell {
namespace {

// A fio job's part: a psync target and its options as given.
ResultData JobPartOf(const std::string& name,
                     const std::vector<std::pair<std::string, std::string>>& options,
                     double events_per_second = 1000) {
  ResultData j;
  j.job_name = name;
  j.manifest.test = "fio";
  j.manifest.targets_recorded = true;
  TargetManifest t;
  t.engine = "psync";
  t.queue_depth_asked = 1;
  t.queue_depth = 1;
  t.write_pattern = "random";
  t.file_set_bytes = 1u << 20;
  j.manifest.targets.push_back(t);
  for (const auto& [k, v] : options) j.manifest.options.push_back({"fio", k, v, false});
  j.events_per_second = events_per_second;
  j.latency.percentiles = {{"99", 2000000}};
  j.counter_rates = {{"bytes_read", 4.0 * (1 << 20)}, {"bytes_written", 0}};
  return j;
}

// A run of the jobs `parts`, its own figures as its first job's.
ResultData RunOf(std::vector<ResultData> parts, const std::string& source) {
  ResultData r = parts.front();
  r.job_name.clear();
  r.source = source;
  r.manifest.options.clear();
  r.jobs = std::move(parts);
  return r;
}

std::string Differences(const Comparability& c) {
  std::string out;
  for (const FactDifference& d : c.differences) {
    out += (out.empty() ? "" : "; ") + d.name + " " + d.a + " vs " + d.b;
  }
  return out;
}

TEST(CompareJobs, ClonesOfOneNameAreMatchedInOrder) {
  const ResultData run = RunOf({JobPartOf("r", {}), JobPartOf("r", {}), JobPartOf("w", {})}, "a");
  EXPECT_EQ(JobKeys(run), (std::vector<std::string>{"r", "r #2", "w"}));
  EXPECT_TRUE(JobKeys(ResultData()).empty());
}

TEST(CompareJobs, TheJobSetAndWhatAJobMeasuresAreNamed) {
  const ResultData a = RunOf({JobPartOf("r", {{"bs", "4k"}, {"runtime", "1"}}),
                              JobPartOf("r", {{"bs", "4k"}}), JobPartOf("w", {{"rw", "write"}})},
                             "a");
  ResultData second_b = JobPartOf("r", {{"bs", "4k"}});
  second_b.manifest.targets[0].engine = "libaio";
  const ResultData b =
      RunOf({JobPartOf("r", {{"bs", "8k"}, {"runtime", "2"}}), second_b, JobPartOf("x", {})}, "b");
  const Comparability c = CompareFacts(a, b);
  EXPECT_FALSE(c.comparable());
  // A run length is not what a job measures; its block size and engine are.
  EXPECT_EQ(Differences(c),
            "job set w vs none; job r bs 4k vs 8k; job r #2 engine psync vs libaio; job set none "
            "vs x");
  EXPECT_TRUE(CompareFacts(a, a).comparable());
}

TEST(CompareJobs, TheTableHasEachJobsRatiosToAsAndSaysWhatIsMissing) {
  const ResultData a = RunOf({JobPartOf("r", {}, 1000), JobPartOf("w", {}, 500)}, "a");
  const ResultData b = RunOf({JobPartOf("r", {}, 1500)}, "b");
  const std::string table = FormatJobComparison({{a}, {b}});
  EXPECT_NE(table.find("Jobs, matched by name"), std::string::npos) << table;
  EXPECT_TRUE(std::regex_search(
      table, std::regex("\nr +B +1500\\.00 +4\\.00 +2 +1\\.50x +1\\.00x +1\\.00x\n")))
      << table;
  EXPECT_TRUE(std::regex_search(table, std::regex("\nw +B +\\(no such job\\)\n"))) << table;
  // Runs of one workload: no jobs' table.
  ResultData plain;
  EXPECT_EQ(FormatJobComparison({{plain}, {plain}}), "");
}

// The CSV's cell of the row of `result` and `job` in the column `name`;
// "(none)" when there is no such row or column.
std::string CsvCell(const std::string& csv, const std::string& result, const std::string& job,
                    const std::string& name) {
  const std::vector<std::vector<std::string>> rows = testing::CsvRows(csv);
  if (rows.empty()) return "(none)";
  const auto column = std::find(rows[0].begin(), rows[0].end(), name);
  if (column == rows[0].end()) return "(none)";
  const size_t at = static_cast<size_t>(column - rows[0].begin());
  for (const auto& r : rows) {
    if (r.size() == rows[0].size() && r[0] == result && r[1] == job) return r[at];
  }
  return "(none)";
}

TEST(CompareJobs, TheCsvJudgesEachJobOverItsGroupsRuns) {
  // Three runs a side: r twice as fast in B (and with another block size),
  // w the same; B's second run has no w.
  std::vector<ResultData> a_runs, b_runs;
  for (int k = 0; k < 3; ++k) {
    a_runs.push_back(RunOf(
        {JobPartOf("r", {{"bs", "4k"}}, 1000 + 10 * k), JobPartOf("w", {{"rw", "write"}}, 500)},
        "a" + std::to_string(k)));
    std::vector<ResultData> parts = {JobPartOf("r", {{"bs", "8k"}}, 2000 + 10 * k)};
    if (k != 1) parts.push_back(JobPartOf("w", {{"rw", "write"}}, 500 + k));
    b_runs.push_back(RunOf(std::move(parts), "b" + std::to_string(k)));
  }
  const std::string csv = FormatComparison({a_runs, b_runs}, "csv", nullptr);
  ASSERT_EQ(csv.rfind("result,job,runs,", 0), 0u) << csv;
  EXPECT_EQ(CsvCell(csv, "A", "", "runs"), "3") << csv;
  // r: the mean over the group's runs, judged beyond the spread, its option named.
  EXPECT_EQ(CsvCell(csv, "B", "r", "runs"), "3") << csv;
  EXPECT_EQ(CsvCell(csv, "B", "r", "events_per_second"), "2010.000") << csv;
  EXPECT_EQ(CsvCell(csv, "B", "r", "events_per_second_min"), "2000.000") << csv;
  EXPECT_EQ(CsvCell(csv, "B", "r", "change_events_per_second_pct"), "99.01") << csv;
  EXPECT_EQ(CsvCell(csv, "B", "r", "beyond_spread"), "yes") << csv;
  EXPECT_EQ(CsvCell(csv, "B", "r", "noise"), "beyond spread") << csv;
  EXPECT_EQ(CsvCell(csv, "B", "r", "comparable"), "no") << csv;
  EXPECT_EQ(CsvCell(csv, "B", "r", "differences"), "bs 4k vs 8k") << csv;
  EXPECT_EQ(CsvCell(csv, "A", "r", "beyond_spread"), "") << csv;
  // w: in two of B's runs, too few to judge; the same options.
  EXPECT_EQ(CsvCell(csv, "B", "w", "runs"), "2") << csv;
  EXPECT_EQ(CsvCell(csv, "B", "w", "events_per_second"), "501.000") << csv;
  EXPECT_EQ(CsvCell(csv, "B", "w", "noise"), kTooFewRuns) << csv;
  EXPECT_EQ(CsvCell(csv, "B", "w", "beyond_spread"), "") << csv;
  EXPECT_EQ(CsvCell(csv, "B", "w", "comparable"), "yes") << csv;
  // Runs of one workload: no job column, no job rows.
  ResultData plain;
  plain.source = "p";
  const std::string one = FormatComparison({{plain}, {plain}}, "csv", nullptr);
  EXPECT_EQ(one.rfind("result,runs,", 0), 0u) << one;
  EXPECT_EQ(std::count(one.begin(), one.end(), '\n'), 3) << one;
}

}  // namespace
}  // namespace loadcell
