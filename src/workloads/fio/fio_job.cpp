#include "workloads/fio/fio_job.h"

#include <fcntl.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "core/pages.h"
#include "os/file_space.h"
#include "os/open_flags.h"
#include "os/thread.h"
#include "runner/recorder.h"
#include "runner/schedule.h"
#include "runner/stop_signal.h"

namespace loadcell {
namespace {

int FioKindOf(FioDir d) {
  switch (d) {
    case FioDir::kWrite:
      return kFioKindWrite;
    case FioDir::kTrim:
      return kFioKindTrim;
    default:
      return kFioKindRead;
  }
}

void AddUsage(ThreadRecorder& rec, const ThreadUsage& from, const ThreadUsage& to) {
  const auto d = [](uint64_t a, uint64_t b) { return b > a ? b - a : 0; };
  rec.Add(kFioCpuUserNs, d(from.user_ns, to.user_ns));
  rec.Add(kFioCpuSysNs, d(from.sys_ns, to.sys_ns));
  rec.Add(kFioContextSwitches, d(from.context_switches, to.context_switches));
  rec.Add(kFioMajorFaults, d(from.major_faults, to.major_faults));
  rec.Add(kFioMinorFaults, d(from.minor_faults, to.minor_faults));
}

uint64_t Since(Nanos from, Nanos to) { return to > from ? static_cast<uint64_t>(to - from) : 0; }

class FioWorker final : public Worker {
 public:
  FioWorker(const FioJobSettings& s, const std::vector<IoFile>& files,
            std::unique_ptr<IoEngine> engine, const ThreadContext& ctx, FioLogRecorder* log,
            std::vector<int>* ran_on_cpus)
      : s_(s),
        files_(files),
        io_log_(log),
        ran_on_cpus_(ran_on_cpus),
        engine_(std::move(engine)),
        rec_(*ctx.recorder),
        clock_(ctx.ticks != nullptr ? *ctx.ticks : MonotonicTickSource()),
        pattern_([&] {
          FioPatternSettings p = s.pattern;
          p.seed = s.pattern.seed + static_cast<uint64_t>(ctx.thread_id);
          return p;
        }()),
        fill_(s.buffers, s.pattern.seed ^ 0x5DEECE66DULL),
        passes_(s.passes, pattern_.MaxBlockSize()),
        next_pass_at_(s.verify_pass_bytes) {
    for (int d = 0; d < kFioDirs; ++d) {
      rated_ = rated_ || s_.rate_bytes[d] != 0;
      checks_min_ = checks_min_ || s_.min_bytes[d] != 0 || s_.min_ios[d] != 0;
    }
    const bool mixed = s_.pattern.dirs[0] && s_.pattern.dirs[1];
    shares_[0] = s_.pattern.dirs[0] && (!mixed || s_.pattern.read_pct > 0);
    shares_[1] = s_.pattern.dirs[1] && (!mixed || s_.pattern.read_pct < 100);
    shares_[2] = s_.pattern.dirs[2];
  }

  ~FioWorker() override {
    if (open_) (void)engine_->Close();
    if (huge_bytes_ > 0) {
      UnmapPages(buffers_, huge_bytes_);
    } else {
      FreeIoBuffer(buffers_);
    }
  }

  Status Open() {
    max_len_ = std::max<uint32_t>(pattern_.MaxBlockSize(), 512);
    const size_t depth = std::max<uint32_t>(1, s_.iodepth);
    const size_t buffer_bytes = max_len_ * depth;
    LC_RETURN_IF_ERROR(AllocateBuffers(buffer_bytes));
    slots_.assign(depth, Slot{});
    for (size_t i = 0; i < depth; ++i) {
      slots_[i].buf = buffers_ + i * max_len_;
      fill_.Initial(slots_[i].buf, max_len_);
      free_.push_back(static_cast<uint32_t>(i));
    }
    completions_.assign(depth, IoCompletion{});
    EngineOptions opts;
    opts.queue_depth = static_cast<uint32_t>(depth);
    opts.direct = s_.direct;
    opts.buffered_aio = !s_.direct;
    opts.writable = (s_.pattern.dirs[static_cast<int>(FioDir::kWrite)] && !s_.verify_only) ||
                    s_.pattern.dirs[static_cast<int>(FioDir::kTrim)];
    opts.open_flags = (s_.direct ? O_DIRECT : 0) | (s_.sync_writes ? O_SYNC : 0) |
                      (s_.dsync_writes ? O_DSYNC : 0) | s_.open_hints;
    opts.buffer_region = std::span<unsigned char>(buffers_, buffer_bytes);
    LC_RETURN_IF_ERROR(engine_->Open(files_, opts));
    open_ = true;
    return Status::Ok();
  }

