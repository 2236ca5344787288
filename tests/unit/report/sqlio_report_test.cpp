// The SQLIO-shaped report's latency percentiles: a nonzero latency never
// prints as 0.000 (they round as every latency for humans, report/format.h).

#include "report/sqlio_report.h"

#include <gtest/gtest.h>

#include <string>

namespace loadcell {
namespace {

TEST(SqlioReportTest, SubMicrosecondLatenciesKeepTwoSignificantDigits) {
  RunResult r;
  r.total_time_s = 1;
  r.events = 10;
  LatencyStats all;
  LatencyStats rd;
  rd.kind = "read";
  for (int i = 0; i < 10; ++i) {
    all.histogram.Record(500);  // 0.0005 ms
    rd.histogram.Record(500);
  }
  r.latency = {all, rd};
  r.threads = {{10, 0.5, 0.5}};
  r.counter_names = {"reads", "writes", "fsyncs", "bytes_read", "bytes_written"};
  r.counters = {10, 0, 0, 10 * 4096, 0};
  SqlioReportSettings s;
  s.latency = true;
  s.block_size = 4096;
  s.thread_files = {"testfile.dat"};
  const std::string text = FormatSqlioResults(r, s);
  const size_t min_row = text.find("    min |");
  ASSERT_NE(min_row, std::string::npos) << text;
  const std::string line = text.substr(min_row, text.find('\n', min_row) - min_row);
  EXPECT_EQ(line.find("0.000 "), std::string::npos) << line;
  EXPECT_NE(line.find("0.00050"), std::string::npos) << line;
}

TEST(SqlioReportTest, TheVerdictFollowsSqliosOwnOutput) {
  RunResult r;
  r.total_time_s = 1;
  r.events = 10;
  r.latency = {LatencyStats{}};
  r.threads = {{10, 0.5, 0.5}};
  SqlioReportSettings s;
  s.block_size = 4096;
  s.thread_files = {"testfile.dat"};
  s.notes = {"a note"};
  EXPECT_EQ(FormatSqlioResults(r, s).find("Verdict"), std::string::npos);  // not judged
  r.validity.judged = true;
  r.validity.checks = {
      {"unwritten-data", CheckLevel::kInvalid, "1 MiB of the 1 MiB read lie in holes", "x", {}}};
  const std::string text = FormatSqlioResults(r, s);
  const size_t note = text.find("note: a note\n");
  const size_t block = text.find("Validity (1 checks: 0 passed, 1 invalid):\n");
  ASSERT_NE(note, std::string::npos) << text;
  ASSERT_NE(block, std::string::npos) << text;
  EXPECT_LT(note, block);
  EXPECT_NE(text.find("    INVALID unwritten-data: 1 MiB"), std::string::npos);
  EXPECT_EQ(text.substr(text.size() - 21), "Verdict: INVALID (1)\n");
}

}  // namespace
}  // namespace loadcell
