#include "workloads/dbsim/dbsim_database.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "core/clock.h"

namespace loadcell {

namespace {
// How long a wait for the log sleeps before it looks at the stop flag.
constexpr auto kLogPoll = std::chrono::milliseconds(10);
}  // namespace

DbsimDatabase::DbsimDatabase(FileSystem& fs, bool stop_on_error)
    : fs_(fs),
      stop_on_error_(stop_on_error),
      start_ns_(MonotonicNow()),
      gate_(std::make_unique<DbsimIoGate>(100, 0)) {}

void DbsimDatabase::SetThrottle(int64_t target_ms, int64_t max_outstanding) {
  gate_ = std::make_unique<DbsimIoGate>(target_ms, max_outstanding);
}

std::unique_lock<std::mutex> DbsimDatabase::JournalBurst() {
  if (journal_ == nullptr) return {};
  return std::unique_lock(journal_mutex_);
}

void DbsimDatabase::AddDataFile(const std::string& name, int fd, const DbPageFileSettings& settings,
                                DbsimFileResize resize) {
  files_.push_back({name, std::make_unique<DbPageFile>(fs_, fd, settings), resize});
}

uint64_t DbsimDatabase::total_pages() const {
  uint64_t pages = 0;
  for (const auto& f : files_) pages += f.pages->pages();
  return pages;
}

DbPageFileCounts DbsimDatabase::TotalCounts() const {
  DbPageFileCounts sum;
  for (const DbsimDataFile& f : files_) {
    const DbPageFileCounts c = f.pages->counts();
    sum.reads += c.reads;
    sum.scatter_reads += c.scatter_reads;
    sum.writes += c.writes;
    sum.gather_writes += c.gather_writes;
    sum.bytes_read += c.bytes_read;
    sum.bytes_written += c.bytes_written;
    sum.flushes += c.flushes;
    sum.grows += c.grows;
    sum.shrinks += c.shrinks;
    sum.verified_pages += c.verified_pages;
    sum.verify_sampled_pages += c.verify_sampled_pages;
    sum.verify_sampled_ns += c.verify_sampled_ns;
    sum.verify_flush_ns += c.verify_flush_ns;
  }
  return sum;
}

void DbsimDatabase::SetLog(int fd, uint64_t size, bool write_through) {
  log_fd_ = fd;
  log_size_ = size;
  log_write_through_ = write_through;
}

void DbsimDatabase::SetDoublewrite(int fd, uint64_t pages, uint32_t page_size) {
  dblwr_fd_ = fd;
  dblwr_pages_ = pages;
  dblwr_page_size_ = page_size;
}

Status DbsimDatabase::WriteDoublewrite(std::span<const IoSlice> slices) {
  std::lock_guard lock(dblwr_mutex_);
  if (slices.size() > dblwr_pages_) {
    return Status::Internal(fmt::format("the doublewrite area of {} pages takes no run of {}",
                                        dblwr_pages_, slices.size()));
  }
  if (dblwr_next_ + slices.size() > dblwr_pages_) dblwr_next_ = 0;
  const uint64_t offset = dblwr_next_ * dblwr_page_size_;
  LC_ASSIGN_OR_RETURN(size_t n, fs_.PWriteV(dblwr_fd_, slices, offset));
  if (n != slices.size() * dblwr_page_size_) {
    return Status::IoError(
        fmt::format("the doublewrite area: a write of {} pages wrote {} bytes", slices.size(), n));
  }
  dblwr_next_ += slices.size();
  return fs_.Fdatasync(dblwr_fd_);
}

uint64_t DbsimDatabase::NowNs() const { return static_cast<uint64_t>(MonotonicNow() - start_ns_); }

uint64_t DbsimDatabase::QueueLog(uint32_t bytes) {
  std::lock_guard lock(log_mutex_);
  if (log_closed_) return 0;
  queued_lsn_ += bytes;
  log_queued_.notify_one();
  return queued_lsn_;
}

bool DbsimDatabase::WaitDurable(uint64_t lsn) {
  std::unique_lock lock(log_mutex_);
  while (durable_lsn_ < lsn) {
    if (log_closed_ || Stopping()) return false;
    log_done_.wait_for(lock, kLogPoll);
  }
  return true;
}

std::pair<uint64_t, uint64_t> DbsimDatabase::TakeQueuedLog(int64_t wait_ns) {
  std::unique_lock lock(log_mutex_);
  if (queued_lsn_ == taken_lsn_) {
    log_queued_.wait_for(lock, std::chrono::nanoseconds(wait_ns));
  }
  const uint64_t bytes = queued_lsn_ - taken_lsn_;
  taken_lsn_ = queued_lsn_;
  return {bytes, taken_lsn_};
}

Status DbsimDatabase::WriteLog(const uint8_t* buf, uint64_t bytes) {
  uint64_t done = 0;
  while (done < bytes) {
    if (log_offset_ >= log_size_) log_offset_ = 0;
    const uint64_t len = std::min(bytes - done, log_size_ - log_offset_);
    LC_RETURN_IF_ERROR(WriteFully(fs_, log_fd_, buf + done, len, log_offset_, "the log"));
    log_offset_ += len;
    done += len;
  }
  return log_write_through_ ? Status::Ok() : fs_.Fdatasync(log_fd_);
}

void DbsimDatabase::LogDurable(uint64_t lsn) {
  std::lock_guard lock(log_mutex_);
  durable_lsn_ = std::max(durable_lsn_, lsn);
  log_done_.notify_all();
}

void DbsimDatabase::CloseLog() {
  std::lock_guard lock(log_mutex_);
  log_closed_ = true;
  log_done_.notify_all();
}

void DbsimDatabase::OpenLog() {
  std::lock_guard lock(log_mutex_);
  log_closed_ = false;
}

void DbsimDatabase::MarkDirty(DbsimPageRef page) {
  std::lock_guard lock(dirty_mutex_);
  dirty_.insert(page);
}

std::vector<DbsimPageRef> DbsimDatabase::TakeDirty(size_t max) {
  std::lock_guard lock(dirty_mutex_);
  std::vector<DbsimPageRef> taken;
  while (!dirty_.empty() && taken.size() < max) {
    taken.push_back(*dirty_.begin());
    dirty_.erase(dirty_.begin());
  }
  return taken;
}

size_t DbsimDatabase::DirtyCount() {
  std::lock_guard lock(dirty_mutex_);
  return dirty_.size();
}

void DbsimDatabase::NoteFault(const std::string& user, std::span<const uint8_t> page,
                              const DbPageExpectation& want, const DbPageCheck& check,
                              const std::string& retry) {
  faults_[static_cast<size_t>(check.fault)].fetch_add(1);
  {
    std::lock_guard lock(fault_mutex_);
    fault_pages_[static_cast<size_t>(check.fault)].emplace(want.file_id, want.page_no);
    any_fault_pages_.emplace(want.file_id, want.page_no);
    if (fault_lines_.size() < kMaxFaultLines || fault_sink_) {
      std::string line = user + ": " + DescribeDbPageCheck(page, want, check) + "; " + retry;
      if (fault_sink_) fault_sink_(FaultRecord(user, page, want, check, retry, line));
      if (fault_lines_.size() < kMaxFaultLines) fault_lines_.push_back(std::move(line));
    }
  }
  if (stop_on_error_) stopping_.store(true);
}

DbsimFaultRecord DbsimDatabase::FaultRecord(const std::string& user, std::span<const uint8_t> page,
                                            const DbPageExpectation& want, const DbPageCheck& check,
                                            const std::string& retry,
                                            const std::string& line) const {
  DbsimFaultRecord r{user, NowNs(), {}, 0, check, 0, 0, retry, line};
  r.check.want = want;
  for (const auto& f : files_) {
    if (f.pages->settings().file_id != want.file_id) continue;
    r.file = f.name;
    r.page_size = f.pages->settings().page_size;
  }
  if (check.fault == DbPageFault::kTornPage) {
    r.sector_key = check.sector < page.size() / kDbSectorSize ? DbSectorKey(page, check.sector)
                                                              : DbTrailerKey(page);
  }
  if (check.fault == DbPageFault::kTornPage || check.fault == DbPageFault::kChecksumFailure) {
    r.differing_bytes = DbDifferingBytes(page);
  }
  return r;
}

uint64_t DbsimDatabase::FaultCount(DbPageFault kind) const {
  return faults_[static_cast<size_t>(kind)].load();
}

uint64_t DbsimDatabase::TotalFaults() const {
  uint64_t total = 0;
  for (int k = 1; k < kDbPageFaultKinds; ++k) total += faults_[k].load();
  return total;
}

uint64_t DbsimDatabase::FaultPages(DbPageFault kind) const {
  std::lock_guard lock(fault_mutex_);
  return fault_pages_[static_cast<size_t>(kind)].size();
}

uint64_t DbsimDatabase::TotalFaultPages() const {
  std::lock_guard lock(fault_mutex_);
  return any_fault_pages_.size();
}

std::vector<std::string> DbsimDatabase::FaultLines() const {
  std::lock_guard lock(fault_mutex_);
  return fault_lines_;
}

}  // namespace loadcell
