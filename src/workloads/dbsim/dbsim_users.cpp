#include "workloads/dbsim/dbsim_users.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "core/clock.h"
#include "core/random.h"
#include "io/io_engine.h"
#include "runner/recorder.h"

namespace loadcell {

namespace {

constexpr uint64_t kRegionPages = 64;
constexpr uint32_t kLogBlock = 512;
constexpr int64_t kPollNs = 10'000'000;

struct IoBufferFree {
  void operator()(uint8_t* p) const { FreeIoBuffer(p); }
};
using IoBufferPtr = std::unique_ptr<uint8_t, IoBufferFree>;

IoBufferPtr NewIoBuffer(size_t len) {
  return IoBufferPtr(static_cast<uint8_t*>(AllocateIoBuffer(len)));
}

// What every user's worker has: the database, page buffers for a run of
// pages, its random draws, and the recording of reads and their checks.
class DbsimWorkerBase : public Worker {
 public:
  DbsimWorkerBase(const DbsimUserSettings& s, DbsimDatabase& db, const ThreadContext& ctx)
      : cfg_(*s.config),
        db_(db),
        rec_(*ctx.recorder),
        rng_(s.seed ^ (uint64_t{static_cast<uint8_t>(s.kind)} << 56) ^
             static_cast<uint64_t>(ctx.thread_id)),
        name_(fmt::format("{} {}", DbsimUserName(s.kind), ctx.thread_id + 1)),
        stamp_id_((static_cast<uint32_t>(s.kind) << 16) | static_cast<uint32_t>(ctx.thread_id)),
        page_size_(db.file(0).settings().page_size),
        buffer_(NewIoBuffer(page_size_ * (DbPageFile::kMaxRun + 1))) {
    pages_.reserve(DbPageFile::kMaxRun + 1);
    for (size_t i = 0; i <= DbPageFile::kMaxRun; ++i) {  // the last: re-reads
      pages_.emplace_back(buffer_.get() + i * page_size_, page_size_);
    }
  }

 protected:
  // Sleeps `ms` (not measured), in slices that notice a stop.
  void Pause(int64_t ms) {
    const Nanos end = MonotonicNow() + ms * 1'000'000;
    for (Nanos now = MonotonicNow(); now < end && !db_.Stopping(); now = MonotonicNow()) {
      SystemClock().SleepUntil(std::min(end, now + kPollNs));
    }
  }
  // SQLIOSim's DelayAfterCycles: before every `every`-th cycle but the
  // first, a pause of `ms`.
  void CycleDelay(int64_t every, int64_t ms) {
    if (cycles_ > 0 && every > 0 && cycles_ % static_cast<uint64_t>(every) == 0) Pause(ms);
    ++cycles_;
  }
  bool Chance(int64_t hundredths_of_percent) {
    return static_cast<int64_t>(rng_.Uniform(1, 10000)) <= hundredths_of_percent;
  }
  void Record(int kind, Nanos t0, Nanos t1) {
    rec_.RecordKind(kind, static_cast<uint64_t>(t1 > t0 ? t1 - t0 : 0));
  }
  // Counts a page's check; a failed one is re-read once into the spare
  // buffer, as SQLIOSim does: a good re-read points at a cache or the path,
  // the same failure at the medium.
  void Checked(size_t buf, size_t file_index, const DbPageCheck& check) {
    rec_.Add(kDbsimPagesChecked, 1);
    if (check.ok()) return;
    rec_.Add(kDbsimFaultCounters + static_cast<int>(check.fault) - 1, 1);
    auto again =
        db_.file(file_index)
            .ReadPage(check.want.page_no, pages_[DbPageFile::kMaxRun], ++serial_, stamp_id_);
    std::string retry;
    if (!again.ok()) {
      retry = "the re-read failed: " + again.status().message();
    } else if (again->ok()) {
      rec_.Add(kDbsimGoodRereads, 1);
      retry = "a re-read returned the expected version (a cache or the path, not the medium)";
    } else {
      retry = fmt::format("a re-read saw {} too", DbPageFaultName(again->fault));
    }
    db_.NoteFault(name_, pages_[buf], check.want, check, retry);
  }
  // Reads and checks one page into buffer 0.
  Status ReadOne(size_t file_index, uint64_t page) {
    DbPageFile& file = db_.file(file_index);
    const Nanos t0 = MonotonicNow();
    LC_ASSIGN_OR_RETURN(DbPageCheck check, file.ReadPage(page, pages_[0], ++serial_, stamp_id_));
    Record(kDbsimKindRead, t0, MonotonicNow());
    rec_.Add(kDbsimBytesRead, page_size_);
    Checked(0, file_index, check);
    return Status::Ok();
  }
  // Reads and checks `count` pages from `first`: one scatter read, or one
  // read per page without UseScatterGather.
  Status ReadRun(size_t file_index, uint64_t first, size_t count) {
    if (!cfg_.use_scatter_gather) {
      for (size_t i = 0; i < count; ++i) LC_RETURN_IF_ERROR(ReadOne(file_index, first + i));
      return Status::Ok();
    }
    DbPageFile& file = db_.file(file_index);
    const Nanos t0 = MonotonicNow();
    LC_RETURN_IF_ERROR(
        file.ReadPages(first, std::span(pages_).first(count), ++serial_, stamp_id_, checks_));
    Record(kDbsimKindScatterRead, t0, MonotonicNow());
    rec_.Add(kDbsimBytesRead, count * page_size_);
    for (size_t i = 0; i < count; ++i) Checked(i, file_index, checks_[i]);
    return Status::Ok();
  }

