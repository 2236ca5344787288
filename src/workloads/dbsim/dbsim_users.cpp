#include "workloads/dbsim/dbsim_users.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <thread>
#include <utility>

#include "os/thread.h"
#include "stats/summary.h"
#include "workloads/dbsim/dbsim_worker.h"

namespace loadcell {

namespace {

constexpr uint64_t kDbsimRegionPages = 64;
constexpr uint32_t kDbsimLogBlock = 512;
// A spread checkpoint: bursts of at most this many pages, this long apart.
constexpr size_t kDbsimSpreadPages = 32;
constexpr int64_t kDbsimSpreadPauseMs = 5;
constexpr uint64_t kDbsimPoolMiB = uint64_t{1} << 20;

// Chains of page accesses around a region; updates log first, then dirty
// the page for the checkpoint (or are rolled back in memory, RollbackChance);
// with the buffer pool (MaxMemoryMB) full of dirty pages, the user writes
// some itself, as a worker helps the lazy writer.
class RandomUserWorker final : public DbsimWorkerBase {
 public:
  using DbsimWorkerBase::DbsimWorkerBase;

  // The chain's next access, or (--user-depth) up to depth() of them read
  // at once, never past the chain's end; each access is one event, timed
  // as its own work: its read from its own submission to its completion,
  // then its update (not the batch's other reads and updates).
  Status RunEvent() override {
    if (db_.Stopping()) return EndOfWork();
    batch_.clear();
    do {
      batch_.push_back({NextAccess(), false});
    } while (batch_.size() < static_cast<size_t>(depth()) && chain_left_ > 0 && !slept_out_);
    if (slept_out_) return EndOfWork();
    const Nanos t0 = MonotonicNow();
    reads_.clear();
    for (Access& a : batch_) {
      a.hit = Chance(cfg_.cache_hit_ratio);
      if (a.hit) {
        rec_.Add(kDbsimCacheHits, 1);
      } else {
        reads_.push_back(a.page);
      }
    }
    std::vector<bool> read;
    read_ns_.assign(1, 0);
    if (reads_.size() == 1) {
      LC_ASSIGN_OR_RETURN(bool one, ReadOne(reads_[0].first, reads_[0].second, &read_ns_[0]));
      read.push_back(one);
    } else if (!reads_.empty()) {
      LC_ASSIGN_OR_RETURN(read, ReadEach(reads_, &read_ns_));
    }
    size_t r = 0;
    for (const Access& a : batch_) {
      const uint64_t read_ns = a.hit ? 0 : read_ns_[r];
      if (!a.hit && !read[r++]) {  // the file shrank under the region: a new one next
        chain_left_ = 0;
        continue;
      }
      const Nanos u0 = MonotonicNow();
      LC_RETURN_IF_ERROR(Update(a.page));
      if (cfg_.yield_percentage > 0 && Chance(cfg_.yield_percentage)) {
        std::this_thread::yield();
        rec_.Add(kDbsimYields, 1);
      }
      // Its own time: its read, then its update, as one span ending now.
      rec_.RecordTimedEvent(u0 - static_cast<Nanos>(read_ns), MonotonicNow());
      if (cfg_.cpu_simulation) SimulateCpu();
    }
    if (depth() > 1) rec_.AddBusy(static_cast<uint64_t>(MonotonicNow() - t0));
    return Status::Ok();
  }

