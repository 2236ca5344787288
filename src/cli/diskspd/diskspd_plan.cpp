#include "cli/diskspd/diskspd_plan.h"

#include <fcntl.h>
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <memory>

#include "cli/sqlio/sqlio_affinity.h"
#include "core/clock.h"
#include "core/random.h"
#include "io/io_engine.h"
#include "os/block_device.h"
#include "os/file_cache.h"
#include "os/host_facts.h"
#include "os/open_flags.h"
#include "os/thread.h"

namespace loadcell {
namespace {

using diskspd::DiskspdCache;
using diskspd::DiskspdDistribution;
using diskspd::DiskspdSwitches;
using diskspd::DiskspdWriteData;

constexpr int kDsRead = 0;
constexpr int kDsWrite = 1;

Status RefuseDiskspd(const std::string& why) { return Status::InvalidArgument("diskspd: " + why); }

// Unbuffered I/O (-S, -Su, -Sh, -h) moves whole sectors: a block size that
// is not a multiple of the target's sector is refused before anything runs
// (the kernel, or Windows, would fail every request). The sector is the
// logical block of the device holding the target; 512 bytes when the system
// does not say (every sector size is a multiple of it).
Status CheckUnbufferedBlockSize(const DiskspdSwitches& sw, const DiskspdTarget& t) {
  if (sw.cache != DiskspdCache::kUnbuffered) return Status::Ok();
  const BlockSizes sizes = DeviceBlockSizes(t.missing ? Dirname(t.path) : t.path);
  const uint64_t sector = sizes.logical > 0 ? sizes.logical : 512;
  if (sw.block_size % sector == 0) return Status::Ok();
  return RefuseDiskspd(fmt::format(
      "-b{}: unbuffered I/O (-S, -Su, -Sh or -h) needs a block size that is a multiple of "
      "the sector size ({} bytes for target '{}')",
      sw.block_size, sector, t.path));
}

// -ft and -Sr as this platform takes them (os/file_cache.h): -Sr's open
// flags, and the words the report says of each; what cannot be done here,
// refused naming the switch.
Status StatedSwitches(const DiskspdSwitches& sw, FileSystem& fs, DiskspdTarget& t) {
  if (sw.hint_temporary) {
    Result<std::string> effect = TemporaryFileHintEffect();
    if (!effect.ok()) return RefuseDiskspd(effect.status().message() + " (-ft)");
    t.open_flags |= O_TEMPORARY_HINT;  // 0 where no open means it (Linux)
    t.notes.push_back(*effect);
  }
  if (!sw.remote_cache_only) return Status::Ok();
  const std::string what = "-Sr (local cache off, remote cache on)";
  if (t.device) {
    return RefuseDiskspd(
        fmt::format("{}: target '{}' is a local block device; DiskSpd's -Sr is "
                    "only valid for remote file systems",
                    what, t.path));
  }
  const std::string type = fs.FsType(t.path);
  Result<int> flags = RemoteCacheOnlyOpenFlags(t.path, type);
  if (!flags.ok()) {
    if (flags.status().code() == StatusCode::kUnimplemented) {
      return RefuseDiskspd(fmt::format("{} {}", what, flags.status().message()));
    }
    return RefuseDiskspd(fmt::format("{}: target '{}' {}", what, t.path, flags.status().message()));
  }
  t.open_flags |= *flags;
  t.notes.push_back(
      (*flags & O_DIRECT) != 0
          ? fmt::format("-Sr: opened with O_DIRECT on the {} client: its page cache "
                        "bypassed, the server's cache still serves",
                        type)
          : "-Sr: FSCTL_DISABLE_LOCAL_BUFFERING sent to each handle of the target: the "
            "client's cache off, the server's cache still serves");
  return Status::Ok();
}

Result<DiskspdTarget> PlanTarget(const DiskspdSwitches& sw, const std::string& path,
                                 const std::map<std::string, uint64_t>& earlier, FileSystem& fs) {
  DiskspdTarget t;
  t.path = path;
  // "#N" and "E:": Windows' physical drive N and volume E:, opened as
  // \\.\PhysicalDriveN and \\.\E: (DiskSpd's names); on Linux refused.
  LC_ASSIGN_OR_RETURN(const std::string drive, diskspd::DiskspdDriveTarget(path));
  if (!drive.empty()) {
    const char* what = path[0] == '#' ? "#N: a physical drive" : "a drive letter";
    if (!PathsHaveDriveLetters()) {
      return RefuseDiskspd(fmt::format(
          "target '{}' is a Windows drive ({}); on Linux give a file or a block device path", path,
          what));
    }
    if (sw.create)
      return RefuseDiskspd(fmt::format("-c creates files; target '{}' is a drive", path));
    Result<uint64_t> bytes = BlockDeviceBytes(drive);
    if (!bytes.ok()) {
      return RefuseDiskspd(
          fmt::format("target '{}' is a Windows drive, {}", path, bytes.status().message()));
    }
    t.path = drive;
    t.size = *bytes;
    t.device = true;
  } else if (IsBlockDevice(path)) {
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
      if (const auto made = earlier.find(path); made != earlier.end() && !sw.create) {
        // An earlier timespan's -c/<FileSize> creates it.
        t.size = made->second;
        t.created_earlier = true;
      } else if (!sw.create) {
        return RefuseDiskspd(
            fmt::format("target '{}' does not exist; give -c<size> to create it", path));
      }
      if (!t.created_earlier) {
        t.missing = true;
        t.size = sw.create_size;
      }
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

// DiskSpd's switches in the verdict's advice.
IoOptionNames DiskspdOptionNames() {
  IoOptionNames n;
  n.direct = "-Sh (or -Su)";
  n.file_set_size = "-c<size>";
  n.async_engines = "-o<N> above 1: overlapped I/O";
  n.deeper_queue = "-o<N>";
  n.queue_depth = "-o";
  n.threads = "-t";
  n.flush_every = "-Sw (write-through)";
  n.write_through = "-Sw";
  n.random_data = "random buffers (-Zr, or -Z<size> with a random source file)";
  n.write_first = "-c<size>, which writes the file as DiskSpd makes it";
  n.unwritten_source = "an existing file laid out without data";
  n.report_interval = "";  // -D's IOPS intervals are DiskSpd's own figures
  n.run_length = "-d";
  n.warm_up = "-W";
  n.percentile = "";  // the verdict judges the 99th of DiskSpd's fixed table
  n.time_limit = "-d";
  n.work_limit = "";  // a DiskSpd run is timed alone
  n.stonewall = "";
  n.alignment = "-b, -r<align> and -B";
  return n;
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

namespace {

// The write buffer's source file's first bytes (-Z<size>,<file>): only the
// first block's worth is ever written from it (each write starts at the
// buffer's start).
Result<std::string> ReadWriteBufferSource(const DiskspdSwitches& sw, FileSystem& fs) {
  if (sw.write_buffer_file.empty()) return std::string();
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
  return bytes;
}

// DiskSpd's threads and what each serves, in its order (thread, then
// target): -F's threads serve every target; -t's are numbered across the
// targets, target 0's first.
struct DiskspdThreadSlot {
  int thread;
  size_t target;
  int relative;
};
std::vector<DiskspdThreadSlot> ThreadSlots(const diskspd::DiskspdTimespan& ts) {
  std::vector<DiskspdThreadSlot> slots;
  if (ts.sw.total_threads > 0) {
    for (int k = 0; k < ts.sw.total_threads; ++k) {
      for (size_t ti = 0; ti < ts.per_target.size(); ++ti) slots.push_back({k, ti, k});
    }
    return slots;
  }
  int thread = 0;
  for (size_t ti = 0; ti < ts.per_target.size(); ++ti) {
    for (int k = 0; k < ts.per_target[ti].threads_per_target; ++k) {
      slots.push_back({thread++, ti, k});
    }
  }
  return slots;
}

void DiskspdRateOf(const DiskspdSwitches& sw, FioJobSettings& s) {
  // -g: bytes per millisecond or I/Os per second, per thread per target,
  // shared out over the directions by the write ratio.
  const int64_t window =
      static_cast<int64_t>(sw.warmup_s + sw.duration_s + sw.cooldown_s) * 1'000'000'000;
  const uint64_t rate = sw.throughput_bytes_per_ms * 1000 + sw.throughput_iops * sw.block_size;
  if (rate > 0) {
    s.rate_bytes[kDsRead] =
        static_cast<uint64_t>(static_cast<double>(rate) * (100 - sw.write_ratio) / 100.0);
    s.rate_bytes[kDsWrite] =
        static_cast<uint64_t>(static_cast<double>(rate) * sw.write_ratio / 100.0);
    s.issue_window_ns = window;
    // Judged as DiskSpd states it: the thread's rate on the target.
    s.rate_asked.option = "-g";
    s.rate_asked.ios = sw.throughput_iops > 0;
    s.rate_asked.unit = s.rate_asked.ios ? "I/Os per second" : "bytes per millisecond";
    s.rate_asked.unit_s = s.rate_asked.ios ? 1 : 0.001;
    s.rate_asked.together = true;
    s.rate_asked.target[0] =
        static_cast<double>(s.rate_asked.ios ? sw.throughput_iops : sw.throughput_bytes_per_ms);
  }
  if (sw.think_ms > 0) {
    s.thinktime_ns = static_cast<int64_t>(sw.think_ms) * 1'000'000;
    s.thinktime_blocks = sw.burst;
    s.issue_window_ns = window;
  }
}

// A thread's requests in flight on target `i`: -o, or with -O its share
// of the thread's requests over the targets (the first targets one more
// while some are left over).
uint32_t DiskspdTargetRequests(const diskspd::DiskspdTimespan& ts, size_t i) {
  const uint32_t total = ts.sw.requests_per_thread;
  if (total == 0) return ts.per_target[i].requests;
  const auto n = static_cast<uint32_t>(ts.per_target.size());
  return total / n + (i < total % n ? 1 : 0);
}

}  // namespace

Result<std::vector<int>> DiskspdPinnedCpus(const DiskspdSwitches& sw, const CpuTopology& topology,
                                           const std::vector<int>& allowed) {
  if (sw.disable_affinity) return std::vector<int>{};
  // The number of each group's first CPU, counting group by group.
  std::vector<int> first(topology.groups.size(), 0);
  int all = 0;
  for (size_t g = 0; g < topology.groups.size(); ++g) {
    first[g] = all;
    all += static_cast<int>(topology.groups[g].active.size());
  }
  if (sw.affinity.empty()) {
    // Every CPU this process may use; over several groups (where Windows
    // gives no one mask of them), every active CPU of every group.
    if (!allowed.empty() || topology.groups.size() < 2) return allowed;
    std::vector<int> every;
    for (size_t g = 0; g < topology.groups.size(); ++g) {
      for (int c : topology.groups[g].active) every.push_back(first[g] + c);
    }
    return every;
  }
  std::vector<int> cpus;
  for (const diskspd::DiskspdAffinityCpu& c : sw.affinity) {
    if (c.group >= topology.groups.size()) {
      return RefuseDiskspd(fmt::format(
          "-a: processor group {} (CPU {}) is not on this machine, which has {} processor "
          "group{}{}",
          c.group, c.cpu, topology.groups.size(), topology.groups.size() == 1 ? "" : "s",
          PathsHaveDriveLetters() ? "" : " (Linux has no processor groups: give -a<cpu>,...)"));
    }
    const std::vector<int>& active = topology.groups[c.group].active;
    const int in_group = static_cast<int>(c.cpu);
    if (topology.groups.size() > 1 &&
        std::find(active.begin(), active.end(), in_group) == active.end()) {
      return RefuseDiskspd(fmt::format("-a: CPU {} of processor group {} is not active (CPUs {})",
                                       in_group, c.group, CpuRanges(active)));
    }
    const int cpu = first[c.group] + in_group;
    if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), cpu) == allowed.end()) {
      return RefuseDiskspd(fmt::format("-a: CPU {} is not one this process may use (CPUs {})", cpu,
                                       CpuRanges(allowed)));
    }
    cpus.push_back(cpu);
  }
  return cpus;
}

namespace {

Result<DiskspdJob> PlanJob(const DiskspdPlan& plan, const DiskspdThreadSlot& slot,
                           const std::shared_ptr<std::atomic<uint64_t>>& shared) {
  const DiskspdTarget& t = plan.targets[slot.target];
  const DiskspdSwitches& sw = *t.sw;
  DiskspdJob job;
  job.thread = slot.thread;
  job.target = slot.target;
  job.relative_thread = slot.relative;
  FioJobSettings& s = job.settings;
  s.option_names = DiskspdOptionNames();
  s.name = fmt::format("thread {} target {}", slot.thread, slot.target);
  s.files = {t.path};
  s.file_size = t.size;
  FioPatternSettings& p = s.pattern;
  p.dirs = {sw.write_ratio<100, sw.write_ratio> 0, false};
  p.read_pct = 100.0 - sw.write_ratio;
  p.random = sw.random_ratio > 0;
  p.random_pct.fill(sw.random_ratio);
  for (int d = 0; d < kFioDirs; ++d) {
    p.bs[d].min = p.bs[d].max = static_cast<uint32_t>(sw.block_size);
    p.bs[d].align = static_cast<uint32_t>(std::min<uint64_t>(sw.Alignment(), UINT32_MAX));
  }
  p.files = 1;
  p.region_offset = t.base;
  p.region_length = t.length;
  p.norandommap = true;  // DiskSpd's random offsets repeat
  p.seed = PatternSeed(plan.seed, slot.thread) + slot.target;
  p.single_sequence.on = true;
  p.single_sequence.stride = sw.Alignment();
  p.single_sequence.start =
      sw.random_ratio == 0 ? static_cast<uint64_t>(slot.relative) * sw.thread_stride : 0;
  p.single_sequence.shared = shared;
  p.single_sequence.per_request = sw.parallel_async && sw.random_ratio == 0;
  if (p.single_sequence.start + sw.block_size > t.length) {
    return RefuseDiskspd(fmt::format(
        "target '{}' is too small: thread {} starts at {} (-T {} x thread {}), past "
        "its {} bytes",
        t.path, slot.thread, p.single_sequence.start, sw.thread_stride, slot.relative, t.length));
  }
  LC_RETURN_IF_ERROR(DistributionOf(sw, t, p.distribution));
  s.engine = t.engine;
  s.iodepth = t.engine == "sync" || t.engine == "mmap" ? 1 : t.requests;
  // -Nv: the mapping flushed (msync) after every write.
  if (sw.mapped_flush == 'v') s.fsync_every = 1;
  s.direct = (t.open_flags & O_DIRECT) != 0;  // -Su, -Sh, -Sr on a network file system
  s.dsync_writes = sw.write_through;
  s.buffers = DiskspdBuffersOf(sw, t.write_buffer);
  s.io_priority = static_cast<int>(sw.io_priority);
  s.large_pages = sw.large_pages;
  s.open_hints = t.open_flags & (O_TEMPORARY_HINT | O_LOCAL_CACHE_OFF);
  s.access_hint = sw.hint_random       ? FileAccessHint::kRandom
                  : sw.hint_sequential ? FileAccessHint::kSequential
                                       : FileAccessHint::kNone;
  if (!plan.pinned_cpus.empty()) {
    s.cpus = {plan.pinned_cpus[static_cast<size_t>(slot.thread) % plan.pinned_cpus.size()]};
  }
  DiskspdRateOf(sw, s);
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
  return job;
}

}  // namespace

Result<DiskspdPlan> PlanDiskspd(const diskspd::DiskspdTimespan& ts, FileSystem& fs,
                                const std::map<std::string, uint64_t>& earlier) {
  DiskspdPlan plan;
  plan.seed = ts.sw.seed_from_clock ? static_cast<uint32_t>(MonotonicNow() / 1000000) : ts.sw.seed;
  for (size_t i = 0; i < ts.per_target.size(); ++i) {
    const DiskspdSwitches& sw = ts.per_target[i];
    LC_ASSIGN_OR_RETURN(DiskspdTarget t, PlanTarget(sw, sw.targets.front(), earlier, fs));
    t.sw = &sw;
    LC_ASSIGN_OR_RETURN(t.write_buffer, ReadWriteBufferSource(sw, fs));
    // -Sm: loadcell's mmap engine (a copy to or from the mapping, one
    // request at a time, as DiskSpd's memory-mapped I/O).
    if (sw.io_priority < 3 && !ThreadIoPrioritySupported()) {
      return RefuseDiskspd("-I" + std::to_string(sw.io_priority) + ": " +
                           SetCurrentThreadIoPriority(static_cast<int>(sw.io_priority)).message());
    }
    if ((sw.hint_random || sw.hint_sequential) && !FileAccessHintsSupported()) {
      return RefuseDiskspd(AdviseFileAccess(-1, FileAccessHint::kRandom).message() + " (-fr, -fs)");
    }
    t.requests = DiskspdTargetRequests(ts, i);
    if (t.requests == 0) {
      return RefuseDiskspd(fmt::format("-O{}: each thread has fewer requests than its {} targets",
                                       ts.sw.requests_per_thread, ts.per_target.size()));
    }
    t.engine = sw.memory_mapped ? "mmap" : DiskspdEngine(t.requests, fs);
    t.open_flags =
        (sw.cache == DiskspdCache::kUnbuffered ? O_DIRECT : 0) | (sw.write_through ? O_DSYNC : 0);
    LC_RETURN_IF_ERROR(CheckUnbufferedBlockSize(sw, t));
    LC_RETURN_IF_ERROR(StatedSwitches(sw, fs, t));
    plan.targets.push_back(t);
  }
  if (!plan.targets.empty()) {
    plan.engine = plan.targets.front().engine;
    plan.open_flags = plan.targets.front().open_flags;
    plan.write_buffer = plan.targets.front().write_buffer;
  }
  LC_ASSIGN_OR_RETURN(plan.pinned_cpus, DiskspdPinnedCpus(ts.sw, ReadCpuTopology(), AllowedCpus()));
  // One shared offset per target for -si.
  std::vector<std::shared_ptr<std::atomic<uint64_t>>> shared(plan.targets.size());
  for (size_t i = 0; i < plan.targets.size(); ++i) {
    const DiskspdSwitches& sw = ts.per_target[i];
    if (sw.interlocked && sw.random_ratio == 0) {
      shared[i] = std::make_shared<std::atomic<uint64_t>>(0);
    }
  }
  for (const DiskspdThreadSlot& slot : ThreadSlots(ts)) {
    LC_ASSIGN_OR_RETURN(DiskspdJob job, PlanJob(plan, slot, shared[slot.target]));
    plan.jobs.push_back(std::move(job));
  }
  return plan;
}

Result<DiskspdPlan> PlanDiskspd(const DiskspdSwitches& sw, FileSystem& fs) {
  // The plan points into the timespan: it is kept with it.
  auto ts = std::make_shared<diskspd::DiskspdTimespan>(diskspd::DiskspdProfileOf(sw).timespans[0]);
  LC_ASSIGN_OR_RETURN(DiskspdPlan plan, PlanDiskspd(*ts, fs, {}));
  plan.owned = ts;
  return plan;
}

std::string DiskspdOpenFlagsText(int flags) {
#ifdef _WIN32
  constexpr const char* kUnbuffered = "FILE_FLAG_NO_BUFFERING";
  constexpr const char* kWriteThrough = "FILE_FLAG_WRITE_THROUGH";
#else
  constexpr const char* kUnbuffered = "O_DIRECT";
  constexpr const char* kWriteThrough = "O_DSYNC";
#endif
  std::string s;
  if ((flags & O_DIRECT) != 0) s += kUnbuffered;
  if ((flags & O_DSYNC) != 0) s += std::string(s.empty() ? "" : "|") + kWriteThrough;
  return s;
}

Status CheckDiskspdDeviceWrite(const std::string& path, uint32_t write_ratio,
                               bool allow_destructive) {
  std::string mount;
  Result<bool> mounted = BlockDeviceMounted(path, &mount);
  if (!mounted.ok()) return Status::InvalidArgument("diskspd: " + mounted.status().message());
  if (*mounted) {
    return Status::InvalidArgument(
        fmt::format("diskspd: -w{} to target '{}' is refused: it is mounted ({}), and writing "
                    "to it would corrupt that file system",
                    write_ratio, path, mount));
  }
  Result<std::string> signature = BlockDeviceSignature(path);
  if (!signature.ok()) return Status::InvalidArgument("diskspd: " + signature.status().message());
  if (!signature->empty() && !allow_destructive) {
    return Status::InvalidArgument(
        fmt::format("diskspd: target '{}' holds {}: -w{} destroys it; give --allow-destructive "
                    "to write to it",
                    path, *signature, write_ratio));
  }
  return Status::Ok();
}

}  // namespace loadcell