  // The I/O buffers: in huge (Windows: large) pages with large_pages
  // (DiskSpd's -l), refused with the system's reason when it has none to give.
  Status AllocateBuffers(size_t bytes) {
    if (!s_.large_pages) {
      buffers_ = static_cast<unsigned char*>(AllocateIoBuffer(bytes));
      if (buffers_ == nullptr) return Status::ResourceExhausted("fio: cannot allocate I/O buffers");
      return Status::Ok();
    }
    const uint64_t page = HugePageSize();
    const size_t mapped = static_cast<size_t>((bytes + page - 1) / page * page);
    int err = 0;
    buffers_ = static_cast<unsigned char*>(MapZeroPages(mapped, true, &err));
    if (buffers_ == nullptr) {
      return Status::ResourceExhausted(
          fmt::format("large pages: cannot map {} bytes of huge pages for the I/O buffers ({}; {})",
                      mapped, std::strerror(err), HugePagesAdvice(err)));
    }
    huge_bytes_ = mapped;
    return Status::Ok();
  }

  Status RunEvent() override {
    if (!usage_taken_) {
      usage_taken_ = true;
      LC_RETURN_IF_ERROR(ConfineToCpus());
      usage_ = CurrentThreadUsage();
    }
    if (started_ == 0) Start();
    // The logs count from the measured start (after ramp_time), as fio's.
    if (io_log_ != nullptr && !io_log_->started() && rec_.measuring()) {
      io_log_->Start(clock_.Now());
    }
    while (ready_.empty()) {
      if (!error_.ok()) return error_;
      LC_RETURN_IF_ERROR(TopUp());
      if (!ready_.empty()) break;  // a trim, done at once
      if (engine_->InFlight() == 0) {
        // Nothing in flight: a verification to start or end, done, or the
        // next I/O is not due yet.
        if (next_due_ == 0) {
          if (NextPhase()) continue;
          return EndOfWork();
        }
        rec_.Add(kFioSleepThrottle, 1);
        if (!WaitUntil(next_due_)) return EndOfWork();
        continue;
      }
      LC_RETURN_IF_ERROR(
          ReapSome(next_due_ == 0 ? -1 : std::max<Nanos>(0, next_due_ - clock_.Now())));
    }
    const Done d = ready_.back();
    ready_.pop_back();
    rec_.RecordEvent(d.ns);
    rec_.RecordKind(FioKindOf(d.dir), d.ns);
    if (rated_) rec_.RecordService(d.service_ns);
    if (io_log_ != nullptr && rec_.measuring()) {
      io_log_->Add(d.at, d.dir, d.bytes, d.offset, d.ns);
    }
    switch (d.dir) {
      case FioDir::kRead:
        rec_.Add(kFioReads, 1);
        rec_.Add(kFioBytesRead, d.bytes);
        break;
      case FioDir::kWrite:
        rec_.Add(kFioWrites, 1);
        rec_.Add(kFioBytesWritten, d.bytes);
        break;
      case FioDir::kTrim:
        rec_.Add(kFioTrims, 1);
        rec_.Add(kFioBytesTrimmed, d.bytes);
        break;
    }
    return Status::Ok();
  }

  Status Finish() override {
    if (io_log_ != nullptr) io_log_->Finish(clock_.Now());
    if (!open_) return Status::Ok();
    Status st = Drain();
    // A time-bound job that checks its reads fails here (a size-bound one
    // failed at its end of work).
    if (st.ok() && error_.ok() && verify_failures_ > 0) st = VerifyFailed();
    if (st.ok() && error_.ok() && s_.end_fsync && s_.pattern.dirs[1] && !s_.verify_only) {
      for (size_t f = 0; f < files_.size() && st.ok(); ++f) st = SyncNow(static_cast<int>(f));
    }
    Status closed = engine_->Close();
    open_ = false;
    if (usage_taken_) AddUsage(rec_, usage_, CurrentThreadUsage());
    return st.ok() ? closed : st;
  }

