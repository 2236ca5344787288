#include <fmt/format.h>

#include <algorithm>
#include <span>

#include "os/block_device.h"
#include "os/file_space.h"
#include "workloads/fio/fio_worker.h"

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

uint64_t Since(Nanos from, Nanos to) { return to > from ? static_cast<uint64_t>(to - from) : 0; }

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

Status FioWorker::RunEvent() {
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
        return EndOfJob();
      }
      rec_.Add(kFioSleepThrottle, 1);
      if (!WaitUntil(next_due_)) return EndOfJob();
      continue;
    }
    LC_RETURN_IF_ERROR(
        ReapSome(next_due_ == 0 ? -1 : std::max<Nanos>(0, next_due_ - clock_.Now())));
  }
  const Done d = ready_.back();
  ready_.pop_back();
  rec_.RecordEvent(d.ns);
  rec_.RecordKind(FioKindOf(d.dir), d.ns);
  if (times_submission_ && d.dir != FioDir::kTrim) {
    const int w = d.dir == FioDir::kWrite ? 1 : 0;
    rec_.RecordKind(kFioKindSlatRead + w, d.slat_ns);
    rec_.RecordKind(kFioKindClatRead + w, d.clat_ns);
  }
  if (rated_) rec_.RecordService(d.service_ns);
  if (io_log_ != nullptr && rec_.measuring()) {
    const bool split = times_submission_ && d.dir != FioDir::kTrim;
    io_log_->Add(d.at, d.dir, d.bytes, d.offset, d.ns, split ? static_cast<int64_t>(d.clat_ns) : -1,
                 split ? static_cast<int64_t>(d.slat_ns) : -1);
  }
  if (!rec_.measuring()) {
    ++ramp_ios_[static_cast<size_t>(d.dir)];
    ramp_bytes_[static_cast<size_t>(d.dir)] += d.bytes;
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

Status FioWorker::EndOfJob() {
  if (!rec_.measuring()) {
    rec_.set_measuring(true);
    static constexpr std::array<int, kFioDirs> kIos = {kFioReads, kFioWrites, kFioTrims};
    static constexpr std::array<int, kFioDirs> kBytes = {kFioBytesRead, kFioBytesWritten,
                                                         kFioBytesTrimmed};
    for (size_t d = 0; d < kIos.size(); ++d) {
      rec_.Add(kIos[d], ramp_ios_[d]);
      rec_.Add(kBytes[d], ramp_bytes_[d]);
    }
  }
  return EndOfWork();
}

bool FioWorker::TakeDue(Nanos now, FioDir* dir, Nanos* intended) {
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

void FioWorker::CheckMinRate(Nanos now) {
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

bool FioWorker::Plan(Slot& sl, FioDir dir) {
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

void FioWorker::PrepareWrite(Slot& sl) {
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

bool FioWorker::DrawInPass(Slot& sl, FioDir dir, int64_t* own) {
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

Status FioWorker::TopUp() {
  batch_.clear();
  next_due_ = 0;
  // As fio, the think after the job's last block too (its runtime holds it).
  if (!verifying_ && ThinkDue() && engine_->InFlight() == 0) Think();
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
    sl.issued = now;
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
  Nanos start = now;  // the start of the requests of the next submission call
  while (done < batch_.size()) {
    const size_t n = std::min<size_t>(std::max<uint32_t>(1, s_.submit_batch), batch_.size() - done);
    const size_t before = engine_->InFlight();
    LC_ASSIGN_OR_RETURN(size_t took,
                        engine_->Submit(std::span<IoRequest>(batch_.data() + done, n)));
    if (times_submission_) {
      // fio's slat ends here: one clock read for the requests the call
      // took, which is also the start of those the next call submits (as
      // fio starts each I/O once the one before it went).
      const Nanos issued = clock_.Now();
      for (size_t k = done; k < done + took; ++k) {
        Slot& sl = slots_[batch_[k].user_data];
        sl.submitted = start;
        sl.issued = issued;
      }
      start = issued;
    }
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

void FioWorker::TrimNow(uint32_t idx) {
  Slot& sl = slots_[idx];
  const IoFile& f = files_[sl.io.file];
  rec_.Add(kFioDepthLevel + FioDepthBucket(engine_->InFlight() + 1), 1);
  sl.submitted = clock_.Now();
  sl.issued = sl.submitted;
  Status st = Status::Ok();
  if (f.fd >= 0) {
    st = devices_.at(sl.io.file) != 0 ? DiscardBlocks(f.fd, sl.io.offset, sl.io.length)
                                      : PunchHole(f.fd, sl.io.offset, sl.io.length);
  }
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
  ready_.push_back(
      Done{FioDir::kTrim, sl.io.length, Since(from, now), ns, 0, ns, sl.io.offset, now});
  ++done_ios_[static_cast<size_t>(FioDir::kTrim)];
  done_bytes_[static_cast<size_t>(FioDir::kTrim)] += sl.io.length;
}

void FioWorker::Account(Nanos now) {
  if (depth_since_ != 0 && now > depth_since_) {
    const uint64_t dt = static_cast<uint64_t>(now - depth_since_);
    rec_.Add(kFioDepthNanos, dt * engine_->InFlight());
    rec_.Add(kFioDepthTime, dt);
    if (engine_->InFlight() > 0) rec_.AddBusy(dt);
  }
  depth_since_ = now;
}

Status FioWorker::ReapSome(Nanos timeout_ns) {
  // iodepth_batch_complete_min/_max: how many completions a reap waits
  // for and takes at most.
  const size_t least = std::min<size_t>(s_.complete_min, engine_->InFlight());
  const size_t most = s_.complete_max == 0 ? completions_.size()
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
      Fail(
          PosixError(fmt::format("{} of {} bytes at offset {} of {} failed",
                                 sl.sync ? "sync" : (sl.io.dir == FioDir::kRead ? "read" : "write"),
                                 sl.io.length, sl.io.offset, files_[sl.io.file].path),
                     static_cast<int>(-res)));
    } else if (sl.sync) {
      // fio times fsync=N and fdatasync=N syncs, and counts the former.
      rec_.RecordKind(kFioKindSync, ns);
      if (s_.fsync_every != 0) rec_.Add(kFioSyncs, 1);
      rec_.Add(kFioAllSyncs, 1);
    } else {
      if (static_cast<uint64_t>(res) != sl.io.length) {
        rec_.Add(kFioShortIos, 1);
        rec_.Add(kFioShortReads + static_cast<int>(sl.io.dir), 1);
      }
      if (sl.check) CheckRead(sl, res);
      sl.read_into = sl.io.dir == FioDir::kRead;
      // Under a rate clat, as lat, counts from the intended start.
      const uint64_t clat = sl.intended != 0 ? from_intended : Since(sl.issued, now);
      ready_.push_back(Done{sl.io.dir, static_cast<uint32_t>(res), from_intended, ns,
                            Since(sl.submitted, sl.issued), clat, sl.io.offset, now});
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
}  // namespace loadcell
