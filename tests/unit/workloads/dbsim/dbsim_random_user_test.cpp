// A random user at a depth above 1 times each access as its own work: its
// read from its own submission to its completion, then its update, not
// from the start of its batch (docs/dbsim.md, "Several I/Os in flight per
// user"). One read of every batch of four is held back 250 ms through the
// FileSystem seam: only that access's event may take that long.
#include <fcntl.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "dbsim/null_file_system.h"
#include "runner/recorder.h"
#include "stats/histogram.h"
#include "testing/status.h"
#include "testing/temp_dir.h"
#include "workloads/dbsim/dbsim_users.h"

namespace loadcell {
namespace {

constexpr uint32_t kUserPageBytes = 8192;
constexpr uint64_t kUserPages = 256;
constexpr int64_t kSlowMs = 250;

// The null engine, but every fourth read (the first of each batch of four)
// takes kSlowMs.
class EveryFourthReadSlow final : public FileSystemWrapper {
 public:
  explicit EveryFourthReadSlow(FileSystem& target) : FileSystemWrapper(target) {}
  Result<size_t> PRead(int fd, void* buf, size_t len, uint64_t offset) override {
    if (armed_.load() && reads_.fetch_add(1) % 4 == 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(kSlowMs));
    }
    return FileSystemWrapper::PRead(fd, buf, len, offset);
  }
  void Arm() { armed_.store(true); }

 private:
  std::atomic<bool> armed_{false};
  std::atomic<uint64_t> reads_{0};
};

TEST(DbsimRandomUser, AtDepthFourEachAccessIsTimedFromItsOwnRead) {
  testing::TempDir dir;
  DbNullFileSystem null(DefaultFileSystem());
  EveryFourthReadSlow slow(null);
  auto fd = slow.Open(dir / "data.mdx", O_RDWR | O_CREAT | O_EXCL);
  ASSERT_OK(fd.status());
  ASSERT_OK(null.Hold(*fd, kUserPages * kUserPageBytes));

  DbsimConfig config;
  config.user_depth = 4;
  config.cache_hit_ratio = 0;       // every access reads
  config.read_write_ratio = 10000;  // and updates nothing
  config.sleep_after_ms = 0;
  config.min_io_chain = config.max_io_chain = 1000;  // batches of four, never cut short
  DbsimDatabase db(slow, false);
  db.SetThrottle(100000000, 0);  // a slow read must not hold the others at the throttle
  DbPageFileSettings settings;
  settings.page_size = kUserPageBytes;
  settings.pages = kUserPages;
  settings.run_seed = 3;
  db.AddDataFile("data.mdx", *fd, settings);
  std::vector<uint8_t> page(kUserPageBytes);
  ASSERT_OK(db.file(0).StampAll(page));

  DbsimUserWorkload user(DbsimUserSettings{DbsimUserKind::kRandom, &config, 11, dir.path()}, db);
  ThreadRecorder rec(static_cast<int>(user.Info().latency_kinds.size()), true);
  ThreadContext ctx;
  ctx.recorder = &rec;
  auto worker = user.NewWorker(ctx);
  ASSERT_OK(worker.status());
  slow.Arm();
  for (int batch = 0; batch < 3; ++batch) ASSERT_OK((*worker)->RunEvent());
  worker->reset();  // its pool's helpers joined

  LatencyHistogram events;
  rec.histogram(0).SnapshotInto(events);
  ASSERT_EQ(events.Count(), 12u);
  const uint64_t slow_ns = static_cast<uint64_t>(kSlowMs) * 1'000'000;
  EXPECT_GE(events.Max(), slow_ns);  // the held read's access
  // Three accesses of four did not wait for it (timed from the batch's
  // start, every one would have).
  EXPECT_LT(events.Percentile(50), slow_ns / 2);
  // Each read is timed under its kind and under its file's too: the same
  // reads, the slow one the file's longest.
  LatencyHistogram reads;
  LatencyHistogram on_file;
  rec.histogram(kDbsimKindRead).SnapshotInto(reads);
  rec.histogram(DbsimFileKind(0)).SnapshotInto(on_file);
  EXPECT_GE(reads.Count(), 12u);  // every access read its page
  EXPECT_EQ(on_file.Count(), reads.Count());
  EXPECT_EQ(on_file.Max(), reads.Max());
  EXPECT_GE(on_file.Max(), slow_ns);
  EXPECT_EQ(user.Info().latency_kinds.back(), "I/O on data.mdx");
  EXPECT_EQ(
      user.Info()
          .counter_names[static_cast<size_t>(DbsimFileFaultCounter(0, DbPageFault::kTornPage))],
      "data.mdx: torn page");
  EXPECT_OK(null.Close(*fd));
}

}  // namespace
}  // namespace loadcell
