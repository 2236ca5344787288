// fileio under --rate: each request is submitted at its intended start and
// timed twice, from that start (the latency) and from its submission (the
// service time), on synchronous and asynchronous engines.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "os/file_system.h"
#include "testing/fileio_test_util.h"
#include "testing/status.h"

namespace loadcell {
namespace {

using testing::BufferedAsyncEngine;
using testing::Configure;
using testing::FileIoArgs;
using testing::Prepared;
using testing::PrepareWith;
using testing::QuietConsole;
using testing::TempDir;
using testing::WithSmallFiles;

// Forwards to the real file system; one read, armed by StallRead, sleeps
// first.
class StallingFileSystem final : public FileSystemWrapper {
 public:
  StallingFileSystem() : FileSystemWrapper(DefaultFileSystem()) {}

  // The `nth` read from now (1-based, over all threads) sleeps `stall`.
  void StallRead(uint64_t nth, std::chrono::milliseconds stall) {
    stall_ = stall;
    stall_at_.store(reads_.load() + nth);
  }

  Result<size_t> PRead(int fd, void* buf, size_t len, uint64_t offset) override {
    if (reads_.fetch_add(1) + 1 == stall_at_.load()) std::this_thread::sleep_for(stall_);
    return FileSystemWrapper::PRead(fd, buf, len, offset);
  }

 private:
  std::chrono::milliseconds stall_{0};  // set before the run's threads start
  std::atomic<uint64_t> stall_at_{0};   // 0: none
  std::atomic<uint64_t> reads_{0};
};

// Runs the prepared workload at `rate` events/s for `events` events.
Result<RunResult> RunAtRate(FileIoWorkload& w, double rate, int64_t events, int threads = 1) {
  RunConfig cfg;
  cfg.threads = threads;
  cfg.time_s = 0;
  cfg.events = events;
  cfg.rate = rate;
  cfg.seed = 11;
  cfg.rand.type = "uniform";
  return RunWorkload(w, cfg, Manifest{}, nullptr);
}

TEST(FileIoRate, AStallShowsInTheLatencyFromTheIntendedStartNotInTheServiceTime) {
  TempDir dir;
  // Read 100 of the run stalls 300 ms. At 1000 reads/s about 300 events
  // fall due during the stall and start late.
  StallingFileSystem fs;
  FileIoWorkload w(fs);
  Prepared(w, dir, {{"file-test-mode", "rndrd"}, {"file-io-mode", "sync"}});
  fs.StallRead(100, std::chrono::milliseconds(300));
  Result<RunResult> r = RunAtRate(w, 1000, 1000);
  ASSERT_OK(r);
  ASSERT_OK(r->failure);
  EXPECT_EQ(r->events, 1000u);
  ASSERT_TRUE(r->service.has_value());
  EXPECT_EQ(r->service->histogram.Count(), r->events);
  const uint64_t ms = kNanosPerMilli;
  // The stalled read itself lasted 300 ms in both figures...
  EXPECT_GE(r->service->histogram.Max(), 290 * ms);
  // ...but only the latency counts the reads that waited behind it.
  EXPECT_GE(r->latency[0].histogram.Percentile(99), 100 * ms);
  EXPECT_LT(r->service->histogram.Percentile(99), 50 * ms);
  ASSERT_TRUE(r->rate.has_value());
  EXPECT_GT(r->rate->late_events, 100u);
  EXPECT_GE(r->rate->max_lag_ms, 200.0);
}

TEST(FileIoRate, AnAsynchronousEngineSubmitsAtTheIntendedStartAndReapsPromptly) {
  TempDir dir;
  FileIoWorkload w;
  Prepared(w, dir,
           {{"file-test-mode", "rndrd"},
            {"file-io-mode", BufferedAsyncEngine()},
            {"file-queue-depth", "8"}});
  Result<RunResult> r = RunAtRate(w, 500, 250);
  if (!r.ok() && r.status().code() == StatusCode::kUnavailable) {
    GTEST_SKIP() << r.status().ToString();
  }
  ASSERT_OK(r);
  ASSERT_OK(r->failure);
  EXPECT_EQ(r->events, 250u);
  ASSERT_TRUE(r->service.has_value());
  EXPECT_EQ(r->service->histogram.Count(), 250u);
  // Reads from the page cache take microseconds. Submitted ahead of their
  // time, or reaped only when the schedule next wanted an event, they
  // would wait up to depth / rate = 16 ms each; 5 ms leaves room for a
  // loaded machine and still tells the two apart.
  const uint64_t ms = kNanosPerMilli;
  EXPECT_LT(r->latency[0].histogram.Percentile(50), 5 * ms);
  EXPECT_LT(r->service->histogram.Percentile(50), 5 * ms);
  // 250 events at 500/s: half a second, never less.
  EXPECT_GE(r->total_time_s, 0.49);
}

TEST(FileIoRate, ThreadsShareOneScheduleAndTheTimeLimitEndsThem) {
  TempDir dir;
  FileIoWorkload w;
  Prepared(w, dir,
           {{"file-test-mode", "rndrd"},
            {"file-io-mode", BufferedAsyncEngine()},
            {"file-queue-depth", "4"}});
  RunConfig cfg;
  cfg.threads = 3;
  cfg.time_s = 0.4;
  cfg.rate = 1000;
  cfg.seed = 11;
  cfg.rand.type = "uniform";
  Result<RunResult> r = RunWorkload(w, cfg, Manifest{}, nullptr);
  if (!r.ok() && r.status().code() == StatusCode::kUnavailable) {
    GTEST_SKIP() << r.status().ToString();
  }
  ASSERT_OK(r);
  ASSERT_OK(r->failure);
  // Events 0..399 are due in [0, 0.4 s): never more than the schedule.
  EXPECT_LE(r->events, 400u);
  EXPECT_GE(r->events, 300u);
  ASSERT_TRUE(r->service.has_value());
  EXPECT_EQ(r->service->histogram.Count(), r->events);
}

}  // namespace
}  // namespace loadcell
