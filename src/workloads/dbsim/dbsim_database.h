#pragma once
// What the simulated users of `loadcell dbsim` share (docs/dbsim.md): the
// data files as pages (dbsim/page_file.h), the log and its queue of records
// waiting for the log writer, the dirty pages waiting for the checkpoint,
// and the record of every page that failed its check. Thread-safe.

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/status.h"
#include "dbsim/crash_journal.h"
#include "dbsim/page_check.h"
#include "dbsim/page_file.h"
#include "os/file_system.h"
#include "workloads/dbsim/dbsim_throttle.h"

namespace loadcell {

// How the shrink user may resize a data file (SQLIOSim's Shrinkable and
// Increment): by whole increments, between one increment and its capacity.
struct DbsimFileResize {
  bool shrinkable = false;
  uint64_t increment_pages = 0;
};

struct DbsimDataFile {
  std::string name;
  std::unique_ptr<DbPageFile> pages;
  DbsimFileResize resize;
};

// A page of one data file: (file index, page number).
using DbsimPageRef = std::pair<size_t, uint64_t>;

// One page that failed its check, as the XML error log states it.
struct DbsimFaultRecord {
  std::string user;
  uint64_t at_ns = 0;  // since the database was made (NowNs)
  std::string file;    // the data file's name
  uint32_t page_size = 0;
  // The kind, what was expected (check.want), the header seen, the sector.
  DbPageCheck check;
  // A torn page: the key its failing sector (or the trailer) holds.
  uint64_t sector_key = 0;
  // A torn page or a checksum failure: the bytes unlike the version its
  // header names; else 0.
  size_t differing_bytes = 0;
  std::string retry;  // what its re-reads saw
  std::string line;   // the report's line of it
};
using DbsimFaultSink = std::function<void(const DbsimFaultRecord&)>;

class DbsimDatabase final {
 public:
  // `stop_on_error`: the first page that fails its check stops every user.
  DbsimDatabase(FileSystem& fs, bool stop_on_error);

  FileSystem& fs() { return fs_; }
  // The I/O throttle every user's reads and page writes pass
  // (TargetIODuration 100 ms, no MaxOutstandingIO until SetThrottle).
  void SetThrottle(int64_t target_ms, int64_t max_outstanding);
  DbsimIoGate& gate() { return *gate_; }
  // Adds a data file open on `fd` (kept open by the caller).
  void AddDataFile(const std::string& name, int fd, const DbPageFileSettings& settings,
                   DbsimFileResize resize = {});
  const DbsimFileResize& resize(size_t i) const { return files_[i].resize; }
  size_t data_files() const { return files_.size(); }
  DbPageFile& file(size_t i) { return *files_[i].pages; }
  const DbPageFile& file(size_t i) const { return *files_[i].pages; }
  const std::string& file_name(size_t i) const { return files_[i].name; }
  // Every data file's pages.
  uint64_t total_pages() const;
  // Every data file's counts summed (with the verification work's, whose
  // cost per page DbVerifyNsPerPage makes).
  DbPageFileCounts TotalCounts() const;
  // The log file, written sequentially from 0 and wrapping at `size`.
  void SetLog(int fd, uint64_t size, bool write_through);

  // Nanoseconds since the database was made: the pages' timestamps.
  uint64_t NowNs() const;
  // When it was made (MonotonicNow()).
  int64_t start_ns() const { return start_ns_; }

  // ---- the log ----
  // Queues a record of `bytes`; returns its end in the log stream (its
  // LSN), or 0 once the log is closed.
  uint64_t QueueLog(uint32_t bytes);
  // Waits until the record ending at `lsn` is durable: false when the log
  // closed first or the run is stopping.
  bool WaitDurable(uint64_t lsn);
  // For the log writer: waits up to `wait_ns` for queued records and takes
  // them all: their bytes (0: none) and the LSN they end at.
  std::pair<uint64_t, uint64_t> TakeQueuedLog(int64_t wait_ns);
  // Writes `bytes` of log at the log's next offset from `buf` (at least
  // `bytes` long; wraps), flushing unless write-through.
  Status WriteLog(const uint8_t* buf, uint64_t bytes);
  // The records up to `lsn` are durable: wakes their users.
  void LogDurable(uint64_t lsn);
  // The log writer ended: waiting and later users get false / 0.
  void CloseLog();
  // The log writer starts (again, for a later cycle).
  void OpenLog();
  bool log_write_through() const { return log_write_through_; }

