// Pattern tests of the CSV reporter.

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "testing/report_fixture.h"

namespace loadcell {
namespace {

using testing::EmptyResult;
using testing::FakeWorkload;
using testing::FixtureResult;
using testing::FixtureSettings;
using testing::Format;
using testing::Render;

// Splits one CSV record (RFC 4180 quoting).
std::vector<std::string> Fields(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        out.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

std::vector<std::vector<std::string>> Rows(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) rows.push_back(Fields(line));
  return rows;
}

TEST(CsvReporterTest, HeaderIntervalsAndTotal) {
  FakeWorkload w;
  const auto rows = Rows(Render(Format::kCsv, w, FixtureResult(), FixtureSettings()));
  ASSERT_EQ(rows.size(), 4u);
  const std::vector<std::string> header = {
      "time_s",     "duration_s", "threads",    "events",     "events_per_second", "errors",
      "lat_min_ms", "lat_avg_ms", "lat_p50_ms", "lat_p95_ms", "lat_p99_ms",        "lat_p999_ms",
      "lat_max_ms", "ops",        "bytes",      "verdict"};
  EXPECT_EQ(rows[0], header);
  for (const auto& r : rows) EXPECT_EQ(r.size(), header.size());
  EXPECT_EQ(rows[1][0], "1.0000");
  EXPECT_EQ(rows[1][3], "500");
  EXPECT_EQ(rows[1][4], "500.000");
  EXPECT_EQ(rows[1][6], "0.003000");
  EXPECT_EQ(rows[2][13], "500");
  EXPECT_EQ(rows[3][0], "total");
  EXPECT_EQ(rows[3][1], "2.0005");
  EXPECT_EQ(rows[3][3], "1000");
  EXPECT_EQ(rows[3][12], "15.000000");
  EXPECT_EQ(rows[3][14], "4096000");
  // The verdict on the final row only.
  EXPECT_EQ(rows[1][15], "");
  EXPECT_EQ(rows[3][15], "valid");
}

TEST(CsvReporterTest, AResultWithoutVerdictLeavesItsColumnEmpty) {
  FakeWorkload w;
  RunResult r = FixtureResult();
  r.validity = Validity{};  // --verdict=off
  const auto rows = Rows(Render(Format::kCsv, w, r, FixtureSettings()));
  ASSERT_EQ(rows.size(), 4u);
  ASSERT_EQ(rows[3].size(), 16u);
  EXPECT_EQ(rows[3][15], "");
}

TEST(CsvReporterTest, ZeroEventsHaveNoNan) {
  FakeWorkload w;
  const std::string text = Render(Format::kCsv, w, EmptyResult(), FixtureSettings());
  EXPECT_EQ(text.find("nan"), std::string::npos);
  EXPECT_EQ(text.find("inf"), std::string::npos);
  const auto rows = Rows(text);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1][4], "0.000");
  EXPECT_EQ(rows[1][6], "0.000000");
}

TEST(CsvReporterTest, RowsKeepTheHeaderWidthWhateverTheCounters) {
  FakeWorkload w;
  RunResult r = FixtureResult();
  r.intervals[0].counters = {1};           // fewer than named
  r.intervals[1].counters = {1, 2, 3, 4};  // more than named
  r.counters.clear();
  const auto rows = Rows(Render(Format::kCsv, w, r, FixtureSettings()));
  ASSERT_EQ(rows.size(), 4u);
  for (const auto& row : rows) EXPECT_EQ(row.size(), rows[0].size());
  EXPECT_EQ(rows[1][14], "0");
}

TEST(CsvReporterTest, HeaderWithoutOnStart) {
  FakeWorkload w;
  std::ostringstream out;
  auto rep = MakeCsvReporter(out, w, FixtureSettings());
  rep->OnEnd(FixtureResult());
  const auto rows = Rows(out.str());
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0][0], "time_s");
  EXPECT_EQ(rows[1][0], "total");
}

}  // namespace
}  // namespace loadcell