 private:
  struct Slot {
    FioIo io;
    bool sync = false;
    bool check = false;      // a read whose block is verified on completion
    bool read_into = false;  // a read filled the buffer since its last write
    Nanos submitted = 0;
    Nanos intended = 0;  // under a rate: its start on the schedule
    unsigned char* buf = nullptr;
    // DiskSpd's -p: this request's own place in the job's sequence (the
    // pattern's single_sequence.per_request); negative: not started.
    int64_t seq = -1;
  };
  struct Done {
    FioDir dir;
    uint32_t bytes;
    uint64_t ns;          // from the intended start under a rate, else from submission
    uint64_t service_ns;  // from submission
    uint64_t offset;
    Nanos at;  // completed
  };

  // cpus_allowed: the job's thread runs on those CPUs only (what the
  // system then says it may use is kept for the report).
  Status ConfineToCpus() {
    if (s_.cpus.empty()) return Status::Ok();
    Status st = SetCurrentThreadCpus(s_.cpus);
    if (!st.ok()) return Status(st.code(), "cpus_allowed: " + st.message(), st.err());
    *ran_on_cpus_ = AllowedCpus();
    return Status::Ok();
  }

  // The job's first event: its rate schedules start now.
  void Start() {
    // Waits for intended starts would otherwise wake up to 50 us late, and
    // that lateness counts in the latency from the intended start.
    if (rated_ || s_.thinktime_ns > 0) UseFineTimerSlack();
    started_ = clock_.Now();
    const auto process = s_.rate_poisson ? ArrivalProcess::kPoisson : ArrivalProcess::kLinear;
    for (int d = 0; d < kFioDirs; ++d) {
      sched_[d] = ArrivalSchedule(started_, static_cast<double>(s_.rate_bytes[d]), process,
                                  s_.pattern.seed ^ (0xA77E5ULL + static_cast<uint64_t>(d)));
    }
    // The first two seconds settle, unchecked (as fio's do).
    min_since_ = started_ + 2 * kNanosPerSecond;
  }

  bool PastWindow(Nanos t) const {
    return s_.issue_window_ns != 0 && t >= started_ + s_.issue_window_ns;
  }

  // Sleeps until `t` (in slices, so that a stop request is seen). False
  // when the job is to end instead: stopped, or `t` is past its window.
  bool WaitUntil(Nanos t) {
    constexpr Nanos kSlice = 50 * kNanosPerMilli;
    if (PastWindow(t)) {
      window_over_ = true;
      t = started_ + s_.issue_window_ns;
    }
    for (Nanos now = MonotonicNow(); now < t; now = MonotonicNow()) {
      if (StopRequested()) return false;
      SystemClock().SleepUntil(std::min(t, now + kSlice));
    }
    return !window_over_;
  }

  // thinktime: due once thinktime_blocks I/Os were issued since the last.
  bool ThinkDue() const { return s_.thinktime_ns > 0 && think_issued_ >= s_.thinktime_blocks; }

  // Spins for thinktime_spin, sleeps the rest of thinktime.
  void Think() {
    const Nanos from = MonotonicNow();
    const Nanos spin_until = from + s_.thinktime_spin_ns;
    while (MonotonicNow() < spin_until) {
    }
    rec_.Add(kFioSleepThrottle, 1);
    (void)WaitUntil(from + s_.thinktime_ns);
    think_issued_ = 0;
  }

  // Under a rate: the direction of the next I/O and its intended start,
  // when it is due by `now`. Otherwise false, and next_due_ says when the
  // next one is (or window_over_ that none is left). fio's rule: a drawn
  // direction ahead of its rate gives way to another the job does that is
  // due; when none is, the job waits for the one due first.
  bool TakeDue(Nanos now, FioDir* dir, Nanos* intended) {
    int d = static_cast<int>(held_ ? held_dir_ : pattern_.DrawDirection());
    held_ = false;
    if (sched_[d].limited() && sched_[d].Next() > now) {
      for (int o = 0; o < kFioDirs; ++o) {
        if (o == d || !shares_[o]) continue;
        if (!sched_[o].limited() || sched_[o].Next() <= now) {
          d = o;
          break;
        }
        if (sched_[o].Next() < sched_[d].Next()) d = o;
      }
    }
    const Nanos due = sched_[d].limited() ? sched_[d].Next() : now;
    if (PastWindow(due)) {
      window_over_ = true;
      return false;
    }
    if (due > now) {
      held_ = true;
      held_dir_ = static_cast<FioDir>(d);
      next_due_ = due;
      return false;
    }
    *dir = static_cast<FioDir>(d);
    *intended = due;
    return true;
  }

