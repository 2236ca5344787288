// SQLIOSim's bulk update user (SELECT INTO, BULK INSERT: runs of pages
// written whole, minimally logged) and shrink user (DBCC SHRINKFILE and the
// file's growth), docs/dbsim.md "The simulated users".

#include <algorithm>
#include <cstdint>

#include "workloads/dbsim/dbsim_worker.h"

namespace loadcell {

namespace {

// Pages per extent: a bulk update logs one allocation record per extent.
constexpr uint64_t kExtentPages = 8;
// The most pages one bulk update burst writes (the checkpoint's burst).
constexpr size_t kBulkBurstPages = DbPageFile::kMaxRun * 4;

// Writes BuffersBUMin..BuffersBUMax consecutive pages of one file: the
// allocation logged and durable first, then the pages in gather writes of up
// to 64 pages, flushed unless write-through; BUDelay ms every
// DelayAfterCycles updates. Every page it writes is a new version the other
// users' reads check.
class BulkUpdateWorker final : public DbsimWorkerBase {
 public:
  using DbsimWorkerBase::DbsimWorkerBase;

  Status RunEvent() override {
    if (db_.Stopping()) return EndOfWork();
    if (!CycleDelay(cfg_.bu_delay_after_cycles, cfg_.bu_delay_ms)) return EndOfWork();
    const PageRun run = PickRun(cfg_.buffers_bu_min, cfg_.buffers_bu_max, UINT64_MAX);
    const uint64_t count = run.count;
    const Nanos t0 = MonotonicNow();
    const uint64_t extents = (count + kExtentPages - 1) / kExtentPages;
    const uint64_t log_bytes =
        std::min<uint64_t>(extents * static_cast<uint64_t>(cfg_.min_log_per_buffer), 1u << 20);
    const uint64_t lsn = db_.QueueLog(static_cast<uint32_t>(log_bytes));
    if (lsn == 0 || !db_.WaitDurable(lsn)) return EndOfWork();
    std::vector<DbsimPageRef> burst;
    for (uint64_t done = 0; done < count && !db_.Stopping();) {
      const uint64_t n = std::min<uint64_t>(count - done, kBulkBurstPages);
      burst.clear();
      for (uint64_t i = 0; i < n; ++i) burst.emplace_back(run.file, run.first + done + i);
      LC_RETURN_IF_ERROR(WritePages(burst, false));
      done += n;
    }
    rec_.RecordTimedEvent(t0, MonotonicNow());
    return Status::Ok();
  }
};

// Every MinShrinkInterval..MaxShrinkInterval seconds, one Shrinkable data
// file shrinks or grows by MinExtends..MaxExtends increments: never below
// one increment, never above MaxSize. A shrink removes the pages past the
// new end (no other user reads or writes them after: they are gone, not
// lost); a grow writes every new page (zeros first with StampFiles) and
// flushes before the pages are used, so they are checked like the rest.
class ShrinkWorker final : public DbsimWorkerBase {
 public:
  ShrinkWorker(const DbsimUserSettings& s, DbsimDatabase& db, const ThreadContext& ctx)
      : DbsimWorkerBase(s, db, ctx) {
    for (size_t f = 0; f < db.data_files(); ++f) {
      if (db.resize(f).shrinkable && db.resize(f).increment_pages > 0) files_.push_back(f);
    }
  }

  Status RunEvent() override {
    if (db_.Stopping() || files_.empty()) return EndOfWork();
    const auto wait_s =
        static_cast<int64_t>(rng_.Uniform(static_cast<uint64_t>(cfg_.min_shrink_interval_s),
                                          static_cast<uint64_t>(cfg_.max_shrink_interval_s)));
    // At least a poll's length between two resizes (an interval of 0).
    Pause(std::max<int64_t>(10, wait_s * 1000));
    if (db_.Stopping() || MonotonicNow() >= cycle_end_) return Status::Ok();
    const size_t f = files_[rng_.Uniform(0, files_.size() - 1)];
    DbPageFile& file = db_.file(f);
    const uint64_t step = db_.resize(f).increment_pages;
    const uint64_t extends = rng_.Uniform(static_cast<uint64_t>(cfg_.min_extends),
                                          static_cast<uint64_t>(cfg_.max_extends));
    const uint64_t live = file.pages();
    const uint64_t floor = std::min(step, file.capacity());
    const bool can_grow = live < file.capacity();
    const bool can_shrink = live > floor;
    if (extends == 0 || (!can_grow && !can_shrink)) return Status::Ok();
    const Nanos t0 = MonotonicNow();
    if (can_grow && (!can_shrink || Chance(5000))) {
      const uint64_t to = std::min(file.capacity(), live + extends * step);
      LC_RETURN_IF_ERROR(file.Grow(to, pages_[0], db_.NowNs(), cfg_.stamp_files));
      const Nanos t1 = MonotonicNow();
      RecordOnFile(kDbsimKindGrow, f, t0, t1);
      rec_.Add(kDbsimPagesGrown, to - live);
      rec_.Add(kDbsimBytesWritten, (to - live) * page_size_ * (cfg_.stamp_files ? 2 : 1));
      rec_.RecordTimedEvent(t0, t1);
    } else {
      const uint64_t to = live - std::min(live - floor, extends * step);
      LC_RETURN_IF_ERROR(file.Shrink(to));
      const Nanos t1 = MonotonicNow();
      RecordOnFile(kDbsimKindShrink, f, t0, t1);
      rec_.Add(kDbsimPagesShrunk, live - to);
      rec_.RecordTimedEvent(t0, t1);
    }
    return Status::Ok();
  }

 private:
  std::vector<size_t> files_;  // the shrinkable data files
};

}  // namespace

std::unique_ptr<Worker> NewDbsimBulkUpdateWorker(const DbsimUserSettings& s, DbsimDatabase& db,
                                                 const ThreadContext& ctx) {
  return std::make_unique<BulkUpdateWorker>(s, db, ctx);
}

std::unique_ptr<Worker> NewDbsimShrinkWorker(const DbsimUserSettings& s, DbsimDatabase& db,
                                             const ThreadContext& ctx) {
  return std::make_unique<ShrinkWorker>(s, db, ctx);
}

}  // namespace loadcell
