#pragma once
// One data file of the simulation as pages: writes a page's next version and
// records it in the key table, reads a page into a stamped buffer and checks
// it (docs/dbsim.md). Every call goes through the FileSystem it is given (the
// seam the fault tests break). Pages are latched (striped mutexes) for the
// length of a read or write, so the key a read expects is the one of the
// last write acknowledged before it. A file may grow and shrink while it is
// used (SQLIOSim's shrink user): its live pages are a prefix of its
// capacity, a page past the live end is "gone" (read and written as
// nothing, never a failure). Thread-safe.

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "core/clock.h"
#include "core/status.h"
#include "dbsim/key_table.h"
#include "dbsim/page_check.h"
#include "os/file_system.h"

namespace loadcell {

// What was done to one file, counted by DbPageFile (any thread).
struct DbPageFileCounts {
  uint64_t reads = 0;          // one-page reads
  uint64_t scatter_reads = 0;  // ReadPages calls
  uint64_t writes = 0;         // one-page writes
  uint64_t gather_writes = 0;  // WritePages calls
  uint64_t bytes_read = 0;
  uint64_t bytes_written = 0;
  uint64_t flushes = 0;
  uint64_t grows = 0;
  uint64_t shrinks = 0;
  // The simulation's own work on pages (stamping, the read stamp and the
  // check, the key table): the pages it was done for; of them, those whose
  // call was timed (one call in kDbVerifySampleEvery of each thread) and
  // the time that took; and the key table's work at the flushes (every one
  // timed). DbVerifyNsPerPage makes the cost per page of them.
  uint64_t verified_pages = 0;
  uint64_t verify_sampled_pages = 0;
  uint64_t verify_sampled_ns = 0;
  uint64_t verify_flush_ns = 0;
};

// One call in this many of a thread's page reads and writes has its
// verification work timed (two clock reads per timed call).
inline constexpr uint32_t kDbVerifySampleEvery = 16;

// The simulation's verification work per page in nanoseconds from `c`
// (summed over files): the timed calls' time per page, and the flushes'
// key table work spread over every page. 0 when no page was verified.
double DbVerifyNsPerPage(const DbPageFileCounts& c);

// The time of a page read's or write's own I/O call, the simulation's work
// before and after it (stamping, the check, the key table) left out: set by
// ReadPage, ReadPages, WritePage and WritePages when given one, for the
// I/O's latency. Both 0 when no I/O was made (the page was gone).
struct DbIoSpan {
  Nanos start = 0;
  Nanos end = 0;
  uint64_t ns() const { return end > start ? static_cast<uint64_t>(end - start) : 0; }
};

struct DbPageFileSettings {
  uint32_t file_id = 1;
  uint32_t page_size = 8192;
  uint64_t pages = 0;     // live at the start
  uint64_t capacity = 0;  // the most it may grow to (0: pages)
  uint64_t run_seed = 0;
  // The file was opened write-through (O_DSYNC): an acknowledged write is durable.
  bool write_through = false;
  // Created sparse (no page written): a page never written reads as zeros,
  // which its check then accepts.
  bool sparse = false;
  // Pages are stamped, read into stamped buffers and checked, and the key
  // table kept (the default). False (an unverified run, `--verify=off`):
  // pages are written as the buffer holds them and read without a check
  // (each read's check is `unchecked`), the key table is not touched.
  bool verify = true;
};

class DbPageFile final {
 public:
  // `fd` open for reading and writing through `fs`; both outlive this.
  DbPageFile(FileSystem& fs, int fd, const DbPageFileSettings& settings);

  const DbPageFileSettings& settings() const { return settings_; }
  // The live pages now (settings().pages until a Grow or Shrink).
  uint64_t pages() const { return live_pages_.load(std::memory_order_acquire); }
  uint64_t capacity() const { return keys_.pages(); }
  const DbKeyTable& keys() const { return keys_; }
  DbPageFileCounts counts() const;

  // Writes every page at key 0 from `buf` (one page, reused): the file as
  // created; then flushes.
  Status StampAll(std::span<uint8_t> buf);

  // Writes the next version of `page` from `buf` (one page, overwritten)
  // and acknowledges it; `timestamp_ns` goes in its header. False when the
  // page is gone (past the live end: nothing written).
  Result<bool> WritePage(uint64_t page, std::span<uint8_t> buf, uint64_t timestamp_ns,
                         DbIoSpan* span = nullptr);