  // rate_min, rate_iops_min: at the end of each rate cycle after the settling time,
  // every direction the job does must have completed at least its minimum
  // over the cycle.
  void CheckMinRate(Nanos now) {
    if (!min_counting_) {
      // The settling time is over: the first cycle counts from here.
      if (now < min_since_) return;
      min_counting_ = true;
      min_since_ = now;
      ios_at_check_ = done_ios_;
      bytes_at_check_ = done_bytes_;
      return;
    }
    if (now < min_since_ + s_.rate_cycle_ns) return;
    const double secs = static_cast<double>(now - min_since_) / 1e9;
    static constexpr std::array<const char*, kFioDirs> kNames = {"read", "write", "trim"};
    for (int d = 0; d < kFioDirs && error_.ok(); ++d) {
      if (!shares_[d]) continue;
      const double ios = static_cast<double>(done_ios_[d] - ios_at_check_[d]) / secs;
      const double bytes = static_cast<double>(done_bytes_[d] - bytes_at_check_[d]) / secs;
      if (s_.min_ios[d] != 0 && ios < static_cast<double>(s_.min_ios[d])) {
        Fail(Status::FailedPrecondition(
            fmt::format("{} rate {:.0f} I/Os per second over {:.0f} ms is below rate_iops_min={}",
                        kNames[d], ios, secs * 1000, s_.min_ios[d])));
      } else if (s_.min_bytes[d] != 0 && bytes < static_cast<double>(s_.min_bytes[d])) {
        Fail(Status::FailedPrecondition(
            fmt::format("{} rate {:.0f} bytes per second over {:.0f} ms is below rate_min={}",
                        kNames[d], bytes, secs * 1000, s_.min_bytes[d])));
      }
    }
    min_since_ = now;
    ios_at_check_ = done_ios_;
    bytes_at_check_ = done_bytes_;
  }

  bool LimitReached() const {
    return limit_done_ || window_over_ || (s_.byte_limit != 0 && bytes_issued_ >= s_.byte_limit) ||
           (s_.io_limit != 0 && ios_issued_ >= s_.io_limit) || passes_.Done();
  }

  // Plans a slot's next request: a sync when one is due, else an I/O.
  // False when the byte limit leaves less than the smallest block: the job
  // has done its I/O.
  bool Plan(Slot& sl, FioDir dir) {
    sl.check = false;
    if (verifying_) {
      if (queue_pos_ >= queue_.size()) return false;
      const FioVerifyBlock& b = queue_[queue_pos_++];
      sl.sync = false;
      sl.io = FioIo{FioDir::kRead, b.file, b.offset, b.length};
      passes_.Verified(b.length);
      sl.check = true;
      return true;
    }
    const uint32_t every = s_.fsync_every != 0 ? s_.fsync_every : s_.fdatasync_every;
    if (every != 0 && writes_since_sync_ >= every) {
      writes_since_sync_ = 0;
      sl.sync = true;
      sl.io = FioIo{FioDir::kWrite, last_write_file_, 0, 0};
      return true;
    }
    sl.sync = false;
    int64_t* own = s_.pattern.single_sequence.per_request ? &sl.seq : nullptr;
    if (passes_.On() && !DrawInPass(sl, dir, own)) return false;
    if (!passes_.On()) sl.io = rated_ ? pattern_.NextIn(dir, own) : pattern_.Next(own);
    if (s_.byte_limit != 0 && bytes_issued_ + sl.io.length > s_.byte_limit &&
        !(s_.pattern.random && s_.pattern.norandommap)) {
      // As fio: the last request is cut to what the limit leaves, unless that
      // is less than the smallest block (then the job is done). Random
      // offsets without the map issue whole requests until the limit is
      // reached (the last one may pass it, as fio's does).
      const uint64_t left = s_.byte_limit - bytes_issued_;
      if (left < pattern_.MinBlockSize()) {
        limit_done_ = true;
        return false;
      }
      sl.io.length = static_cast<uint32_t>(left);
    }
    // trimwrite: size counts the writes (each block is also trimmed first),
    // as fio counts a job that writes.
    if (!(s_.pattern.trim_then_write && sl.io.dir == FioDir::kTrim)) bytes_issued_ += sl.io.length;
    ++ios_issued_;
    passes_.Issued(sl.io.length);
    if (sl.io.dir == FioDir::kWrite && s_.verify_only) {
      // verify_only: the block this write would make is read and checked.
      sl.io.dir = FioDir::kRead;
      sl.check = true;
    } else if (sl.io.dir == FioDir::kWrite) {
      ++writes_since_sync_;
      last_write_file_ = sl.io.file;
      PrepareWrite(sl);
    } else {
      sl.check = s_.verify != FioVerifyKind::kNone && !s_.pattern.dirs[1];
    }
    if (VerifiesWrites() && s_.verify_pass_bytes != 0 && bytes_issued_ >= next_pass_at_) {
      next_pass_at_ += s_.verify_pass_bytes;  // a pass of loops= ends: verify it
      verify_due_ = true;
    }
    return true;
  }

