#pragma once
// fileio: the per-thread driver loop, one loop for every engine.
//
// One RunEvent() hands out exactly one completed request (sysbench 1.0's
// event: one read, one write, or one fsync; with --file-fsync-all a write
// and the fsync after it). The worker keeps queue_depth requests in flight
// (1 for the synchronous engines): when it has no completion left to hand
// out it tops the queue up with one Submit call, then reaps a batch. Each
// request is timed from its submission to its completion: the clock is read
// once per Reap batch, and once per Submit batch unless the last reading was
// a Reap's (unpaced, nothing but the hand-out of the reaped events comes
// between them: its few ns count in the next request's latency, as the
// runner's closed loop counts its own work in the next event). So one clock
// read per request at depth 1, and no virtual call beyond Submit and Reap.
//
// Under --rate (ThreadContext::pacer) a request is submitted at its intended
// start, never ahead of it, however many slots are free; while waiting for
// the next one the worker reaps completions as they come. Its latency counts
// from the intended start, its service time from the submission.

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/random.h"
#include "io/io_engine.h"
#include "runner/workload.h"
#include "workloads/fileio/fileio_options.h"

namespace loadcell {

// Counter indices (FileIoWorkload::Info().counter_names in this order).
enum FileIoCounter : int {
  kCounterReads = 0,
  kCounterWrites,
  kCounterFsyncs,
  kCounterBytesRead,
  kCounterBytesWritten,
  kCounterQdNanos,      // requests in flight x ns, summed (time-weighted depth)
  kCounterQdTime,       // ns covered by kCounterQdNanos
  kCounterSubmitCalls,  // submission calls made to the engine (requests / calls = batch)
  kFileIoCounterCount,
};

// The counters' names in reports and JSON, in the order above (fileio and
// sqlio both run the FileIoWorker).
inline constexpr std::array<const char*, kFileIoCounterCount> kFileIoCounterNames = {
    "reads",
    "writes",
    "fsyncs",
    "bytes_read",
    "bytes_written",
    "queue_depth_ns",
    "queue_depth_time_ns",
    "submit_calls"};
static_assert(kFileIoCounterNames.back() != nullptr, "a counter has no name");

// Latency kinds (index into ThreadRecorder; 0 is every event).
enum FileIoKind : int { kKindRead = 1, kKindWrite = 2, kKindFsync = 3 };

// True for a request that syncs its file (fsync, fdatasync) rather than
// moving data.
inline bool IsSync(IoOp op) { return op == IoOp::kFsync || op == IoOp::kFdatasync; }

// One planned I/O.
struct FileIoPlan {
  IoOp op = IoOp::kRead;
  uint32_t file = 0;
  uint64_t offset = 0;
  uint32_t length = 0;
};

// One thread's place in SQLIO's stripe pattern (FileIoSettings::seq_lanes):
// its columns [first, first + width) and the requests it made so far.
struct SeqLane {
  uint64_t n = 0;
  uint64_t first = 0;
  uint64_t width = 1;
};

// What the workers of one run share: the files, sysbench's global
// sequential position and fsync schedule, and for --validate which blocks
// are in flight and the sequence number of each block's last write.
class FileIoShared final {
 public:
  // `fds` are open for the whole run and stay owned by the caller.
  FileIoShared(const FileIoSettings& s, std::vector<IoFile> files);
  FileIoShared(const FileIoShared&) = delete;
  FileIoShared& operator=(const FileIoShared&) = delete;

  Status Init();
  const FileIoSettings& settings() const { return s_; }
  const std::vector<IoFile>& files() const { return files_; }

