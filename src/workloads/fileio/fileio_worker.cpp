#include "workloads/fileio/fileio_worker.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "dbsim/page_format.h"
#include "runner/recorder.h"
#include "workloads/fileio/fileio_data.h"

namespace loadcell {
namespace {

constexpr int kMaxClaimTries = 1 << 20;

inline uint64_t Elapsed(Nanos from, Nanos to) {
  return to > from ? static_cast<uint64_t>(to - from) : 0;
}

}  // namespace

// ---------------------------------------------------------------- FileIoWorker

FileIoWorker::FileIoWorker(FileIoShared& shared, std::unique_ptr<IoEngine> engine,
                           const ThreadContext& ctx)
    : shared_(shared),
      s_(shared.settings()),
      engine_(std::move(engine)),
      recorder_(ctx.recorder),
      pacer_(ctx.pacer),
      rng_(ctx.seed),
      rand_config_(ctx.distribution_config),
      thread_id_(ctx.thread_id) {}

FileIoWorker::~FileIoWorker() {
  if (engine_open_) (void)engine_->Close();
  engine_.reset();
  FreeIoBuffer(buffers_);
}

Status FileIoWorker::Open() {
  if (recorder_ == nullptr) return Status::Internal("fileio worker: no recorder");
  if (s_.rand_type != "uniform" && !IsSequential(s_.mode)) {
    DistributionConfig cfg = rand_config_ != nullptr ? *rand_config_ : DistributionConfig{};
    cfg.type = s_.rand_type;
    LC_ASSIGN_OR_RETURN(Distribution d, Distribution::Create(cfg, 0, shared_.random_blocks() - 1));
    dist_.emplace(std::move(d));
  }
  const size_t depth = s_.queue_depth;
  const size_t max_len = IsSequential(s_.mode) ? s_.request_size : s_.block_size;
  const bool reads = ModeReads(s_.mode);
  const bool writes = ModeWrites(s_.mode);
  const size_t per_slot = s_.slot_buffer_bytes();
  buffers_ = static_cast<unsigned char*>(AllocateIoBuffer(std::max<size_t>(1, per_slot * depth)));
  if (buffers_ == nullptr) {
    return Status::ResourceExhausted(
        fmt::format("fileio: cannot allocate {} of I/O buffers", HumanBytes(per_slot * depth)));
  }
  slots_.assign(depth, Slot{});
  for (size_t i = 0; i < depth; ++i) {
    unsigned char* base = buffers_ + i * per_slot;
    if (reads) slots_[i].read_buf = base;
    if (writes) {
      slots_[i].write_buf = base + (reads ? max_len : 0);
      // Random data is drawn once per buffer; zeros are there already; the
      // sequence pattern is written per request.
      if (s_.pattern == WritePattern::kRandom) FillRandom(slots_[i].write_buf, max_len, rng_);
    }
  }
  free_.clear();
  for (size_t i = depth; i > 0; --i) free_.push_back(static_cast<uint32_t>(i - 1));
  pending_.clear();
  pending_.reserve(depth);
  batch_.reserve(depth);
  completions_.assign(depth, IoCompletion{});
  ready_.assign(depth, Done{});
  next_seq_ = static_cast<uint64_t>(thread_id_ + 1) << 40;
  write_tag_base_ = (static_cast<uint64_t>(thread_id_) & 0xFF) << 40;

  EngineOptions opts;
  opts.queue_depth = static_cast<uint32_t>(depth);
  opts.direct = s_.direct;
  opts.buffered_aio = s_.buffered_aio;
  opts.open_flags = s_.open_flags;
  opts.writable = true;
  LC_RETURN_IF_ERROR(engine_->Open(shared_.files(), opts));
  engine_open_ = true;
  return Status::Ok();
}

std::string FileIoWorker::Where(const FileIoPlan& p) const {
  return fmt::format("file {} at offset {}", s_.FilePath(p.file), p.offset);
}

void FileIoWorker::PlanInto(Slot& slot) {
  bool write = ModeWrites(s_.mode);
  if (s_.mode == FileTestMode::kRndRw) {
    // sysbench: read while reads/writes (each plus one) is below the ratio.
    write =
        !((static_cast<double>(reads_issued_) + 1.0) / (static_cast<double>(writes_issued_) + 1.0) <
          s_.rw_ratio);
  }
  const Distribution* dist = dist_.has_value() ? &*dist_ : nullptr;
  FileIoPlan p = shared_.Next(write, rng_, dist, &lane_);
  slot.claimed = false;
  if (s_.validate && !IsSync(p.op)) {
    int tries = 0;
    while (!shared_.Claim(p)) {
      if (++tries > kMaxClaimTries && error_.ok()) {
        error_ = Status::Internal("--validate: no free block found for a request");
        break;
      }
      p = shared_.Next(write, rng_, dist, &lane_);
      if (IsSync(p.op)) break;
    }
    slot.claimed = !IsSync(p.op) && error_.ok();
  }
  slot.plan = p;
  slot.followup = false;
  slot.then_fsync = false;
  if (p.op == IoOp::kRead) {
    ++reads_issued_;
    if (s_.validate_full) {
      // A sector the read does not fill keeps this stamp (ValidateBlocks).
      slot.read_stamp = DbReadStamp(reads_issued_, static_cast<uint32_t>(thread_id_));
      FillDbReadStamp(std::span<uint8_t>(slot.read_buf, p.length), slot.read_stamp);
    }
  } else if (p.op == IoOp::kWrite) {
    ++writes_issued_;
    slot.then_fsync = s_.fsync_all;
    if (s_.pattern == WritePattern::kSequence) FillSequence(slot.write_buf, p.length, p.offset);
    if (s_.pattern == WritePattern::kRandom) {
      // The buffer's random bytes are drawn once; this makes each write's
      // sectors its own.
      MakeSectorsUnique(slot.write_buf, p.length, write_tag_base_ + writes_issued_);
    }
    if (s_.validate) {
      slot.seq = ++next_seq_;
      StampBlocks(slot.write_buf, p.length, p.file, p.offset, s_.block_size, slot.seq);
    } else if (s_.stamp_writes) {
      StampBlocksLight(slot.write_buf, p.length, p.file, p.offset, s_.block_size, ++next_seq_);
    }
  }
}

bool FileIoWorker::TakeDue(Nanos now, Nanos* intended) {
  if (schedule_over_) return false;
  if (next_start_ == 0) {
    next_start_ = pacer_->TakeStart();
    if (next_start_ == Pacer::kNoStart) {
      next_start_ = 0;
      schedule_over_ = true;
      return false;
    }
  }
  if (next_start_ > now) return false;
  *intended = next_start_;
  next_start_ = 0;
  return true;
}

Status FileIoWorker::TopUp() {
  // Events outstanding since the last clock read (before new ones start).
  const bool outstanding = free_.size() < slots_.size();
  const Nanos now = reaped_at_ != 0 ? reaped_at_ : MonotonicNow();
  reaped_at_ = 0;
  while (!free_.empty()) {
    Nanos intended = now;
    if (pacer_ != nullptr && !TakeDue(now, &intended)) break;
    const uint32_t idx = free_.back();
    free_.pop_back();
    PlanInto(slots_[idx]);
    slots_[idx].origin = intended;
    slots_[idx].first_submit = 0;
    if (pacer_ != nullptr) pacer_->Started(intended, now);
    pending_.push_back(idx);
  }
  if (pending_.empty()) return Status::Ok();
  batch_.clear();
  for (uint32_t idx : pending_) {
    Slot& sl = slots_[idx];
    sl.submitted = now;
    if (sl.first_submit == 0) sl.first_submit = now;
    // Filled in place: a request built on the stack and copied in stalled
    // on the copy's wide loads (store forwarding), ~10% of a null request.
    IoRequest& r = batch_.emplace_back();
    r.op = sl.plan.op;
    r.file = static_cast<int>(sl.plan.file);
    r.offset = sl.plan.offset;
    r.length = sl.plan.length;
    r.buffer = sl.plan.op == IoOp::kRead ? sl.read_buf : sl.write_buf;
    r.user_data = idx;
    r.submitted_at = now;
  }
  Account(now, in_flight_, outstanding);
  // At most submit_batch requests per call: with 1, each request reaches
  // the device as soon as it is planned, so refills arrive as a stream, not
  // as a burst after each reap.
  const size_t per_call = s_.submit_batch;
  size_t accepted = 0;
  while (accepted < batch_.size()) {
    const size_t n = std::min(per_call, batch_.size() - accepted);
    LC_ASSIGN_OR_RETURN(size_t took,
                        engine_->Submit(std::span<IoRequest>(batch_.data() + accepted, n)));
    recorder_->Add(kCounterSubmitCalls, 1);
    in_flight_ += took;
    accepted += took;
    if (took < n) break;  // the engine is full
  }
  pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(accepted));
  return Status::Ok();
}