  // Whether the job reads back and checks what it writes.
  bool VerifiesWrites() const {
    return s_.verify != FioVerifyKind::kNone && s_.do_verify && !s_.verify_only &&
           s_.pattern.dirs[1];
  }

  // The write's data (the buffer options), its verify header and its place
  // in the log of blocks to verify.
  void PrepareWrite(Slot& sl) {
    ++write_tag_;
    // A buffer filled once (zeros, a pattern) that a read filled since is
    // filled again.
    if (sl.read_into && fill_.FilledOnce()) fill_.Initial(sl.buf, max_len_);
    sl.read_into = false;
    const bool verify = s_.verify != FioVerifyKind::kNone;
    if (!verify || s_.verify_pattern.empty()) fill_.ForWrite(sl.buf, sl.io.length, write_tag_);
    if (!verify) return;
    const FioVerifyBlock block{sl.io.file, sl.io.offset, sl.io.length};
    Status st = StampFioVerifyBlock(sl.buf, block, s_.verify, s_.pattern.seed + write_tag_,
                                    s_.verify_pattern);
    if (!st.ok()) Fail(std::move(st));
    if (!VerifiesWrites()) return;
    log_.Add(block);
    if (s_.verify_backlog != 0 && ++writes_since_verify_ >= s_.verify_backlog) {
      writes_since_verify_ = 0;
      verify_due_ = true;
    }
  }

  // A job whose pattern ends its own passes (FioPassRule): the next I/O in
  // this pass, or in a new one when this one is over and fio would begin
  // another. A job that verifies its writes verifies each pass before that
  // is decided (fio counts the verification's reads). False: the job is
  // done, or the pass's writes are to be verified first.
  bool DrawInPass(Slot& sl, FioDir dir, int64_t* own) {
    const auto draw = [&] { sl.io = rated_ ? pattern_.NextIn(dir, own) : pattern_.Next(own); };
    if (passes_.Done()) {
      limit_done_ = true;
      return false;
    }
    if (!pass_over_) {
      draw();
      if (!pattern_.Exhausted()) return true;
      pass_over_ = true;
      if (VerifiesWrites()) {
        verify_due_ = true;
        return false;
      }
    }
    pass_over_ = false;
    if (!passes_.Another()) {
      limit_done_ = true;
      return false;
    }
    passes_.Begin();
    pattern_.NewPass();
    draw();
    if (!pattern_.Exhausted()) return true;
    limit_done_ = true;  // not one request fits in a new pass
    return false;
  }

  // With nothing in flight and nothing left to issue: starts verifying the
  // blocks written (a pass or the backlog done, or the job's writes done),
  // goes back to writing after a verification, or fails the job over the
  // blocks that failed. False: the job's work is done.
  bool NextPhase() {
    if (verifying_) {
      verifying_ = false;
      queue_.clear();
      queue_pos_ = 0;
      return true;
    }
    if (verify_due_ || (VerifiesWrites() && LimitReached())) {
      verify_due_ = false;
      queue_ = log_.Take();
      queue_pos_ = 0;
      if (!queue_.empty()) {
        verifying_ = true;
        return true;
      }
      if (!LimitReached()) return true;
    }
    if (verify_failures_ > 0 && error_.ok()) {
      Fail(VerifyFailed());
      return true;
    }
    return false;
  }

