// The simulated users' I/O seen through the FileSystem seam, over the null
// engine (docs/dbsim.md, "The simulated users"): a page is written only
// once the log record of its update is durable (write-ahead logging); with
// MaxMemoryMB a random user writes dirty pages itself once they exceed the
// buffer pool, with no checkpoint running; each user key of SQLIOSim's
// configuration shows in the I/O stream (a table, one row per key); and the
// CPU keys: CPUSimulation spends CPUCyclesMin..Max cycles of the random
// user's own CPU after each access, Affinity confines every user thread and
// the I/O helpers it starts to the mask's CPUs, IOAffinity the helpers to
// its own.
#include <fcntl.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "core/clock.h"
#include "dbsim/null_file_system.h"
#include "os/thread.h"
#include "runner/recorder.h"
#include "testing/status.h"
#include "testing/temp_dir.h"
#include "workloads/dbsim/dbsim_users.h"

#ifdef __linux__
#include <dirent.h>
#include <sched.h>

#include <cstdlib>
#endif

namespace loadcell {
namespace {

constexpr uint32_t kOrderPageBytes = 8192;
constexpr uint64_t kOrderPages = 4096;
constexpr uint32_t kOrderLogRecord = 512;  // a whole log block: no padding
constexpr uint64_t kOrderLogBytes = uint64_t{64} << 20;

// Records, in the order they are issued, the random user's page reads (the
// n-th read is the n-th update: its log record ends at n records), the
// log's durable bytes (each flush slowed in the order test, so that a page written
// too early shows) and every page write; counts the writes issued before the log
// record of any update of their page was durable.
class WriteOrderSeam final : public FileSystemWrapper {
 public:
  explicit WriteOrderSeam(FileSystem& target) : FileSystemWrapper(target) {}
  void Arm(int data_fd, int log_fd, int flush_ms) {
    data_fd_ = data_fd;
    flush_ms_ = flush_ms;
    log_fd_ = log_fd;
    armed_.store(true);
  }
  Result<size_t> PRead(int fd, void* buf, size_t len, uint64_t offset) override {
    if (Watched(fd, data_fd_)) {
      std::lock_guard lock(mu_);
      reads_[offset / kOrderPageBytes].push_back(++read_count_ * kOrderLogRecord);
      ios_.push_back({'r', offset, len, MonotonicNow()});
    }
    return FileSystemWrapper::PRead(fd, buf, len, offset);
  }
  Result<size_t> PReadV(int fd, std::span<const IoSlice> slices, uint64_t offset) override {
    if (Watched(fd, data_fd_)) {
      std::lock_guard lock(mu_);
      ios_.push_back({'r', offset, Bytes(slices), MonotonicNow()});
    }
    return FileSystemWrapper::PReadV(fd, slices, offset);
  }
  Result<size_t> PWrite(int fd, const void* buf, size_t len, uint64_t offset) override {
    if (Watched(fd, log_fd_)) {
      std::lock_guard lock(mu_);
      log_written_ += len;
    } else if (Watched(fd, data_fd_)) {
      PageWrite(offset, len);
    }
    return FileSystemWrapper::PWrite(fd, buf, len, offset);
  }
  Result<size_t> PWriteV(int fd, std::span<const IoSlice> slices, uint64_t offset) override {
    if (Watched(fd, data_fd_)) PageWrite(offset, Bytes(slices));
    return FileSystemWrapper::PWriteV(fd, slices, offset);
  }
  Status Fdatasync(int fd) override {
    if (!Watched(fd, log_fd_)) return FileSystemWrapper::Fdatasync(fd);
    uint64_t written = 0;
    {
      std::lock_guard lock(mu_);
      written = log_written_;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(flush_ms_));
    Status st = FileSystemWrapper::Fdatasync(fd);
    std::lock_guard lock(mu_);
    durable_ = std::max(durable_, written);
    return st;
  }
  uint64_t page_writes() const {
    std::lock_guard lock(mu_);
    return page_writes_;
  }
  uint64_t early_writes() const {
    std::lock_guard lock(mu_);
    return early_writes_;
  }
  uint64_t durable() const {
    std::lock_guard lock(mu_);
    return durable_;
  }
  // One data file I/O: 'r' a read, 'w' a write (one or a gather of pages).
  struct Io {
    char op;
    uint64_t offset;
    size_t len;
    Nanos at;  // issued
  };
  std::vector<Io> ios() const {
    std::lock_guard lock(mu_);
    return ios_;
  }
  uint64_t log_written() const {
    std::lock_guard lock(mu_);
    return log_written_;
  }

