// Golden tests of the compare and sweep tables: fixed results (the report
// fixture, varied) rendered as text and CSV must match the files under
// tests/golden/data/ byte for byte. Regenerate after an intended change with
//   LOADCELL_UPDATE_GOLDEN=1 golden_tests --gtest_filter='CompareSweepGolden*'
// and review the diff.

#include <gtest/gtest.h>

#include <string>

#include "cli/commands/compare_command.h"
#include "cli/commands/sweep_command.h"
#include "report/json/json_reader.h"
#include "testing/golden.h"
#include "testing/report_fixture.h"
#include "testing/status.h"

namespace loadcell {
namespace {

using testing::FakeWorkload;
using testing::FixtureClusterResult;
using testing::FixtureResult;
using testing::FixtureSettings;
using testing::Format;
using testing::HistogramOf;
using testing::Render;

using testing::ExpectMatchesGolden;

// The fixture result with its time stretched by `time_factor` (so events/s
// changes) and its slow events made `slow_ns` long.
ResultData Variant(const std::string& source, double time_factor, uint64_t slow_ns,
                   const std::string& threads = "2") {
  RunResult r = FixtureResult();
  r.total_time_s *= time_factor;
  r.latency[0].histogram = HistogramOf({{3000, 500}, {250000, 400}, {slow_ns, 90}, {15000000, 10}});
  r.manifest.options[0].value = threads;
  FakeWorkload w;
  Result<ResultData> d = ParseResultJson(Render(Format::kJson, w, r, FixtureSettings()), source);
  EXPECT_OK(d);
  return d.ok() ? *d : ResultData();
}

TEST(CompareSweepGolden, CompareTwoResultsText) {
  std::vector<std::string> warnings;
  std::string text =
      FormatComparison({{Variant("before.json", 1, 1200000)}, {Variant("after.json", 0.8, 900000)}},
                       "text", &warnings);
  ExpectMatchesGolden("compare_two.txt", text);
  EXPECT_TRUE(warnings.empty());
}

// Two OLTP-like results on PostgreSQL servers set up differently: every
// setting that differs is named in the comparability list, with both
// values.
TEST(CompareSweepGolden, CompareDatabaseSettingsText) {
  std::vector<ResultData> results;
  for (const char* commit : {"on", "off"}) {
    RunResult r = FixtureResult();
    r.manifest.options.push_back({"fake", "db-driver", "pgsql", false});
    r.manifest.database_settings = {{"server", "PostgreSQL 16.4"},
                                    {"default_transaction_isolation", "read committed"},
                                    {"fsync", commit},
                                    {"synchronous_commit", commit},
                                    {"full_page_writes", "on"}};
    FakeWorkload w;
    Result<ResultData> d = ParseResultJson(Render(Format::kJson, w, r, FixtureSettings()),
                                           std::string("commit-") + commit + ".json");
    ASSERT_OK(d);
    results.push_back(*d);
  }
  const std::string text = FormatComparison({{results[0]}, {results[1]}}, "text", nullptr);
  ExpectMatchesGolden("compare_database.txt", text);
  EXPECT_NE(text.find("  B: not comparable: fsync on vs off, synchronous_commit on vs off\n"),
            std::string::npos)
      << text;
}

// A run across two ranks against a run of one process: who ran each is
// stated, warned about, and the ranks' table follows.
TEST(CompareSweepGolden, CompareARunAcrossProcessesText) {
  FakeWorkload w;
  Result<ResultData> mpi = ParseResultJson(
      Render(Format::kJson, w, FixtureClusterResult(), FixtureSettings()), "mpi.json");
  ASSERT_OK(mpi);
  std::vector<std::string> warnings;
  const std::string text =
      FormatComparison({{*mpi}, {Variant("solo.json", 1, 1200000)}}, "text", &warnings);
  ExpectMatchesGolden("compare_ranks.txt", text);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0],
            "B differs from A in who ran it: 2 ranks on 2 hosts (c1, c2) in A, one process in B");
  const std::string csv =
      FormatComparison({{*mpi}, {Variant("solo.json", 1, 1200000)}}, "csv", nullptr);
  EXPECT_NE(csv.find(",beyond_spread,ranks,hosts,comparable,differences,noise,validity,"
                     "checks_not_passed\n"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find(",,,,2,c1 c2,,,,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",1,,yes,,too few runs to call a difference,"), std::string::npos) << csv;
}

TEST(CompareSweepGolden, CompareThreeResultsCsv) {
  std::vector<std::string> warnings;
  std::string csv = FormatComparison({{Variant("a.json", 1, 1200000)},
                                      {Variant("b.json", 0.8, 900000)},
                                      {Variant("c.json", 1.25, 2000000, "4")}},
                                     "csv", &warnings);
  ExpectMatchesGolden("compare_three.csv", csv);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "C differs from A in --threads: 2 in A, 4 in C");
}

TEST(CompareSweepGolden, CompareRepeatedRunsJudgesTheSpread) {
  std::vector<std::string> warnings;
  std::string text =
      FormatComparison({{Variant("a1.json", 1, 1200000), Variant("a2.json", 1.02, 1250000),
                         Variant("a3.json", 1.01, 1220000)},
                        {Variant("b1.json", 0.8, 1150000), Variant("b2.json", 0.79, 1300000),
                         Variant("b3.json", 0.81, 1200000)}},
                       "text", &warnings);
  ExpectMatchesGolden("compare_groups.txt", text);
  EXPECT_NE(text.find("beyond spread"), std::string::npos);  // events/s: ranges apart
  EXPECT_NE(text.find("within spread"), std::string::npos);  // p99: ranges overlap
  EXPECT_EQ(text.find("too few runs"), std::string::npos) << text;
  // The same ranges from two runs a side: too few to call a difference.
  const std::string two =
      FormatComparison({{Variant("a1.json", 1, 1200000), Variant("a2.json", 1.02, 1250000)},
                        {Variant("b1.json", 0.8, 1150000), Variant("b2.json", 0.79, 1300000)}},
                       "text", nullptr);
  // No row's noise cell (the explanation below the table names both words).
  EXPECT_EQ(two.find(" spread\n"), std::string::npos) << two;
  EXPECT_NE(two.find("  too few runs\n"), std::string::npos) << two;
  EXPECT_NE(two.find("  B vs A: too few runs to call a difference (2 and 2 runs)\n"),
            std::string::npos)
      << two;
}

SweepTable FixtureSweep(int repeat) {
  SweepTable t;
  t.test = "fake";
  t.options = {"threads", "fake-block-size"};
  t.repeat = repeat;
  const double factors[] = {1.0, 0.6, 0.4, 0.35};
  int i = 0;
  for (const char* threads : {"1", "2"}) {
    for (const char* bs : {"4K", "64K"}) {
      t.values.push_back({threads, bs});
      std::vector<ResultData> runs;
      for (int rep = 0; rep < repeat; ++rep) {
        runs.push_back(Variant("p.json", factors[i] * (1 + 0.02 * rep), 1200000 + 100000 * i));
      }
      t.runs.push_back(std::move(runs));
      ++i;
    }
  }
  return t;
}

TEST(CompareSweepGolden, SweepText) {
  ExpectMatchesGolden("sweep.txt", FormatSweep(FixtureSweep(1), "text"));
}

// A sweep under a launcher: its table says across whom every point ran.
TEST(CompareSweepGolden, SweepAcrossProcessesSaysWhoRanIt) {
  SweepTable t = FixtureSweep(1);
  for (std::vector<ResultData>& runs : t.runs) runs[0].cluster = FixtureClusterResult().cluster;
  const std::string text = FormatSweep(t, "text");
  EXPECT_EQ(text.rfind("Sweep of fake: 4 points, each across 2 ranks on 2 hosts (c1, c2)\n", 0), 0u)
      << text;
  EXPECT_EQ(FormatSweep(FixtureSweep(1), "text").find("across"), std::string::npos);
}

// Each point's runs' verdicts merged: the text's last column and the CSV's
// last; with --verdict=off (no run judged) the text has no such column.
TEST(CompareSweepGolden, SweepPointsCarryTheirRunsVerdict) {
  SweepTable t = FixtureSweep(2);
  ASSERT_TRUE(t.runs[0][0].validity.judged);
  t.runs[1][1].validity.checks[0].level = CheckLevel::kInvalid;
  const std::string text = FormatSweep(t, "text");
  EXPECT_NE(text.find(" verdict\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  " + VerdictLine(t.runs[0][0].validity) + "\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  INVALID ("), std::string::npos) << text;
  const std::string csv = FormatSweep(t, "csv");
  EXPECT_NE(csv.find(",verdict\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",invalid\n"), std::string::npos) << csv;
  for (std::vector<ResultData>& runs : t.runs) {
    for (ResultData& r : runs) r.validity = Validity{};
  }
  EXPECT_EQ(FormatSweep(t, "text").find("verdict"), std::string::npos);
  EXPECT_NE(FormatSweep(t, "csv").find(",verdict\n"), std::string::npos);
}

TEST(CompareSweepGolden, SweepCsv) {
  ExpectMatchesGolden("sweep.csv", FormatSweep(FixtureSweep(1), "csv"));
}

TEST(CompareSweepGolden, SweepRepeatedAndInterruptedText) {
  SweepTable t = FixtureSweep(3);
  t.runs[3].clear();  // the last point did not finish
  t.interrupted = true;
  ExpectMatchesGolden("sweep_repeat.txt", FormatSweep(t, "text"));
}

}  // namespace
}  // namespace loadcell