  // A block read back that is not what was written: the first one is the
  // job's failure (at once with verify_fatal, else once every block was
  // checked).
  void VerifyFailure(const FioIo& io, const std::string& why) {
    if (verify_failures_++ == 0) {
      first_failure_ = fmt::format("verify failed: {} at offset {} ({} bytes): {}",
                                   files_[io.file].path, io.offset, io.length, why);
    }
    if (s_.verify_fatal) Fail(VerifyFailed());
  }

  Status VerifyFailed() const {
    if (verify_failures_ <= 1) return Status::IoError(first_failure_);
    return Status::IoError(
        fmt::format("{} (and {} more blocks)", first_failure_, verify_failures_ - 1));
  }

  void CheckRead(Slot& sl, int64_t res) {
    if (static_cast<uint64_t>(res) != sl.io.length) {
      VerifyFailure(sl.io, fmt::format("the read returned {} bytes", res));
      return;
    }
    Result<std::string> why =
        CheckFioVerifyBlock(sl.buf, FioVerifyBlock{sl.io.file, sl.io.offset, sl.io.length},
                            s_.verify, s_.verify_pattern);
    if (!why.ok()) {
      Fail(why.status());
    } else if (!why->empty()) {
      VerifyFailure(sl.io, *why);
    }
  }

  Status TopUp() {
    batch_.clear();
    next_due_ = 0;
    if (!verifying_ && ThinkDue() && engine_->InFlight() == 0 && !LimitReached()) Think();
    const Nanos now = clock_.Now();
    // As fio, no fsync=N sync after the job's last write (end_fsync syncs
    // then).
    while (!free_.empty() && (verifying_ || !LimitReached())) {
      // The blocks written so far are verified first; verification reads
      // are neither paced nor followed by think time.
      if (!verifying_ && verify_due_) break;
      const bool sync = !verifying_ && SyncDue();
      if (!verifying_ && !sync && ThinkDue()) break;  // the I/Os before the think complete first
      FioDir dir = FioDir::kRead;
      Nanos intended = 0;
      if (!verifying_ && rated_ && !sync && !TakeDue(now, &dir, &intended)) break;
      const uint32_t idx = free_.back();
      free_.pop_back();
      Slot& sl = slots_[idx];
      if (!Plan(sl, dir)) {
        free_.push_back(idx);
        break;
      }
      if (!sl.sync && !verifying_) {
        ++think_issued_;
        // The direction drawn (a verify_only write is read, on the write's
        // schedule).
        if (rated_) sched_[static_cast<int>(dir)].Take(sl.io.length);
      }
      sl.submitted = now;
      sl.intended = intended;
      if (!sl.sync && sl.io.dir == FioDir::kTrim) {
        // A trim is done here, at once (as fio's engines do theirs); the
        // requests planned before it are submitted below.
        TrimNow(idx);
        break;
      }
      IoRequest& r = batch_.emplace_back();
      r.op = sl.sync ? (s_.fsync_every != 0 ? IoOp::kFsync : IoOp::kFdatasync)
                     : (sl.io.dir == FioDir::kRead ? IoOp::kRead : IoOp::kWrite);
      r.file = static_cast<int>(sl.io.file);
      r.offset = sl.io.offset;
      r.length = sl.io.length;
      r.buffer = sl.buf;
      r.user_data = idx;
      r.submitted_at = now;
    }
    Account(now);
    size_t done = 0;
    while (done < batch_.size()) {
      const size_t n =
          std::min<size_t>(std::max<uint32_t>(1, s_.submit_batch), batch_.size() - done);
      const size_t before = engine_->InFlight();
      LC_ASSIGN_OR_RETURN(size_t took,
                          engine_->Submit(std::span<IoRequest>(batch_.data() + done, n)));
      rec_.Add(kFioSubmitCalls, 1);
      rec_.Add(kFioSubmitBatch + FioBatchBucket(took), 1);
      for (size_t k = 1; k <= took; ++k) rec_.Add(kFioDepthLevel + FioDepthBucket(before + k), 1);
      done += took;
      if (took < n) break;
    }
    // What the engine did not take goes back (planned again later).
    for (size_t i = done; i < batch_.size(); ++i) {
      free_.push_back(static_cast<uint32_t>(batch_[i].user_data));
    }
    return Status::Ok();
  }

