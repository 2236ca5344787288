// The facts the validity checks read of a dbsim user's run
// (runner/run_facts.h, docs/validity.md, docs/dbsim.md, "The simulated
// users").

#include <algorithm>

#include "os/file_system.h"
#include "workloads/dbsim/dbsim_users.h"

namespace loadcell {
namespace {

constexpr uint64_t kFactsMiB = uint64_t{1} << 20;
constexpr uint32_t kFactsLogBlock = 512;

// Whether a user of `kind` reads data pages: the random users (unless every
// access is a cache hit), the read-ahead and audit users.
bool UserReads(DbsimUserKind kind, const DbsimConfig& c) {
  switch (kind) {
    case DbsimUserKind::kRandom:
      return c.cache_hit_ratio < 10000;
    case DbsimUserKind::kReadAhead:
    case DbsimUserKind::kAudit:
    case DbsimUserKind::kCycleAudit:
      return true;
    default:
      return false;
  }
}

// Whether it writes: the log writer (the log), the checkpoint, the bulk
// update and shrink users (pages), a random user when it helps the lazy
// writer (MaxMemoryMB) and updates pages.
bool UserWrites(DbsimUserKind kind, const DbsimConfig& c) {
  switch (kind) {
    case DbsimUserKind::kRandom:
      return c.max_memory_mb > 0 && c.read_write_ratio < 10000;
    case DbsimUserKind::kLogWriter:
    case DbsimUserKind::kCheckpoint:
    case DbsimUserKind::kBulkUpdate:
    case DbsimUserKind::kShrink:
      return true;
    default:
      return false;
  }
}

}  // namespace

IoOptionNames DbsimOptionNames() {
  IoOptionNames n;
  n.direct = "NoBuffering=TRUE";
  n.file_set_size = "data file size (InitialSize, or -size)";
  // Each user thread keeps --user-depth of its I/Os in flight (its pool's
  // helper threads; the log writer and the audits one).
  n.async_engines = "--user-depth above 1 (each user thread's I/Os in flight)";
  n.deeper_queue = "--user-depth";
  n.queue_depth = "--user-depth";
  n.threads = "users (UserCount)";
  n.flush_every = "WriteThrough=TRUE";
  n.write_through = "WriteThrough=TRUE";
  n.random_data = "random data (dbsim's pages are)";
  n.write_first = "files dbsim writes whole (no Sparse=TRUE)";
  n.unwritten_source = "Sparse=TRUE files";
  n.report_interval = "";  // dbsim prints no interval figures
  n.run_length = "-d";
  n.warm_up = "";     // none: every cycle is measured
  n.percentile = "";  // the verdict judges the 99th
  n.time_limit = "-d";
  n.work_limit = "";
  n.stonewall = "";
  n.alignment = "";  // its pages are 8 KiB, at their own offsets
  return n;
}

WorkloadFacts DbsimUserWorkload::Facts(const RunResult& r) const {
  const DbsimConfig& c = *settings_.config;
  const DbsimUserKind kind = settings_.kind;
  const bool log = kind == DbsimUserKind::kLogWriter;
  WorkloadFacts f;
  f.option_names = DbsimOptionNames();
  IoTargetFacts t;
  // Each I/O is a synchronous call (pread, pwrite, or one scatter or gather
  // call of a run of pages); a user thread keeps DbsimUserDepth of them in
  // flight, on its own thread and its pool's helpers.
  t.engine = c.null_engine ? "null" : "sync";
  t.null_engine = c.null_engine;  // --engine=null: no file read or written
  const int depth = DbsimUserDepth(kind, c);
  t.asynchronous = depth > 1;
  t.queue_depth = static_cast<uint32_t>(depth);
  t.queue_depth_asked = t.queue_depth;
  t.queue_depth_set = depth > 1;
  // O_DIRECT, but for a log opened buffered (InnoDB's redo log).
  t.direct = c.no_buffering && !(log && c.log_buffered);
  t.threads = r.manifest.threads;
  // Users pause (SleepAfter, RADelay, AuditDelay, BUDelay), wait for the
  // log writer or for dirty pages, and take turns at the throttle.
  t.paced = true;
  t.depth_option = f.option_names.queue_depth;
  t.reads = !log && UserReads(kind, c);
  t.writes = log || UserWrites(kind, c);
  // Every write is durable before the user goes on: O_DSYNC
  // (WriteThrough=TRUE), else an fdatasync after each log write and after
  // each burst of pages.
  t.write_through = true;
  // The pages' content is a pseudo-random stream, the log's too.
  t.write_pattern = "random";
  const uint32_t page = db_.data_files() > 0 ? db_.file(0).settings().page_size : 0;
  t.block_bytes = log ? std::max<uint32_t>(kFactsLogBlock, c.log_block_bytes) : page;
  t.offset_align_bytes = t.block_bytes;
  t.dir = settings_.dir.empty() ? "." : settings_.dir;
  if (log) {
    for (const DbsimFileConfig& file : c.files) {
      if (!file.log_file) continue;
      t.paths.push_back(JoinPath(t.dir, file.name));
      t.file_set_bytes += file.initial_mb * kFactsMiB;
    }
  } else {
    for (size_t i = 0; i < db_.data_files(); ++i) {
      t.paths.push_back(JoinPath(t.dir, db_.file_name(i)));
      t.file_set_bytes += db_.file(i).pages() * db_.file(i).settings().page_size;
    }
  }
  f.io.push_back(std::move(t));
  const auto counter = [&r](size_t i) { return i < r.counters.size() ? r.counters[i] : 0; };
  f.io_bytes_read = counter(kDbsimBytesRead);
  f.io_bytes_written = counter(kDbsimBytesWritten);
  return f;
}

}  // namespace loadcell
