#include "dbsim/page_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "core/clock.h"

namespace loadcell {

struct DbPageFile::VerifyClock {
  // One call in kDbVerifySampleEvery of this thread's, the first included.
  bool sampled = [] {
    thread_local uint32_t calls = 0;
    return calls++ % kDbVerifySampleEvery == 0;
  }();
  Nanos spent = 0;
  Nanos started = 0;
  void Start() {
    if (sampled) started = MonotonicNow();
  }
  void Stop() {
    if (sampled) spent += MonotonicNow() - started;
  }
};

double DbVerifyNsPerPage(const DbPageFileCounts& c) {
  if (c.verified_pages == 0 || c.verify_sampled_pages == 0) return 0;
  return static_cast<double>(c.verify_sampled_ns) / static_cast<double>(c.verify_sampled_pages) +
         static_cast<double>(c.verify_flush_ns) / static_cast<double>(c.verified_pages);
}

void DbPageFile::Verified(const VerifyClock& clock, uint64_t pages) {
  Count(kVerifiedPages, pages);
  if (!clock.sampled) return;
  Count(kVerifySampledPages, pages);
  Count(kVerifySampledNs, static_cast<uint64_t>(std::max<Nanos>(clock.spent, 0)));
}

DbPageCheck DbPageFile::Unchecked(uint64_t page) const {
  DbPageCheck check;
  check.want.file_id = settings_.file_id;
  check.want.page_no = page;
  check.unchecked = true;
  return check;
}

DbPageFile::DbPageFile(FileSystem& fs, int fd, const DbPageFileSettings& settings)
    : fs_(fs),
      fd_(fd),
      settings_(settings),
      keys_(std::max(settings.pages, settings.capacity)),
      latches_(std::make_unique<std::mutex[]>(kLatches)),
      live_pages_(settings.pages) {}

Status DbPageFile::Transfer(bool write, uint64_t page, std::span<uint8_t> buf, DbIoSpan* span) {
  if (span != nullptr) span->start = MonotonicNow();
  Result<size_t> n = write ? fs_.PWrite(fd_, buf.data(), buf.size(), Offset(page))
                           : fs_.PRead(fd_, buf.data(), buf.size(), Offset(page));
  Status st = Status::Ok();
  if (!n.ok() || *n != buf.size()) {
    const std::string what = fmt::format("file {} page {}", settings_.file_id, page);
    if (!n.ok()) {
      st = Status(n.status().code(), what + ": " + n.status().message(), n.status().err());
    } else if (write) {
      st = WriteFully(fs_, fd_, buf.data() + *n, buf.size() - *n, Offset(page) + *n, what);
    } else {
      st = ReadFully(fs_, fd_, buf.data() + *n, buf.size() - *n, Offset(page) + *n, what);
    }
  }
  if (span != nullptr) span->end = MonotonicNow();
  return st;
}

Status DbPageFile::WriteVersion(uint64_t page, uint64_t key, std::span<uint8_t> buf,
                                uint64_t timestamp_ns) {
  const uint32_t file = settings_.file_id;
  if (settings_.verify) {
    StampDbPage(
        buf, {file, page, key, DbContentSeed(settings_.run_seed, file, page, key), timestamp_ns});
  }
  return Transfer(true, page, buf, nullptr);
}

Status DbPageFile::StampAll(std::span<uint8_t> buf) {
  for (uint64_t page = 0; page < settings_.pages; ++page) {
    LC_RETURN_IF_ERROR(WriteVersion(page, 0, buf, 0));
  }
  return fs_.Fdatasync(fd_);
}

Result<bool> DbPageFile::WritePage(uint64_t page, std::span<uint8_t> buf, uint64_t timestamp_ns,
                                   DbIoSpan* span) {
  VerifyClock clock;
  std::lock_guard latch(Latch(page));
  if (page >= pages()) return false;
  if (!settings_.verify) {
    LC_RETURN_IF_ERROR(Transfer(true, page, buf, span));
  } else {
    clock.Start();
    const uint64_t key = keys_.Acked(page) + 1;
    const uint32_t file = settings_.file_id;
    StampDbPage(
        buf, {file, page, key, DbContentSeed(settings_.run_seed, file, page, key), timestamp_ns});
    clock.Stop();
    LC_RETURN_IF_ERROR(Transfer(true, page, buf, span));
    clock.Start();
    keys_.Acknowledge(page, key, settings_.write_through);
    clock.Stop();
    Verified(clock, 1);
  }
  Count(kWrites, 1);
  Count(kBytesWritten, buf.size());
  return true;
}

DbPageExpectation DbPageFile::Expect(uint64_t page, uint64_t stamp) const {
  DbPageExpectation want;
  want.file_id = settings_.file_id;
  want.page_no = page;
  want.acked_key = keys_.Acked(page);
  want.durable_key = keys_.Durable(page);
  want.read_stamp = stamp;
  want.hole_ok = settings_.sparse && want.acked_key == 0;
  return want;
}

Result<DbPageCheck> DbPageFile::ReadPage(uint64_t page, std::span<uint8_t> buf, uint64_t serial,
                                         uint32_t thread, DbIoSpan* span) {
  VerifyClock clock;
  const uint64_t stamp = DbReadStamp(serial, thread);
  if (settings_.verify) {
    clock.Start();
    FillDbReadStamp(buf, stamp);
    clock.Stop();
  }
  std::lock_guard latch(Latch(page));
  if (page >= pages()) {
    DbPageCheck gone;
    gone.want = Expect(page, stamp);
    gone.gone = true;
    return gone;
  }
  LC_RETURN_IF_ERROR(Transfer(false, page, buf, span));
  Count(kReads, 1);
  Count(kBytesRead, buf.size());
  if (!settings_.verify) return Unchecked(page);
  clock.Start();
  DbPageCheck check = CheckDbPage(buf, Expect(page, stamp));
  clock.Stop();
  Verified(clock, 1);
  return check;
}

class DbPageFile::RunLatch {
 public:
  RunLatch(std::mutex* latches, uint64_t first, size_t count)
      : latches_(latches), start_(first % kLatches), count_(count) {
    const size_t wrapped = start_ + count_ > kLatches ? start_ + count_ - kLatches : 0;
    for (size_t s = 0; s < wrapped; ++s) latches_[s].lock();
    for (size_t s = start_; s < start_ + count_ - wrapped; ++s) latches_[s].lock();
  }
  ~RunLatch() {
    for (size_t i = 0; i < count_; ++i) latches_[(start_ + i) % kLatches].unlock();
  }
  RunLatch(const RunLatch&) = delete;
  RunLatch& operator=(const RunLatch&) = delete;
  RunLatch(RunLatch&&) = delete;
  RunLatch& operator=(RunLatch&&) = delete;