  // Punches the hole of the trim planned in slot `idx` and completes it.
  void TrimNow(uint32_t idx) {
    Slot& sl = slots_[idx];
    const IoFile& f = files_[sl.io.file];
    rec_.Add(kFioDepthLevel + FioDepthBucket(engine_->InFlight() + 1), 1);
    sl.submitted = clock_.Now();
    Status st = f.fd < 0 ? Status::Ok() : PunchHole(f.fd, sl.io.offset, sl.io.length);
    const Nanos now = clock_.Now();
    free_.push_back(idx);
    if (!st.ok()) {
      Fail(Status(st.code(),
                  fmt::format("trim of {} bytes at offset {} of {} failed: {}", sl.io.length,
                              sl.io.offset, f.path, st.message()),
                  st.err()));
      return;
    }
    const uint64_t ns = Since(sl.submitted, now);
    const Nanos from = sl.intended != 0 && sl.intended < sl.submitted ? sl.intended : sl.submitted;
    ready_.push_back(Done{FioDir::kTrim, sl.io.length, Since(from, now), ns, sl.io.offset, now});
    ++done_ios_[static_cast<size_t>(FioDir::kTrim)];
    done_bytes_[static_cast<size_t>(FioDir::kTrim)] += sl.io.length;
  }

  bool SyncDue() const {
    const uint32_t every = s_.fsync_every != 0 ? s_.fsync_every : s_.fdatasync_every;
    return every != 0 && writes_since_sync_ >= every;
  }

  void Account(Nanos now) {
    if (depth_since_ != 0 && now > depth_since_) {
      const uint64_t dt = static_cast<uint64_t>(now - depth_since_);
      rec_.Add(kFioDepthNanos, dt * engine_->InFlight());
      rec_.Add(kFioDepthTime, dt);
      if (engine_->InFlight() > 0) rec_.AddBusy(dt);
    }
    depth_since_ = now;
  }

  // Reaps at least one completion, or none once `timeout_ns` (-1: none)
  // passed.
  Status ReapSome(Nanos timeout_ns) {
    // iodepth_batch_complete_min/_max: how many completions a reap waits
    // for and takes at most.
    const size_t least = std::min<size_t>(s_.complete_min, engine_->InFlight());
    const size_t most = s_.complete_max == 0
                            ? completions_.size()
                            : std::min<size_t>(s_.complete_max, completions_.size());
    LC_ASSIGN_OR_RETURN(
        size_t n,
        engine_->Reap(least, std::span<IoCompletion>(completions_.data(), most), timeout_ns));
    const Nanos now = clock_.Now();
    // Which wait this was (DiskSpd's -vs): for a completion alone, for one
    // or the next start under a rate, or a poll that did not wait.
    if (timeout_ns != 0) {
      rec_.Add(timeout_ns < 0 ? kFioWaitCompletion : kFioWaitThrottle, 1);
    } else {
      rec_.Add(kFioLookaside, 1);
      rec_.Add(kFioLookasideFound + static_cast<int>(std::min<size_t>(n, 7)), 1);
    }
    // A poll that found nothing (iodepth_batch_complete_min=0) is no reap.
    if (n > 0 || (timeout_ns < 0 && least > 0)) {
      rec_.Add(kFioCompleteBatch + FioBatchBucket(n), 1);
    }
    for (size_t i = 0; i < n; ++i) {
      const uint32_t idx = static_cast<uint32_t>(completions_[i].user_data);
      Slot& sl = slots_[idx];
      const int64_t res = completions_[i].result;
      const uint64_t ns = Since(sl.submitted, now);
      const uint64_t from_intended =
          Since(sl.intended != 0 && sl.intended < sl.submitted ? sl.intended : sl.submitted, now);
      if (res < 0) {
        Fail(PosixError(
            fmt::format("{} of {} bytes at offset {} of {} failed",
                        sl.sync ? "sync" : (sl.io.dir == FioDir::kRead ? "read" : "write"),
                        sl.io.length, sl.io.offset, files_[sl.io.file].path),
            static_cast<int>(-res)));
      } else if (sl.sync) {
        // fio times fsync=N and fdatasync=N syncs, and counts the former.
        rec_.RecordKind(kFioKindSync, ns);
        if (s_.fsync_every != 0) rec_.Add(kFioSyncs, 1);
        rec_.Add(kFioAllSyncs, 1);
      } else {
        if (static_cast<uint64_t>(res) != sl.io.length) rec_.Add(kFioShortIos, 1);
        if (sl.check) CheckRead(sl, res);
        sl.read_into = sl.io.dir == FioDir::kRead;
        ready_.push_back(
            Done{sl.io.dir, static_cast<uint32_t>(res), from_intended, ns, sl.io.offset, now});
        const size_t d = static_cast<size_t>(sl.io.dir);
        ++done_ios_[d];
        done_bytes_[d] += static_cast<uint64_t>(res);
      }
      free_.push_back(idx);
    }
    Account(now);
    if (checks_min_) CheckMinRate(now);
    return Status::Ok();
  }