void FileIoWorker::Account(Nanos now, uint64_t in_flight, bool outstanding) {
  if (depth_since_ != 0 && now > depth_since_) {
    const uint64_t dt = static_cast<uint64_t>(now - depth_since_);
    recorder_->Add(kCounterQdNanos, dt * in_flight);
    recorder_->Add(kCounterQdTime, dt);
    if (outstanding) recorder_->AddBusy(dt);
  }
  depth_since_ = now;
}

Status FileIoWorker::ReapBatch() {
  // At most submit_batch completions per call, so that with 1 each
  // replacement is submitted right after the completion it replaces. Taking
  // every completion there is and then resubmitting them all keeps requests
  // that started together together: on a virtual disk that served them as
  // one burst, the queue went empty once per burst (~3% fewer IOPS at QD32
  // than taking them one at a time, as fio does by default).
  const size_t cap = std::min<size_t>(completions_.size(), s_.submit_batch);
  size_t n = 0;
  if (pacer_ != nullptr && !free_.empty() && !schedule_over_) {
    LC_RETURN_IF_ERROR(ReapOrWait(cap, &n));
  } else {
    LC_ASSIGN_OR_RETURN(n, engine_->Reap(1, std::span<IoCompletion>(completions_.data(), cap), -1));
  }
  const Nanos now = MonotonicNow();
  if (pacer_ == nullptr) reaped_at_ = now;
  in_flight_ -= n;
  // Until now the reaped requests were in flight too, and their events
  // outstanding (slots go back to free_ only in Complete()).
  Account(now, in_flight_ + n, free_.size() < slots_.size());
  for (size_t i = 0; i < n; ++i) {
    Complete(static_cast<uint32_t>(completions_[i].user_data), completions_[i].result, now);
  }
  if (n == 0 && in_flight_ == 0 && pending_.empty() && free_.empty()) {
    return Status::Internal("fileio: nothing in flight and nothing to submit");
  }
  return Status::Ok();
}

