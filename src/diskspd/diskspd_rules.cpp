// DiskSpd's rules between one target's settings, shared by the command line
// (diskspd_switches.cpp) and XML profiles (diskspd_profile.cpp).

#include <fmt/format.h>

#include "diskspd/diskspd_switches.h"

namespace loadcell::diskspd {

Status CheckDiskspdRules(const DiskspdSwitches& sw) {
  auto bad = [](const std::string& what) { return Status::InvalidArgument("diskspd: " + what); };
  if (sw.total_threads > 0 && sw.threads_per_target_given && sw.threads_per_target > 1) {
    return bad("-F and -t cannot be used together (-F: threads in all, -t: threads per target)");
  }
  if (sw.throughput_bytes_per_ms + sw.throughput_iops > 0 && sw.completion_routines) {
    return bad("-g (throughput limit) cannot be used with -x (completion routines)");
  }
  if (sw.requests_per_thread > 0 && sw.total_threads == 0) {
    return bad("-O (requests per thread over all targets) needs -F (a thread pool)");
  }
  if (sw.requests_per_thread > 0 && sw.parallel_async) {
    return bad(
        "-p (parallel async I/O) cannot be used with -O (requests per thread over all "
        "targets)");
  }
  if (sw.requests_per_thread > 0 && sw.think_ms > 0) {
    return bad("-j (think time) cannot be used with -O (requests per thread over all targets)");
  }
  if ((sw.think_ms == 0) != (sw.burst == 0)) {
    return bad("-i (burst size) and -j (time between bursts) must be given together");
  }
  const bool many = sw.total_threads > 1 || sw.threads_per_target > 1;
  if (sw.random_ratio != 0) {
    if (sw.thread_stride > 0) return bad("-T conflicts with -r (it applies to sequential I/O)");
    if (sw.interlocked) return bad("-si conflicts with -r");
    if (sw.parallel_async) {
      return bad("-p conflicts with -r (parallel async I/O is sequential: -s or no -r)");
    }
  } else {
    if (sw.distribution != DiskspdDistribution::kUniform) {
      return bad("a random distribution (-rd) needs random I/O (-r or -rs)");
    }
    if (sw.interlocked && sw.thread_stride > 0) return bad("-si conflicts with -T");
    if (sw.interlocked && sw.parallel_async) return bad("-si conflicts with -p");
    if (!sw.interlocked && !many && sw.thread_stride > 0) {
      return bad("-T has no effect unless a target has several threads (-t or -F)");
    }
  }
  if (sw.distribution == DiskspdDistribution::kAbsolute) {
    for (const DiskspdRange& r : sw.ranges) {
      if (r.span < sw.block_size) {
        return bad(
            fmt::format("-rdabs: the range of {} bytes is smaller than the block size ({} bytes)",
                        r.span, sw.block_size));
      }
    }
  }
  if (sw.write_data == DiskspdWriteData::kRandomBuffer && sw.write_buffer_size < sw.block_size) {
    return bad(
        fmt::format("the write buffer of -Z ({} bytes) is smaller than the block size ({} bytes)",
                    sw.write_buffer_size, sw.block_size));
  }
  if (sw.memory_mapped && sw.cache == DiskspdCache::kUnbuffered) {
    return bad("unbuffered IO (-Su or -Sh) can't be used with memory mapped IO (-Sm)");
  }
  if (sw.memory_mapped && sw.remote_cache_only) {
    return bad(
        "the local cache off (-Sr) can't be used with memory mapped IO (-Sm): a mapping is the "
        "local page cache");
  }
  if (sw.mapped_flush != 0 && !sw.memory_mapped) {
    return bad("memory mapped flush mode (-N) can only be specified with memory mapped IO (-Sm)");
  }
  return Status::Ok();
}

}  // namespace loadcell::diskspd