  Status Drain() {
    while (engine_->InFlight() > 0) {
      LC_ASSIGN_OR_RETURN(size_t n, engine_->Reap(1, completions_, -1));
      if (n == 0) break;
    }
    return Status::Ok();
  }

  Status SyncNow(int file) {
    IoRequest r;
    r.op = IoOp::kFsync;
    r.file = file;
    LC_ASSIGN_OR_RETURN(size_t took, engine_->Submit(std::span<IoRequest>(&r, 1)));
    if (took != 1) return Status::Internal("fio: the engine took no fsync");
    LC_ASSIGN_OR_RETURN(size_t n, engine_->Reap(1, completions_, -1));
    if (n == 1 && completions_[0].result < 0) {
      return PosixError("end_fsync of " + files_[file].path + " failed",
                        static_cast<int>(-completions_[0].result));
    }
    // fio neither times nor counts end_fsync's syncs: loadcell's own count.
    rec_.Add(kFioAllSyncs, 1);
    return Status::Ok();
  }

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
  uint32_t max_len_ = 0;
  unsigned char* buffers_ = nullptr;
  size_t huge_bytes_ = 0;  // the buffers' mapping in huge pages (large_pages)
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
  std::array<uint64_t, kFioDirs> ios_at_check_{};
  std::array<uint64_t, kFioDirs> bytes_at_check_{};
  bool usage_taken_ = false;
  ThreadUsage usage_;
  Status error_;
};

}  // namespace

int FioDepthBucket(uint64_t depth) {
  int b = 0;
  for (uint64_t v = depth; v > 1 && b < kFioLevels - 1; v >>= 1) ++b;
  return b;
}

int FioBatchBucket(uint64_t n) {
  if (n == 0) return 0;
  if (n <= 4) return 1;
  int b = 2;
  for (uint64_t top = 8; n > top && b < kFioLevels - 1; top <<= 1) ++b;
  return b;
}

FioJobWorkload::FioJobWorkload(FioJobSettings s, FileSystem& fs) : s_(std::move(s)), fs_(fs) {}

FioJobWorkload::~FioJobWorkload() { (void)Done(); }

Result<std::unique_ptr<Worker>> FioJobWorkload::NewWorker(const ThreadContext& ctx) {
  // NewWorker runs on the worker's own thread.
  if (Status prio = SetCurrentThreadIoPriority(s_.io_priority); !prio.ok()) {
    return Status(prio.code(), "setting the thread's I/O priority: " + prio.message(), prio.err());
  }
  LC_ASSIGN_OR_RETURN(std::unique_ptr<IoEngine> engine, MakeIoEngine(s_.engine, fs_));
  // One thread per job instance: its log is the job's.
  if (s_.logs.any() && io_log_ == nullptr) io_log_ = std::make_unique<FioLogRecorder>(s_.logs);
  auto w =
      std::make_unique<FioWorker>(s_, open_, std::move(engine), ctx, io_log_.get(), &ran_on_cpus_);
  LC_RETURN_IF_ERROR(w->Open());
  return std::unique_ptr<Worker>(std::move(w));
}

}  // namespace loadcell
