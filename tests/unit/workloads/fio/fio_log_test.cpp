// workloads/fio/fio_log.h: the lines of fio's logs made from the I/Os a job
// recorded, per I/O and averaged over log_avg_msec windows.

#include "workloads/fio/fio_log.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace loadcell {
namespace {

constexpr Nanos kEpoch = 1'000 * kNanosPerSecond;
constexpr Nanos kMs = kNanosPerMilli;

TEST(FioLogTest, EveryIoIsALineWithoutAveraging) {
  FioLogSettings s;
  s.lat = s.bw = s.iops = true;
  FioLogRecorder log(s);
  log.Start(kEpoch);
  log.Add(kEpoch + 3 * kMs + 400'000, FioDir::kRead, 4096, 8192, 20'000);
  log.Add(kEpoch + 7 * kMs, FioDir::kWrite, 8192, 0, 1'000'000);
  log.Finish(kEpoch + 8 * kMs);
  const std::vector<FioLogLine> lat = log.Lines(FioLogKind::kLat);
  ASSERT_EQ(lat.size(), 2u);
  EXPECT_EQ(lat[0], (FioLogLine{3, 20'000, 0, 4096, 8192}));
  EXPECT_EQ(lat[1], (FioLogLine{7, 1'000'000, 1, 8192, 0}));
  EXPECT_EQ(log.Lines(FioLogKind::kClat), lat);
  EXPECT_TRUE(log.Lines(FioLogKind::kSlat).empty());
  // fio's per-I/O bandwidth: bytes x 10^6 / latency in ns.
  EXPECT_EQ(log.Lines(FioLogKind::kBw)[0].value, 4096u * 1'000'000 / 20'000);
  EXPECT_EQ(log.Lines(FioLogKind::kBw)[1].value, 8192u);
  EXPECT_EQ(log.Lines(FioLogKind::kIops)[1].value, 1u);
}

// An asynchronous engine's I/Os carry their clat and slat: per I/O, and
// averaged over the I/Os of a window that have one (a trim has no slat).
TEST(FioLogTest, ClatAndSlatAreTheirOwnWhenGiven) {
  FioLogSettings s;
  s.lat = s.bw = true;
  FioLogRecorder log(s);
  log.Start(kEpoch);
  log.Add(kEpoch + kMs, FioDir::kRead, 4096, 0, 20'000, 16'000, 4'000);
  log.Add(kEpoch + 2 * kMs, FioDir::kTrim, 4096, 0, 9'000);
  log.Finish(kEpoch + 3 * kMs);
  const std::vector<FioLogLine> slat = log.Lines(FioLogKind::kSlat);
  ASSERT_EQ(slat.size(), 1u);
  EXPECT_EQ(slat[0], (FioLogLine{1, 4'000, 0, 4096, 0}));
  EXPECT_EQ(log.Lines(FioLogKind::kClat)[0].value, 16'000u);
  EXPECT_EQ(log.Lines(FioLogKind::kClat)[1].value, 9'000u);
  EXPECT_EQ(log.Lines(FioLogKind::kLat)[0].value, 20'000u);
  // fio's per-I/O bandwidth counts the clat.
  EXPECT_EQ(log.Lines(FioLogKind::kBw)[0].value, 4096u * 1'000'000 / 16'000);

  s.avg_ns = 10 * kMs;
  FioLogRecorder avg(s);
  avg.Start(kEpoch);
  avg.Add(kEpoch + kMs, FioDir::kRead, 4096, 0, 20'000, 16'000, 4'000);
  avg.Add(kEpoch + 2 * kMs, FioDir::kRead, 4096, 0, 40'000, 34'000, 6'000);
  avg.Add(kEpoch + 3 * kMs, FioDir::kTrim, 4096, 0, 9'000);
  avg.Finish(kEpoch + 10 * kMs);
  const std::vector<FioLogLine> mean_slat = avg.Lines(FioLogKind::kSlat);
  ASSERT_EQ(mean_slat.size(), 1u);  // no trim line: no trim had a slat
  EXPECT_EQ(mean_slat[0], (FioLogLine{10, 5'000, 0, 0, 0}));
  const std::vector<FioLogLine> mean_clat = avg.Lines(FioLogKind::kClat);
  ASSERT_EQ(mean_clat.size(), 2u);
  EXPECT_EQ(mean_clat[0].value, 25'000u);
  EXPECT_EQ(mean_clat[1].value, 9'000u);
  EXPECT_EQ(avg.Lines(FioLogKind::kLat)[0].value, 30'000u);
}

TEST(FioLogTest, NothingIsLoggedBeforeStartOrAfterFinish) {
  FioLogSettings s;
  s.lat = true;
  FioLogRecorder log(s);
  log.Add(kEpoch, FioDir::kRead, 4096, 0, 10);  // ramp_time: not measured
  log.Start(kEpoch);
  log.Add(kEpoch + kMs, FioDir::kRead, 4096, 0, 10);
  log.Finish(kEpoch + 2 * kMs);
  log.Add(kEpoch + 3 * kMs, FioDir::kRead, 4096, 0, 10);
  EXPECT_EQ(log.Lines(FioLogKind::kLat).size(), 1u);
}

TEST(FioLogTest, AveragedWindowsHoldMeansAndRatesPerDirection) {
  FioLogSettings s;
  s.lat = s.bw = s.iops = true;
  s.avg_ns = 100 * kMs;
  FioLogRecorder log(s);
  log.Start(kEpoch);
  // Window 0: two reads (latencies 10 and 30 us) and a write.
  log.Add(kEpoch + 10 * kMs, FioDir::kRead, 4096, 0, 10'000);
  log.Add(kEpoch + 50 * kMs, FioDir::kRead, 4096, 4096, 30'000);
  log.Add(kEpoch + 99 * kMs, FioDir::kWrite, 8192, 0, 50'000);
  // Window 1 has nothing; window 2: one read; the job ends at 250 ms.
  log.Add(kEpoch + 210 * kMs, FioDir::kRead, 4096, 0, 40'000);
  log.Finish(kEpoch + 250 * kMs);

  const std::vector<FioLogLine> lat = log.Lines(FioLogKind::kLat);
  ASSERT_EQ(lat.size(), 3u);
  EXPECT_EQ(lat[0], (FioLogLine{100, 20'000, 0, 0, 0}));
  EXPECT_EQ(lat[1], (FioLogLine{100, 50'000, 1, 0, 0}));
  // The last window ends with the job: 50 ms long.
  EXPECT_EQ(lat[2], (FioLogLine{250, 40'000, 0, 0, 0}));
  const std::vector<FioLogLine> iops = log.Lines(FioLogKind::kIops);
  ASSERT_EQ(iops.size(), 3u);
  EXPECT_EQ(iops[0].value, 20u);  // 2 I/Os in 0.1 s
  EXPECT_EQ(iops[1].value, 10u);
  EXPECT_EQ(iops[2].value, 20u);  // 1 I/O in 0.05 s
  const std::vector<FioLogLine> bw = log.Lines(FioLogKind::kBw);
  EXPECT_EQ(bw[0].value, 80u);  // 8 KiB in 0.1 s, in KiB/s
  EXPECT_EQ(bw[2].value, 80u);  // 4 KiB in 0.05 s
}

TEST(FioLogTest, WritesFiosLineFormat) {
  std::ostringstream plain;
  WriteFioLog({{0, 12872, 0, 4096, 12288}, {3, 5, 1, 8192, 0}}, false, plain);
  EXPECT_EQ(plain.str(), "0, 12872, 0, 4096, 0\n3, 5, 1, 8192, 0\n");
  std::ostringstream with_offset;
  WriteFioLog({{0, 12872, 0, 4096, 12288}}, true, with_offset);
  EXPECT_EQ(with_offset.str(), "0, 12872, 0, 4096, 12288, 0\n");
  EXPECT_EQ(FioLogFileName("p", FioLogKind::kClat, 2), "p_clat.2.log");
}

TEST(FioLogTest, TellsALogLineFromOtherText) {
  EXPECT_TRUE(LooksLikeFioLogLine("0, 12872, 0, 4096, 0"));
  EXPECT_TRUE(LooksLikeFioLogLine("0, 247269, 0, 4096, 12288, 0"));
  EXPECT_TRUE(LooksLikeFioLogLine("100, 8040, 0, 0"));
  EXPECT_FALSE(LooksLikeFioLogLine("#!/bin/sh"));
  EXPECT_FALSE(LooksLikeFioLogLine("1, 2"));
  EXPECT_FALSE(LooksLikeFioLogLine("1, 2, 3, x, 5"));
  EXPECT_FALSE(LooksLikeFioLogLine(""));
}

}  // namespace
}  // namespace loadcell