  const DbsimConfig& cfg_;
  DbsimDatabase& db_;
  ThreadRecorder& rec_;
  Random rng_;
  std::string name_;
  uint32_t stamp_id_;
  uint64_t serial_ = 0;
  uint64_t cycles_ = 0;
  size_t page_size_;
  IoBufferPtr buffer_;
  std::vector<std::span<uint8_t>> pages_;
  std::vector<DbPageCheck> checks_;
};

// Chains of page accesses around a region; updates log first, then dirty
// the page for the checkpoint.
class RandomUserWorker final : public DbsimWorkerBase {
 public:
  using DbsimWorkerBase::DbsimWorkerBase;

  Status RunEvent() override {
    if (db_.Stopping()) return EndOfWork();
    if (chain_left_ == 0) {
      if (started_ && cfg_.sleep_after_ms > 0) Pause(cfg_.sleep_after_ms);
      chain_left_ = rng_.Uniform(cfg_.min_io_chain, cfg_.max_io_chain);
      NewRegion();
      started_ = true;
    } else if (Chance(cfg_.jump_to_new_region)) {
      NewRegion();
    }
    --chain_left_;
    const DbPageFileSettings& f = db_.file(file_).settings();
    const uint64_t page = std::min(f.pages - 1, region_ + rng_.Uniform(0, kRegionPages - 1));
    const Nanos t0 = MonotonicNow();
    if (Chance(cfg_.cache_hit_ratio)) {
      rec_.Add(kDbsimCacheHits, 1);
    } else {
      LC_RETURN_IF_ERROR(ReadOne(file_, page));
    }
    if (!Chance(cfg_.read_write_ratio)) {
      const uint64_t lsn = db_.QueueLog(
          static_cast<uint32_t>(rng_.Uniform(cfg_.min_log_per_buffer, cfg_.max_log_per_buffer)));
      if (lsn == 0 || !db_.WaitDurable(lsn)) return EndOfWork();
      db_.MarkDirty({file_, page});  // written by the checkpoint, after its log record
    }
    rec_.RecordTimedEvent(t0, MonotonicNow());
    return Status::Ok();
  }

 private:
  void NewRegion() {
    file_ = rng_.Uniform(0, db_.data_files() - 1);
    region_ = rng_.Uniform(0, db_.file(file_).settings().pages - 1);
  }

  uint64_t chain_left_ = 0;
  bool started_ = false;
  size_t file_ = 0;
  uint64_t region_ = 0;
};

// Group commit: writes every queued record in one sequential write, durable
// (write-through or fdatasync) before the users waiting for it go on.
class LogWriterWorker final : public DbsimWorkerBase {
 public:
  using DbsimWorkerBase::DbsimWorkerBase;

