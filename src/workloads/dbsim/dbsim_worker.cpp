#include "workloads/dbsim/dbsim_worker.h"

#include <fmt/format.h>

#include <algorithm>

namespace loadcell {

DbsimWorkerBase::DbsimWorkerBase(const DbsimUserSettings& s, DbsimDatabase& db,
                                 const ThreadContext& ctx)
    : cfg_(*s.config),
      db_(db),
      rec_(*ctx.recorder),
      rng_(s.seed ^ (uint64_t{static_cast<uint8_t>(s.kind)} << 56) ^
           static_cast<uint64_t>(ctx.thread_id)),
      name_(fmt::format("{} {}", DbsimUserName(s.kind), ctx.thread_id + 1)),
      stamp_id_((static_cast<uint32_t>(s.kind) << 16) | static_cast<uint32_t>(ctx.thread_id)),
      page_size_(db.file(0).settings().page_size),
      // The workers are made as their cycle starts.
      cycle_end_(MonotonicNow() + s.config->test_cycle_duration_s * 1'000'000'000),
      buffer_(NewDbsimIoBuffer(page_size_ * (DbPageFile::kMaxRun + 1))) {
  pages_.reserve(DbPageFile::kMaxRun + 1);
  for (size_t i = 0; i <= DbPageFile::kMaxRun; ++i) {  // the last: re-reads
    pages_.emplace_back(buffer_.get() + i * page_size_, page_size_);
  }
}

void DbsimWorkerBase::Pause(int64_t ms) {
  const Nanos end = std::min(cycle_end_, MonotonicNow() + ms * 1'000'000);
  for (Nanos now = MonotonicNow(); now < end && !db_.Stopping(); now = MonotonicNow()) {
    SystemClock().SleepUntil(std::min(end, now + kDbsimPollNs));
  }
}

void DbsimWorkerBase::CycleDelay(int64_t every, int64_t ms) {
  if (cycles_ > 0 && every > 0 && cycles_ % static_cast<uint64_t>(every) == 0) Pause(ms);
  ++cycles_;
}

DbsimWorkerBase::PageRun DbsimWorkerBase::PickRun(int64_t min_pages, int64_t max_pages,
                                                  uint64_t cap) {
  PageRun run;
  run.file = rng_.Uniform(0, db_.data_files() - 1);
  const uint64_t pages = db_.file(run.file).pages();
  const uint64_t most = std::min({pages, cap, static_cast<uint64_t>(max_pages)});
  run.count = rng_.Uniform(std::min(static_cast<uint64_t>(min_pages), most), most);
  run.first = rng_.Uniform(0, pages - run.count);
  return run;
}

DbsimIoSlot DbsimWorkerBase::Throttle(bool burst) {
  DbsimIoSlot slot = db_.gate().Enter(burst);
  rec_.Add(kDbsimThrottledNs, static_cast<uint64_t>(slot.waited_ns()));
  return slot;
}

std::string DbsimWorkerBase::Reread(size_t file_index, const DbPageCheck& check) {
  DbPageFault last = check.fault;
  for (int attempt = 1; attempt <= kDbsimReadRetries; ++attempt) {
    rec_.Add(kDbsimRereads, 1);
    auto again =
        db_.file(file_index)
            .ReadPage(check.want.page_no, pages_[DbPageFile::kMaxRun], ++serial_, stamp_id_);
    if (!again.ok()) return "a re-read failed: " + again.status().message();
    if (again->gone) return "the page was shrunk away before a re-read";
    if (again->ok()) {
      rec_.Add(kDbsimGoodRereads, 1);
      return fmt::format(
          "a re-read returned the expected version after {} failed read{} (a cache or the path, "
          "not the medium)",
          attempt, attempt == 1 ? "" : "s");
    }
    last = again->fault;
  }
  return fmt::format("all {} re-reads failed, the last saw {} too", kDbsimReadRetries,
                     DbPageFaultName(last));
}

void DbsimWorkerBase::Checked(size_t buf, size_t file_index, const DbPageCheck& check) {
  if (check.gone) return;
  rec_.Add(kDbsimPagesChecked, 1);
  if (check.ok()) return;
  rec_.Add(kDbsimFaultCounters + static_cast<int>(check.fault) - 1, 1);
  // The failed page first: the re-reads use the spare buffer, not `buf`.
  const std::string retry = Reread(file_index, check);
  db_.NoteFault(name_, pages_[buf], check.want, check, retry);
}

Result<bool> DbsimWorkerBase::ReadOne(size_t file_index, uint64_t page) {
  DbPageFile& file = db_.file(file_index);
  DbPageCheck check;
  {
    DbsimIoSlot slot = Throttle(false);
    const Nanos t0 = MonotonicNow();
    LC_ASSIGN_OR_RETURN(check, file.ReadPage(page, pages_[0], ++serial_, stamp_id_));
    slot.Done();
    if (check.gone) return false;
    Record(kDbsimKindRead, t0, MonotonicNow());
  }
  rec_.Add(kDbsimBytesRead, page_size_);
  Checked(0, file_index, check);
  return true;
}

Status DbsimWorkerBase::ReadRun(size_t file_index, uint64_t first, size_t count) {
  if (!cfg_.use_scatter_gather) {
    for (size_t i = 0; i < count; ++i) {
      LC_ASSIGN_OR_RETURN(bool read, ReadOne(file_index, first + i));
      if (!read) break;
    }
    return Status::Ok();
  }
  DbPageFile& file = db_.file(file_index);
  DbsimIoSlot slot = Throttle(false);
  const Nanos t0 = MonotonicNow();
  LC_ASSIGN_OR_RETURN(size_t read, file.ReadPages(first, std::span(pages_).first(count), ++serial_,
                                                  stamp_id_, checks_));
  slot.Done();
  if (read == 0) return Status::Ok();
  Record(kDbsimKindScatterRead, t0, MonotonicNow());
  rec_.Add(kDbsimBytesRead, read * page_size_);
  for (size_t i = 0; i < read; ++i) Checked(i, file_index, checks_[i]);
  return Status::Ok();
}

// With a crash journal: the intents of the burst (each page's next key),
// durable before the first write; then, the burst written and flushed (or
// write-through), its durable lines. Bursts are journaled one at a time
// (JournalBurst), so their next keys are known here.
Status DbsimWorkerBase::Journal(const std::vector<DbsimPageRef>& pages, bool intent) {
  DbCrashJournal* journal = db_.journal();
  if (journal == nullptr) return Status::Ok();
  std::vector<DbJournalPage> lines;
  lines.reserve(pages.size());
  for (const auto& [file, page] : pages) {
    const DbPageFile& f = db_.file(file);
    lines.push_back({f.settings().file_id, page, f.keys().Acked(page) + (intent ? 1 : 0)});
  }
  return intent ? journal->Intend(lines) : journal->Durable(lines);
}

Status DbsimWorkerBase::WriteRun(size_t file_index, uint64_t first, size_t count, bool burst) {
  DbPageFile& file = db_.file(file_index);
  size_t written = 0;
  if (cfg_.use_scatter_gather && count > 1) {
    DbsimIoSlot slot = Throttle(burst);
    const Nanos t0 = MonotonicNow();
    LC_ASSIGN_OR_RETURN(written,
                        file.WritePages(first, std::span(pages_).first(count), db_.NowNs()));
    slot.Done();
    if (written > 0) Record(kDbsimKindGatherWrite, t0, MonotonicNow());
  } else {
    for (size_t i = 0; i < count; ++i) {
      DbsimIoSlot slot = Throttle(burst);
      const Nanos w0 = MonotonicNow();
      LC_ASSIGN_OR_RETURN(bool done, file.WritePage(first + i, pages_[0], db_.NowNs()));
      slot.Done();
      if (!done) break;
      Record(kDbsimKindWrite, w0, MonotonicNow());
      ++written;
    }
  }
  rec_.Add(kDbsimBytesWritten, written * page_size_);
  return Status::Ok();
}

Status DbsimWorkerBase::Doublewrite(size_t file_index, uint64_t first, size_t count, bool burst) {
  const DbPageFile& file = db_.file(file_index);
  const DbPageFileSettings& f = file.settings();
  std::vector<IoSlice> slices;
  slices.reserve(count);
  const uint64_t now = db_.NowNs();
  for (size_t i = 0; i < count; ++i) {
    // The key the in-place write will give (the area is not read back).
    const uint64_t page = first + i;
    const uint64_t key = file.keys().Acked(page) + 1;
    StampDbPage(pages_[i],
                {f.file_id, page, key, DbContentSeed(f.run_seed, f.file_id, page, key), now});
    slices.push_back({pages_[i].data(), pages_[i].size()});
  }
  DbsimIoSlot slot = Throttle(burst);
  const Nanos t0 = MonotonicNow();
  LC_RETURN_IF_ERROR(db_.WriteDoublewrite(slices));
  slot.Done();
  Record(kDbsimKindGatherWrite, t0, MonotonicNow());
  rec_.Add(kDbsimBytesWritten, count * page_size_);
  return Status::Ok();
}

Status DbsimWorkerBase::WritePages(const std::vector<DbsimPageRef>& pages, bool burst) {
  if (pages.empty()) return Status::Ok();
  auto journaled = db_.JournalBurst();
  LC_RETURN_IF_ERROR(Journal(pages, true));
  std::vector<bool> touched(db_.data_files(), false);
  for (size_t i = 0; i < pages.size();) {
    size_t run = 1;
    while (i + run < pages.size() && run < DbPageFile::kMaxRun &&
           pages[i + run].first == pages[i].first &&
           pages[i + run].second == pages[i].second + run) {
      ++run;
    }
    if (db_.doublewrite()) {
      LC_RETURN_IF_ERROR(Doublewrite(pages[i].first, pages[i].second, run, burst));
    }
    LC_RETURN_IF_ERROR(WriteRun(pages[i].first, pages[i].second, run, burst));
    touched[pages[i].first] = true;
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
  return Journal(pages, false);
}

}  // namespace loadcell
