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

}  // namespace
}  // namespace loadcell