 private:
  static size_t Bytes(std::span<const IoSlice> slices) {
    size_t len = 0;
    for (const IoSlice& s : slices) len += s.len;
    return len;
  }
  bool Watched(int fd, int watched) const { return armed_.load() && fd == watched; }
  // A write of page p covers an update of p made before it: sound only if
  // the log record of at least one of p's reads so far is durable.
  void PageWrite(uint64_t offset, size_t len) {
    std::lock_guard lock(mu_);
    ios_.push_back({'w', offset, len, MonotonicNow()});
    for (uint64_t p = offset / kOrderPageBytes; p < (offset + len) / kOrderPageBytes; ++p) {
      ++page_writes_;
      const auto it = reads_.find(p);
      const bool covered = it != reads_.end() && !it->second.empty() &&
                           *std::min_element(it->second.begin(), it->second.end()) <= durable_;
      if (!covered) ++early_writes_;
    }
  }

  std::atomic<bool> armed_{false};
  int data_fd_ = -1;
  int log_fd_ = -1;
  int flush_ms_ = 0;
  mutable std::mutex mu_;
  std::map<uint64_t, std::vector<uint64_t>> reads_;  // page -> its reads' LSNs
  uint64_t read_count_ = 0;
  uint64_t log_written_ = 0;
  uint64_t durable_ = 0;
  uint64_t page_writes_ = 0;
  uint64_t early_writes_ = 0;
  std::vector<Io> ios_;
};

// A database of one data file and a log over the null engine, seen through
// WriteOrderSeam, and the users' workers run on threads of their own.
class DbsimUserIo : public ::testing::Test {
 protected:
  void SetUp() override {
    auto data = seam_.Open(dir_ / "data.mdx", O_RDWR | O_CREAT | O_EXCL);
    ASSERT_OK(data.status());
    data_fd_ = *data;
    ASSERT_OK(null_.Hold(data_fd_, kOrderPages * kOrderPageBytes));
    auto log = seam_.Open(dir_ / "log.ldx", O_RDWR | O_CREAT | O_EXCL);
    ASSERT_OK(log.status());
    log_fd_ = *log;
    config_.cache_hit_ratio = 0;  // every access reads: the n-th read is the n-th update
    config_.read_write_ratio = 0;
    config_.rollback_chance = 0;
    config_.min_log_per_buffer = config_.max_log_per_buffer = kOrderLogRecord;
    config_.sleep_after_ms = 0;
    config_.min_io_chain = config_.max_io_chain = 1;  // a new region every access
    config_.jump_to_new_region = 0;
    config_.max_memory_mb = 0;
    db_.SetThrottle(100000000, 0);
    DbPageFileSettings settings;
    settings.page_size = kOrderPageBytes;
    settings.pages = kOrderPages;
    settings.run_seed = 5;
    db_.AddDataFile("data.mdx", data_fd_, settings);
    db_.SetLog(log_fd_, kOrderLogBytes, false);  // flushed: fdatasync after each write
    std::vector<uint8_t> page(kOrderPageBytes);
    ASSERT_OK(db_.file(0).StampAll(page));
  }
  void TearDown() override {
    Stop();  // when a failed assertion left the threads running
    EXPECT_OK(null_.Close(data_fd_));
    EXPECT_OK(null_.Close(log_fd_));
  }

  // A worker of `kind` on a thread of its own, running events until Stop().
  struct Background {
    std::unique_ptr<DbsimUserWorkload> user;
    std::unique_ptr<ThreadRecorder> rec;
    std::thread thread;
  };
  void Start(DbsimUserKind kind) {
    Background& b = background_.emplace_back();
    b.user = std::make_unique<DbsimUserWorkload>(DbsimUserSettings{kind, &config_, 17, dir_.path()},
                                                 db_);
    ASSERT_OK(b.user->Init(1));
    b.rec = std::make_unique<ThreadRecorder>(static_cast<int>(b.user->Info().latency_kinds.size()),
                                             true);
    b.thread = std::thread([this, &b] {
      ThreadContext ctx;
      ctx.recorder = b.rec.get();
      auto worker = b.user->NewWorker(ctx);
      if (!worker.ok()) return;
      while (!stop_.load()) {
        if (!(*worker)->RunEvent().ok()) break;
      }
      (void)(*worker)->Finish();
    });
  }
  void Stop() {
    stop_.store(true);
    for (Background& b : background_) {
      if (b.thread.joinable()) b.thread.join();
    }
  }
  // Runs `events` of one user of `kind` on this thread; its recorder's
  // counter `counter` after.
  uint64_t RunUser(DbsimUserKind kind, int events, int counter) {
    DbsimUserWorkload user(DbsimUserSettings{kind, &config_, 11, dir_.path()}, db_);
    ThreadRecorder rec(static_cast<int>(user.Info().latency_kinds.size()), true);
    ThreadContext ctx;
    ctx.recorder = &rec;
    auto worker = user.NewWorker(ctx);
    EXPECT_OK(worker.status());
    if (!worker.ok()) return 0;
    for (int i = 0; i < events; ++i) EXPECT_OK((*worker)->RunEvent());
    return rec.counter(counter);
  }