 private:
  std::mutex* latches_;
  size_t start_;
  size_t count_;
};

DbPageFile::RunLatch DbPageFile::LatchRun(uint64_t first, size_t count) {
  return RunLatch(latches_.get(), first, count);
}

Status DbPageFile::CheckRun(uint64_t first, size_t count) const {
  if (count == 0 || count > kMaxRun || first + count > capacity()) {
    return Status::Internal(fmt::format("file {}: a run of {} pages from page {} (of {})",
                                        settings_.file_id, count, first, capacity()));
  }
  return Status::Ok();
}

size_t DbPageFile::LiveRun(uint64_t first, size_t count) const {
  const uint64_t live = pages();
  return first >= live ? 0 : static_cast<size_t>(std::min<uint64_t>(count, live - first));
}

Result<size_t> DbPageFile::ReadPages(uint64_t first, std::span<const std::span<uint8_t>> bufs,
                                     uint64_t serial, uint32_t thread,
                                     std::vector<DbPageCheck>& checks, DbIoSpan* span) {
  LC_RETURN_IF_ERROR(CheckRun(first, bufs.size()));
  VerifyClock clock;
  const uint64_t stamp = DbReadStamp(serial, thread);
  checks.clear();
  const RunLatch held = LatchRun(first, bufs.size());
  const size_t count = LiveRun(first, bufs.size());
  if (count == 0) return size_t{0};
  std::array<IoSlice, kMaxRun> slices{};
  clock.Start();
  for (size_t i = 0; i < count; ++i) {
    if (settings_.verify) FillDbReadStamp(bufs[i], stamp);
    slices[i] = {bufs[i].data(), bufs[i].size()};
  }
  clock.Stop();
  if (span != nullptr) span->start = MonotonicNow();
  Result<size_t> read =
      fs_.PReadV(fd_, std::span<const IoSlice>(slices).first(count), Offset(first));
  if (span != nullptr) span->end = MonotonicNow();
  LC_ASSIGN_OR_RETURN(size_t n, std::move(read));
  if (n != count * settings_.page_size) {
    return Status::IoError(
        fmt::format("file {}: a scatter read of {} pages from page {} read {} bytes",
                    settings_.file_id, count, first, n));
  }
  Count(kScatterReads, 1);
  Count(kBytesRead, n);
  checks.reserve(count);
  if (!settings_.verify) {
    for (size_t i = 0; i < count; ++i) checks.push_back(Unchecked(first + i));
    return count;
  }
  clock.Start();
  for (size_t i = 0; i < count; ++i) {
    checks.push_back(CheckDbPage(bufs[i], Expect(first + i, stamp)));
  }
  clock.Stop();
  Verified(clock, count);
  return count;
}

Result<size_t> DbPageFile::WritePages(uint64_t first, std::span<const std::span<uint8_t>> bufs,
                                      uint64_t timestamp_ns, DbIoSpan* span) {
  LC_RETURN_IF_ERROR(CheckRun(first, bufs.size()));
  VerifyClock clock;
  const RunLatch held = LatchRun(first, bufs.size());
  const size_t count = LiveRun(first, bufs.size());
  if (count == 0) return size_t{0};
  std::array<IoSlice, kMaxRun> slices{};
  const uint32_t file = settings_.file_id;
  clock.Start();
  for (size_t i = 0; i < count; ++i) {
    const uint64_t page = first + i;
    if (settings_.verify) {
      const uint64_t key = keys_.Acked(page) + 1;
      StampDbPage(bufs[i], {file, page, key, DbContentSeed(settings_.run_seed, file, page, key),
                            timestamp_ns});
    }
    slices[i] = {bufs[i].data(), bufs[i].size()};
  }
  clock.Stop();
  if (span != nullptr) span->start = MonotonicNow();
  Result<size_t> wrote =
      fs_.PWriteV(fd_, std::span<const IoSlice>(slices).first(count), Offset(first));
  if (span != nullptr) span->end = MonotonicNow();
  LC_ASSIGN_OR_RETURN(size_t n, std::move(wrote));
  if (n != count * settings_.page_size) {
    return Status::IoError(fmt::format(
        "file {}: a gather write of {} pages from page {} wrote {} bytes", file, count, first, n));
  }
  if (settings_.verify) {
    clock.Start();
    for (size_t i = 0; i < count; ++i) {
      keys_.Acknowledge(first + i, keys_.Acked(first + i) + 1, settings_.write_through);
    }
    clock.Stop();
    Verified(clock, count);
  }
  Count(kGatherWrites, 1);
  Count(kBytesWritten, n);
  return count;
}

Status DbPageFile::Grow(uint64_t to, std::span<uint8_t> buf, uint64_t timestamp_ns,
                        bool zero_first) {
  const uint64_t live = pages();
  if (to <= live || to > capacity()) {
    return Status::Internal(fmt::format("file {}: grow from {} to {} pages (capacity {})",
                                        settings_.file_id, live, to, capacity()));
  }
  // Past the live end no one reads or writes: the new pages need no latch
  // but their own, taken for the key table's rule.
  for (uint64_t page = live; page < to; ++page) {
    std::lock_guard latch(Latch(page));
    if (zero_first) {
      std::fill(buf.begin(), buf.end(), uint8_t{0});
      LC_RETURN_IF_ERROR(
          WriteFully(fs_, fd_, buf.data(), buf.size(), Offset(page), "a zeroed page"));
    }
    const uint64_t key = settings_.verify ? keys_.Acked(page) + 1 : 0;
    LC_RETURN_IF_ERROR(WriteVersion(page, key, buf, timestamp_ns));
    if (settings_.verify) keys_.Acknowledge(page, key, settings_.write_through);
  }
  LC_RETURN_IF_ERROR(Flush());
  live_pages_.store(to, std::memory_order_release);
  Count(kGrows, 1);
  Count(kBytesWritten, (to - live) * settings_.page_size * (zero_first ? 2 : 1));
  return Status::Ok();
}

Status DbPageFile::Shrink(uint64_t to) {
  if (to == 0 || to >= pages()) {
    return Status::Internal(
        fmt::format("file {}: shrink from {} to {} pages", settings_.file_id, pages(), to));
  }
  const RunLatch held = LatchRun(0, kLatches);
  live_pages_.store(to, std::memory_order_release);
  LC_RETURN_IF_ERROR(fs_.Truncate(fd_, Offset(to)));
  Count(kShrinks, 1);
  return Status::Ok();
}

Status DbPageFile::Flush() {
  if (!settings_.verify) {
    LC_RETURN_IF_ERROR(fs_.Fdatasync(fd_));
    Count(kFlushes, 1);
    return Status::Ok();
  }
  const Nanos t0 = MonotonicNow();
  const auto before = keys_.Snapshot();
  const Nanos t1 = MonotonicNow();
  LC_RETURN_IF_ERROR(fs_.Fdatasync(fd_));
  const Nanos t2 = MonotonicNow();
  keys_.MarkDurable(before);
  Count(kVerifyFlushNs,
        static_cast<uint64_t>(std::max<Nanos>(0, (t1 - t0) + (MonotonicNow() - t2))));
  Count(kFlushes, 1);
  return Status::Ok();
}

DbPageFileCounts DbPageFile::counts() const {
  DbPageFileCounts c;
  c.reads = counts_[kReads].load();
  c.scatter_reads = counts_[kScatterReads].load();
  c.writes = counts_[kWrites].load();
  c.gather_writes = counts_[kGatherWrites].load();
  c.bytes_read = counts_[kBytesRead].load();
  c.bytes_written = counts_[kBytesWritten].load();
  c.flushes = counts_[kFlushes].load();
  c.grows = counts_[kGrows].load();
  c.shrinks = counts_[kShrinks].load();
  c.verified_pages = counts_[kVerifiedPages].load();
  c.verify_sampled_pages = counts_[kVerifySampledPages].load();
  c.verify_sampled_ns = counts_[kVerifySampledNs].load();
  c.verify_flush_ns = counts_[kVerifyFlushNs].load();
  return c;
}

}  // namespace loadcell
