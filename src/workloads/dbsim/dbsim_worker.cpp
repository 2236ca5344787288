#include "workloads/dbsim/dbsim_worker.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

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
      buffer_(NewDbsimIoBuffer(page_size_ * (DbPageFile::kMaxRun + 1))),
      meter_(s.meter != nullptr ? s.meter : &own_meter_),
      // IOAffinity: the helpers doing this user's I/O on its mask's CPUs.
      pool_(DbsimUserDepth(s.kind, *s.config), DbsimAffinityCpus(s.config->io_affinity),
            "[CONFIG] IOAffinity"),
      slot_buffers_(static_cast<size_t>(pool_.depth())),
      slot_pages_(static_cast<size_t>(pool_.depth())) {
  pages_.reserve(DbPageFile::kMaxRun + 1);
  for (size_t i = 0; i <= DbPageFile::kMaxRun; ++i) {  // the last: re-reads
    pages_.emplace_back(buffer_.get() + i * page_size_, page_size_);
  }
  FillUnverified(buffer_.get(), page_size_ * (DbPageFile::kMaxRun + 1));
}

void DbsimWorkerBase::FillUnverified(uint8_t* p, size_t len) {
  // Unstamped pages are written as the buffer holds them: pseudo-random
  // bytes once, not zeros that compressing storage keeps in nothing.
  if (cfg_.verify) return;
  for (size_t i = 0; i + sizeof(uint64_t) <= len; i += sizeof(uint64_t)) {
    const uint64_t word = rng_.Next();
    std::memcpy(p + i, &word, sizeof(word));
  }
}

std::span<const std::span<uint8_t>> DbsimWorkerBase::SlotPages(size_t slot, size_t count) {
  if (slot == 0) return std::span<const std::span<uint8_t>>(pages_).first(count);
  std::vector<std::span<uint8_t>>& pages = slot_pages_[slot];
  if (pages.size() < count) {  // made once, as large as a task of this slot needs
    slot_buffers_[slot] = NewDbsimIoBuffer(page_size_ * count);
    FillUnverified(slot_buffers_[slot].get(), page_size_ * count);
    pages.clear();
    for (size_t i = 0; i < count; ++i) {
      pages.emplace_back(slot_buffers_[slot].get() + i * page_size_, page_size_);
    }
  }
  return std::span<const std::span<uint8_t>>(pages).first(count);
}

DbsimWorkerBase::Admitted DbsimWorkerBase::Admit(bool burst, size_t file, DbsimIoTally& t) {
  DbsimIoSlot slot = db_.gate().Enter(burst);
  const auto waited = static_cast<uint64_t>(slot.waited_ns());
  t.throttled_ns += waited;
  if (waited > 0 && file != kNoDataFile) t.file_throttled.emplace_back(file, waited);
  meter_->Enter();
  return Admitted{std::move(slot), meter_, false};
}

void DbsimWorkerBase::Apply(const DbsimIoTally& t) {
  for (const auto& [kind, ns] : t.latencies) rec_.RecordKind(kind, ns);
  if (t.throttled_ns > 0) rec_.Add(kDbsimThrottledNs, t.throttled_ns);
  for (const auto& [file, ns] : t.file_throttled) rec_.Add(DbsimFileThrottledCounter(file), ns);
  if (t.bytes_read > 0) rec_.Add(kDbsimBytesRead, t.bytes_read);
  if (t.bytes_written > 0) rec_.Add(kDbsimBytesWritten, t.bytes_written);
}

void DbsimWorkerBase::Pause(int64_t ms) {
  const Nanos end = std::min(cycle_end_, MonotonicNow() + ms * 1'000'000);
  for (Nanos now = MonotonicNow(); now < end && !db_.Stopping(); now = MonotonicNow()) {
    SystemClock().SleepUntil(std::min(end, now + kDbsimPollNs));
  }
}