  testing::TempDir dir_;
  DbNullFileSystem null_{DefaultFileSystem()};
  WriteOrderSeam seam_{null_};
  int data_fd_ = -1;
  int log_fd_ = -1;
  DbsimConfig config_;
  DbsimDatabase db_{seam_, false};
  std::atomic<bool> stop_{false};
  std::vector<Background> background_;
};

TEST_F(DbsimUserIo, NoPageIsWrittenBeforeTheLogRecordOfItsUpdateIsDurable) {
  seam_.Arm(data_fd_, log_fd_, 20);  // a page written too early shows
  background_.reserve(2);
  Start(DbsimUserKind::kLogWriter);
  Start(DbsimUserKind::kCheckpoint);
  RunUser(DbsimUserKind::kRandom, 100, kDbsimLazyWrites);
  // The checkpoint polls every 2 ms: give it the last dirty pages.
  for (int i = 0; i < 500 && db_.DirtyCount() > 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  Stop();
  EXPECT_EQ(seam_.durable(), 100u * kOrderLogRecord);  // every update's record
  EXPECT_GE(seam_.page_writes(), 80u);                 // the pages it dirtied
  EXPECT_EQ(seam_.early_writes(), 0u);
}

TEST_F(DbsimUserIo, MaxMemoryMbMakesTheRandomUserWriteWithNoCheckpoint) {
  seam_.Arm(data_fd_, log_fd_, 0);
  background_.reserve(1);
  Start(DbsimUserKind::kLogWriter);
  // No MaxMemoryMB: the dirty pages wait for a checkpoint that never comes.
  EXPECT_EQ(RunUser(DbsimUserKind::kRandom, 300, kDbsimLazyWrites), 0u);
  EXPECT_EQ(seam_.page_writes(), 0u);
  EXPECT_GT(db_.DirtyCount(), 200u);
  // 1 MiB: a pool of 128 pages of 8 KiB; past it, the user writes some.
  config_.max_memory_mb = 1;
  const uint64_t lazy = RunUser(DbsimUserKind::kRandom, 300, kDbsimLazyWrites);
  Stop();
  EXPECT_GT(lazy, 0u);
  EXPECT_EQ(seam_.page_writes(), lazy);
  EXPECT_LE(db_.DirtyCount(), 128u);
  EXPECT_EQ(seam_.early_writes(), 0u);
}

// One key of a user's section and what it must change in the I/O stream:
// run with the key set, `events` of the user, then `check` on the data
// file's I/Os and the wall time they took. Each check fails with the key's
// default (the key ignored).
struct UserKeyCase {
  const char* name;
  DbsimUserKind kind;
  std::function<void(DbsimConfig&)> set;
  int events;
  // Before the user runs: dirty pages for the checkpoint (how many).
  size_t dirty;
  std::function<void(const std::vector<WriteOrderSeam::Io>&, double seconds)> check;
};

// The pages a run of I/Os spans, first to last.
uint64_t PageSpan(const std::vector<WriteOrderSeam::Io>& ios, size_t from, size_t to) {
  uint64_t lo = UINT64_MAX;
  uint64_t hi = 0;
  for (size_t i = from; i < to && i < ios.size(); ++i) {
    lo = std::min(lo, ios[i].offset / kOrderPageBytes);
    hi = std::max(hi, ios[i].offset / kOrderPageBytes);
  }
  return hi >= lo ? hi - lo + 1 : 0;
}

// Every I/O of `op` is `pages` pages long; their number.
size_t CountOfSize(const std::vector<WriteOrderSeam::Io>& ios, char op, uint64_t pages) {
  size_t n = 0;
  for (const auto& io : ios) {
    if (io.op != op) continue;
    EXPECT_EQ(io.len, pages * kOrderPageBytes) << "at page " << io.offset / kOrderPageBytes;
    ++n;
  }
  return n;
}

const std::vector<UserKeyCase>& UserKeyCases() {
  using Ios = std::vector<WriteOrderSeam::Io>;
  auto reads_only = [](DbsimConfig& c) {
    c.read_write_ratio = 10000;
    c.min_io_chain = c.max_io_chain = 1000;
  };
  static const std::vector<UserKeyCase> cases = {
      {"JumpToNewRegionPercentage=0: a chain stays in its region of 64 pages",
       DbsimUserKind::kRandom,
       [=](DbsimConfig& c) {
         reads_only(c);
         c.jump_to_new_region = 0;
       },
       120, 0, [](const Ios& ios, double) { EXPECT_LE(PageSpan(ios, 0, 120), 64u); }},
      {"JumpToNewRegionPercentage=10000: every access jumps to a new region",
       DbsimUserKind::kRandom,
       [=](DbsimConfig& c) {
         reads_only(c);
         c.jump_to_new_region = 10000;
       },
       60, 0,
       [](const Ios& ios, double) {
         size_t far = 0;
         for (size_t i = 1; i < ios.size(); ++i) {
           const uint64_t a = ios[i - 1].offset / kOrderPageBytes;
           const uint64_t b = ios[i].offset / kOrderPageBytes;
           far += (a > b ? a - b : b - a) >= 64 ? 1 : 0;
         }
         EXPECT_GE(far, 40u) << "of " << ios.size();
       }},
      {"MinIOChainLength=MaxIOChainLength=10: a new region every 10 accesses",
       DbsimUserKind::kRandom,
       [=](DbsimConfig& c) {
         reads_only(c);
         c.jump_to_new_region = 0;
         c.min_io_chain = c.max_io_chain = 10;
       },
       60, 0,
       [](const Ios& ios, double) {
         ASSERT_EQ(ios.size(), 60u);
         for (size_t i = 0; i < 60; i += 10) EXPECT_LE(PageSpan(ios, i, i + 10), 64u) << i;
         EXPECT_GT(PageSpan(ios, 0, 60), 64u);
       }},
      {"SleepAfter=40: 40 ms between chains", DbsimUserKind::kRandom,
       [=](DbsimConfig& c) {
         reads_only(c);
         c.min_io_chain = c.max_io_chain = 1;
         c.sleep_after_ms = 40;
       },
       6, 0, [](const Ios&, double seconds) { EXPECT_GE(seconds, 5 * 0.040); }},
      {"BuffersValidated=16: an audit batch reads 16 pages in order", DbsimUserKind::kAudit,
       [](DbsimConfig& c) {
         c.buffers_validated = 16;
         c.audit_delay_ms = 0;
       },
       3, 0,
       [](const Ios& ios, double) {
         ASSERT_EQ(CountOfSize(ios, 'r', 1), 48u);
         for (size_t i = 0; i < ios.size(); ++i) EXPECT_EQ(ios[i].offset, i * kOrderPageBytes);
       }},
      {"AuditDelay=250, DelayAfterCycles=1: 250 ms before each batch but the first",
       DbsimUserKind::kAudit,
       [](DbsimConfig& c) {
         c.audit_delay_ms = 250;
         c.audit_delay_after_cycles = 1;
       },
       4, 0, [](const Ios&, double seconds) { EXPECT_GE(seconds, 3 * 0.250); }},
      {"BuffersRAMin=BuffersRAMax=8: each read-ahead one scatter read of 8 pages",
       DbsimUserKind::kReadAhead,
       [](DbsimConfig& c) {
         c.buffers_ra_min = c.buffers_ra_max = 8;
         c.ra_delay_ms = 0;
       },
       5, 0, [](const Ios& ios, double) { EXPECT_EQ(CountOfSize(ios, 'r', 8), 5u); }},
      {"RADelay=250, DelayAfterCycles=1: 250 ms before each read-ahead but the first",
       DbsimUserKind::kReadAhead,
       [](DbsimConfig& c) {
         c.ra_delay_ms = 250;
         c.ra_delay_after_cycles = 1;
       },
       4, 0, [](const Ios&, double seconds) { EXPECT_GE(seconds, 3 * 0.250); }},
      {"BuffersBUMin=BuffersBUMax=16: each bulk update one gather write of 16 pages",
       DbsimUserKind::kBulkUpdate,
       [](DbsimConfig& c) {
         c.buffers_bu_min = c.buffers_bu_max = 16;
         c.bu_delay_ms = 0;
       },
       5, 0, [](const Ios& ios, double) { EXPECT_EQ(CountOfSize(ios, 'w', 16), 5u); }},
      {"BUDelay=250, DelayAfterCycles=1: 250 ms before each bulk update but the first",
       DbsimUserKind::kBulkUpdate,
       [](DbsimConfig& c) {
         c.bu_delay_ms = 250;
         c.bu_delay_after_cycles = 1;
       },
       4, 0, [](const Ios&, double seconds) { EXPECT_GE(seconds, 3 * 0.250); }},
      {"a preset's extent of 8 pages (sqlserver): each read-ahead starts at a multiple of 64 KiB",
       DbsimUserKind::kReadAhead,
       [](DbsimConfig& c) {
         c.read_ahead_align_pages = 8;
         c.buffers_ra_min = 8;
         c.buffers_ra_max = 64;
         c.ra_delay_ms = 0;
       },
       20, 0,
       [](const Ios& ios, double) {
         ASSERT_EQ(ios.size(), 20u);
         for (const auto& io : ios) EXPECT_EQ(io.offset % (64 * 1024), 0u) << io.offset;
       }},
      {"a spread checkpoint (postgresql): bursts of at most 32 pages, 5 ms apart",
       DbsimUserKind::kCheckpoint, [](DbsimConfig& c) { c.checkpoint_spread = true; }, 7, 200,
       [](const Ios& ios, double) {
         uint64_t pages = 0;
         for (size_t i = 0; i < ios.size(); ++i) {
           EXPECT_LE(ios[i].len, 32u * kOrderPageBytes) << i;
           pages += ios[i].len / kOrderPageBytes;
           if (i > 0) {
             EXPECT_GE(ios[i].at - ios[i - 1].at, 5'000'000) << i;
           }
         }
         EXPECT_EQ(pages, 200u);
       }},
  };
  return cases;
}

class DbsimUserKeys : public DbsimUserIo, public ::testing::WithParamInterface<size_t> {};

TEST_P(DbsimUserKeys, TheKeyShowsInTheIoStream) {
  const UserKeyCase& c = UserKeyCases()[GetParam()];
  SCOPED_TRACE(c.name);
  config_.min_log_per_buffer = 64;  // SQLIOSim's defaults but for the key
  config_.max_log_per_buffer = 8192;
  config_.read_write_ratio = 9000;
  config_.rollback_chance = 100;
  config_.jump_to_new_region = 500;
  config_.min_io_chain = 1;
  config_.max_io_chain = 100;
  c.set(config_);
  for (uint64_t p = 0; p < c.dirty; ++p) db_.MarkDirty({0, p});
  seam_.Arm(data_fd_, log_fd_, 0);
  background_.reserve(1);
  Start(DbsimUserKind::kLogWriter);  // the updates and bulk updates log first
  const auto t0 = std::chrono::steady_clock::now();
  RunUser(c.kind, c.events, kDbsimPagesChecked);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  Stop();
  c.check(seam_.ios(), seconds);
}

INSTANTIATE_TEST_SUITE_P(EveryKey, DbsimUserKeys,
                         ::testing::Range<size_t>(0, UserKeyCases().size()));

// MinLogPerBuffer and MaxLogPerBuffer: the log record of each update, in
// whole 512-byte blocks.
TEST_F(DbsimUserIo, LogPerBufferSizesEachUpdatesLogRecord) {
  config_.min_log_per_buffer = config_.max_log_per_buffer = 1536;
  seam_.Arm(data_fd_, log_fd_, 0);
  background_.reserve(1);
  Start(DbsimUserKind::kLogWriter);
  RunUser(DbsimUserKind::kRandom, 20, kDbsimPagesChecked);  // every access an update
  Stop();
  EXPECT_EQ(seam_.log_written(), 20u * 1536u);
}

TEST_F(DbsimUserIo, CpuSimulationSpendsTheCyclesOfEachAccessOnTheUsersThread) {
  config_.read_write_ratio = 10000;  // reads only: no log to wait for
  config_.cpu_simulation = true;
  config_.cpu_cycles_min = config_.cpu_cycles_max = 20'000'000;  // 20 ms at 1 GHz
  const uint64_t cpu0 = ThreadCpuNs();
  if (cpu0 == 0) GTEST_SKIP() << "this system does not tell a thread's CPU time";
  RunUser(DbsimUserKind::kRandom, 5, kDbsimPagesChecked);
  EXPECT_GE(ThreadCpuNs() - cpu0, 5u * 20'000'000u);
}

#ifdef __linux__
// The threads of this process confined to CPU `cpu` alone.
int ThreadsOnCpuAlone(int cpu) {
  int n = 0;
  DIR* dir = opendir("/proc/self/task");
  if (dir == nullptr) return -1;
  while (dirent* e = readdir(dir)) {
    const int tid = std::atoi(e->d_name);
    if (tid <= 0) continue;
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(tid, sizeof(set), &set) != 0) continue;
    if (CPU_COUNT(&set) == 1 && CPU_ISSET(cpu, &set)) ++n;
  }
  closedir(dir);
  return n;
}

TEST_F(DbsimUserIo, AffinityConfinesTheUserAndItsIoHelpersToTheMask) {
  const std::vector<int> allowed = AllowedCpus();
  if (allowed.size() < 2 || allowed.front() != 0) GTEST_SKIP() << "needs CPU 0 and another";
  config_.read_write_ratio = 10000;  // reads only: no log to wait for
  config_.min_io_chain = config_.max_io_chain = 1000;
  config_.affinity = 1;    // CPU 0
  config_.user_depth = 3;  // the worker and its two I/O helpers
  const int before = ThreadsOnCpuAlone(0);
  DbsimUserWorkload user(DbsimUserSettings{DbsimUserKind::kRandom, &config_, 3, dir_.path()}, db_);
  ThreadRecorder rec(static_cast<int>(user.Info().latency_kinds.size()), true);
  int during = 0;
  int worker_cpu = -1;
  std::thread t([&] {
    ThreadContext ctx;
    ctx.recorder = &rec;
    auto worker = user.NewWorker(ctx);
    ASSERT_OK(worker.status());
    ASSERT_OK((*worker)->RunEvent());
    worker_cpu = sched_getcpu();
    during = ThreadsOnCpuAlone(0);
  });
  t.join();
  EXPECT_EQ(worker_cpu, 0);
  EXPECT_GE(during - before, 3);  // the worker's thread and its helpers
  EXPECT_EQ(DbsimAffinityCpus(0b1010), (std::vector<int>{1, 3}));
}

TEST_F(DbsimUserIo, IoAffinityConfinesTheIoHelpersAndTheUserStaysOnAffinity) {
  const std::vector<int> allowed = AllowedCpus();
  if (allowed.size() < 2 || allowed[0] != 0 || allowed[1] != 1) {
    GTEST_SKIP() << "needs CPUs 0 and 1";
  }
  config_.read_write_ratio = 10000;  // reads only: no log to wait for
  config_.min_io_chain = config_.max_io_chain = 1000;
  config_.affinity = 1;     // the user: CPU 0
  config_.io_affinity = 2;  // its I/O helpers: CPU 1
  config_.user_depth = 3;   // the worker and its two I/O helpers
  const int before_user = ThreadsOnCpuAlone(0);
  const int before_io = ThreadsOnCpuAlone(1);
  DbsimUserWorkload user(DbsimUserSettings{DbsimUserKind::kRandom, &config_, 3, dir_.path()}, db_);
  ThreadRecorder rec(static_cast<int>(user.Info().latency_kinds.size()), true);
  int user_during = 0;
  int io_during = 0;
  int worker_cpu = -1;
  uint64_t checked = 0;
  std::thread t([&] {
    ThreadContext ctx;
    ctx.recorder = &rec;
    auto worker = user.NewWorker(ctx);
    ASSERT_OK(worker.status());
    ASSERT_OK((*worker)->RunEvent());  // three reads at once: the helpers took two
    worker_cpu = sched_getcpu();
    user_during = ThreadsOnCpuAlone(0);
    io_during = ThreadsOnCpuAlone(1);
  });
  t.join();
  checked = rec.counter(kDbsimPagesChecked);
  EXPECT_EQ(worker_cpu, 0);
  EXPECT_EQ(user_during - before_user, 1);  // the worker's thread alone
  EXPECT_EQ(io_during - before_io, 2);      // its two helpers
  EXPECT_EQ(checked, 3u);
}
#endif

}  // namespace
}  // namespace loadcell