 private:
  struct Access {
    DbsimPageRef page;
    bool hit = false;  // found in the buffer pool (CacheHitRatio): not read
  };
  DbsimPageRef NextAccess() {
    if (chain_left_ == 0) {
      if (started_ && cfg_.sleep_after_ms > 0) {
        Pause(cfg_.sleep_after_ms);
        // The pause reached the cycle's end: this cycle's work is done, not
        // continued without its pauses until the runner stops the user.
        slept_out_ = MonotonicNow() >= cycle_end_;
      }
      chain_left_ = rng_.Uniform(cfg_.min_io_chain, cfg_.max_io_chain);
      NewRegion();
      started_ = true;
    } else if (Chance(cfg_.jump_to_new_region)) {
      NewRegion();
    }
    --chain_left_;
    const uint64_t pages = db_.file(file_).pages();
    return {file_, std::min(pages - 1, region_ + rng_.Uniform(0, kDbsimRegionPages - 1))};
  }
  // An access updates the page with 100 - RandomUserReadWriteRatio: rolled
  // back in memory (RollbackChance), or its log record durable first and
  // then the page dirtied. EndOfWork once the log closed.
  Status Update(DbsimPageRef page) {
    if (Chance(cfg_.read_write_ratio)) return Status::Ok();
    if (Chance(cfg_.rollback_chance)) {
      rec_.Add(kDbsimRollbacks, 1);  // undone in memory: no log record, the page stays clean
      return Status::Ok();
    }
    const uint64_t lsn = db_.QueueLog(
        static_cast<uint32_t>(rng_.Uniform(cfg_.min_log_per_buffer, cfg_.max_log_per_buffer)));
    if (lsn == 0 || !db_.WaitDurable(lsn)) return EndOfWork();
    db_.MarkDirty(page);  // written by the checkpoint, after its log record
    return LazyWrite();
  }
  // CPUSimulation: the work a query does on a page, between its I/Os (not
  // measured): CPUCyclesMin..CPUCyclesMax cycles of this thread's own CPU,
  // counted at a nominal 1 GHz (a cycle is a nanosecond of the thread's
  // CPU time; of the clock where the system does not tell it).
  void SimulateCpu() {
    const uint64_t ns = rng_.Uniform(cfg_.cpu_cycles_min, cfg_.cpu_cycles_max);
    if (ns == 0) return;
    const uint64_t cpu0 = ThreadCpuNs();
    const Nanos wall_end = MonotonicNow() + static_cast<Nanos>(ns);
    uint64_t x = spin_;
    while (!db_.Stopping()) {
      for (int i = 0; i < 256; ++i) x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      if (cpu0 != 0 ? ThreadCpuNs() - cpu0 >= ns : MonotonicNow() >= wall_end) break;
    }
    spin_ = x;  // kept: the loop is not optimised away
  }
  void NewRegion() {
    file_ = rng_.Uniform(0, db_.data_files() - 1);
    region_ = rng_.Uniform(0, db_.file(file_).pages() - 1);
  }
  Status LazyWrite() {
    if (cfg_.max_memory_mb <= 0) return Status::Ok();
    const uint64_t pool = static_cast<uint64_t>(cfg_.max_memory_mb) * kDbsimPoolMiB / page_size_;
    if (db_.DirtyCount() <= pool) return Status::Ok();
    const auto pages = db_.TakeDirty(DbPageFile::kMaxRun);
    rec_.Add(kDbsimLazyWrites, pages.size());
    return WritePages(pages, false);
  }

  uint64_t chain_left_ = 0;
  bool started_ = false;
  bool slept_out_ = false;  // a SleepAfter pause reached the cycle's end
  size_t file_ = 0;
  uint64_t region_ = 0;
  std::vector<Access> batch_;
  std::vector<DbsimPageRef> reads_;
  std::vector<uint64_t> read_ns_;  // each read's own time, in reads_' order
  uint64_t spin_ = 0;              // SimulateCpu's work
};

// Group commit: writes every queued record in one sequential write, durable
// (write-through or fdatasync) before the users waiting for it go on.
class LogWriterWorker final : public DbsimWorkerBase {
 public:
  using DbsimWorkerBase::DbsimWorkerBase;

  Status RunEvent() override {
    if (db_.Stopping()) return EndOfWork();
    auto [bytes, lsn] = db_.TakeQueuedLog(kDbsimPollNs);
    if (bytes == 0) return Status::Ok();
    // Log blocks are whole sectors (unbuffered I/O needs it; engines pad so),
    // or the engine's own log block (a preset's: PostgreSQL's 8 KiB).
    const uint64_t block = std::max<uint64_t>(kDbsimLogBlock, cfg_.log_block_bytes);
    const uint64_t padded = (bytes + block - 1) / block * block;
    if (padded > log_capacity_) {
      log_capacity_ = std::max<uint64_t>(padded, 1 << 20);
      log_buffer_ = NewDbsimIoBuffer(log_capacity_);
    }
    // Fresh pseudo-random bytes every write, as the pages hold: a log of
    // one repeated byte, or of the same blocks again, is what compressing
    // or deduplicating storage keeps in almost nothing.
    for (uint64_t i = 0; i < padded; i += sizeof(uint64_t)) {
      const uint64_t word = rng_.Next();
      std::memcpy(log_buffer_.get() + i, &word, sizeof(word));
    }
    const Nanos t0 = MonotonicNow();
    if (Status st = db_.WriteLog(log_buffer_.get(), padded); !st.ok()) {
      db_.CloseLog();  // the users waiting for this log end rather than wait on
      return st;
    }
    const Nanos t1 = MonotonicNow();
    db_.LogDurable(lsn);
    Record(kDbsimKindLogWrite, t0, t1);
    rec_.Add(kDbsimLogBytes, padded);
    rec_.Add(kDbsimBytesWritten, padded);
    rec_.RecordTimedEvent(t0, t1);
    return Status::Ok();
  }
  Status Finish() override {
    db_.CloseLog();
    return Status::Ok();
  }

