#include "workloads/fio/fio_worker.h"

#include <fcntl.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "core/pages.h"
#include "os/block_device.h"
#include "os/open_flags.h"
#include "runner/stop_signal.h"

namespace loadcell {
namespace {

void AddUsage(ThreadRecorder& rec, const ThreadUsage& from, const ThreadUsage& to) {
  const auto d = [](uint64_t a, uint64_t b) { return b > a ? b - a : 0; };
  rec.Add(kFioCpuUserNs, d(from.user_ns, to.user_ns));
  rec.Add(kFioCpuSysNs, d(from.sys_ns, to.sys_ns));
  rec.Add(kFioContextSwitches, d(from.context_switches, to.context_switches));
  rec.Add(kFioMajorFaults, d(from.major_faults, to.major_faults));
  rec.Add(kFioMinorFaults, d(from.minor_faults, to.minor_faults));
}

}  // namespace

FioWorker::FioWorker(const FioJobSettings& s, const std::vector<IoFile>& files,
                     std::unique_ptr<IoEngine> engine, const ThreadContext& ctx,
                     FioLogRecorder* log, std::vector<int>* ran_on_cpus)
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

FioWorker::~FioWorker() {
  if (open_) (void)engine_->Close();
  if (huge_bytes_ > 0) {
    UnmapPages(buffers_, huge_bytes_);
  } else {
    FreeIoBuffer(buffers_);
  }
}

Status FioWorker::Open() {
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
  for (const IoFile& f : files_) devices_.push_back(IsBlockDevice(f.path) ? 1 : 0);
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
  // fio's null engine is synchronous at iodepth=1 (no slat).
  times_submission_ = engine_->Capabilities().asynchronous && !(s_.engine == "null" && depth == 1);
  open_ = true;
  return Status::Ok();
}

Status FioWorker::AllocateBuffers(size_t bytes) {
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

Status FioWorker::Finish() {
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

Status FioWorker::ConfineToCpus() {
  if (s_.cpus.empty()) return Status::Ok();
  Status st = SetCurrentThreadCpus(s_.cpus);
  if (!st.ok()) return Status(st.code(), "cpus_allowed: " + st.message(), st.err());
  *ran_on_cpus_ = AllowedCpus();
  return Status::Ok();
}

void FioWorker::Start() {
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

bool FioWorker::WaitUntil(Nanos t) {
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

void FioWorker::Think() {
  const Nanos from = MonotonicNow();
  const Nanos spin_until = from + s_.thinktime_spin_ns;
  while (MonotonicNow() < spin_until) {
  }
  rec_.Add(kFioSleepThrottle, 1);
  (void)WaitUntil(from + s_.thinktime_ns);
  think_issued_ = 0;
}

bool FioWorker::NextPhase() {
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

void FioWorker::VerifyFailure(const FioIo& io, const std::string& why) {
  if (verify_failures_++ == 0) {
    first_failure_ = fmt::format("verify failed: {} at offset {} ({} bytes): {}",
                                 files_[io.file].path, io.offset, io.length, why);
  }
  if (s_.verify_fatal) Fail(VerifyFailed());
}

Status FioWorker::VerifyFailed() const {
  if (verify_failures_ <= 1) return Status::IoError(first_failure_);
  return Status::IoError(
      fmt::format("{} (and {} more blocks)", first_failure_, verify_failures_ - 1));
}

void FioWorker::CheckRead(Slot& sl, int64_t res) {
  if (static_cast<uint64_t>(res) != sl.io.length) {
    VerifyFailure(sl.io, fmt::format("the read returned {} bytes", res));
    return;
  }
  Result<std::string> why = CheckFioVerifyBlock(
      sl.buf, FioVerifyBlock{sl.io.file, sl.io.offset, sl.io.length}, s_.verify, s_.verify_pattern);
  if (!why.ok()) {
    Fail(why.status());
  } else if (!why->empty()) {
    VerifyFailure(sl.io, *why);
  }
}

Status FioWorker::Drain() {
  while (engine_->InFlight() > 0) {
    LC_ASSIGN_OR_RETURN(size_t n, engine_->Reap(1, completions_, -1));
    if (n == 0) break;
  }
  return Status::Ok();
}

Status FioWorker::SyncNow(int file) {
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
}  // namespace loadcell