Status FileIoWorker::ReapOrWait(size_t cap, size_t* reaped) {
  // TopUp took the next start and found it in the future. Wait in slices,
  // so that a stop is seen promptly.
  constexpr Nanos kSlice = 50 * kNanosPerMilli;
  const Nanos now = MonotonicNow();
  const Nanos wait = std::min(std::max<Nanos>(next_start_ - now, 0), kSlice);
  if (in_flight_ == 0) {
    if (wait > 0) SystemClock().SleepUntil(now + wait);
    *reaped = 0;
    return Status::Ok();
  }
  LC_ASSIGN_OR_RETURN(*reaped,
                      engine_->Reap(1, std::span<IoCompletion>(completions_.data(), cap), wait));
  return Status::Ok();
}

void FileIoWorker::Fail(Status st) {
  if (error_.ok()) error_ = std::move(st);
}

void FileIoWorker::ReleaseSlot(uint32_t index) {
  Slot& sl = slots_[index];
  if (sl.claimed) shared_.Release(sl.plan);
  sl.claimed = false;
  free_.push_back(index);
}

void FileIoWorker::CompleteSync(uint32_t index, int64_t result, Nanos now) {
  Slot& sl = slots_[index];
  const FileIoPlan& p = sl.plan;
  const uint64_t lat = Elapsed(sl.submitted, now);         // this request's
  const uint64_t from_start = Elapsed(sl.origin, now);     // the event's latency
  const uint64_t service = Elapsed(sl.first_submit, now);  // the event's service time
  if (result < 0) {
    Fail(PosixError(fmt::format("{} of {} failed", p.op == IoOp::kFsync ? "fsync" : "fdatasync",
                                s_.FilePath(p.file)),
                    static_cast<int>(-result)));
  } else {
    Done& d = ready_[ready_count_++];
    if (sl.followup) {
      d = Done{kKindWrite, true, p.length, from_start, sl.write_ns, lat, service};
    } else {
      d = Done{kKindFsync, false, 0, from_start, 0, from_start, service};
    }
  }
  ReleaseSlot(index);
}

void FileIoWorker::Complete(uint32_t index, int64_t result, Nanos now) {
  Slot& sl = slots_[index];
  const FileIoPlan& p = sl.plan;
  if (IsSync(p.op)) {
    CompleteSync(index, result, now);
    return;
  }
  const uint64_t from_start = Elapsed(sl.origin, now);     // the event's latency
  const uint64_t service = Elapsed(sl.first_submit, now);  // the event's service time
  const bool read = p.op == IoOp::kRead;
  if (result < 0) {
    Fail(PosixError(
        fmt::format("{} of {} bytes from {} failed", read ? "read" : "write", p.length, Where(p)),
        static_cast<int>(-result)));
    ReleaseSlot(index);
    return;
  }
  if (static_cast<uint64_t>(result) != p.length) {
    Fail(Status::IoError(fmt::format("short {}: {} of {} bytes, {}", read ? "read" : "write",
                                     result, p.length, Where(p))));
    ReleaseSlot(index);
    return;
  }
  if (s_.validate) {
    if (Status st = ValidateBlocks(sl); !st.ok()) Fail(std::move(st));
  }
  if (!read) shared_.MarkWritten(p);
  if (!read && sl.then_fsync && error_.ok()) {
    // --file-fsync-all: the event goes on with the fsync of this file.
    if (sl.claimed) shared_.Release(p);
    sl.claimed = false;
    sl.write_ns = from_start;
    sl.followup = true;
    sl.plan.op = s_.fdatasync ? IoOp::kFdatasync : IoOp::kFsync;
    pending_.push_back(index);
    return;
  }
  if (error_.ok()) {
    ready_[ready_count_++] = Done{static_cast<uint8_t>(read ? kKindRead : kKindWrite),
                                  false,
                                  p.length,
                                  from_start,
                                  from_start,
                                  0,
                                  service};
  }
  ReleaseSlot(index);
}

