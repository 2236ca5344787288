// Golden tests of the SQLIO-shaped report: a hand-built RunResult and
// header rendered by report/sqlio_report must match tests/golden/data/sqlio_*
// byte for byte. Regenerate after an intended change with
//   LOADCELL_UPDATE_GOLDEN=1 golden_tests --gtest_filter='SqlioGolden*'
// and review the diff.

#include <gtest/gtest.h>

#include <string>

#include "os/file_system.h"
#include "report/sqlio_report.h"
#include "testing/golden.h"
#include "workloads/sqlio/sqlio.h"

namespace loadcell {
namespace {

using testing::ExpectMatchesGolden;

// Two threads on one file, 16 KiB random reads for 10 s: thread 0 did 600
// reads, thread 1 400; latencies spread over 0..30 ms so that every
// histogram column and percentile row has something to show.
RunResult HandBuiltRead() {
  RunResult r;
  r.total_time_s = 10;
  r.events = 1000;
  LatencyStats all, rd, wr, fs;
  rd.kind = "read";
  wr.kind = "write";
  fs.kind = "fsync";
  for (int i = 0; i < 1000; ++i) {
    // 70% at 0.1..0.8 ms, 20% at 1..9 ms, 10% at 10..30 ms.
    uint64_t ns;
    if (i < 700) {
      ns = 100000 + static_cast<uint64_t>(i) * 1000;
    } else if (i < 900) {
      ns = 1000000 + static_cast<uint64_t>(i - 700) * 40000;
    } else {
      ns = 10000000 + static_cast<uint64_t>(i - 900) * 200000;
    }
    all.histogram.Record(ns);
    rd.histogram.Record(ns);
  }
  r.latency = {all, rd, wr, fs};
  // Overlapping I/Os: the busy time is below the latency sum, and the
  // table's AvgLat stays the latency sum over the I/O count.
  r.threads = {{600, 2.4, 1.0}, {400, 1.6, 0.9}};
  r.counter_names = {"reads", "writes", "fsyncs", "bytes_read", "bytes_written"};
  r.counters = {1000, 0, 0, 1000 * 16384, 0};
  return r;
}

// `r` with what RunWorkload adds before reporting: the derived figures and
// SQLIO's metrics.
RunResult Completed(RunResult r) {
  FillDerivedFigures(r);
  SqlioWorkload w(SqlioPlan{}, DefaultFileSystem());
  r.metrics = w.Metrics(r);
  return r;
}

SqlioHeaderInfo Header() {
  SqlioHeaderInfo h;
  h.version = "0.0.0-golden";
  h.latency = 'S';
  h.param_file = "param.txt";
  h.files = {{"c:\\testfile.dat", "/data/testfile.dat", 2, 0, 0x0, 100, true, false},
             {"d:\\second.dat", "/mnt/d/second.dat", 1, 2, 0x3, 8, true, true}};
  h.write = false;
  h.seconds = 10;
  h.block_kb = 16;
  h.access = "random";
  h.outstanding = 4;
  h.buffering = "hardware disk cache, no file cache";
  h.open_flags = "O_RDWR|O_DIRECT";
  h.engine = "io_uring";
  h.drives = {"drive C: is the current folder /data (map it with --drive=C=/folder)",
              "drive D: is /mnt/d (--drive=D=/mnt/d)"};
  h.start_block = 8;  // -S8 on random I/O: blocks from there to the end
  h.notes = {"-m2: each outstanding I/O has a buffer of its own already"};
  return h;
}

// -f16 -i32 -S4 -b8 -t2 on one file: the stripe pattern.
SqlioHeaderInfo StripeHeader() {
  SqlioHeaderInfo h;
  h.version = "0.0.0-golden";
  h.files = {{"testfile.dat", "/data/testfile.dat", 2, 0, 0x0, 100, false, false}};
  h.write = true;
  h.seconds = 30;
  h.block_kb = 8;
  h.access = "striped";
  h.stripe = 16;
  h.ios_per_run = 32;
  h.start_block = 4;
  h.buffering = "no file cache, write-through";
  h.open_flags = "O_RDWR|O_DIRECT|O_DSYNC";
  h.engine = "sync";
  return h;
}

SqlioReportSettings Settings(bool classic) {
  SqlioReportSettings s;
  s.latency = true;
  s.classic = classic;
  s.block_size = 16384;
  s.thread_files = {"c:\\testfile.dat", "c:\\testfile.dat"};
  s.cpu_percent = 12.5;
  s.cpu_user_s = 0.25;
  s.cpu_system_s = 2.25;
  return s;
}

TEST(SqlioGolden, Header) { ExpectMatchesGolden("sqlio_header.txt", FormatSqlioHeader(Header())); }

TEST(SqlioGolden, StripeHeader) {
  ExpectMatchesGolden("sqlio_header_stripe.txt", FormatSqlioHeader(StripeHeader()));
  SqlioHeaderInfo v111 = StripeHeader();
  v111.same_runs = true;
  const std::string text = FormatSqlioHeader(v111);
  EXPECT_NE(text.find("every run on the same blocks (-v1.1.1)"), std::string::npos) << text;
}

TEST(SqlioGolden, FullReport) {
  ExpectMatchesGolden("sqlio_full.txt",
                      FormatSqlioResults(Completed(HandBuiltRead()), Settings(false)));
}

TEST(SqlioGolden, ClassicReport) {
  ExpectMatchesGolden("sqlio_classic.txt",
                      FormatSqlioResults(Completed(HandBuiltRead()), Settings(true)));
}

TEST(SqlioGolden, InterruptedWithoutLatency) {
  RunResult r = HandBuiltRead();
  r.interrupted = true;
  r.total_time_s = 2.5;
  SqlioReportSettings s = Settings(true);
  s.latency = false;
  s.cpu_percent.reset();
  s.notes = {"thread 1: affinity mask 0x4 not applied (Invalid argument)"};
  ExpectMatchesGolden("sqlio_interrupted.txt", FormatSqlioResults(Completed(r), s));
}

// A run of no measured time: the report and the metrics both say 0 (the
// metrics used to divide by 1 s where the report printed 0).
TEST(SqlioGolden, ZeroLengthRunReportAgreesWithMetrics) {
  RunResult r = HandBuiltRead();
  r.total_time_s = 0;
  r = Completed(r);
  ASSERT_GE(r.metrics.size(), 2u);
  EXPECT_EQ(r.metrics[0].key, "ios_per_second");
  EXPECT_EQ(r.metrics[0].value, 0);
  EXPECT_EQ(r.metrics[1].key, "mbs_per_second");
  EXPECT_EQ(r.metrics[1].value, 0);
  const std::string text = FormatSqlioResults(r, Settings(true));
  EXPECT_NE(text.find("IOs/sec:     0.00\nMBs/sec:     0.00\n"), std::string::npos) << text;
}

// The histogram's columns (derived once, into the result) add up and sit
// where the latencies are.
TEST(SqlioGolden, MsHistogramColumns) {
  const std::array<double, kWholeMsColumns> pct = Completed(HandBuiltRead()).latency_whole_ms_pct;
  double sum = 0;
  for (double p : pct) sum += p;
  EXPECT_NEAR(sum, 100.0, 1e-9);
  EXPECT_NEAR(pct[0], 70.0, 0.5);
  EXPECT_NEAR(pct[24], 3.0, 0.5);  // 24..29.8 ms
}

}  // namespace
}  // namespace loadcell
