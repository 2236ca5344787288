#include "workloads/sqlio/sqlio.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "core/clock.h"
#include "core/plural.h"
#include "core/random.h"
#include "io/io_engine.h"
#include "os/open_flags.h"
#include "os/system_info.h"
#include "os/thread.h"
#include "runner/runner.h"
#include "stats/summary.h"
#include "workloads/fileio/fileio_data.h"

namespace loadcell {
namespace {

constexpr uint64_t kCreateChunk = 1 << 20;

struct FreeBuffer {
  void operator()(unsigned char* p) const { FreeIoBuffer(p); }
};

// Opens the test file at `path` without following a link in its place.
Result<int> OpenTarget(FileSystem& fs, const std::string& path, int flags) {
  LC_ASSIGN_OR_RETURN(ScopedDir dir, OpenScopedDir(fs, Dirname(path)));
  return fs.OpenAt(dir.get(), Basename(path), flags);
}

}  // namespace

FileIoSettings SqlioTargetSettings(const SqlioPlan& plan, const SqlioTarget& t) {
  FileIoSettings s;
  if (plan.random) {
    s.mode = plan.write ? FileTestMode::kRndWrite : FileTestMode::kRndRead;
  } else {
    // Sequential writes rewrite the file in place (never re-create it).
    s.mode = plan.write ? FileTestMode::kSeqRewrite : FileTestMode::kSeqRead;
  }
  s.mode_given = true;
  s.num_files = 1;
  s.block_size = plan.block_size;
  s.request_size = plan.block_size;
  s.file_size = t.size / plan.block_size * plan.block_size;
  s.total_size = s.file_size;
  s.blocks_per_file = s.file_size / plan.block_size;
  s.total_blocks = s.blocks_per_file;
  s.seq_requests_per_file = s.blocks_per_file;
  s.fsync_freq = 0;
  s.fsync_all = false;
  s.fsync_end = false;
  s.engine_asked = plan.engine;
  s.engine = plan.engine;
  s.queue_depth_asked = plan.outstanding;
  s.queue_depth = s.asynchronous() ? plan.outstanding : 1;
  s.open_flags = plan.open_flags;
  s.direct = (plan.open_flags & O_DIRECT) != 0;
  s.dir = Dirname(t.path);
  s.pattern = WritePattern::kRandom;
  s.share_rank = plan.share_rank;
  s.share_ranks = plan.share_ranks;
  // SQLIO's placement: -S is the base of every I/O; -f<N> walks each
  // thread's columns of N-block rows, -i rows per run.
  s.seq_start = plan.start_block * plan.block_size;
  if (!plan.random && plan.stripe != 0) {
    s.seq_lanes = true;
    s.seq_stride = plan.stripe * plan.block_size;
    s.seq_per_pass = plan.ios_per_run;
    s.seq_same_runs = plan.same_runs;
  }
  return s;
}

void SqlioLane(uint64_t stripe, int index, int threads, uint64_t* first, uint64_t* width) {
  const uint64_t t = static_cast<uint64_t>(std::max(1, threads));
  const uint64_t k = static_cast<uint64_t>(std::max(0, index));
  *first = k * stripe / t;
  *width = (k + 1) * stripe / t - *first;
}

SqlioWorkload::SqlioWorkload(SqlioPlan plan, FileSystem& fs) : plan_(std::move(plan)), fs_(fs) {}

SqlioWorkload::~SqlioWorkload() { (void)CloseFiles(); }

WorkloadInfo SqlioWorkload::Info() const {
  WorkloadInfo info;
  info.name = "sqlio";
  info.summary = "SQLIO-compatible file I/O test";
  info.event_definition =
      "one completed read or write of -b KB on one test file, timed from its submission to "
      "its completion";
  info.self_timed = true;
  info.self_paced = true;
  info.reports_busy_time = true;
  info.latency_kinds = {"read", "write", "fsync"};
  info.counter_names = {kFileIoCounterNames.begin(), kFileIoCounterNames.end()};
  return info;
}

int SqlioWorkload::TotalThreads() const {
  int n = 0;
  for (const SqlioTarget& t : plan_.targets) n += t.threads;
  return n;
}

size_t SqlioWorkload::TargetOf(int thread_id) const {
  int first = 0;
  for (size_t i = 0; i < plan_.targets.size(); ++i) {
    first += plan_.targets[i].threads;
    if (thread_id < first) return i;
  }
  return plan_.targets.empty() ? 0 : plan_.targets.size() - 1;
}

Status SqlioWorkload::CloseFiles() {
  Status first;
  for (int fd : fds_) {
    Status st = fs_.Close(fd);
    if (!st.ok() && first.ok()) first = st;
  }
  fds_.clear();
  return first;
}

Status SqlioWorkload::Init(int /*threads*/) {
  shared_.clear();
  settings_.clear();
  (void)CloseFiles();
  for (const SqlioTarget& t : plan_.targets) {
    auto s = std::make_unique<FileIoSettings>(SqlioTargetSettings(plan_, t));
    if (s->blocks_per_file == 0) {
      return Status::FailedPrecondition(
          fmt::format("{}: the file ({} bytes) is smaller than one block ({} bytes)", t.path,
                      t.size, plan_.block_size));
    }
    Result<int> fd = OpenTarget(fs_, t.path, O_RDWR | plan_.open_flags);
    if (!fd.ok()) {
      if (fd.status().IsUsageError()) return fd.status();  // a link or not a file: one line
      if (fd.status().err() == EINVAL && s->direct) {
        return Status::FailedPrecondition(
            t.path + ": the filesystem does not support O_DIRECT (use -BY or -BS)");
      }
      return Status(fd.status().code(), t.path + ": " + fd.status().message(), fd.status().err());
    }
    fds_.push_back(*fd);
    IoFile f;
    f.path = t.path;
    f.fd = *fd;
    f.size = s->file_size;
    auto shared = std::make_unique<FileIoShared>(*s, std::vector<IoFile>{f});
    if (Status st = shared->Init(); !st.ok()) {
      return Status(st.code(), t.path + ": " + st.message(), st.err());
    }
    settings_.push_back(std::move(s));
    shared_.push_back(std::move(shared));
  }
  cpu_.cpus = std::max(1, ReadSystemInfo().cpus_online);
  start_ = MonotonicNow();
  ProcessCpuSeconds(&start_user_, &start_sys_);
  return Status::Ok();
}

Result<std::unique_ptr<Worker>> SqlioWorkload::NewWorker(const ThreadContext& ctx) {
  if (shared_.empty()) return Status::Internal("sqlio: NewWorker before Init");
  const size_t t = TargetOf(ctx.thread_id);
  // Affinity, on the worker's own thread: -p pins, -a round-robins, a param
  // file mask confines the file's threads.
  std::vector<int> set;
  bool want = false;
  std::string what;
  if (plan_.pin_cpu >= 0) {
    set.push_back(plan_.pin_cpu);
    want = true;
    what = fmt::format("-p{}", plan_.pin_cpu);
  } else if (plan_.affinity_mask != 0) {
    std::vector<int> cpus;
    for (int c = 0; c < 64; ++c) {
      if ((plan_.affinity_mask >> c) & 1) cpus.push_back(c);
    }
    if (plan_.affinity_round_robin) {
      set.push_back(cpus[static_cast<size_t>(ctx.thread_id) % cpus.size()]);
    } else {
      set = cpus;
    }
    want = true;
    what = fmt::format("-a{}0x{:x}", plan_.affinity_round_robin ? "R" : "", plan_.affinity_mask);
  } else if (plan_.targets[t].mask != 0) {
    for (int c = 0; c < 64; ++c) {
      if ((plan_.targets[t].mask >> c) & 1) set.push_back(c);
    }
    want = true;
    what = fmt::format("mask 0x{:x}", plan_.targets[t].mask);
  }
  const Status pinned = want ? SetCurrentThreadCpus(set) : Status::Ok();
  if (!pinned.ok()) {
    std::lock_guard<std::mutex> lock(notes_mu_);
    affinity_notes_.push_back(
        fmt::format("thread {}: affinity {} not applied ({})", ctx.thread_id, what,
                    pinned.err() != 0 ? std::strerror(pinned.err()) : pinned.message()));
  }
  LC_ASSIGN_OR_RETURN(std::unique_ptr<IoEngine> engine, MakeIoEngine(plan_.engine, fs_));
  auto worker = std::make_unique<FileIoWorker>(*shared_[t], std::move(engine), ctx);
  if (settings_[t]->seq_lanes) {
    int first_thread = 0;
    for (size_t i = 0; i < t; ++i) first_thread += plan_.targets[i].threads;
    uint64_t first = 0, width = 1;
    SqlioLane(plan_.stripe, ctx.thread_id - first_thread, plan_.targets[t].threads, &first, &width);
    worker->SetLane(first, width);
  }
  if (Status st = worker->Open(); !st.ok()) {
    return Status(
        st.code(),
        fmt::format("{} engine on thread {}: {}", plan_.engine, ctx.thread_id, st.message()),
        st.err());
  }
  return std::unique_ptr<Worker>(std::move(worker));
}

Status SqlioWorkload::Done() {
  double user = 0, sys = 0;
  ProcessCpuSeconds(&user, &sys);
  cpu_.wall_s = static_cast<double>(MonotonicNow() - start_) / 1e9;
  cpu_.user_s = user - start_user_;
  cpu_.system_s = sys - start_sys_;
  shared_.clear();
  settings_.clear();
  return CloseFiles();
}

std::vector<std::string> SqlioWorkload::AffinityNotes() const {
  std::lock_guard<std::mutex> lock(notes_mu_);
  return affinity_notes_;
}

std::vector<std::pair<std::string, std::string>> SqlioWorkload::Describe() const {
  std::vector<std::pair<std::string, std::string>> d;
  d.emplace_back("Access", std::string(plan_.write ? "write" : "read") + ", " +
                               (plan_.random ? "random" : "sequential"));
  d.emplace_back("Block size", std::to_string(plan_.block_size));
  d.emplace_back("Outstanding I/Os per thread", std::to_string(plan_.outstanding));
  d.emplace_back("Start offset (blocks)", std::to_string(plan_.start_block));
  if (!plan_.random && plan_.stripe != 0) {
    d.emplace_back("Stripe factor (blocks)", std::to_string(plan_.stripe));
    d.emplace_back("I/Os per run", std::to_string(plan_.ios_per_run));
    d.emplace_back("Runs",
                   plan_.same_runs ? "on the same blocks (-v1.1.1)" : "one block over each time");
  }
  d.emplace_back("Engine", plan_.engine);
  std::string flags = "O_RDWR";
  if (plan_.open_flags & O_DIRECT) flags += "|O_DIRECT";
  if (plan_.open_flags & O_DSYNC) flags += "|O_DSYNC";
  d.emplace_back("Open flags", flags);
  for (const SqlioTarget& t : plan_.targets) {
    d.emplace_back("File " + t.shown, fmt::format("{} ({} bytes, {}, mask 0x{:x})", t.path, t.size,
                                                  CountOf(t.threads, "thread", "threads"), t.mask));
  }
  return d;
}

IoOptionNames SqlioOptionNames() {
  IoOptionNames n;
  n.direct = "-BH (or -BN)";
  n.file_set_size = "file size (the param file's size column, in MB)";
  n.async_engines = "-o<N> above 1: overlapped I/O";
  n.deeper_queue = "-o<N>";
  n.queue_depth = "-o";
  n.threads = "-t (or the param file's threads)";
  n.flush_every = "-BS (write-through)";
  n.write_through = "-BS (or -BN)";
  n.random_data = "random data";
  n.write_first = "a -kW run over the files";
  n.unwritten_source = "files laid out without data";
  n.percentile = "";  // the verdict judges the 95th
  n.alignment = "-b and -S";
  return n;
}

WorkloadFacts SqlioWorkload::Facts(const RunResult& r) const {
  WorkloadFacts f;
  f.option_names = SqlioOptionNames();
  for (size_t i = 0; i < plan_.targets.size(); ++i) {
    const SqlioTarget& t = plan_.targets[i];
    const FileIoSettings s = SqlioTargetSettings(plan_, t);
    f.io.push_back(TargetFactsOf(s, t.threads, {t.path}, plan_.outstanding > 1, "-o"));
  }
  f.io_bytes_read = BytesReadOf(r);
  f.io_bytes_written = BytesWrittenOf(r);
  f.worker_cpus = WorkerCpus();
  return f;
}

std::vector<int> SqlioWorkload::WorkerCpus() const {
  // NewWorker's rules: -p, else -a, else each file's mask (a file without
  // one leaves its threads on any CPU).
  if (plan_.pin_cpu >= 0) return {plan_.pin_cpu};
  uint64_t mask = plan_.affinity_mask;
  if (mask == 0) {
    for (const SqlioTarget& t : plan_.targets) {
      if (t.mask == 0) return {};
      mask |= t.mask;
    }
  }
  std::vector<int> cpus;
  for (int c = 0; c < 64; ++c) {
    if ((mask >> c) & 1) cpus.push_back(c);
  }
  return cpus;
}

std::vector<Metric> SqlioWorkload::Metrics(const RunResult& r) const {
  uint64_t bytes = 0;
  for (size_t i = 0; i < r.counter_names.size() && i < r.counters.size(); ++i) {
    if (r.counter_names[i] == kFileIoCounterNames[kCounterBytesRead] ||
        r.counter_names[i] == kFileIoCounterNames[kCounterBytesWritten]) {
      bytes += r.counters[i];
    }
  }
  // A run of no measured time has rates of 0 (Rate). The SQLIO report
  // prints these two by their keys.
  std::vector<Metric> m = {
      {"ios_per_second", "IOs/sec", Rate(static_cast<double>(r.events), r.total_time_s), "IO/s"},
      {"mbs_per_second", "MBs/sec", MibPerSecond(static_cast<double>(bytes), r.total_time_s),
       "MiB/s"},
  };
  if (cpu_.wall_s > 0) m.push_back({"cpu_percent", "CPU", cpu_.Percent(), "%"});
  return m;
}

namespace {

// Fills the open file `fd` (`path`) with `size` random bytes and fsyncs it.
Status FillSqlioFile(FileSystem& fs, int fd, const std::string& path, uint64_t size,
                     std::ostream* progress_out, bool tty, const SqlioFill& fill) {
  std::unique_ptr<unsigned char, FreeBuffer> buf(
      static_cast<unsigned char*>(AllocateIoBuffer(kCreateChunk)));
  if (buf == nullptr) return Status::Internal("sqlio: out of memory for the write buffer");
  Random rng(0x73716c696fULL ^ size);
  Progress progress("creating " + path, size, "bytes", progress_out, tty);
  Status st;
  uint64_t off = 0;
  while (off < size) {
    if (StopRequested()) {
      st = Status::Cancelled("interrupted while creating " + path +
                             "; the partial file was removed");
      break;
    }
    const uint64_t len = std::min(kCreateChunk, size - off);
    if (fill) {
      fill(buf.get(), len, off);
    } else {
      FillRandom(buf.get(), len, rng);
    }
    st = WriteFully(fs, fd, buf.get(), len, off,
                    fmt::format("writing '{}' at offset {}", path, off));
    if (!st.ok()) break;
    off += len;
    progress.Advance(len);
  }
  progress.Done();
  if (st.ok()) {
    st = fs.Fsync(fd);
    if (!st.ok()) st = Status(st.code(), "fsync '" + path + "': " + st.message(), st.err());
  }
  return st;
}

}  // namespace

Status CreateSqlioFile(FileSystem& fs, const std::string& path, uint64_t size,
                       std::ostream* progress_out, bool tty, const SqlioFill& fill,
                       const std::string& tool) {
  LC_ASSIGN_OR_RETURN(ScopedDir dir, OpenScopedDir(fs, Dirname(path)));
  const std::string name = Basename(path);
  LC_ASSIGN_OR_RETURN(int fd, fs.OpenAt(dir.get(), name, O_WRONLY | O_CREAT | O_EXCL, 0644));
  FileId id;
  SqlioManifestEntry entry;
  entry.name = name;
  entry.size = size;
  // A folder without a manifest before this creation gets none back if it
  // fails: nothing of loadcell's is left behind.
  Result<std::vector<SqlioManifestEntry>> before = ReadSqlioManifestAt(fs, dir.get());
  const bool manifest_is_new = before.ok() && before->empty();
  Result<FileInfo> info = fs.Fstat(fd);
  Status st = info.status();
  if (st.ok()) {
    id = info->id();
    entry.id = id;
    // Said before the first byte: a creation killed later leaves a file the
    // manifest calls incomplete, which no test measures.
    st = RecordSqlioFile(fs, dir.get(), entry);
  }
  if (st.ok()) st = FillSqlioFile(fs, fd, path, size, progress_out, tty, fill);
  const Status closed = fs.Close(fd);
  if (st.ok()) st = closed;
  // `created` only once complete: a file listed so is always a whole one.
  entry.complete = true;
  if (st.ok()) st = RecordSqlioFile(fs, dir.get(), entry);
  if (!st.ok()) {
    (void)fs.UnlinkAt(dir.get(), name, &id);
    if (manifest_is_new) (void)fs.UnlinkAt(dir.get(), kSqlioManifestName, nullptr);
  }
  if (st.err() == ENOSPC || st.err() == EFBIG || st.err() == EDQUOT) {
    // The volume cannot hold the file asked for: the user's setup (exit 2);
    // the errno stays, for its words at the end of the line.
    return Status(StatusCode::kFailedPrecondition,
                  fmt::format("{}: creating {} stopped ({}); removed the partial file; free "
                              "space or give a smaller size",
                              tool, path, st.message()),
                  st.err());
  }
  return st;
}

Status RefillSqlioFile(FileSystem& fs, const std::string& path, uint64_t size,
                       std::ostream* progress_out, bool tty, const SqlioFill& fill) {
  LC_ASSIGN_OR_RETURN(int fd, fs.Open(path, O_WRONLY));
  Status st = FillSqlioFile(fs, fd, path, size, progress_out, tty, fill);
  const Status closed = fs.Close(fd);
  return st.ok() ? closed : st;
}

}  // namespace loadcell
