#pragma once
// What every simulated user's worker shares (dbsim_users.h): the database,
// page buffers for a run of pages, its random draws, the throttle, reading
// and checking pages (with SQL Server's read retries), and writing bursts
// of pages (with the crash journal). Internal to workloads/dbsim.

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/clock.h"
#include "core/random.h"
#include "dbsim/dbsim_config.h"
#include "io/io_engine.h"
#include "runner/recorder.h"
#include "runner/workload.h"
#include "workloads/dbsim/dbsim_database.h"
#include "workloads/dbsim/dbsim_io_pool.h"
#include "workloads/dbsim/dbsim_users.h"

namespace loadcell {

struct DbsimIoBufferFree {
  void operator()(uint8_t* p) const { FreeIoBuffer(p); }
};
using DbsimIoBuffer = std::unique_ptr<uint8_t, DbsimIoBufferFree>;
inline DbsimIoBuffer NewDbsimIoBuffer(size_t len) {
  return DbsimIoBuffer(static_cast<uint8_t*>(AllocateIoBuffer(len)));
}

// How often a page that failed its check is read again, as SQL Server's
// read retry does (four more reads) before the failure stands.
inline constexpr int kDbsimReadRetries = 4;
// How long a pause sleeps before it looks at the stop flag again.
inline constexpr int64_t kDbsimPollNs = 10'000'000;

// What the I/Os of one task measured: recorded by the worker's own thread
// once the task's batch ended (the recorder has one writer).
struct DbsimIoTally {
  std::vector<std::pair<int, uint64_t>> latencies;  // (kind, ns)
  uint64_t throttled_ns = 0;
  // (data file, ns) of each I/O that waited at the throttle.
  std::vector<std::pair<size_t, uint64_t>> file_throttled;
  uint64_t bytes_read = 0;
  uint64_t bytes_written = 0;
  // The first page read's submission (before the throttle) and the last
  // one's completion: a read's own time, wherever it stood in its batch.
  Nanos submitted = 0;
  Nanos completed = 0;
  // An I/O of `kind` on data file `file`: timed under its kind and its
  // file's (DbsimFileKind).
  void Io(int kind, size_t file, uint64_t ns) {
    latencies.emplace_back(kind, ns);
    latencies.emplace_back(DbsimFileKind(file), ns);
  }
  void Clear() {
    latencies.clear();  // keeps its room: no allocation for the next I/O
    file_throttled.clear();
    throttled_ns = bytes_read = bytes_written = 0;
    submitted = completed = 0;
  }
  uint64_t OwnNs() const {
    return completed > submitted ? static_cast<uint64_t>(completed - submitted) : 0;
  }
};

class DbsimWorkerBase : public Worker {
 public:
  DbsimWorkerBase(const DbsimUserSettings& s, DbsimDatabase& db, const ThreadContext& ctx);

 protected:
  // Sleeps `ms` (not measured), in slices that notice a stop, never past
  // the end of the cycle.
  void Pause(int64_t ms);
  // SQLIOSim's DelayAfterCycles: before every `every`-th cycle but the
  // first, a pause of `ms`. False when the pause ran to the end of the
  // cycle: the user is done (EndOfWork).
  bool CycleDelay(int64_t every, int64_t ms);
  bool Chance(int64_t hundredths_of_percent) {
    return static_cast<int64_t>(rng_.Uniform(1, 10000)) <= hundredths_of_percent;
  }
  void Record(int kind, Nanos t0, Nanos t1) {
    rec_.RecordKind(kind, static_cast<uint64_t>(t1 > t0 ? t1 - t0 : 0));
  }
  // An I/O on data file `file`: under its kind and its file's.
  void RecordOnFile(int kind, size_t file, Nanos t0, Nanos t1) {
    Record(kind, t0, t1);
    Record(DbsimFileKind(file), t0, t1);
  }
  // A run of consecutive pages of a data file picked at random: its length
  // from `min_pages` to `max_pages`, at most `cap` and the file's live pages.
  struct PageRun {
    size_t file = 0;
    uint64_t first = 0;
    uint64_t count = 0;
  };
  PageRun PickRun(int64_t min_pages, int64_t max_pages, uint64_t cap);
  // Counts a page's check; a failed one is read again up to
  // kDbsimReadRetries times into the spare buffer: a good re-read points at
  // a cache or the path, the same failure every time at the medium. A lost
  // write whose re-read is good is named a stale page (the data is on the
  // medium).
  void Checked(std::span<const uint8_t> page, size_t file_index, const DbPageCheck& check);
  // Reads and checks one page into buffer 0; false when the page is gone
  // (the file shrank). `own_ns`: the read's time from its submission
  // (before the throttle) to its completion.
  Result<bool> ReadOne(size_t file_index, uint64_t page, uint64_t* own_ns = nullptr);
  // Reads and checks `pages` (at most depth() of them) at once, each its
  // own I/O: whether each was read (false: gone, the file shrank).
  // `own_ns`: each read's own time, from its own submission to its
  // completion (not from the batch's start).
  Result<std::vector<bool>> ReadEach(const std::vector<DbsimPageRef>& pages,
                                     std::vector<uint64_t>* own_ns = nullptr);
  // Reads and checks `runs` (at most depth() of them) at once, each its own
  // scatter read (or one read per page without UseScatterGather).
  Status ReadRuns(const std::vector<PageRun>& runs);
  // Writes `pages` (in file and page order) as one burst: adjacent pages in
  // one gather write (UseScatterGather), up to depth() runs at once, each
  // file written flushed unless write-through; with a crash journal, the
  // intents durable first and the durable lines after. `burst`: passes the
  // throttle (AllowIOBursts).
  Status WritePages(const std::vector<DbsimPageRef>& pages, bool burst);
  // How many of this user's I/Os the worker keeps in flight at once.
  int depth() const { return pool_.depth(); }

