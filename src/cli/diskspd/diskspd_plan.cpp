#include "cli/diskspd/diskspd_plan.h"

#include <fcntl.h>
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <memory>

#include "core/clock.h"
#include "core/random.h"
#include "io/io_engine.h"
#include "os/block_device.h"
#include "os/open_flags.h"

namespace loadcell {
namespace {

using diskspd::DiskspdCache;
using diskspd::DiskspdDistribution;
using diskspd::DiskspdSwitches;
using diskspd::DiskspdWriteData;

constexpr int kDsRead = 0;
constexpr int kDsWrite = 1;

Status RefuseDiskspd(const std::string& why) { return Status::InvalidArgument("diskspd: " + why); }

// A Windows target: "#3" (a physical drive) or "E:" (a drive letter).
bool WindowsOnlyTarget(const std::string& t) {
  if (t.size() > 1 && t[0] == '#') return true;
  return t.size() == 2 && t[1] == ':' && std::isalpha(static_cast<unsigned char>(t[0])) != 0;
}

Result<DiskspdTarget> PlanTarget(const DiskspdSwitches& sw, const std::string& path,
                                 FileSystem& fs) {
  DiskspdTarget t;
  t.path = path;
  if (WindowsOnlyTarget(path) && !PathsHaveDriveLetters()) {
    return RefuseDiskspd(
        fmt::format("target '{}' is a Windows drive ({}); on Linux give a file or a "
                    "block device path",
                    path, path[0] == '#' ? "#N: a physical drive" : "a drive letter"));
  }
  if (IsBlockDevice(path)) {
    if (sw.create) {
      return RefuseDiskspd(fmt::format("-c creates files; target '{}' is a block device", path));
    }
    LC_ASSIGN_OR_RETURN(t.size, BlockDeviceBytes(path));
    t.device = true;
  } else {
    LC_ASSIGN_OR_RETURN(FileInfo st, fs.Stat(path));
    if (st.exists && !st.is_regular) {
      return RefuseDiskspd(
          fmt::format("target '{}' is not a regular file or a block device", path));
    }
    if (!st.exists) {
      if (path.rfind("/dev/", 0) == 0) {
        return RefuseDiskspd(
            fmt::format("target '{}' does not exist; loadcell never creates files "
                        "under /dev",
                        path));
      }
      if (!sw.create) {
        return RefuseDiskspd(
            fmt::format("target '{}' does not exist; give -c<size> to create it", path));
      }
      t.missing = true;
      t.size = sw.create_size;
    } else {
      t.size = st.size;
    }
  }
  const uint64_t end = sw.max_offset != 0 ? std::min(sw.max_offset, t.size) : t.size;
  if (sw.base_offset >= end) {
    return RefuseDiskspd(
        fmt::format("the base offset of -B ({} bytes) is not below the end of target "
                    "'{}' ({} bytes)",
                    sw.base_offset, path, end));
  }
  t.base = sw.base_offset;
  t.length = end - sw.base_offset;
  if (t.length < sw.block_size) {
    return RefuseDiskspd(
        fmt::format("target '{}' has {} bytes to do I/O on (after -B/-f), less than one "
                    "block of {} bytes",
                    path, t.length, sw.block_size));
  }
  return t;
}

// -rd as the zones of the fio pattern (per direction, the same zones).
Status DistributionOf(const DiskspdSwitches& sw, const DiskspdTarget& t,
                      FioOffsetDistribution& od) {
  if (sw.distribution == DiskspdDistribution::kUniform) return Status::Ok();
  od.law = FioOffsetLaw::kZoned;
  std::vector<FioZoneShare> zones;
  uint32_t io_total = 0;
  if (sw.distribution == DiskspdDistribution::kPercent) {
    for (const diskspd::DiskspdRange& r : sw.ranges) {
      zones.push_back({static_cast<double>(r.io_pct), static_cast<double>(r.span), 0});
      io_total += r.io_pct;
    }
  } else {
    // abs: the ranges that fit the target; a range past its end is cut, and
    // the IO% of what is kept is the whole (DiskSpd's rule).
    od.absolute = true;
    uint64_t at = 0;
    for (const diskspd::DiskspdRange& r : sw.ranges) {
      if (at + sw.block_size > t.length) break;
      const uint64_t len = std::min(r.span, t.length - at);
      zones.push_back({static_cast<double>(r.io_pct), 0, len});
      io_total += r.io_pct;
      at += len;
    }
    if (io_total < 100 && at + sw.block_size <= t.length) {
      zones.push_back({static_cast<double>(100 - io_total), 0, t.length - at});
      io_total = 100;
    }
  }
  if (io_total == 0) {
    return RefuseDiskspd("-rd: no range that fits the target carries any I/O");
  }
  for (FioZoneShare& z : zones) z.access_pct = z.access_pct * 100.0 / io_total;
  od.zones[kDsRead] = zones;
  od.zones[kDsWrite] = zones;
  return Status::Ok();
}

FioBufferSettings DiskspdBuffersOf(const DiskspdSwitches& sw, const std::string& pattern) {
  FioBufferSettings b;
  b.scramble = false;
  switch (sw.write_data) {
    case DiskspdWriteData::kSequence:
      for (int i = 0; i < 256; ++i) b.pattern.push_back(static_cast<char>(i));
      break;
    case DiskspdWriteData::kZero:
      b.zero = true;
      break;
    case DiskspdWriteData::kRandomPerIo:
      b.refill = true;
      break;
    case DiskspdWriteData::kRandomBuffer:
      // The file's bytes; without a file random bytes, filled once, each
      // write's sectors made unlike earlier ones (DiskSpd's writes come
      // from ever other offsets of its random buffer).
      b.pattern = pattern;
      b.scramble = pattern.empty();
      break;
  }
  return b;
}

uint64_t PatternSeed(uint32_t seed, int thread) {
  return ThreadSeed(0xD15C5BDULL ^ (static_cast<uint64_t>(seed) << 16), thread);
}

}  // namespace

std::string DiskspdEngine(uint32_t requests, FileSystem& fs) {
  if (requests <= 1) return "sync";
  if (AsyncIoEngineName() == "iocp") return "iocp";
  for (const char* engine : {"io_uring", "libaio"}) {
    if (CheckIoEngine(engine, engine).ok() && MakeIoEngine(engine, fs).ok()) return engine;
  }
  return "sync";  // a build without an asynchronous engine: one request at a time
}

void FillDiskspdBuffer(const DiskspdSwitches& sw, const std::string& pattern, unsigned char* buf,
                       size_t len, uint64_t offset) {
  switch (sw.write_data) {
    case DiskspdWriteData::kSequence:
      for (size_t i = 0; i < len; ++i) buf[i] = static_cast<unsigned char>((offset + i) & 0xFF);
      return;
    case DiskspdWriteData::kZero:
      std::fill_n(buf, len, 0);
      return;
    case DiskspdWriteData::kRandomBuffer:
      if (!pattern.empty()) {
        for (size_t i = 0; i < len; ++i) {
          buf[i] = static_cast<unsigned char>(pattern[(offset + i) % pattern.size()]);
        }
        return;
      }
      [[fallthrough]];
    case DiskspdWriteData::kRandomPerIo: {
      Random rng(offset * 0x9E3779B97F4A7C15ULL + sw.seed + 1);
      size_t i = 0;
      for (; i + 8 <= len; i += 8) {
        const uint64_t v = rng.Next();
        std::copy_n(reinterpret_cast<const unsigned char*>(&v), 8, buf + i);
      }
      for (; i < len; ++i) buf[i] = static_cast<unsigned char>(rng.Next());
      return;
    }
  }
}

Result<DiskspdPlan> PlanDiskspd(const DiskspdSwitches& sw, FileSystem& fs) {
  DiskspdPlan plan;
  for (const std::string& path : sw.targets) {
    LC_ASSIGN_OR_RETURN(DiskspdTarget t, PlanTarget(sw, path, fs));
    plan.targets.push_back(t);
  }
  if (!sw.write_buffer_file.empty()) {
    // Only the first block's worth is ever written from it (each write
    // starts at the buffer's start).
    LC_ASSIGN_OR_RETURN(int fd, fs.Open(sw.write_buffer_file, O_RDONLY));
    std::string bytes(std::min<uint64_t>(sw.write_buffer_size, sw.block_size), '\0');
    Result<size_t> got = fs.PRead(fd, bytes.data(), bytes.size(), 0);
    (void)fs.Close(fd);
    if (!got.ok()) return got.status();
    if (*got == 0) {
      return RefuseDiskspd(
          fmt::format("-Z: the write buffer's source file '{}' is empty", sw.write_buffer_file));
    }
    bytes.resize(*got);
    plan.write_buffer = bytes;
  }
  plan.engine = DiskspdEngine(sw.requests, fs);
  plan.seed = sw.seed_from_clock ? static_cast<uint32_t>(MonotonicNow() / 1000000) : sw.seed;
  const bool direct = sw.cache == DiskspdCache::kUnbuffered;
  plan.open_flags = (direct ? O_DIRECT : 0) | (sw.write_through ? O_DSYNC : 0);

  // One shared offset per target for -si.
  std::vector<std::shared_ptr<std::atomic<uint64_t>>> shared(plan.targets.size());
  if (sw.interlocked && sw.random_ratio == 0) {
    for (auto& s : shared) s = std::make_shared<std::atomic<uint64_t>>(0);
  }
  const int threads = sw.ThreadCount();
  const int per_target = sw.total_threads > 0 ? sw.total_threads : sw.threads_per_target;
  for (int thread = 0; thread < threads; ++thread) {
    // -t: thread k serves target k / t; -F: every thread serves every target.
    std::vector<size_t> served;
    if (sw.total_threads > 0) {
      for (size_t i = 0; i < plan.targets.size(); ++i) served.push_back(i);
    } else {
      served.push_back(static_cast<size_t>(thread / sw.threads_per_target));
    }
    for (size_t ti : served) {
      const DiskspdTarget& t = plan.targets[ti];
      DiskspdJob job;
      job.thread = thread;
      job.target = ti;
      job.relative_thread = sw.total_threads > 0 ? thread : thread % sw.threads_per_target;
      FioJobSettings& s = job.settings;
      s.name = fmt::format("thread {} target {}", thread, ti);
      s.files = {t.path};
      s.file_size = t.size;
      FioPatternSettings& p = s.pattern;
      p.dirs = {sw.write_ratio<100, sw.write_ratio> 0, false};
      p.read_pct = 100.0 - sw.write_ratio;
      p.random = sw.random_ratio > 0;
      p.random_pct = sw.random_ratio;
      for (int d = 0; d < kFioDirs; ++d) {
        p.bs[d].min = p.bs[d].max = static_cast<uint32_t>(sw.block_size);
        p.bs[d].align = static_cast<uint32_t>(std::min<uint64_t>(sw.Alignment(), UINT32_MAX));
      }
      p.files = 1;
      p.region_offset = t.base;
      p.region_length = t.length;
      p.norandommap = true;  // DiskSpd's random offsets repeat
      p.seed = PatternSeed(plan.seed, thread) + ti;
      p.single_sequence.on = true;
      p.single_sequence.stride = sw.Alignment();
      p.single_sequence.start =
          sw.random_ratio == 0 ? static_cast<uint64_t>(job.relative_thread) * sw.thread_stride : 0;
      p.single_sequence.shared = shared[ti];
      if (p.single_sequence.start + sw.block_size > t.length) {
        return RefuseDiskspd(
            fmt::format("target '{}' is too small: thread {} starts at {} (-T {} x "
                        "thread {}), past its {} bytes",
                        t.path, thread, p.single_sequence.start, sw.thread_stride,
                        job.relative_thread, t.length));
      }
      LC_RETURN_IF_ERROR(DistributionOf(sw, t, p.distribution));
      s.engine = plan.engine;
      s.iodepth = plan.engine == "sync" ? 1 : sw.requests;
      s.direct = direct;
      s.dsync_writes = sw.write_through;
      s.buffers = DiskspdBuffersOf(sw, plan.write_buffer);
      // -g: bytes per millisecond or I/Os per second, per thread per target,
      // shared out over the directions by the write ratio.
      const uint64_t rate = sw.throughput_bytes_per_ms * 1000 + sw.throughput_iops * sw.block_size;
      if (rate > 0) {
        s.rate_bytes[kDsRead] =
            static_cast<uint64_t>(static_cast<double>(rate) * (100 - sw.write_ratio) / 100.0);
        s.rate_bytes[kDsWrite] =
            static_cast<uint64_t>(static_cast<double>(rate) * sw.write_ratio / 100.0);
        s.issue_window_ns =
            static_cast<int64_t>(sw.warmup_s + sw.duration_s + sw.cooldown_s) * 1'000'000'000;
      }
      if (sw.think_ms > 0) {
        s.thinktime_ns = static_cast<int64_t>(sw.think_ms) * 1'000'000;
        s.thinktime_blocks = sw.burst;
        s.issue_window_ns =
            static_cast<int64_t>(sw.warmup_s + sw.duration_s + sw.cooldown_s) * 1'000'000'000;
      }
      RunConfig& c = job.cfg;
      c.threads = 1;
      c.time_s = sw.duration_s;
      c.time_given = true;
      c.warmup_s = sw.warmup_s;
      c.cooldown_s = sw.cooldown_s;
      c.seed = static_cast<int64_t>(p.seed | 1);
      c.rand.type = "uniform";
      c.percentile = 99;
      c.report_interval_s = static_cast<double>(sw.bucket_ms) / 1000.0;
      plan.jobs.push_back(std::move(job));
    }
  }
  (void)per_target;
  return plan;
}

}  // namespace loadcell
