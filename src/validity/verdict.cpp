#include "validity/verdict.h"

#include <algorithm>
#include <cmath>

#include "core/clock.h"
#include "os/file_extents.h"
#include "os/host_facts.h"
#include "os/storage_savings.h"
#include "os/system_info.h"
#include "os/thread.h"
#include "validity/zero_pages.h"

namespace loadcell {
namespace {

double OwnCpuSeconds() {
  double user = 0;
  double sys = 0;
  ProcessCpuSeconds(&user, &sys);
  return user + sys;
}

}  // namespace

VerdictStep::VerdictStep(const Workload& w, VerdictMode mode, double percentile,
                         double report_interval_s)
    : workload_(w), mode_(mode), percentile_(percentile), report_interval_s_(report_interval_s) {}

void VerdictStep::OnStart(const Manifest& /*m*/) {
  if (mode_ == VerdictMode::kOff) return;
  started_ = true;
  ended_ = false;
  start_ns_ = MonotonicNow();
  start_cpu_s_ = OwnCpuSeconds();
  const HostCpuTimes host = ReadHostCpuTimes();
  start_host_known_ = host.known;
  start_host_busy_ = host.busy;
  start_host_total_ = host.total;
  start_host_steal_ = host.steal_known ? std::optional<uint64_t>(host.steal) : std::nullopt;
  cpus_ = AllowedCpus();
  const WorkloadFacts facts = workload_.Facts(RunResult{});
  start_per_cpu_ = ReadPerCpuTimes();
  worker_cpus_ = validity::WorkerCpuSubset(facts.worker_cpus, cpus_, start_per_cpu_.size());
  if (worker_cpus_.empty()) start_per_cpu_.clear();
  start_frequencies_ = ReadCpuFrequencies(cpus_);
  start_io_ = ReadProcessIo();
  start_dirty_ = ReadDirtyMemory();
  start_devices_.clear();
  for (const IoTargetFacts& t : facts.io) {
    if (t.null_engine) continue;
    for (size_t i = 0; i <= t.more_dirs.size(); ++i) {
      const std::string& where = i == 0 ? t.dir : t.more_dirs[i - 1];
      DeviceCounters c = ReadDeviceCounters(where);
      bool seen = false;
      for (const auto& [dir, known] : start_devices_) seen = seen || known.device == c.device;
      if (!seen || !c.known) start_devices_.emplace_back(where, std::move(c));
    }
  }
}

void VerdictStep::OnThreadsEnded() {
  if (!started_) return;
  ended_ = true;
  end_ns_ = MonotonicNow();
  end_cpu_s_ = OwnCpuSeconds();
  end_host_ = ReadHostCpuTimes();
  if (!worker_cpus_.empty()) end_per_cpu_ = ReadPerCpuTimes();
}

HostCpuTimes VerdictStep::EndHostTimes() const { return ended_ ? end_host_ : ReadHostCpuTimes(); }

std::vector<PerCpuTimes> VerdictStep::EndPerCpuTimes() const {
  return ended_ ? end_per_cpu_ : ReadPerCpuTimes();
}

// The devices' counters over the run (each device once), or why not.
void VerdictStep::DeviceWindows(validity::HostFacts& host) const {
  for (const auto& [dir, start] : start_devices_) {
    const DeviceCounters end = ReadDeviceCounters(dir);
    if (std::string why = validity::DeviceWindowUnknown(dir, start, end); !why.empty()) {
      host.devices.clear();
      host.devices_unknown = std::move(why);
      return;
    }
    host.devices.push_back({end.device, end.read_bytes - start.read_bytes,
                            end.written_bytes - start.written_bytes, end.under});
  }
}

// The host's CPUs over the run: busy and steal shares, frequencies.
void VerdictStep::CpuWindow(validity::HostWindow& w) const {
  const HostCpuTimes now = EndHostTimes();
  if (start_host_known_ && now.known && now.total > start_host_total_) {
    const auto total = static_cast<double>(now.total - start_host_total_);
    w.host_busy_fraction = static_cast<double>(now.busy - start_host_busy_) / total;
    if (start_host_steal_.has_value() && now.steal_known) {
      w.steal_fraction = static_cast<double>(now.steal - *start_host_steal_) / total;
    }
  }
  // Workers on some of the host's CPUs only: how busy those were, whoever
  // used them (steal stays the host's).
  if (!worker_cpus_.empty()) {
    const HostCpuTimes a = validity::CpuTimesOf(start_per_cpu_, worker_cpus_);
    const HostCpuTimes b = validity::CpuTimesOf(EndPerCpuTimes(), worker_cpus_);
    if (a.known && b.known && b.total > a.total && b.busy >= a.busy) {
      w.host_busy_fraction =
          static_cast<double>(b.busy - a.busy) / static_cast<double>(b.total - a.total);
      w.host_busy_cpus = static_cast<int>(worker_cpus_.size());
    }
  }
  validity::FillFrequencyWindow(start_frequencies_, ReadCpuFrequencies(cpus_), w);
}

// loadcell's own device I/O over the run, and the dirty pages flushed.
void VerdictStep::IoWindow(const DirtyMemory& dirty_end, validity::HostWindow& w) const {
  const ProcessIo io = ReadProcessIo();
  if (start_io_.known && io.known) {
    w.process_io_known = true;
    w.process_read_bytes = io.read_bytes - std::min(io.read_bytes, start_io_.read_bytes);
    w.process_written_bytes =
        io.written_bytes - std::min(io.written_bytes, start_io_.written_bytes);
  }
  if (start_dirty_.known && dirty_end.known) {
    const uint64_t before = start_dirty_.dirty_bytes + start_dirty_.writeback_bytes;
    const uint64_t after = dirty_end.dirty_bytes + dirty_end.writeback_bytes;
    w.dirty_flushed_bytes = before > after ? before - after : 0;
  }
}

void VerdictStep::Judge(RunResult& r) const {
  if (mode_ == VerdictMode::kOff) return;
  const int64_t t0 = MonotonicNow();
  validity::HostFacts host;
  host.memory_bytes = r.manifest.system.memory_bytes != 0 ? r.manifest.system.memory_bytes
                                                          : ReadSystemInfo().memory_bytes;
  host.cgroup_limit_bytes = CgroupMemoryLimit();
  const size_t allowed = AllowedCpus().size();
  host.cpus = allowed > 0 ? static_cast<int>(allowed) : r.manifest.system.cpus_online;
  // Workers pinned to fewer CPUs have those.
  if (!worker_cpus_.empty()) host.cpus = std::min(host.cpus, static_cast<int>(worker_cpus_.size()));
  if (started_) {
    host.window.known = true;
    host.window.wall_s = static_cast<double>((ended_ ? end_ns_ : t0) - start_ns_) / 1e9;
    host.window.process_cpu_s = (ended_ ? end_cpu_s_ : OwnCpuSeconds()) - start_cpu_s_;
    CpuWindow(host.window);
    DeviceWindows(host);
  }
  const DirtyMemory dirty = ReadDirtyMemory();
  if (started_) IoWindow(dirty, host.window);
  host.dirty_known = dirty.known;
  host.dirty_bytes_end = dirty.dirty_bytes;
  host.writeback_bytes_end = dirty.writeback_bytes;
  host.virtual_machine = VirtualMachineName();
  // After a forced shutdown threads abandoned inside the workload may still
  // use it: its facts (a database's tables read over a connection, its
  // files) are not asked, and the errors check names the abandoned threads.
  const WorkloadFacts facts = r.forced_shutdown ? WorkloadFacts{} : workload_.Facts(r);
  // A workload that reads its database's settings only after the run (a
  // Lua script's) records them here, for `loadcell compare`.
  if (r.manifest.database_settings.empty()) r.manifest.database_settings = facts.database_settings;
  validity::CheckInput in{
      r, facts, host, validity::GatherTargetFacts(facts.io), percentile_, report_interval_s_};
  Validity v = validity::RunChecks(in);
  v.mode = mode_;
  v.cost_ms = static_cast<double>(MonotonicNow() - t0) / 1e6;
  r.validity = std::move(v);
}

namespace validity {

std::string DeviceWindowUnknown(const std::string& dir, const DeviceCounters& start,
                                const DeviceCounters& end) {
  if (!start.known || !end.known) {
    const std::string& why = !start.known ? start.unknown : end.unknown;
    return dir + ": " + (why.empty() ? "no block device's counters behind it" : why);
  }
  if (end.device != start.device) {
    return dir + ": its device changed during the run (" + start.device + ", then " + end.device +
           ")";
  }
  return "";
}

std::vector<TargetEndFacts> GatherTargetFacts(const std::vector<IoTargetFacts>& io) {
  std::vector<TargetEndFacts> out;
  for (const IoTargetFacts& t : io) {
    TargetEndFacts f;
    if (!t.null_engine) {
      if (t.reads) {
        for (const std::string& path : t.paths) {
          Result<FileZeroRanges> zeros = ReadFileZeroRanges(path);
          if (!zeros.ok()) {
            f.holes_unknown = zeros.status().message();
            f.hole_bytes = f.unwritten_bytes = f.never_written_bytes = 0;
            break;
          }
          f.hole_bytes += zeros->hole_bytes;
          f.unwritten_bytes += zeros->unwritten_bytes;
          f.never_written_bytes += zeros->never_written_bytes;
          if (f.unwritten_unknown.empty()) f.unwritten_unknown = zeros->unwritten_unknown;
        }
        ZeroPageSample sample = SampleZeroPages(DefaultFileSystem(), t.paths);
        f.sampled_pages = sample.sampled;
        f.zero_pages = sample.zero;
        f.zero_page_files = std::move(sample.files);
        f.zero_pages_unknown = std::move(sample.unknown);
      }
      if (t.writes) {
        f.write_cache = DeviceWriteCacheMode(t.dir);
        const StorageSavings savings =
            ReadStorageSavings(t.paths.empty() ? t.dir : t.paths.front());
        if (savings.known) {
          f.storage_compresses = savings.compresses ? 1 : 0;
          f.savings = savings.how;
        }
      }
      const BlockSizes sizes = DeviceBlockSizes(t.dir);
      f.logical_block_bytes = sizes.logical;
      f.physical_block_bytes = sizes.physical;
    }
    out.push_back(std::move(f));
  }
  return out;
}

HostCpuTimes CpuTimesOf(const std::vector<PerCpuTimes>& all, const std::vector<int>& cpus) {
  HostCpuTimes t;
  for (const int cpu : cpus) {
    const auto it =
        std::find_if(all.begin(), all.end(), [cpu](const PerCpuTimes& p) { return p.cpu == cpu; });
    if (it == all.end()) return HostCpuTimes{};
    t.busy += it->user + it->kernel;
    t.total += it->user + it->kernel + it->idle;
  }
  t.known = !cpus.empty();
  return t;
}

std::vector<int> WorkerCpuSubset(const std::vector<int>& worker_cpus,
                                 const std::vector<int>& allowed, size_t online) {
  const std::vector<int>& cpus = worker_cpus.empty() ? allowed : worker_cpus;
  if (cpus.empty() || online == 0 || cpus.size() >= online) return {};
  return cpus;
}

void FillFrequencyWindow(const CpuFrequencyFacts& start, const CpuFrequencyFacts& end,
                         HostWindow& w) {
  w.governor = !end.governor.empty() ? end.governor : start.governor;
  if (start.throttle_known && end.throttle_known && end.throttle_events >= start.throttle_events) {
    w.throttle_known = true;
    w.throttle_events = end.throttle_events - start.throttle_events;
  }
  double sum_start = 0;
  double sum_end = 0;
  int known = 0;
  double change = 0;
  for (size_t i = 0; i < start.khz.size() && i < end.khz.size(); ++i) {
    if (start.khz[i] == 0 || end.khz[i] == 0) continue;
    const auto a = static_cast<double>(start.khz[i]);
    const auto b = static_cast<double>(end.khz[i]);
    sum_start += a;
    sum_end += b;
    ++known;
    change = std::max(change, std::abs(b - a) / std::max(a, b));
  }
  if (known == 0) return;
  w.frequency_start_mhz = sum_start / known / 1000;
  w.frequency_end_mhz = sum_end / known / 1000;
  w.frequency_change = change;
}

}  // namespace validity

}  // namespace loadcell