  // The next request for a thread: periodic fsyncs first (sysbench's global
  // schedule: after every fsync-freq requests, if anything was written, one
  // fsync event per file), else a read or write as `write` says.
  // Sequential modes take the next position of the shared sequence, or
  // with seq_lanes the next of the caller's lane (advanced). Thread-safe.
  // `dist` (may be null: uniform) draws block numbers in
  // [0, random_blocks()).
  FileIoPlan Next(bool write, Random& rng, const Distribution* dist, SeqLane* lane = nullptr);
  // Blocks random requests are drawn from: every block of every file, or
  // from seq_start on.
  uint64_t random_blocks() const { return rand_count_; }
  // Requests in one sequential pass over a file (lanes: in one run), and
  // their spacing in bytes.
  uint64_t seq_pass() const { return seq_pass_; }
  uint64_t seq_stride() const { return seq_stride_; }
  // --validate: claims the blocks of `p` for this thread; false if another
  // request has one of them in flight. Release() gives them back.
  bool Claim(const FileIoPlan& p);
  void Release(const FileIoPlan& p);
  // --validate: sequence number of the block's last write in this run
  // (kUnknownSeq if none yet); set when a write completes.
  static constexpr uint64_t kUnknownSeq = ~uint64_t{0};
  uint64_t LastSeq(uint32_t file, uint64_t offset) const;
  void SetLastSeq(uint32_t file, uint64_t offset, uint64_t seq);
  // Sequential requests handed out so far.
  uint64_t seq_issued() const { return seq_next_.load(std::memory_order_relaxed); }
  // seqwr: records the blocks of a write that completed whole; FileWritten
  // says whether every block of a file was (the run wrapped over it).
  // Other modes keep no record (false).
  void MarkWritten(const FileIoPlan& p);
  bool FileWritten(uint64_t file) const;

 private:
  FileIoPlan SeqAt(uint64_t idx) const;
  FileIoPlan LaneAt(const SeqLane& lane) const;
  FileIoPlan RandomBlock(Random& rng, const Distribution* dist) const;
  uint64_t BlockIndex(uint32_t file, uint64_t offset) const {
    return file * s_.blocks_per_file + offset / s_.block_size;
  }

  const FileIoSettings& s_;
  std::vector<IoFile> files_;
  // Derived from the settings once: shared sequential request k of a file
  // is at seq_start + (k % seq_pass_) x seq_stride_; random block b of
  // [0, rand_count_) is block rand_first_ + b % rand_per_file_ of file
  // b / rand_per_file_.
  uint64_t seq_stride_ = 1;
  uint64_t seq_pass_ = 1;
  uint64_t seq_cycle_ = 1;  // seq_pass_ x num_files
  // This rank's segment of the sequence (SeqSegment; all of it when alone).
  uint64_t seg_first_ = 0;
  uint64_t seg_len_ = 1;
  uint64_t rand_first_ = 0;
  uint64_t rand_per_file_ = 1;
  uint64_t rand_count_ = 1;
  int rand_shift_ = -1;     // log2(rand_per_file_) when a power of two, else -1
  bool scheduled_ = false;  // fsync schedule in force: take mu_ per request
  alignas(64) std::atomic<uint64_t> seq_next_{0};
  alignas(64) std::mutex mu_;
  uint64_t req_performed_ = 0;
  bool dirty_ = false;
  uint64_t fsynced_file_ = 0;
  std::unique_ptr<std::atomic<uint8_t>[]> busy_;
  std::unique_ptr<std::atomic<uint64_t>[]> last_seq_;
  std::unique_ptr<std::atomic<uint8_t>[]> written_;  // seqwr: 1 per block written
};

class FileIoWorker final : public Worker {
 public:
  FileIoWorker(FileIoShared& shared, std::unique_ptr<IoEngine> engine, const ThreadContext& ctx);
  ~FileIoWorker() override;
  FileIoWorker(const FileIoWorker&) = delete;
  FileIoWorker& operator=(const FileIoWorker&) = delete;

  // seq_lanes: the thread's columns of the stripe (before Open).
  void SetLane(uint64_t first, uint64_t width) {
    lane_.first = first;
    lane_.width = width == 0 ? 1 : width;
  }
  // Allocates the buffers and opens the engine on the shared files.
  Status Open();
  Status RunEvent() override;
  // Waits for the requests still in flight (not counted), then fsyncs every
  // file if --file-fsync-end asks for it (counted as fsyncs, not events).
  Status Finish() override;

