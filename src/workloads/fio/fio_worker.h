#pragma once
// The thread of a fio job (FioJobWorkload::NewWorker, workloads/fio/fio_job.h):
// it keeps `iodepth` requests in flight on its engine, paced by the job's
// rates and think time, verifies what it wrote, and records each completed
// I/O. Its per-I/O loop (issuing, planning, reaping) is in
// fio_worker_io.cpp; opening, closing, waiting and the verification phases
// in fio_worker.cpp. Internal to workloads/fio.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/status.h"
#include "io/io_engine.h"
#include "os/thread.h"
#include "runner/recorder.h"
#include "runner/schedule.h"
#include "runner/workload.h"
#include "workloads/fio/fio_job.h"

namespace loadcell {

class FioWorker final : public Worker {
 public:
  FioWorker(const FioJobSettings& s, const std::vector<IoFile>& files,
            std::unique_ptr<IoEngine> engine, const ThreadContext& ctx, FioLogRecorder* log,
            std::vector<int>* ran_on_cpus);
  ~FioWorker() override;

  Status Open();

  // The I/O buffers: in huge (Windows: large) pages with large_pages
  // (DiskSpd's -l), refused with the system's reason when it has none to give.
  Status AllocateBuffers(size_t bytes);

  Status RunEvent() override;

  Status Finish() override;

 private:
  struct Slot {
    FioIo io;
    bool sync = false;
    bool check = false;      // a read whose block is verified on completion
    bool read_into = false;  // a read filled the buffer since its last write
    // Its start, just before its submission call: when TopUp began, or for
    // an asynchronous engine the return of the call before its own.
    Nanos submitted = 0;
    Nanos issued = 0;    // the submission call that took it returned
    Nanos intended = 0;  // under a rate: its start on the schedule
    unsigned char* buf = nullptr;
    // DiskSpd's -p: this request's own place in the job's sequence (the
    // pattern's single_sequence.per_request); negative: not started.
    int64_t seq = -1;
  };
  struct Done {
    FioDir dir;
    uint32_t bytes;
    uint64_t ns;          // lat: from the intended start under a rate, else from the start
    uint64_t service_ns;  // from the start
    uint64_t slat_ns;     // start to the submission call's return
    uint64_t clat_ns;     // the submission call's return (under a rate: as ns) to completion
    uint64_t offset;
    Nanos at;  // completed
  };

  // cpus_allowed: the job's thread runs on those CPUs only (what the
  // system then says it may use is kept for the report).
  Status ConfineToCpus();

  // The job's first event: its rate schedules start now.
  void Start();

  bool PastWindow(Nanos t) const {
    return s_.issue_window_ns != 0 && t >= started_ + s_.issue_window_ns;
  }

  // Sleeps until `t` (in slices, so that a stop request is seen). False
  // when the job is to end instead: stopped, or `t` is past its window.
  bool WaitUntil(Nanos t);

  // thinktime: due once thinktime_blocks I/Os were issued since the last.
  bool ThinkDue() const { return s_.thinktime_ns > 0 && think_issued_ >= s_.thinktime_blocks; }

  // Spins for thinktime_spin, sleeps the rest of thinktime.
  void Think();

  // Under a rate: the direction of the next I/O and its intended start,
  // when it is due by `now`. Otherwise false, and next_due_ says when the
  // next one is (or window_over_ that none is left). fio's rule: a drawn
  // direction ahead of its rate gives way to another the job does that is
  // due; when none is, the job waits for the one due first.
  bool TakeDue(Nanos now, FioDir* dir, Nanos* intended);

  // rate_min, rate_iops_min: at the end of each rate cycle after the settling time,
  // every direction the job does must have completed at least its minimum
  // over the cycle.
  void CheckMinRate(Nanos now);

  bool LimitReached() const {
    return limit_done_ || window_over_ || (s_.byte_limit != 0 && bytes_issued_ >= s_.byte_limit) ||
           (s_.io_limit != 0 && ios_issued_ >= s_.io_limit) || passes_.Done();
  }

  // Plans a slot's next request: a sync when one is due, else an I/O.
  // False when the byte limit leaves less than the smallest block: the job
  // has done its I/O.
  bool Plan(Slot& sl, FioDir dir);

  // Whether the job reads back and checks what it writes.
  bool VerifiesWrites() const {
    return s_.verify != FioVerifyKind::kNone && s_.do_verify && !s_.verify_only &&
           s_.pattern.dirs[1];
  }

  // The write's data (the buffer options), its verify header and its place
  // in the log of blocks to verify.
  void PrepareWrite(Slot& sl);

  // A job whose pattern ends its own passes (FioPassRule): the next I/O in
  // this pass, or in a new one when this one is over and fio would begin
  // another. A job that verifies its writes verifies each pass before that
  // is decided (fio counts the verification's reads). False: the job is
  // done, or the pass's writes are to be verified first.
  bool DrawInPass(Slot& sl, FioDir dir, int64_t* own);