 private:
  uint64_t log_capacity_ = 0;
  DbsimIoBuffer log_buffer_;
};

// Writes the dirty pages in bursts: adjacent pages in one gather write.
// With AllowIOBursts its writes pass the throttle (MaxOutstandingIO holds).
class CheckpointWorker final : public DbsimWorkerBase {
 public:
  using DbsimWorkerBase::DbsimWorkerBase;

  Status RunEvent() override {
    if (db_.Stopping()) return EndOfWork();
    const auto dirty =
        db_.TakeDirty(cfg_.checkpoint_spread ? kDbsimSpreadPages : DbPageFile::kMaxRun * 4);
    if (dirty.empty()) {
      Pause(2);
      return Status::Ok();
    }
    const Nanos t0 = MonotonicNow();
    LC_RETURN_IF_ERROR(WritePages(dirty, cfg_.allow_io_bursts));
    rec_.RecordTimedEvent(t0, MonotonicNow());
    // A spread checkpoint (PostgreSQL's checkpoint_completion_target) paces
    // its writes rather than writing every dirty page at once.
    if (cfg_.checkpoint_spread) Pause(kDbsimSpreadPauseMs);
    return Status::Ok();
  }
};

// Scatter reads of BuffersRAMin..BuffersRAMax consecutive pages (from an
// extent's first page with a preset's extent), up to depth() of them at
// once (--user-depth), each one event; without
// ForceReadAhead a run found in the buffer pool (CacheHitRatio) is not read.
class ReadAheadWorker final : public DbsimWorkerBase {
 public:
  using DbsimWorkerBase::DbsimWorkerBase;

  Status RunEvent() override {
    if (db_.Stopping()) return EndOfWork();
    if (!CycleDelay(cfg_.ra_delay_after_cycles, cfg_.ra_delay_ms)) return EndOfWork();
    const Nanos t0 = MonotonicNow();
    runs_.clear();
    for (int i = 0; i < depth(); ++i) {
      PageRun run = PickRun(cfg_.buffers_ra_min, cfg_.buffers_ra_max, DbPageFile::kMaxRun);
      // A preset's extent: the run starts where an extent does.
      const auto align = static_cast<uint64_t>(std::max<int64_t>(1, cfg_.read_ahead_align_pages));
      run.first -= run.first % align;
      if (!cfg_.force_read_ahead && Chance(cfg_.cache_hit_ratio)) {
        rec_.Add(kDbsimCacheHits, run.count);
      } else {
        runs_.push_back(run);
      }
    }
    LC_RETURN_IF_ERROR(ReadRuns(runs_));
    const Nanos t1 = MonotonicNow();
    for (int i = 0; i < depth(); ++i) rec_.RecordTimedEvent(t0, t1);
    if (depth() > 1) rec_.AddBusy(static_cast<uint64_t>(t1 - t0));
    return Status::Ok();
  }

 private:
  std::vector<PageRun> runs_;
};

// Reads every page in order, BuffersValidated a batch, each checked. The
// end-of-cycle audit reads every live page once, without pauses, and ends.
class AuditWorker final : public DbsimWorkerBase {
 public:
  AuditWorker(const DbsimUserSettings& s, DbsimDatabase& db, const ThreadContext& ctx)
      : DbsimWorkerBase(s, db, ctx), one_pass_(s.kind == DbsimUserKind::kCycleAudit) {
    // Each audit user starts at its own share of the pages.
    uint64_t skip = db.total_pages() * static_cast<uint64_t>(ctx.thread_id) /
                    static_cast<uint64_t>(std::max(1, ctx.num_threads));
    while (skip >= db.file(file_).pages()) {
      skip -= db.file(file_).pages();
      ++file_;
    }
    page_ = skip;
  }