  const DbsimConfig& cfg_;
  DbsimDatabase& db_;
  ThreadRecorder& rec_;
  Random rng_;
  std::string name_;
  uint32_t stamp_id_;
  uint64_t serial_ = 0;
  uint64_t cycles_ = 0;
  size_t page_size_;
  Nanos cycle_end_;
  DbsimIoBuffer buffer_;
  std::vector<std::span<uint8_t>> pages_;

 private:
  // Admits one I/O through the throttle (its wait in `t`) and counts it in
  // flight until Done() or its end. The meter is left before the gate's
  // slot is given back: an I/O the freed slot admits is never counted in
  // flight beside the one that ended.
  struct Admitted {
    DbsimIoSlot slot;
    DbsimDepthMeter* meter;
    bool done = false;
    void Done() {
      if (done) return;
      done = true;
      meter->Leave();
      slot.Done();
    }
    ~Admitted() { Done(); }
  };
  // Admits one I/O on data file `file` (kNoDataFile: the doublewrite area)
  // through the throttle; its wait counts in `t`, the user's and the file's.
  static constexpr size_t kNoDataFile = static_cast<size_t>(-1);
  Admitted Admit(bool burst, size_t file, DbsimIoTally& t);
  // Records a task's tally in the recorder (the worker's thread).
  void Apply(const DbsimIoTally& t);
  // The pages of task slot `slot` (0: pages_), at least `count` of them:
  // made on the worker's thread before a batch.
  std::span<const std::span<uint8_t>> SlotPages(size_t slot, size_t count);
  // One page read into `buf` (any thread): its check, or `gone`.
  Result<DbPageCheck> ReadPageIo(size_t file_index, uint64_t page, std::span<uint8_t> buf,
                                 uint64_t serial, DbsimIoTally& t);
  // One run read into `bufs` (any thread): a check per page read.
  Status ReadRunIo(const PageRun& run, std::span<const std::span<uint8_t>> bufs, uint64_t serial,
                   std::vector<DbPageCheck>& checks, DbsimIoTally& t);
  Status Journal(const std::vector<DbsimPageRef>& pages, bool intent);
  // One run written from `bufs` (any thread): to the doublewrite area first
  // when there is one, then in place.
  Status WriteRun(size_t file_index, uint64_t first, size_t count, bool burst,
                  std::span<const std::span<uint8_t>> bufs, DbsimIoTally& t);
  // The run's pages at the versions about to be written, into the
  // doublewrite area first (durable there), as InnoDB does.
  Status Doublewrite(size_t file_index, uint64_t first, size_t count, bool burst,
                     std::span<const std::span<uint8_t>> bufs, DbsimIoTally& t);
  // What the re-reads of a failed page saw; `good`: one returned the
  // expected version.
  std::string Reread(size_t file_index, const DbPageCheck& check, bool* good);
  // An unverified run's write buffers (`len` bytes at `p`): pseudo-random.
  void FillUnverified(uint8_t* p, size_t len);

  DbsimIoTally one_;           // ReadOne's, reused
  DbsimDepthMeter own_meter_;  // when the workload gives none
  DbsimDepthMeter* meter_;
  DbsimIoPool pool_;
  // Task slots 1 .. depth - 1: their pages (slot 0 is pages_).
  std::vector<DbsimIoBuffer> slot_buffers_;
  std::vector<std::vector<std::span<uint8_t>>> slot_pages_;
};

// The bulk update and shrink users (dbsim_bulk_shrink.cpp).
std::unique_ptr<Worker> NewDbsimBulkUpdateWorker(const DbsimUserSettings& s, DbsimDatabase& db,
                                                 const ThreadContext& ctx);
std::unique_ptr<Worker> NewDbsimShrinkWorker(const DbsimUserSettings& s, DbsimDatabase& db,
                                             const ThreadContext& ctx);

}  // namespace loadcell