  // With nothing in flight and nothing left to issue: starts verifying the
  // blocks written (a pass or the backlog done, or the job's writes done),
  // goes back to writing after a verification, or fails the job over the
  // blocks that failed. False: the job's work is done.
  bool NextPhase();

  // A block read back that is not what was written: the first one is the
  // job's failure (at once with verify_fatal, else once every block was
  // checked).
  void VerifyFailure(const FioIo& io, const std::string& why);

  Status VerifyFailed() const;

  void CheckRead(Slot& sl, int64_t res);

  Status TopUp();

  // Does the trim planned in slot `idx` and completes it: a discard on a
  // block device (fio's trim), a hole punched in a file (loadcell's).
  void TrimNow(uint32_t idx);

  bool SyncDue() const {
    const uint32_t every = s_.fsync_every != 0 ? s_.fsync_every : s_.fdatasync_every;
    return every != 0 && writes_since_sync_ >= every;
  }

  void Account(Nanos now);

  // The job's work is over. Inside ramp_time, as fio: the ramp never ended,
  // so its I/Os and bytes are the job's (its latencies are not: fio records
  // none in the ramp), and the recorder measures from here.
  Status EndOfJob();

  // Reaps at least one completion, or none once `timeout_ns` (-1: none)
  // passed.
  Status ReapSome(Nanos timeout_ns);

  Status Drain();

  Status SyncNow(int file);

  void Fail(Status st) {
    if (error_.ok()) error_ = std::move(st);
  }

  const FioJobSettings& s_;
  const std::vector<IoFile>& files_;
  FioLogRecorder* io_log_;  // null: no logs
  std::vector<int>* ran_on_cpus_;
  std::unique_ptr<IoEngine> engine_;
  ThreadRecorder& rec_;
  // The I/Os' timestamps (the run's clock, see ThreadContext::ticks); waits
  // and think time read MonotonicNow(), on the same timeline.
  ThreadMonotonic clock_;
  FioPattern pattern_;
  FioBufferFill fill_;
  FioPasses passes_;
  bool pass_over_ = false;  // the pattern's pass ended; the next is yet to be decided
  bool open_ = false;
  // An asynchronous engine: each submission call's return is timed (one
  // clock read per call), which splits each I/O's latency into fio's slat
  // and clat. A synchronous one completes its I/O inside the call: no slat
  // (nor for the null engine at iodepth=1, synchronous in fio).
  bool times_submission_ = false;
  uint32_t max_len_ = 0;
  unsigned char* buffers_ = nullptr;
  size_t huge_bytes_ = 0;         // the buffers' mapping in huge pages (large_pages)
  std::vector<uint8_t> devices_;  // per file: a block device (trims are discards)
  std::vector<Slot> slots_;
  std::vector<uint32_t> free_;
  std::vector<IoRequest> batch_;
  std::vector<IoCompletion> completions_;
  std::vector<Done> ready_;
  uint64_t bytes_issued_ = 0;
  uint64_t ios_issued_ = 0;
  uint32_t writes_since_sync_ = 0;
  uint32_t last_write_file_ = 0;
  uint64_t write_tag_ = 0;
  // verify: the blocks written since the last verification, the ones being
  // verified, and the blocks that failed.
  FioVerifyLog log_;
  std::vector<FioVerifyBlock> queue_;
  size_t queue_pos_ = 0;
  bool verifying_ = false;
  bool verify_due_ = false;  // stop writing: a pass or the backlog is to be verified
  uint64_t next_pass_at_ = 0;
  uint64_t writes_since_verify_ = 0;
  uint64_t verify_failures_ = 0;
  std::string first_failure_;
  Nanos depth_since_ = 0;
  bool limit_done_ = false;  // the limit left less than a block
  // Pacing: rate schedules per direction, think time, minimum rates.
  bool rated_ = false;
  bool checks_min_ = false;
  std::array<bool, kFioDirs> shares_{};  // the directions the job's mix draws
  Nanos started_ = 0;                    // the job's first event
  std::array<ArrivalSchedule, kFioDirs> sched_;
  bool held_ = false;  // the direction drawn waits for its intended start
  FioDir held_dir_ = FioDir::kRead;
  Nanos next_due_ = 0;        // TopUp stopped for an I/O due then; 0: not
  bool window_over_ = false;  // nothing more is due within issue_window_ns
  uint32_t think_issued_ = 0;
  bool min_counting_ = false;  // the settling time is over
  Nanos min_since_ = 0;        // the settling time ends, or the cycle checked began, then
  std::array<uint64_t, kFioDirs> done_ios_{};
  std::array<uint64_t, kFioDirs> done_bytes_{};
  std::array<uint64_t, kFioDirs> ramp_ios_{};  // completed inside ramp_time
  std::array<uint64_t, kFioDirs> ramp_bytes_{};
  std::array<uint64_t, kFioDirs> ios_at_check_{};
  std::array<uint64_t, kFioDirs> bytes_at_check_{};
  bool usage_taken_ = false;
  ThreadUsage usage_;
  Status error_;
};

}  // namespace loadcell