  // ---- the doublewrite area (InnoDB's doublewrite buffer) ----
  // `fd` (kept open by the caller) holds `pages` pages of `page_size`.
  void SetDoublewrite(int fd, uint64_t pages, uint32_t page_size);
  bool doublewrite() const { return dblwr_fd_ >= 0; }
  // Writes one run's pages (`slices`, one page each, at most the area) at
  // the area's next place (wrapping) in one gather write and makes them
  // durable (fdatasync) before the caller writes them in place.
  Status WriteDoublewrite(std::span<const IoSlice> slices);

  // ---- the crash journal (--journal), null without one ----
  // `journal` outlives the run; the page writers (checkpoint, bulk update,
  // a random user's lazy write) write to it, each burst under
  // JournalBurst() so that its intents name the keys its writes get.
  void SetJournal(DbCrashJournal* journal) { journal_ = journal; }
  DbCrashJournal* journal() const { return journal_; }
  // Held around one journaled burst (intents, writes, durable lines); an
  // empty lock without a journal.
  std::unique_lock<std::mutex> JournalBurst();

  // ---- dirty pages ----
  void MarkDirty(DbsimPageRef page);
  // Up to `max` dirty pages, in file and page order (taken: no longer dirty).
  std::vector<DbsimPageRef> TakeDirty(size_t max);
  size_t DirtyCount();

  // ---- page failures ----
  // Records a page that failed its check, seen by `user`: counted by kind,
  // its line kept (the first kMaxFaultLines) with what its re-read saw
  // (`retry`); stops the run when stop_on_error.
  void NoteFault(const std::string& user, std::span<const uint8_t> page,
                 const DbPageExpectation& want, const DbPageCheck& check, const std::string& retry);
  // Each page NoteFault records is also given to `sink` (the XML error
  // log), one at a time under the lock of failures. Set before the run.
  void SetFaultSink(DbsimFaultSink sink) { fault_sink_ = std::move(sink); }
  // Failed checks (of kind): a page read again and failing again counts
  // again.
  uint64_t FaultCount(DbPageFault kind) const;
  uint64_t TotalFaults() const;
  // Distinct pages (file id and page number) that failed a check of `kind`;
  // of any kind.
  uint64_t FaultPages(DbPageFault kind) const;
  uint64_t TotalFaultPages() const;
  std::vector<std::string> FaultLines() const;
  static constexpr size_t kMaxFaultLines = 20;

  // True once a failure stopped the run (StopOnError).
  bool Stopping() const { return stopping_.load(std::memory_order_relaxed); }

 private:
  // What the fault sink is given of a failed page.
  DbsimFaultRecord FaultRecord(const std::string& user, std::span<const uint8_t> page,
                               const DbPageExpectation& want, const DbPageCheck& check,
                               const std::string& retry, const std::string& line) const;

  FileSystem& fs_;
  const bool stop_on_error_;
  const int64_t start_ns_;
  std::vector<DbsimDataFile> files_;

  int log_fd_ = -1;
  uint64_t log_size_ = 0;
  bool log_write_through_ = false;
  std::mutex log_mutex_;
  std::condition_variable log_queued_;
  std::condition_variable log_done_;
  uint64_t queued_lsn_ = 0;   // guarded by log_mutex_
  uint64_t taken_lsn_ = 0;    // guarded by log_mutex_
  uint64_t durable_lsn_ = 0;  // guarded by log_mutex_
  bool log_closed_ = false;   // guarded by log_mutex_
  uint64_t log_offset_ = 0;   // the log writer's alone

  int dblwr_fd_ = -1;
  uint64_t dblwr_pages_ = 0;
  uint32_t dblwr_page_size_ = 0;
  std::mutex dblwr_mutex_;
  uint64_t dblwr_next_ = 0;  // guarded by dblwr_mutex_

  DbCrashJournal* journal_ = nullptr;
  std::mutex journal_mutex_;
  std::unique_ptr<DbsimIoGate> gate_;

  std::mutex dirty_mutex_;
  std::set<DbsimPageRef> dirty_;  // guarded by dirty_mutex_

  std::array<std::atomic<uint64_t>, kDbPageFaultKinds> faults_{};
  mutable std::mutex fault_mutex_;
  std::vector<std::string> fault_lines_;  // guarded by fault_mutex_
  // (file id, page) that failed, by kind and of any kind: guarded by
  // fault_mutex_.
  std::array<std::set<std::pair<uint32_t, uint64_t>>, kDbPageFaultKinds> fault_pages_;
  std::set<std::pair<uint32_t, uint64_t>> any_fault_pages_;
  DbsimFaultSink fault_sink_;  // called under fault_mutex_
  std::atomic<bool> stopping_{false};
};

}  // namespace loadcell