  Status RunEvent() override {
    if (db_.Stopping()) return EndOfWork();
    auto [bytes, lsn] = db_.TakeQueuedLog(kPollNs);
    if (bytes == 0) return Status::Ok();
    // Log blocks are whole sectors (unbuffered I/O needs it; engines pad so).
    const uint64_t padded = (bytes + kLogBlock - 1) / kLogBlock * kLogBlock;
    if (padded > log_capacity_) {
      log_capacity_ = std::max<uint64_t>(padded, 1 << 20);
      log_buffer_ = NewIoBuffer(log_capacity_);
      std::fill_n(log_buffer_.get(), log_capacity_, static_cast<uint8_t>(0xA5));
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
  IoBufferPtr log_buffer_;
};

// Writes the dirty pages in bursts: adjacent pages in one gather write.
class CheckpointWorker final : public DbsimWorkerBase {
 public:
  using DbsimWorkerBase::DbsimWorkerBase;

  Status RunEvent() override {
    if (db_.Stopping()) return EndOfWork();
    const auto dirty = db_.TakeDirty(DbPageFile::kMaxRun * 4);
    if (dirty.empty()) {
      Pause(2);
      return Status::Ok();
    }
    const Nanos t0 = MonotonicNow();
    LC_RETURN_IF_ERROR(Journal(dirty, true));
    std::vector<bool> touched(db_.data_files(), false);
    for (size_t i = 0; i < dirty.size();) {
      size_t run = 1;
      while (i + run < dirty.size() && run < DbPageFile::kMaxRun &&
             dirty[i + run].first == dirty[i].first &&
             dirty[i + run].second == dirty[i].second + run) {
        ++run;
      }
      LC_RETURN_IF_ERROR(WriteRun(dirty[i].first, dirty[i].second, run));
      touched[dirty[i].first] = true;
      i += run;
    }
    if (!cfg_.write_through) {
      for (size_t f = 0; f < touched.size(); ++f) {
        if (!touched[f]) continue;
        const Nanos f0 = MonotonicNow();
        LC_RETURN_IF_ERROR(db_.file(f).Flush());
        Record(kDbsimKindFlush, f0, MonotonicNow());
      }
    }
    LC_RETURN_IF_ERROR(Journal(dirty, false));
    rec_.RecordTimedEvent(t0, MonotonicNow());
    return Status::Ok();
  }

 private:
  // With a crash journal: the intents of the burst (each page's next key),
  // durable before the first write; then, the burst written and flushed
  // (or write-through), its durable lines. The checkpoint is the pages'
  // only writer, so their next keys are known here.
  Status Journal(const std::vector<DbsimPageRef>& dirty, bool intent) {
    DbCrashJournal* journal = db_.journal();
    if (journal == nullptr) return Status::Ok();
    std::vector<DbJournalPage> lines;
    lines.reserve(dirty.size());
    for (const auto& [file, page] : dirty) {
      const DbPageFile& f = db_.file(file);
      lines.push_back({f.settings().file_id, page, f.keys().Acked(page) + (intent ? 1 : 0)});
    }
    return intent ? journal->Intend(lines) : journal->Durable(lines);
  }

  Status WriteRun(size_t file_index, uint64_t first, size_t count) {
    DbPageFile& file = db_.file(file_index);
    const Nanos t0 = MonotonicNow();
    if (cfg_.use_scatter_gather && count > 1) {
      LC_RETURN_IF_ERROR(file.WritePages(first, std::span(pages_).first(count), db_.NowNs()));
      Record(kDbsimKindGatherWrite, t0, MonotonicNow());
    } else {
      for (size_t i = 0; i < count; ++i) {
        const Nanos w0 = MonotonicNow();
        LC_RETURN_IF_ERROR(file.WritePage(first + i, pages_[0], db_.NowNs()));
        Record(kDbsimKindWrite, w0, MonotonicNow());
      }
    }
    rec_.Add(kDbsimBytesWritten, count * page_size_);
    return Status::Ok();
  }
};

// Scatter reads of BuffersRAMin..BuffersRAMax consecutive pages.
class ReadAheadWorker final : public DbsimWorkerBase {
 public:
  using DbsimWorkerBase::DbsimWorkerBase;

  Status RunEvent() override {
    if (db_.Stopping()) return EndOfWork();
    CycleDelay(cfg_.ra_delay_after_cycles, cfg_.ra_delay_ms);
    const size_t file = rng_.Uniform(0, db_.data_files() - 1);
    const uint64_t pages = db_.file(file).settings().pages;
    const uint64_t most = std::min<uint64_t>(
        {pages, DbPageFile::kMaxRun, static_cast<uint64_t>(cfg_.buffers_ra_max)});
    const uint64_t count = rng_.Uniform(std::min<uint64_t>(cfg_.buffers_ra_min, most), most);
    const uint64_t first = rng_.Uniform(0, pages - count);
    const Nanos t0 = MonotonicNow();
    LC_RETURN_IF_ERROR(ReadRun(file, first, count));
    rec_.RecordTimedEvent(t0, MonotonicNow());
    return Status::Ok();
  }
};

// Reads every page in order, BuffersValidated a batch, each checked.
class AuditWorker final : public DbsimWorkerBase {
 public:
  AuditWorker(const DbsimUserSettings& s, DbsimDatabase& db, const ThreadContext& ctx)
      : DbsimWorkerBase(s, db, ctx) {
    // Each audit user starts at its own share of the pages.
    uint64_t skip = db.total_pages() * static_cast<uint64_t>(ctx.thread_id) /
                    static_cast<uint64_t>(std::max(1, ctx.num_threads));
    while (skip >= db.file(file_).settings().pages) {
      skip -= db.file(file_).settings().pages;
      ++file_;
    }
    page_ = skip;
  }

  Status RunEvent() override {
    if (db_.Stopping()) return EndOfWork();
    CycleDelay(cfg_.audit_delay_after_cycles, cfg_.audit_delay_ms);
    const Nanos t0 = MonotonicNow();
    for (int64_t i = 0; i < cfg_.buffers_validated && !db_.Stopping(); ++i) {
      LC_RETURN_IF_ERROR(ReadOne(file_, page_));
      if (++page_ == db_.file(file_).settings().pages) {
        page_ = 0;
        if (++file_ == db_.data_files()) {
          file_ = 0;
          rec_.Add(kDbsimAuditPasses, 1);
        }
      }
    }
    rec_.RecordTimedEvent(t0, MonotonicNow());
    return Status::Ok();
  }

 private:
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
  }
  return "user";
}

DbsimUserWorkload::DbsimUserWorkload(DbsimUserSettings settings, DbsimDatabase& db)
    : settings_(settings), db_(db) {}

WorkloadInfo DbsimUserWorkload::Info() const {
  WorkloadInfo info;
  info.name = "dbsim";
  info.summary = "a database engine's I/O, simulated and verified";
  info.event_definition = "one unit of the simulated user's work";
  info.self_timed = true;
  info.latency_kinds = {"read", "scatter read", "write", "gather write", "log write", "flush"};
  info.counter_names = {"bytes read", "bytes written", "pages checked", "cache hits",
                        "log bytes",  "audit passes",  "good re-reads"};
  for (int k = 1; k < kDbPageFaultKinds; ++k) {
    info.counter_names.push_back(std::string(DbPageFaultName(static_cast<DbPageFault>(k))));
  }
  return info;
}

Status DbsimUserWorkload::Init(int threads) {
  if (settings_.kind == DbsimUserKind::kLogWriter) db_.OpenLog();
  return Status::Ok();
}

Result<std::unique_ptr<Worker>> DbsimUserWorkload::NewWorker(const ThreadContext& ctx) {
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
      return std::unique_ptr<Worker>(std::make_unique<AuditWorker>(settings_, db_, ctx));
  }
  return Status::Internal("dbsim: unknown user kind");
}

std::vector<std::pair<std::string, std::string>> DbsimUserWorkload::Describe() const {
  return {{"user", DbsimUserName(settings_.kind)},
          {"data files", std::to_string(db_.data_files())},
          {"pages", std::to_string(db_.total_pages())}};
}

}  // namespace loadcell
