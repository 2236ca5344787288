// Pattern tests of the text reporter: sysbench's labels and column layout,
// readable small latencies, no NaN, the optional blocks.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "testing/report_fixture.h"

namespace loadcell {
namespace {

using testing::EmptyResult;
using testing::FakeWorkload;
using testing::FixtureFullResult;
using testing::FixtureInterval;
using testing::FixtureResult;
using testing::FixtureSettings;
using testing::Format;
using testing::Render;

using ::testing::HasSubstr;
using ::testing::Not;

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The lines of the block that starts with `title`, up to the blank line.
std::vector<std::string> Block(const std::string& text, const std::string& title) {
  std::vector<std::string> out;
  bool in = false;
  for (const std::string& l : Lines(text)) {
    if (l == title) {
      in = true;
      continue;
    }
    if (in && l.empty()) break;
    if (in) out.push_back(l);
  }
  return out;
}

TEST(TextReporterTest, HeaderSaysWhatRan) {
  FakeWorkload w;
  const std::string t = Render(Format::kText, w, FixtureResult(), FixtureSettings());
  EXPECT_EQ(t.rfind("loadcell 0.0.0-golden\n\nRunning the test with following options:\n", 0), 0u);
  EXPECT_THAT(t, HasSubstr("\nNumber of threads: 2\n"));
  EXPECT_THAT(t, HasSubstr("\nReport intermediate results every 1 second(s)\n"));
  EXPECT_THAT(t, HasSubstr("\nInitializing random number generator from seed (42).\n"));
  EXPECT_THAT(t, HasSubstr("\nOptions:\n  threads=2\n  time=2\n"));
  EXPECT_THAT(t, Not(HasSubstr("rand-type=")));  // defaults are not listed one by one
  EXPECT_THAT(t, HasSubstr("clock: CLOCK_MONOTONIC"));
  EXPECT_THAT(t, HasSubstr("random numbers: special, seed 42"));
  EXPECT_THAT(t, HasSubstr("\n\nFake operations limit: 10000\n\nInitializing worker threads...\n\n"
                           "Threads started!\n\n"));
  EXPECT_THAT(t, Not(HasSubstr("Target transaction rate")));
}

TEST(TextReporterTest, SeedFromTimeIsNamed) {
  FakeWorkload w;
  RunResult r = FixtureResult();
  r.manifest.seed_from_time = true;
  r.manifest.seed = 1234567;
  const std::string t = Render(Format::kText, w, r, FixtureSettings());
  EXPECT_THAT(
      t, HasSubstr("\nInitializing random number generator from current time (seed 1234567)\n"));
}

TEST(TextReporterTest, EndReportHasSysbenchLabelsAndColumns) {
  FakeWorkload w;
  const std::string t = Render(Format::kText, w, FixtureResult(), FixtureSettings());
  EXPECT_THAT(
      t, HasSubstr("\nFake speed:\n    operations per second:   499.88\n\nGeneral statistics:\n"));
  EXPECT_THAT(t, HasSubstr("\n    total time:                          2.0005s\n"));
  EXPECT_THAT(t, HasSubstr("\n    total number of events:              1000\n"));
  EXPECT_THAT(t, HasSubstr("\n         avg:                                    0.36\n"));
  EXPECT_THAT(t, HasSubstr("\n         95th percentile:                        1.20\n"));
  EXPECT_THAT(t, HasSubstr("\n         sum:                                  359.50\n"));
  EXPECT_THAT(t, HasSubstr("\nThreads fairness:\n"
                           "    events (avg/stddev):           500.0000/100.00\n"
                           "    execution time (avg/stddev):   0.3500/0.05\n"));
  const std::vector<std::string> lat = Block(t, "Latency (ms):");
  const std::vector<std::string> labels = {"min:",
                                           "avg:",
                                           "max:",
                                           "50th percentile:",
                                           "95th percentile:",
                                           "99th percentile:",
                                           "99.9th percentile:",
                                           "sum:"};
  ASSERT_EQ(lat.size(), labels.size());
  for (size_t i = 0; i < lat.size(); ++i) {
    EXPECT_EQ(lat[i].rfind("         " + labels[i], 0), 0u) << lat[i];
    EXPECT_EQ(lat[i].size(), 53u) << "sysbench's values end at column 53: " << lat[i];
  }
}

TEST(TextReporterTest, AThreeMicrosecondEventIsNotZero) {
  FakeWorkload w;
  RunResult r = EmptyResult();
  r.events = 1;
  r.total_time_s = 1;
  r.latency[0].histogram.Record(3000);
  r.threads = {{1, 0.000003, 0.000003}};
  const std::string t = Render(Format::kText, w, r, FixtureSettings());
  const std::vector<std::string> lat = Block(t, "Latency (ms):");
  ASSERT_FALSE(lat.empty());
  for (const std::string& l : lat) {
    EXPECT_THAT(l, Not(::testing::EndsWith(" 0.00"))) << l;
    EXPECT_THAT(l, ::testing::EndsWith("0.0030")) << l;
  }
}

TEST(TextReporterTest, FairnessExecutionTimeIsTheBusyTime) {
  FakeWorkload w;
  // 32 requests in flight: 3.2 s of latencies within 0.1 s of wall time.
  RunResult r = FixtureResult();
  r.threads = {{600, 3.2, 0.1}, {400, 3.0, 0.1}};
  const std::string t = Render(Format::kText, w, r, FixtureSettings());
  EXPECT_THAT(t, HasSubstr("\n    execution time (avg/stddev):   0.1000/0.00\n"));
}

TEST(TextReporterTest, KindsWithoutEventsGetOneLineNotABlock) {
  FakeWorkload w;
  RunResult r = FixtureResult();
  r.latency.push_back({"read", r.latency[0].histogram});
  r.latency.push_back({"write", LatencyHistogram()});
  r.latency.push_back({"fsync", LatencyHistogram()});
  const std::string t = Render(Format::kText, w, r, FixtureSettings());
  EXPECT_THAT(t, HasSubstr("\nLatency (ms):\n"));
  EXPECT_THAT(t, HasSubstr("\nLatency of read (ms):\n"));
  EXPECT_THAT(t, Not(HasSubstr("Latency of write")));
  EXPECT_THAT(t, Not(HasSubstr("Latency of fsync")));
  EXPECT_THAT(t, HasSubstr("\nNo write or fsync events.\n\nThreads fairness:\n"));
  // With no events at all the combined block is still there.
  RunResult none = EmptyResult();
  none.latency.push_back({"read", LatencyHistogram()});
  const std::string e = Render(Format::kText, w, none, FixtureSettings());
  EXPECT_THAT(e, HasSubstr("\nLatency (ms):\n"));
  EXPECT_THAT(e, HasSubstr("\nNo read events.\n"));
}

TEST(TextReporterTest, ZeroEventsPrintZerosNeverNan) {
  FakeWorkload w;
  const std::string t = Render(Format::kText, w, EmptyResult(), FixtureSettings());
  // No alternation in the pattern: GoogleTest's Windows regex has none.
  for (const char* word : {"nan", "inf", "NaN", "Inf"}) EXPECT_THAT(t, Not(HasSubstr(word)));
  EXPECT_THAT(t, HasSubstr("\n    total number of events:              0\n"));
  EXPECT_THAT(t, HasSubstr("\n         avg:                                    0.00\n"));
  EXPECT_THAT(t, HasSubstr("\n    events (avg/stddev):           0.0000/0.00\n"));
  // A result without any latency entry or thread must not crash either.
  RunResult bare;
  const std::string b = Render(Format::kText, w, bare, FixtureSettings());
  for (const char* word : {"nan", "inf"}) EXPECT_THAT(b, Not(HasSubstr(word)));
  EXPECT_THAT(b, HasSubstr("Threads fairness:"));
}

TEST(TextReporterTest, IntervalLinesLikeSysbench) {
  FakeWorkload w;
  const std::string t = Render(Format::kText, w, FixtureResult(), FixtureSettings());
  EXPECT_THAT(t, HasSubstr("\n[ 1s ] thds: 2 eps: 500.00 lat (ms,95%): 0.25\n"
                           "[ 2s ] thds: 2 eps: 500.00 lat (ms,95%): 0.25\n"));
  ReportSettings off = FixtureSettings();
  off.percentile = 0;
  // sysbench keeps the field at 0 and replaces the block's percentiles.
  const std::string t0 = Render(Format::kText, w, FixtureResult(), off);
  EXPECT_THAT(t0, HasSubstr("\n[ 1s ] thds: 2 eps: 500.00 lat (ms,0%): 0.00\n"));
  EXPECT_THAT(t0, HasSubstr("\n         percentile stats:               disabled\n"));
  EXPECT_THAT(t0, Not(HasSubstr("th percentile:")));
}

TEST(TextReporterTest, IntervalLatencyBelowTenMicrosecondsIsReadable) {
  FakeWorkload w;
  RunResult r = FixtureResult();
  r.intervals = {FixtureInterval(1, 500, 0)};
  const std::string t = Render(Format::kText, w, r, FixtureSettings());
  EXPECT_THAT(t, HasSubstr("[ 1s ] thds: 2 eps: 500.00 lat (ms,95%): 0.0030\n"));
}

TEST(TextReporterTest, WorkloadIntervalLineWins) {
  FakeWorkload w(/*custom_interval_line=*/true);
  const std::string t = Render(Format::kText, w, FixtureResult(), FixtureSettings());
  EXPECT_THAT(t, HasSubstr("\n[ 1s ] fake ops: 500\n[ 2s ] fake ops: 500\n"));
  EXPECT_THAT(t, Not(HasSubstr("thds:")));
}

// A quiet report (--verbosity below 3) still shows what the workload prints
// itself (a script's report hooks, which sysbench runs at any verbosity),
// and nothing else.
TEST(TextReporterTest, QuietReportKeepsTheWorkloadsOwnOutput) {
  FakeWorkload w(/*custom_interval_line=*/false, /*own_output=*/true);
  ReportSettings quiet = FixtureSettings();
  quiet.verbosity = 1;
  const std::string t = Render(Format::kText, w, FixtureResult(), quiet);
  EXPECT_THAT(t, HasSubstr("own interval 1\nown interval 2\n"));
  EXPECT_THAT(t, HasSubstr("own end\n"));
  EXPECT_THAT(t, Not(HasSubstr("General statistics")));
  FakeWorkload plain;
  EXPECT_THAT(Render(Format::kText, plain, FixtureResult(), quiet), Not(HasSubstr("[ 1s ]")));
}

TEST(TextReporterTest, ChosenPercentileIsAdded) {
  FakeWorkload w;
  ReportSettings s = FixtureSettings();
  s.percentile = 90;
  const std::string t = Render(Format::kText, w, FixtureResult(), s);
  EXPECT_THAT(t, HasSubstr("\n         90th percentile:                        0.25\n"));
  EXPECT_THAT(t, HasSubstr("lat (ms,90%)"));
}

TEST(TextReporterTest, HistogramTable) {
  FakeWorkload w;
  const std::string t = Render(Format::kText, w, FixtureResult(), FixtureSettings());
  EXPECT_THAT(t, HasSubstr("\nLatency histogram (values are in milliseconds)\n"
                           "       value  ------------- distribution ------------- count\n"
                           "      0.0030 |**************************************** 500\n"
                           "       0.250 |********************************         400\n"));
  ReportSettings off = FixtureSettings();
  off.histogram = false;
  EXPECT_THAT(Render(Format::kText, w, FixtureResult(), off), Not(HasSubstr("Latency histogram")));
}

TEST(TextReporterTest, HugeHistogramIsMergedBelowAHundredRows) {
  FakeWorkload w;
  RunResult r = EmptyResult();
  uint64_t total = 0;
  for (uint64_t v = 1; v < 10'000'000'000ull; v += v / 200 + 1) {
    r.latency[0].histogram.Record(v);
    ++total;
  }
  r.events = total;
  const std::string t = Render(Format::kText, w, r, FixtureSettings());
  const std::vector<std::string> lines = Lines(t);
  size_t rows = 0;
  uint64_t counted = 0;
  // A row: the value right-aligned in 12 columns, " |", a 40-column bar,
  // a space, the count.
  for (const std::string& l : lines) {
    if (l.size() < 56 || l.compare(12, 2, " |") != 0 || l[54] != ' ') continue;
    if (l.substr(14, 40).find_first_not_of("* ") != std::string::npos) continue;
    ++rows;
    counted += std::stoull(l.substr(55));
  }
  EXPECT_GT(rows, 10u);
  EXPECT_LE(rows, 100u);
  EXPECT_EQ(counted, total);
}

TEST(TextReporterTest, RateKindsInterruptionAndFailure) {
  FakeWorkload w;
  const std::string t = Render(Format::kText, w, FixtureFullResult(), FixtureSettings());
  EXPECT_THAT(t, HasSubstr("\nTarget transaction rate: 500/sec\n"));
  EXPECT_THAT(t, HasSubstr("\n[ 2s ] queue length: 5 concurrency: 2\n"));
  EXPECT_THAT(t, HasSubstr("\n(interrupted: figures cover the time actually run)\n"));
  EXPECT_THAT(t, HasSubstr("\nRun failed: write failed on \"file\""));
  EXPECT_THAT(t, HasSubstr("\n    total number of errors:              3\n"));
  EXPECT_EQ(Block(t, "Latency of read (ms):").size(), 8u);
  EXPECT_EQ(Block(t, "Latency of write (ms):").size(), 8u);
  EXPECT_EQ(Block(t, "Service time (ms):").size(), 8u);
  EXPECT_THAT(t, HasSubstr("\n    achieved:                            499.75 events/s\n"));
  EXPECT_THAT(t, HasSubstr("\n    late events (>1 ms):                 7\n"));
  EXPECT_THAT(t, HasSubstr("intended start"));
  // The basic result has none of these.
  const std::string b = Render(Format::kText, w, FixtureResult(), FixtureSettings());
  EXPECT_THAT(b, Not(HasSubstr("interrupted")));
  EXPECT_THAT(b, Not(HasSubstr("Service time")));
  EXPECT_THAT(b, Not(HasSubstr("queue length")));
  EXPECT_THAT(b, Not(HasSubstr("Latency of ")));
}

TEST(TextReporterTest, CheckpointPrintsAFullReport) {
  FakeWorkload w;
  RunResult c = FixtureResult();
  c.checkpoint = true;
  c.total_time_s = 1;
  const std::string t = Render(Format::kText, w, FixtureResult(), FixtureSettings(), {c, c});
  EXPECT_THAT(t, HasSubstr("\n[ 1s ] Checkpoint report:\n"));
  EXPECT_THAT(t, HasSubstr("\n[ 2s ] Checkpoint report:\n"));
  size_t n = 0;
  for (size_t p = t.find("General statistics:"); p != std::string::npos;
       p = t.find("General statistics:", p + 1)) {
    ++n;
  }
  EXPECT_EQ(n, 3u);
}

TEST(TextReporterTest, TheReportEndsWithTheVerdictOnceNotAfterCheckpoints) {
  FakeWorkload w;
  RunResult c = FixtureResult();
  c.checkpoint = true;
  const std::string t =
      Render(Format::kText, w, testing::FixtureFullResult(), FixtureSettings(), {c});
  EXPECT_THAT(t, HasSubstr("\nValidity (4 checks: 1 passed, 1 warned, 1 invalid, 1 not checked):\n"
                           "    INVALID errors: the run failed: write failed on \"file\"; change: "
                           "fix the error above and run again\n"
                           "    WARN rate: "));
  const std::string last = "Verdict: INVALID (1)\n";
  ASSERT_GE(t.size(), last.size());
  EXPECT_EQ(t.substr(t.size() - last.size()), last);
  EXPECT_EQ(t.find("Verdict:"), t.rfind("Verdict:"));  // not in the checkpoint report
}

TEST(TextReporterTest, VerdictOffPrintsNoVerdict) {
  FakeWorkload w;
  ReportSettings s = FixtureSettings();
  s.verdict = VerdictMode::kOff;
  const std::string t = Render(Format::kText, w, testing::FixtureFullResult(), s);
  EXPECT_THAT(t, Not(HasSubstr("Verdict")));
  EXPECT_THAT(t, Not(HasSubstr("Validity")));
  s.verdict = VerdictMode::kStrict;
  EXPECT_THAT(Render(Format::kText, w, testing::FixtureFullResult(), s),
              HasSubstr("\nVerdict: INVALID (1)\n"));
}

TEST(TextReporterTest, AValidResultSaysSoOnItsLastLine) {
  FakeWorkload w;
  RunResult r = FixtureResult();
  r.validity.checks = {{"samples", CheckLevel::kPass, "", "", {}}};
  const std::string t = Render(Format::kText, w, r, FixtureSettings());
  EXPECT_THAT(t, HasSubstr("\nValidity (1 checks: 1 passed):\nVerdict: valid\n"));
}

TEST(TextReporterTest, MetricsShownWhenWorkloadHasNoTextSection) {
  class Plain final : public Workload {
   public:
    WorkloadInfo Info() const override {
      WorkloadInfo info;
      info.name = "plain";
      return info;
    }
    void RegisterOptions(OptionSet&) override {}
    Result<std::unique_ptr<Worker>> NewWorker(const ThreadContext&) override {
      return Status::Unimplemented("none");
    }
  } w;
  RunResult r = FixtureResult();
  r.metrics = {{"things_per_second", "things per second", 12.345, "thing/s"}};
  const std::string t = Render(Format::kText, w, r, FixtureSettings());
  EXPECT_THAT(t, HasSubstr("\n    things per second: 12.35 thing/s\n"));
  r.metrics.clear();
  const std::string u = Render(Format::kText, w, r, FixtureSettings());
  EXPECT_THAT(u, HasSubstr(" \n\nGeneral statistics:\n"));  // histogram, blank, figures
}

}  // namespace
}  // namespace loadcell