  Status RunEvent() override {
    if (db_.Stopping() || passed_) return EndOfWork();
    if (!one_pass_ && !CycleDelay(cfg_.audit_delay_after_cycles, cfg_.audit_delay_ms)) {
      return EndOfWork();
    }
    const Nanos t0 = MonotonicNow();
    for (int64_t i = 0; i < cfg_.buffers_validated && !db_.Stopping() && !passed_; ++i) {
      // A page past the live end (the file shrank): on to the next file.
      bool read = page_ < db_.file(file_).pages();
      if (read) {
        LC_ASSIGN_OR_RETURN(read, ReadOne(file_, page_));
      }
      if (!read || ++page_ >= db_.file(file_).pages()) NextFile();
    }
    rec_.RecordTimedEvent(t0, MonotonicNow());
    return Status::Ok();
  }

 private:
  void NextFile() {
    page_ = 0;
    if (++file_ == db_.data_files()) {
      file_ = 0;
      rec_.Add(kDbsimAuditPasses, 1);
      passed_ = one_pass_;
    }
  }

  const bool one_pass_;
  bool passed_ = false;
  size_t file_ = 0;
  uint64_t page_ = 0;
};

}  // namespace

std::string DbsimUserName(DbsimUserKind kind) {
  switch (kind) {
    case DbsimUserKind::kRandom:
      return "random user";
    case DbsimUserKind::kLogWriter:
      return "log writer";
    case DbsimUserKind::kCheckpoint:
      return "checkpoint";
    case DbsimUserKind::kReadAhead:
      return "read-ahead user";
    case DbsimUserKind::kAudit:
      return "audit user";
    case DbsimUserKind::kBulkUpdate:
      return "bulk update user";
    case DbsimUserKind::kShrink:
      return "shrink user";
    case DbsimUserKind::kCycleAudit:
      return "end-of-cycle audit";
  }
  return "user";
}

int DbsimUserDepth(DbsimUserKind kind, const DbsimConfig& config) {
  switch (kind) {
    case DbsimUserKind::kRandom:
    case DbsimUserKind::kCheckpoint:
    case DbsimUserKind::kReadAhead:
    case DbsimUserKind::kBulkUpdate:
      return static_cast<int>(std::max<int64_t>(1, config.user_depth));
    default:
      return 1;
  }
}

double DbsimMeanInFlight(const RunResult& r) {
  double io_ns = 0;
  for (size_t k = kDbsimKindRead; k <= static_cast<size_t>(kDbsimKindGatherWrite); ++k) {
    if (k >= r.latency.size()) break;
    const LatencyHistogram& h = r.latency[k].histogram;
    io_ns += h.moments().Mean() * static_cast<double>(h.Count());
  }
  return r.total_time_s > 0 ? io_ns / (r.total_time_s * 1e9) : 0;
}

DbsimUserWorkload::DbsimUserWorkload(DbsimUserSettings settings, DbsimDatabase& db)
    : settings_(std::move(settings)), db_(db) {
  settings_.meter = &meter_;
}

WorkloadInfo DbsimUserWorkload::Info() const {
  WorkloadInfo info;
  info.name = "dbsim";
  info.summary = "a database engine's I/O, simulated and verified";
  info.event_definition = "one unit of the simulated user's work";
  info.self_timed = true;
  // A random or read-ahead user at a depth above 1 has several events
  // (accesses, read-aheads) outstanding at once: its busy time is its own.
  info.reports_busy_time =
      (settings_.kind == DbsimUserKind::kRandom || settings_.kind == DbsimUserKind::kReadAhead) &&
      DbsimUserDepth(settings_.kind, *settings_.config) > 1;
  info.latency_kinds = {"read",      "scatter read", "write", "gather write",
                        "log write", "flush",        "grow",  "shrink"};
  info.counter_names = {"bytes read",   "bytes written", "pages checked", "cache hits",
                        "log bytes",    "audit passes",  "good re-reads", "re-reads",
                        "throttled ns", "rollbacks",     "lazy writes",   "pages grown",
                        "pages shrunk", "yields"};
  for (int k = 1; k < kDbPageFaultKinds; ++k) {
    info.counter_names.push_back(std::string(DbPageFaultName(static_cast<DbPageFault>(k))));
  }
  // Each data file's I/O, failed pages and throttled time (DbsimFileKind,
  // DbsimFileFaultCounter, DbsimFileThrottledCounter).
  for (size_t f = 0; f < db_.data_files(); ++f) {
    info.latency_kinds.push_back("I/O on " + db_.file_name(f));
    for (int k = 1; k < kDbPageFaultKinds; ++k) {
      info.counter_names.push_back(
          fmt::format("{}: {}", db_.file_name(f), DbPageFaultName(static_cast<DbPageFault>(k))));
    }
    info.counter_names.push_back(db_.file_name(f) + ": throttled ns");
  }
  return info;
}

Status DbsimUserWorkload::Init(int threads) {
  if (settings_.kind == DbsimUserKind::kLogWriter) db_.OpenLog();
  return Status::Ok();
}

std::vector<int> DbsimAffinityCpus(int64_t mask) {
  std::vector<int> cpus;
  for (int c = 0; c < 63; ++c) {
    if ((static_cast<uint64_t>(mask) >> c) & 1U) cpus.push_back(c);
  }
  return cpus;
}

Result<std::unique_ptr<Worker>> DbsimUserWorkload::NewWorker(const ThreadContext& ctx) {
  // Affinity, on the worker's own thread (made on it), before its I/O
  // helpers start: they run where it runs.
  if (settings_.config->affinity != 0) {
    if (Status st = SetCurrentThreadCpus(DbsimAffinityCpus(settings_.config->affinity)); !st.ok()) {
      return Status(st.code(), "[CONFIG] Affinity: " + st.message(), st.err());
    }
  }
  switch (settings_.kind) {
    case DbsimUserKind::kRandom:
      return std::unique_ptr<Worker>(std::make_unique<RandomUserWorker>(settings_, db_, ctx));
    case DbsimUserKind::kLogWriter:
      return std::unique_ptr<Worker>(std::make_unique<LogWriterWorker>(settings_, db_, ctx));
    case DbsimUserKind::kCheckpoint:
      return std::unique_ptr<Worker>(std::make_unique<CheckpointWorker>(settings_, db_, ctx));
    case DbsimUserKind::kReadAhead:
      return std::unique_ptr<Worker>(std::make_unique<ReadAheadWorker>(settings_, db_, ctx));
    case DbsimUserKind::kAudit:
    case DbsimUserKind::kCycleAudit:
      return std::unique_ptr<Worker>(std::make_unique<AuditWorker>(settings_, db_, ctx));
    case DbsimUserKind::kBulkUpdate:
      return NewDbsimBulkUpdateWorker(settings_, db_, ctx);
    case DbsimUserKind::kShrink:
      return NewDbsimShrinkWorker(settings_, db_, ctx);
  }
  return Status::Internal("dbsim: unknown user kind");
}

std::vector<std::pair<std::string, std::string>> DbsimUserWorkload::Describe() const {
  return {{"user", DbsimUserName(settings_.kind)},
          {"data files", std::to_string(db_.data_files())},
          {"pages", std::to_string(db_.total_pages())}};
}

std::vector<Metric> DbsimUserWorkload::Metrics(const RunResult& r) const {
  uint64_t ios = 0;
  for (size_t k = kDbsimKindRead;
       k <= static_cast<size_t>(kDbsimKindLogWrite) && k < r.latency.size(); ++k) {
    ios += r.latency[k].histogram.Count();
  }
  auto counter = [&r](size_t i) {
    return static_cast<double>(i < r.counters.size() ? r.counters[i] : 0);
  };
  double failed = 0;
  for (int k = 1; k < kDbPageFaultKinds; ++k) {
    failed += counter(static_cast<size_t>(kDbsimFaultCounters + k - 1));
  }
  const double s = r.total_time_s;
  return {
      {"io_per_second", "I/O per sec", Rate(static_cast<double>(ios), s), "IO/s"},
      {"read_mib_per_second", "read MiB/sec", MibPerSecond(counter(kDbsimBytesRead), s), "MiB/s"},
      {"written_mib_per_second", "written MiB/sec", MibPerSecond(counter(kDbsimBytesWritten), s),
       "MiB/s"},
      {"pages_checked_per_second", "pages checked/sec", Rate(counter(kDbsimPagesChecked), s),
       "pages/s"},
      // Failed checks (a page failing again counts again); the key kept.
      {"failed_pages", "failed checks", failed, "checks"},
  };
}

}  // namespace loadcell
