#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <numeric>
#include <tuple>

#include "os/block_device.h"
#include "os/file_system.h"
#include "workloads/fio/fio_job.h"

// FioJobWorkload's description of itself and of its results: its counters,
// fio's figures per direction and the facts the verdict judges.

namespace loadcell {
namespace {

// The largest request the pattern draws in any of its directions.
uint32_t MaxBlockSize(const FioPatternSettings& p) {
  uint32_t m = 0;
  for (int d = 0; d < kFioDirs; ++d) {
    if (!p.dirs[d]) continue;
    m = std::max(m, p.bs[d].max);
    for (const auto& [size, pct] : p.bs[d].split) m = std::max(m, size);
  }
  return m;
}

// The granularity of the job's request sizes and of its offsets (every one
// a multiple of it), over the directions it does: bs, bsrange (sizes drawn
// in multiples of the least) and bssplit; blockalign (its default the
// least size), offset, rw's :N skip; DiskSpd's -T start and -s stride.
std::pair<uint64_t, uint64_t> Granularity(const FioPatternSettings& p) {
  uint64_t sizes = 0;
  uint64_t offsets = 0;
  for (size_t d = 0; d < p.bs.size(); ++d) {
    if (!p.dirs[d]) continue;
    const FioBlockSizes& b = p.bs[d];
    if (b.split.empty()) {
      sizes = std::gcd(sizes, std::gcd<uint64_t>(b.min, b.max));
    } else {
      for (const auto& [size, pct] : b.split) sizes = std::gcd<uint64_t>(sizes, size);
    }
    if (p.random) offsets = std::gcd<uint64_t>(offsets, b.align != 0 ? b.align : b.min);
  }
  // Sequential offsets move by the sizes themselves.
  offsets = std::gcd(offsets, sizes);
  offsets = std::gcd(offsets, p.region_offset);
  // rw=MODE:N skips N bytes after a sequential I/O (of a random mode it
  // counts I/Os).
  if (!p.random) {
    offsets = std::gcd(offsets, static_cast<uint64_t>(p.seq_skip < 0 ? -p.seq_skip : p.seq_skip));
  }
  if (p.single_sequence.on) {
    offsets = std::gcd(offsets, std::gcd(p.single_sequence.start, p.single_sequence.stride));
  }
  return {sizes, offsets};
}

// Where each of `files` lives: a block device named as a file is itself,
// any other file its folder; each once, in the files' order.
std::vector<std::string> PlacesOf(const std::vector<std::string>& files) {
  std::vector<std::string> places;
  for (const std::string& path : files) {
    std::string place = IsBlockDevice(path) ? path : Dirname(path);
    if (std::find(places.begin(), places.end(), place) == places.end()) {
      places.push_back(std::move(place));
    }
  }
  return places;
}

// The direction of `asked` furthest below its target over the run of `r`
// (its targets each rank's, under MPI: every rank's summed); no option
// when none was asked or nothing was measured.
OwnRateFacts OwnRateOf(const FioRateAsked& asked, const FioPatternSettings& p, const RunResult& r) {
  OwnRateFacts out;
  if (asked.option.empty() || r.total_time_s <= 0) return out;
  const auto at = [&](int c) {
    return static_cast<size_t>(c) < r.counters.size() ? r.counters[static_cast<size_t>(c)] : 0;
  };
  const std::array<int, kFioDirs> ios = {kFioReads, kFioWrites, kFioTrims};
  const std::array<int, kFioDirs> bytes = {kFioBytesRead, kFioBytesWritten, kFioBytesTrimmed};
  static constexpr std::array<const char*, kFioDirs> kNames = {"read", "write", "trim"};
  const double ranks =
      r.cluster && !r.cluster->ranks.empty() ? static_cast<double>(r.cluster->ranks.size()) : 1.0;
  double worst = -1;
  for (int d = 0; d < (asked.together ? 1 : kFioDirs); ++d) {
    const double target = asked.target[static_cast<size_t>(d)] * ranks;
    // A rate given for a direction the job does not do (rate=1m of a
    // read job holds for its writes too) asks nothing.
    if (target <= 0 || (!asked.together && !p.dirs[static_cast<size_t>(d)])) continue;
    double done = 0;
    for (int k = asked.together ? 0 : d; k < (asked.together ? kFioDirs : d + 1); ++k) {
      done += static_cast<double>(asked.ios ? at(ios[static_cast<size_t>(k)])
                                            : at(bytes[static_cast<size_t>(k)]));
    }
    const double achieved = done / r.total_time_s * asked.unit_s;
    if (worst >= 0 && achieved / target >= worst) continue;
    worst = achieved / target;
    out.option = asked.option;
    out.unit = asked.together ? asked.unit
                              : std::string(kNames[static_cast<size_t>(d)]) + " " + asked.unit;
    out.target = target;
    out.achieved = achieved;
    out.minimum = asked.minimum;
  }
  return out;
}

}  // namespace

FioRateAsked FioRateAskedOf(const std::array<uint64_t, kFioDirs>& rate,
                            const std::array<uint64_t, kFioDirs>& rate_iops,
                            const std::array<uint64_t, kFioDirs>& rate_min,
                            const std::array<uint64_t, kFioDirs>& rate_iops_min) {
  const auto any = [](const std::array<uint64_t, kFioDirs>& a) {
    return std::any_of(a.begin(), a.end(), [](uint64_t v) { return v > 0; });
  };
  FioRateAsked out;
  // rate and rate_iops exclude each other; the minimums judge a job only
  // when it has no rate of its own (with one, a job below its minimum
  // fails, fio's rule).
  const std::array<std::pair<const char*, const std::array<uint64_t, kFioDirs>*>, 4> kinds = {
      {{"rate_iops", &rate_iops},
       {"rate", &rate},
       {"rate_iops_min", &rate_iops_min},
       {"rate_min", &rate_min}}};
  for (size_t k = 0; k < kinds.size(); ++k) {
    if (!any(*kinds[k].second)) continue;
    out.option = kinds[k].first;
    out.ios = k % 2 == 0;
    out.unit = out.ios ? "I/Os per second" : "bytes per second";
    out.minimum = k >= 2;
    for (size_t d = 0; d < out.target.size(); ++d) {
      out.target[d] = static_cast<double>((*kinds[k].second)[d]);
    }
    break;
  }
  return out;
}

WorkloadInfo FioJobWorkload::Info() const {
  WorkloadInfo i;
  i.name = "fio";
  i.summary = "one job of a fio job file";
  i.event_definition = "one completed read, write or trim (fio's total_ios)";
  i.supports_prepare = true;
  i.self_timed = true;
  i.reports_busy_time = true;
  i.latency_kinds = {"read",      "write",      "trim",      "sync",
                     "slat_read", "slat_write", "clat_read", "clat_write"};
  i.counter_names = {"bytes_read",
                     "bytes_written",
                     "bytes_trimmed",
                     "reads",
                     "writes",
                     "trims",
                     "syncs",
                     "short_ios",
                     "submit_calls",
                     "queue_depth_ns",
                     "queue_depth_time_ns"};
  for (const char* table : {"iodepth_", "submit_", "complete_"}) {
    for (const char* level : {"1", "2", "4", "8", "16", "32", "ge64"}) {
      i.counter_names.push_back(std::string(table) + level);
    }
  }
  for (const char* c :
       {"cpu_user_ns", "cpu_sys_ns", "context_switches", "major_faults", "minor_faults",
        "all_syncs", "wait_completion", "wait_throttle", "sleep_throttle", "lookaside"}) {
    i.counter_names.push_back(c);
  }
  for (const char* found : {"0", "1", "2", "3", "4", "5", "6", "ge7"}) {
    i.counter_names.push_back(std::string("lookaside_") + found);
  }
  for (const char* c : {"short_reads", "short_writes", "short_trims"}) {
    i.counter_names.push_back(c);
  }
  return i;
}

std::vector<std::pair<std::string, std::string>> FioJobWorkload::Describe() const {
  return {
      {"job", s_.name},
      {"files", s_.file_sizes.empty() ? fmt::format("{} x {} bytes", s_.files.size(), s_.file_size)
                                      : fmt::format("{} files of {} bytes", s_.files.size(),
                                                    fmt::join(s_.file_sizes, ", "))},
      {"ioengine", s_.engine},
      {"iodepth", std::to_string(s_.iodepth)},
      {"direct", s_.direct ? "1" : "0"},
      {"buffers", FioBufferFill(s_.buffers, 0).Describe()},
      {"verify", FioVerifyName(s_.verify)}};
}

std::vector<Metric> FioJobWorkload::Metrics(const RunResult& r) const {
  std::vector<Metric> m;
  const double runtime_ms = r.total_time_s * 1000;
  const std::array<const char*, kFioDirs> dirs = {"read", "write", "trim"};
  const std::array<int, kFioDirs> bytes = {kFioBytesRead, kFioBytesWritten, kFioBytesTrimmed};
  const std::array<int, kFioDirs> ios = {kFioReads, kFioWrites, kFioTrims};
  for (int d = 0; d < kFioDirs; ++d) {
    const auto at = [&](int c) {
      return static_cast<size_t>(c) < r.counters.size() ? r.counters[static_cast<size_t>(c)] : 0;
    };
    const double b = static_cast<double>(at(bytes[d]));
    const double n = static_cast<double>(at(ios[d]));
    const std::string k = dirs[d];
    m.push_back({k + "_io_bytes", k + " bytes", b, "B"});
    m.push_back({k + "_total_ios", k + " I/Os", n, ""});
    m.push_back({k + "_iops", k + " IOPS", runtime_ms > 0 ? n * 1000 / runtime_ms : 0, "1/s"});
    m.push_back(
        {k + "_bw_bytes", k + " bandwidth", runtime_ms > 0 ? b * 1000 / runtime_ms : 0, "B/s"});
  }
  m.push_back({"runtime_ms", "runtime", runtime_ms, "ms"});
  return m;
}

IoOptionNames FioOptionNames() {
  IoOptionNames n;
  n.direct = "direct=1";
  n.file_set_size = "size";
  n.async_engines = "ioengine=io_uring, libaio; windowsaio on Windows";
  n.deeper_queue = "ioengine, iodepth";
  n.queue_depth = "iodepth";
  n.threads = "numjobs";
  n.flush_every = "fsync=N";
  n.write_through = "sync=dsync";
  n.random_data =
      "random buffers (no zero_buffers, buffer_pattern, buffer_compress_percentage or "
      "dedupe_percentage)";
  n.write_first = "a job with rw=write over them";
  n.unwritten_source = "files laid out without data (fallocate, or another tool's files)";
  n.report_interval = "";  // its intervals are fio's 0.5 s bw and iops samples
  n.run_length = "runtime with time_based, or size";
  n.warm_up = "ramp_time";
  n.percentile = "";  // the verdict judges fio's 99th, whatever percentile_list prints
  n.time_limit = "runtime with time_based";
  n.work_limit = "size or number_ios";
  n.stonewall = "";
  n.alignment = "bs, blockalign and offset";
  return n;
}

WorkloadFacts FioJobWorkload::Facts(const RunResult& r) const {
  WorkloadFacts f;
  f.option_names = s_.option_names;
  IoTargetFacts t;
  t.engine = s_.engine;
  t.null_engine = s_.engine == "null";
  t.asynchronous = s_.engine == "io_uring" || s_.engine == "libaio" || s_.engine == "iocp";
  t.direct = s_.direct;
  t.buffered_aio = s_.engine == "libaio" && !s_.direct;
  t.queue_depth_asked = s_.iodepth;
  t.queue_depth_set = s_.iodepth > 1;
  t.queue_depth = t.asynchronous ? s_.iodepth : 1;
  t.depth_option = s_.option_names.queue_depth;
  // thinktime= and rate= keep the job below its depth on purpose.
  t.paced = s_.thinktime_ns > 0 || std::any_of(s_.rate_bytes.begin(), s_.rate_bytes.end(),
                                               [](uint64_t b) { return b > 0; });
  t.reads = s_.pattern.dirs[0];
  t.writes = s_.pattern.dirs[1];
  t.write_through =
      s_.sync_writes || s_.dsync_writes || s_.fsync_every == 1 || s_.fdatasync_every == 1;
  t.periodic_flush = s_.fsync_every > 1 || s_.fdatasync_every > 1;
  t.write_pattern = s_.buffers.zero ? "zero" : "random";
  // What the job's writes hold, from a sample of buffers filled as its
  // workers fill them (the verify header, 32 bytes and the digest a block,
  // is left out).
  const FioWriteDataEstimate data =
      EstimateWriteData(s_.buffers, std::min<size_t>(MaxBlockSize(s_.pattern), size_t{64} * 1024),
                        64, s_.pattern.seed);
  t.write_compressible_fraction = data.compressible;
  t.write_duplicate_fraction = data.duplicate;
  t.file_set_bytes = 0;
  for (size_t f = 0; f < s_.files.size(); ++f) t.file_set_bytes += s_.FileSize(f);
  // The first file's folder (or device); the devices under the others'
  // are counted too.
  const std::vector<std::string> places = PlacesOf(s_.files);
  if (!places.empty()) {
    t.dir = places.front();
    t.more_dirs.assign(places.begin() + 1, places.end());
  }
  t.paths = s_.files;
  std::tie(t.block_bytes, t.offset_align_bytes) = Granularity(s_.pattern);
  f.io.push_back(std::move(t));
  if (r.counters.size() > kFioBytesRead) f.io_bytes_read = r.counters[kFioBytesRead];
  if (r.counters.size() > kFioBytesWritten) f.io_bytes_written = r.counters[kFioBytesWritten];
  f.counts_short_ios = s_.engine != "null";
  if (r.counters.size() > kFioShortIos) f.short_ios = r.counters[kFioShortIos];
  f.own_rate = OwnRateOf(s_.rate_asked, s_.pattern, r);
  f.worker_cpus = s_.cpus;  // cpus_allowed
  std::sort(f.worker_cpus.begin(), f.worker_cpus.end());
  return f;
}

}  // namespace loadcell