 private:
  // One request in flight (or waiting to be submitted), by slot.
  struct Slot {
    FileIoPlan plan;
    bool then_fsync = false;  // --file-fsync-all: the write's fsync follows
    bool followup = false;    // this is that fsync (the write completed)
    bool claimed = false;
    Nanos origin = 0;        // the event's start: its intended start, else its first submission
    Nanos first_submit = 0;  // submission of the event's first request
    Nanos submitted = 0;
    uint64_t write_ns = 0;    // --file-fsync-all: the write's latency
    uint64_t seq = 0;         // --validate: the write's sequence number
    uint64_t read_stamp = 0;  // --validate-full: what the read buffer was filled with
    unsigned char* read_buf = nullptr;
    unsigned char* write_buf = nullptr;
  };
  // A completed event waiting to be handed out.
  struct Done {
    uint8_t kind = 0;         // FileIoKind of the event
    bool with_fsync = false;  // a write followed by its fsync
    uint32_t bytes = 0;
    uint64_t event_ns = 0;
    uint64_t write_ns = 0;
    uint64_t fsync_ns = 0;
    uint64_t service_ns = 0;  // from the first submission
  };

  Status Fill();
  Status TopUp();
  // Paced: true, with the intended start in *intended, when the next
  // operation of the schedule is due at `now`.
  bool TakeDue(Nanos now, Nanos* intended);
  Status ReapBatch();
  // Paced, with a free slot: waits for a completion or the next intended
  // start, whichever comes first.
  Status ReapOrWait(size_t cap, size_t* reaped);
  void PlanInto(Slot& slot);
  // Takes the completion of slot `index` (`result`: bytes, or -errno):
  // records the event in ready_, or queues the fsync that follows a write,
  // or keeps the first error in error_.
  void Complete(uint32_t index, int64_t result, Nanos now);
  void CompleteSync(uint32_t index, int64_t result, Nanos now);
  // --validate: checks the stamps a read returned, or records what a write
  // stamped. The first bad block is the Status.
  Status ValidateBlocks(const Slot& sl);
  // Keeps `st` when it is the first error of this worker.
  void Fail(Status st);
  // Gives the slot's claim back and returns the slot to free_.
  void ReleaseSlot(uint32_t index);
  Status Drain();
  // At a clock read: adds the time since the previous one to the depth
  // counters (x in_flight requests) and, when any event was outstanding
  // (from its first submission to its completion), to the busy time. With
  // one event at a time the busy time is the sum of the event latencies;
  // with overlapping events it is the wall time with at least one running.
  void Account(Nanos now, uint64_t in_flight, bool outstanding);
  std::string Where(const FileIoPlan& p) const;

  FileIoShared& shared_;
  const FileIoSettings& s_;
  std::unique_ptr<IoEngine> engine_;
  ThreadRecorder* recorder_;
  Pacer* pacer_;                // under --rate, else null
  Nanos next_start_ = 0;        // paced: the intended start taken and not yet used (0: none)
  bool schedule_over_ = false;  // paced: the schedule has no more starts
  Random rng_;
  std::optional<Distribution> dist_;  // non-uniform --file-rand-type
  const DistributionConfig* rand_config_;
  int thread_id_;
  bool engine_open_ = false;

  std::vector<Slot> slots_;
  std::vector<uint32_t> free_;     // free slot indices
  std::vector<uint32_t> pending_;  // slots planned, not yet submitted
  std::vector<IoRequest> batch_;
  std::vector<IoCompletion> completions_;
  std::vector<Done> ready_;
  size_t ready_head_ = 0;
  size_t ready_count_ = 0;
  unsigned char* buffers_ = nullptr;
  uint64_t reads_issued_ = 0;
  uint64_t writes_issued_ = 0;
  uint64_t next_seq_ = 0;
  uint64_t write_tag_base_ = 0;  // thread id << 40: the tags of MakeSectorsUnique
  SeqLane lane_;                 // seq_lanes: this thread's place in the stripe pattern
  Nanos depth_since_ = 0;        // the last Account() (0: none yet)
  Nanos reaped_at_ = 0;          // unpaced: the last ReapBatch's clock read, for the next TopUp
  size_t in_flight_ = 0;         // submitted, not yet reaped (the engine's InFlight())
  Status error_;
};

}  // namespace loadcell