Status FileIoWorker::Fill() {
  ready_head_ = 0;
  while (ready_count_ == 0) {
    if (!error_.ok()) return error_;
    if (pacer_ != nullptr) {
      // Paced: the run stops, or the schedule ended and nothing is left.
      if (pacer_->Stopping()) return EndOfWork();
      if (schedule_over_ && in_flight_ == 0 && pending_.empty()) return EndOfWork();
    }
    LC_RETURN_IF_ERROR(TopUp());
    LC_RETURN_IF_ERROR(ReapBatch());
  }
  return error_;
}

Status FileIoWorker::RunEvent() {
  if (ready_count_ == 0) {
    Status st = Fill();
    if (!st.ok()) [[unlikely]]
      return st;
  }
  const Done& d = ready_[ready_head_++];
  --ready_count_;
  ThreadRecorder& rec = *recorder_;
  rec.RecordEvent(d.event_ns);
  if (pacer_ != nullptr) rec.RecordService(d.service_ns);
  switch (d.kind) {
    case kKindRead:
      rec.RecordKind(kKindRead, d.event_ns);
      rec.Add(kCounterReads, 1);
      rec.Add(kCounterBytesRead, d.bytes);
      break;
    case kKindWrite:
      rec.RecordKind(kKindWrite, d.write_ns);
      rec.Add(kCounterWrites, 1);
      rec.Add(kCounterBytesWritten, d.bytes);
      if (d.with_fsync) {
        rec.RecordKind(kKindFsync, d.fsync_ns);
        rec.Add(kCounterFsyncs, 1);
      }
      break;
    default:
      rec.RecordKind(kKindFsync, d.fsync_ns);
      rec.Add(kCounterFsyncs, 1);
      break;
  }
  return Status::Ok();
}

Status FileIoWorker::Drain() {
  while (engine_->InFlight() > 0) {
    LC_ASSIGN_OR_RETURN(size_t n, engine_->Reap(1, completions_, -1));
    for (size_t i = 0; i < n; ++i) {
      Slot& sl = slots_[completions_[i].user_data];
      if (sl.plan.op == IoOp::kWrite && completions_[i].result == sl.plan.length) {
        shared_.MarkWritten(sl.plan);  // written, though not counted
      }
      if (sl.claimed) shared_.Release(sl.plan);
      sl.claimed = false;
    }
  }
  return Status::Ok();
}

Status FileIoWorker::Finish() {
  if (!engine_open_) return Status::Ok();
  Status st = Drain();
  in_flight_ = 0;
  reaped_at_ = 0;
  pending_.clear();
  ready_count_ = 0;
  if (st.ok() && error_.ok() && s_.fsync_end && ModeWrites(s_.mode)) {
    // sysbench: every thread fsyncs every file at its end; counted as
    // fsyncs, not as events.
    for (uint32_t f = 0; f < shared_.files().size() && st.ok(); ++f) {
      IoRequest r;
      r.op = s_.fdatasync ? IoOp::kFdatasync : IoOp::kFsync;
      r.file = static_cast<int>(f);
      batch_.assign(1, r);
      Result<size_t> n = engine_->Submit(batch_);
      if (!n.ok()) {
        st = n.status();
        break;
      }
      size_t got = 0;
      while (got == 0 && st.ok()) {
        Result<size_t> k = engine_->Reap(1, completions_, -1);
        if (!k.ok()) st = k.status();
        got = k.ok() ? *k : 0;
        if (k.ok() && *k == 0 && engine_->InFlight() == 0) break;
      }
      if (got > 0 && completions_[0].result < 0) {
        st = PosixError("fsync at the end of " + s_.FilePath(f) + " failed",
                        static_cast<int>(-completions_[0].result));
      } else if (got > 0) {
        recorder_->Add(kCounterFsyncs, 1);
      }
    }
  }
  Status closed = engine_->Close();
  engine_open_ = false;
  if (st.ok()) st = closed;
  return st;
}

}  // namespace loadcell
