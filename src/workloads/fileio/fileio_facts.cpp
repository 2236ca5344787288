// The facts the validity checks read of a fileio or sqlio run
// (runner/run_facts.h, docs/validity.md).

#include <fcntl.h>

#include <numeric>
#include <utility>

#include "os/open_flags.h"
#include "workloads/fileio/fileio.h"
#include "workloads/fileio/fileio_options.h"
#include "workloads/fileio/fileio_worker.h"

namespace loadcell {

uint64_t BytesReadOf(const RunResult& r) {
  return r.counters.size() > kCounterBytesRead ? r.counters[kCounterBytesRead] : 0;
}

uint64_t BytesWrittenOf(const RunResult& r) {
  return r.counters.size() > kCounterBytesWritten ? r.counters[kCounterBytesWritten] : 0;
}

IoTargetFacts TargetFactsOf(const FileIoSettings& s, int threads, std::vector<std::string> paths,
                            bool depth_set, const char* depth_option) {
  IoTargetFacts t;
  t.engine = s.engine;
  t.asynchronous = s.asynchronous();
  t.null_engine = s.null_engine();
  t.direct = s.direct;
  t.buffered_aio = s.buffered_aio;
  t.queue_depth_asked = s.queue_depth_asked;
  t.queue_depth_set = depth_set;
  t.queue_depth = s.queue_depth;
  t.threads = threads;
  t.depth_option = depth_option;
  t.reads = ModeReads(s.mode);
  t.writes = ModeWrites(s.mode);
  t.write_through = (s.open_flags & (O_SYNC | O_DSYNC)) != 0 || s.fsync_all || s.fsync_freq == 1;
  t.periodic_flush = s.fsync_freq > 0;
  t.write_pattern = WritePatternName(s.pattern);
  t.block_bytes = s.block_size;
  // Offsets: seq_start plus multiples of the block, the request and the
  // stride (FileIoSettings' placement).
  t.offset_align_bytes =
      std::gcd(std::gcd(s.block_size, s.request_size), std::gcd(s.seq_start, s.seq_stride));
  t.file_set_bytes = s.file_size * s.num_files;
  t.dir = s.dir;
  t.paths = std::move(paths);
  return t;
}

WorkloadFacts FileIoWorkload::Facts(const RunResult& r) const {
  const FileIoSettings& s = settings();
  std::vector<std::string> paths;
  if (!s.null_engine()) {
    for (uint64_t i = 0; i < s.num_files; ++i) paths.push_back(s.FilePath(i));
  }
  WorkloadFacts f;
  f.io.push_back(TargetFactsOf(s, r.manifest.threads, std::move(paths), options_.queue_depth_set(),
                               "--file-queue-depth"));
  f.io_bytes_read = BytesReadOf(r);
  f.io_bytes_written = BytesWrittenOf(r);
  return f;
}

}  // namespace loadcell