  // Stamps `buf` (one page) with DbReadStamp(serial, thread), reads `page`
  // into it and checks it against the key table. An I/O error is the
  // Status; a page that fails its check is the DbPageCheck's fault; a page
  // gone is a check with `gone` set (nothing read).
  Result<DbPageCheck> ReadPage(uint64_t page, std::span<uint8_t> buf, uint64_t serial,
                               uint32_t thread, DbIoSpan* span = nullptr);

  // The scatter read of pages first .. first + bufs.size() - 1 (at most
  // kMaxRun) into `bufs`, one page each, each stamped first, in one PReadV;
  // `checks` gets one check per page read. A short transfer is an IoError.
  // Returns the pages read: fewer than asked when the run passes the live
  // end (the pages gone are not read).
  Result<size_t> ReadPages(uint64_t first, std::span<const std::span<uint8_t>> bufs,
                           uint64_t serial, uint32_t thread, std::vector<DbPageCheck>& checks,
                           DbIoSpan* span = nullptr);
  // The gather write of the next version of pages first .. (at most
  // kMaxRun) from `bufs` in one PWriteV, then each acknowledged. Returns the
  // pages written (fewer when the run passes the live end).
  Result<size_t> WritePages(uint64_t first, std::span<const std::span<uint8_t>> bufs,
                            uint64_t timestamp_ns, DbIoSpan* span = nullptr);
  static constexpr size_t kMaxRun = 64;

  // fdatasync, then every write acknowledged before it is durable.
  Status Flush();

  // Grows the file to `to` live pages (at most capacity()): each new page
  // written at its next key (a page shrunk away and grown back is a newer
  // version than any it held), zeros first when `zero_first` (SQLIOSim's
  // StampFiles), flushed, then made live. `buf` is one page. REQUIRES: one
  // caller of Grow/Shrink at a time.
  Status Grow(uint64_t to, std::span<uint8_t> buf, uint64_t timestamp_ns, bool zero_first);
  // Shrinks the file to `to` live pages (at least 1): with every latch
  // held (no read or write of the file is in flight), the live end moves and
  // the file is truncated.
  Status Shrink(uint64_t to);

  // What a read of `page` expects now, with the read stamp `stamp`.
  DbPageExpectation Expect(uint64_t page, uint64_t stamp) const;

 private:
  // Enough stripes that runs of kMaxRun pages in flight at once
  // (--user-depth) seldom share one.
  static constexpr size_t kLatches = 256;
  std::mutex& Latch(uint64_t page) { return latches_[page % kLatches]; }
  // The latches of pages first .. first + count - 1 (count <= kLatches:
  // each stripe once), held for its life; taken in the latches' order (the
  // stripes that wrap past the last one first). No allocation.
  class RunLatch;
  RunLatch LatchRun(uint64_t first, size_t count);
  Status CheckRun(uint64_t first, size_t count) const;
  // How many of pages first .. first + count - 1 are live (the run's
  // latches held).
  size_t LiveRun(uint64_t first, size_t count) const;
  uint64_t Offset(uint64_t page) const { return page * settings_.page_size; }
  Status WriteVersion(uint64_t page, uint64_t key, std::span<uint8_t> buf, uint64_t timestamp_ns);
  // One page read (`write` false) or written whole at its place, timed in
  // `span` when given; the error names the file and page (built only on a
  // failure or a short transfer, which goes on from where it stopped).
  Status Transfer(bool write, uint64_t page, std::span<uint8_t> buf, DbIoSpan* span);
  // Times one call's verification work, in parts, when the call is sampled.
  struct VerifyClock;
  // Counts `pages` verified by a call and, when it was sampled, its time.
  void Verified(const VerifyClock& clock, uint64_t pages);
  // A read that was not checked (settings().verify false).
  DbPageCheck Unchecked(uint64_t page) const;

  FileSystem& fs_;
  int fd_;
  DbPageFileSettings settings_;
  DbKeyTable keys_;
  std::unique_ptr<std::mutex[]> latches_;
  std::atomic<uint64_t> live_pages_;
  enum Counted : size_t {
    kReads,
    kScatterReads,
    kWrites,
    kGatherWrites,
    kBytesRead,
    kBytesWritten,
    kFlushes,
    kGrows,
    kShrinks,
    kVerifiedPages,
    kVerifySampledPages,
    kVerifySampledNs,
    kVerifyFlushNs,
    kCounts
  };
  void Count(Counted what, uint64_t n) { counts_[what].fetch_add(n, std::memory_order_relaxed); }
  std::array<std::atomic<uint64_t>, kCounts> counts_{};
};

}  // namespace loadcell