bool DbsimWorkerBase::CycleDelay(int64_t every, int64_t ms) {
  if (cycles_ > 0 && every > 0 && cycles_ % static_cast<uint64_t>(every) == 0) {
    Pause(ms);
    // The pause reached the cycle's end: the runner's own end may come a
    // little later, but the user's work of this cycle is done (not
    // continued without its delays).
    if (MonotonicNow() >= cycle_end_) return false;
  }
  ++cycles_;
  return true;
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

std::string DbsimWorkerBase::Reread(size_t file_index, const DbPageCheck& check, bool* good) {
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
      *good = true;
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

void DbsimWorkerBase::Checked(std::span<const uint8_t> page, size_t file_index,
                              const DbPageCheck& check) {
  if (check.gone || check.unchecked) return;
  rec_.Add(kDbsimPagesChecked, 1);
  if (check.ok()) return;
  // The failed page first: the re-reads use the spare buffer, not `page`.
  bool good = false;
  const std::string retry = Reread(file_index, check, &good);
  // An old version past the durable key that a re-read finds expected is
  // on the medium: a stale read from a cache or the path, not a lost write.
  DbPageCheck named = check;
  if (good && named.fault == DbPageFault::kLostWrite) named.fault = DbPageFault::kStalePage;
  rec_.Add(kDbsimFaultCounters + static_cast<int>(named.fault) - 1, 1);
  rec_.Add(DbsimFileFaultCounter(file_index, named.fault), 1);
  db_.NoteFault(name_, page, named.want, named, retry);
}

Result<DbPageCheck> DbsimWorkerBase::ReadPageIo(size_t file_index, uint64_t page,
                                                std::span<uint8_t> buf, uint64_t serial,
                                                DbsimIoTally& t) {
  const Nanos submitted = MonotonicNow();
  if (t.submitted == 0) t.submitted = submitted;
  Admitted io = Admit(false, file_index, t);
  // The latency is the read call's own (DbIoSpan): the read stamp before it
  // and the page's check after it are the simulation's work, not the I/O's.
  DbIoSpan span;
  LC_ASSIGN_OR_RETURN(DbPageCheck check,
                      db_.file(file_index).ReadPage(page, buf, serial, stamp_id_, &span));
  io.Done();
  t.completed = check.gone ? MonotonicNow() : span.end;
  if (!check.gone) {
    t.Io(kDbsimKindRead, file_index, span.ns());
    t.bytes_read += page_size_;
  }
  return check;
}

Result<bool> DbsimWorkerBase::ReadOne(size_t file_index, uint64_t page, uint64_t* own_ns) {
  one_.Clear();
  Result<DbPageCheck> check = ReadPageIo(file_index, page, pages_[0], ++serial_, one_);
  Apply(one_);
  if (own_ns != nullptr) *own_ns = one_.OwnNs();
  if (!check.ok()) return check.status();
  if (check->gone) return false;
  Checked(pages_[0], file_index, *check);
  return true;
}

Result<std::vector<bool>> DbsimWorkerBase::ReadEach(const std::vector<DbsimPageRef>& pages,
                                                    std::vector<uint64_t>* own_ns) {
  const size_t n = pages.size();
  std::vector<std::span<uint8_t>> bufs;
  std::vector<uint64_t> serials;
  for (size_t i = 0; i < n; ++i) {
    bufs.push_back(SlotPages(i, 1)[0]);
    serials.push_back(++serial_);
  }
  std::vector<DbsimIoTally> tallies(n);
  std::vector<DbPageCheck> checks(n);
  const Status st = pool_.Run(n, [&](size_t i) -> Status {
    LC_ASSIGN_OR_RETURN(
        checks[i], ReadPageIo(pages[i].first, pages[i].second, bufs[i], serials[i], tallies[i]));
    return Status::Ok();
  });
  for (const DbsimIoTally& t : tallies) Apply(t);
  LC_RETURN_IF_ERROR(st);
  if (own_ns != nullptr) {
    own_ns->clear();
    for (const DbsimIoTally& t : tallies) own_ns->push_back(t.OwnNs());
  }
  std::vector<bool> read(n, false);
  for (size_t i = 0; i < n; ++i) {
    read[i] = !checks[i].gone;
    Checked(bufs[i], pages[i].first, checks[i]);
  }
  return read;
}

Status DbsimWorkerBase::ReadRunIo(const PageRun& run, std::span<const std::span<uint8_t>> bufs,
                                  uint64_t serial, std::vector<DbPageCheck>& checks,
                                  DbsimIoTally& t) {
  checks.clear();
  if (!cfg_.use_scatter_gather) {  // one read per page, in order
    for (size_t i = 0; i < run.count; ++i) {
      LC_ASSIGN_OR_RETURN(DbPageCheck check,
                          ReadPageIo(run.file, run.first + i, bufs[i], serial + i, t));
      if (check.gone) break;
      checks.push_back(check);
    }
    return Status::Ok();
  }
  Admitted io = Admit(false, run.file, t);
  DbIoSpan span;
  LC_ASSIGN_OR_RETURN(size_t read, db_.file(run.file).ReadPages(run.first, bufs.first(run.count),
                                                                serial, stamp_id_, checks, &span));
  io.Done();
  if (read == 0) return Status::Ok();
  t.Io(kDbsimKindScatterRead, run.file, span.ns());
  t.bytes_read += read * page_size_;
  return Status::Ok();
}

Status DbsimWorkerBase::ReadRuns(const std::vector<PageRun>& runs) {
  const size_t n = runs.size();
  std::vector<std::span<const std::span<uint8_t>>> bufs;
  std::vector<uint64_t> serials;
  for (size_t i = 0; i < n; ++i) {
    bufs.push_back(SlotPages(i, runs[i].count));
    serials.push_back(serial_ + 1);
    serial_ += runs[i].count;  // a serial per page (one read per page without scatter)
  }
  std::vector<DbsimIoTally> tallies(n);
  std::vector<std::vector<DbPageCheck>> checks(n);
  const Status st = pool_.Run(n, [&](size_t i) -> Status {
    return ReadRunIo(runs[i], bufs[i], serials[i], checks[i], tallies[i]);
  });
  for (const DbsimIoTally& t : tallies) Apply(t);
  LC_RETURN_IF_ERROR(st);
  for (size_t i = 0; i < n; ++i) {
    for (size_t p = 0; p < checks[i].size(); ++p) Checked(bufs[i][p], runs[i].file, checks[i][p]);
  }
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

Status DbsimWorkerBase::WriteRun(size_t file_index, uint64_t first, size_t count, bool burst,
                                 std::span<const std::span<uint8_t>> bufs, DbsimIoTally& t) {
  if (db_.doublewrite()) LC_RETURN_IF_ERROR(Doublewrite(file_index, first, count, burst, bufs, t));
  DbPageFile& file = db_.file(file_index);
  size_t written = 0;
  if (cfg_.use_scatter_gather && count > 1) {
    // The latencies are the write calls' own (DbIoSpan), the pages'
    // stamping before them and the key table after them left out.
    Admitted io = Admit(burst, file_index, t);
    DbIoSpan span;
    LC_ASSIGN_OR_RETURN(written, file.WritePages(first, bufs.first(count), db_.NowNs(), &span));
    io.Done();
    if (written > 0) t.Io(kDbsimKindGatherWrite, file_index, span.ns());
  } else {
    for (size_t i = 0; i < count; ++i) {
      Admitted io = Admit(burst, file_index, t);
      DbIoSpan span;
      LC_ASSIGN_OR_RETURN(bool done, file.WritePage(first + i, bufs[0], db_.NowNs(), &span));
      io.Done();
      if (!done) break;
      t.Io(kDbsimKindWrite, file_index, span.ns());
      ++written;
    }
  }
  t.bytes_written += written * page_size_;
  return Status::Ok();
}

Status DbsimWorkerBase::Doublewrite(size_t file_index, uint64_t first, size_t count, bool burst,
                                    std::span<const std::span<uint8_t>> bufs, DbsimIoTally& t) {
  const DbPageFile& file = db_.file(file_index);
  const DbPageFileSettings& f = file.settings();
  std::vector<IoSlice> slices;
  slices.reserve(count);
  const uint64_t now = db_.NowNs();
  for (size_t i = 0; i < count; ++i) {
    // The key the in-place write will give (the area is not read back).
    const uint64_t page = first + i;
    const uint64_t key = file.keys().Acked(page) + 1;
    if (cfg_.verify) {
      StampDbPage(bufs[i],
                  {f.file_id, page, key, DbContentSeed(f.run_seed, f.file_id, page, key), now});
    }
    slices.push_back({bufs[i].data(), bufs[i].size()});
  }
  Admitted io = Admit(burst, kNoDataFile, t);
  const Nanos t0 = MonotonicNow();
  LC_RETURN_IF_ERROR(db_.WriteDoublewrite(slices));
  const Nanos t1 = MonotonicNow();
  io.Done();
  t.latencies.emplace_back(kDbsimKindGatherWrite, static_cast<uint64_t>(t1 > t0 ? t1 - t0 : 0));
  t.bytes_written += count * page_size_;
  return Status::Ok();
}

Status DbsimWorkerBase::WritePages(const std::vector<DbsimPageRef>& pages, bool burst) {
  if (pages.empty()) return Status::Ok();
  auto journaled = db_.JournalBurst();
  LC_RETURN_IF_ERROR(Journal(pages, true));
  // The burst's runs of adjacent pages, written up to depth() at once.
  std::vector<PageRun> runs;
  for (size_t i = 0; i < pages.size();) {
    size_t run = 1;
    while (i + run < pages.size() && run < DbPageFile::kMaxRun &&
           pages[i + run].first == pages[i].first &&
           pages[i + run].second == pages[i].second + run) {
      ++run;
    }
    runs.push_back({pages[i].first, pages[i].second, run});
    i += run;
  }
  std::vector<bool> touched(db_.data_files(), false);
  const auto width = static_cast<size_t>(depth());
  for (size_t at = 0; at < runs.size(); at += width) {
    const size_t n = std::min(width, runs.size() - at);
    std::vector<std::span<const std::span<uint8_t>>> bufs;
    for (size_t i = 0; i < n; ++i) bufs.push_back(SlotPages(i, runs[at + i].count));
    std::vector<DbsimIoTally> tallies(n);
    const Status st = pool_.Run(n, [&](size_t i) -> Status {
      const PageRun& r = runs[at + i];
      return WriteRun(r.file, r.first, r.count, burst, bufs[i], tallies[i]);
    });
    for (const DbsimIoTally& t : tallies) Apply(t);
    LC_RETURN_IF_ERROR(st);
    for (size_t i = 0; i < n; ++i) touched[runs[at + i].file] = true;
  }
  if (!cfg_.write_through) {
    for (size_t f = 0; f < touched.size(); ++f) {
      if (!touched[f]) continue;
      const Nanos f0 = MonotonicNow();
      LC_RETURN_IF_ERROR(db_.file(f).Flush());
      RecordOnFile(kDbsimKindFlush, f, f0, MonotonicNow());
    }
  }
  return Journal(pages, false);
}

}  // namespace loadcell
