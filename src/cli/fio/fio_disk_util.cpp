#include "cli/fio/fio_disk_util.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <sstream>

#include "os/host_facts.h"

namespace loadcell {
namespace {

// A stack deeper than this is a loop in a hand-made tree, not a system's.
constexpr int kMaxStackDepth = 16;

void AddWithSlaves(const std::string& name, const std::string& class_block, int depth,
                   std::vector<FioDisk>& out) {
  const bool listed =
      std::any_of(out.begin(), out.end(), [&name](const FioDisk& d) { return d.name == name; });
  if (listed || depth > kMaxStackDepth) return;
  out.push_back(FioDisk{name, SlaveDevices(name, class_block)});
  // `out` grows below: the slaves are copied first.
  const std::vector<std::string> slaves = out.back().slaves;
  for (const std::string& slave : slaves) AddWithSlaves(slave, class_block, depth + 1, out);
}

const DiskStats* CountersOf(const FioDiskSnapshot& s, const std::string& name) {
  for (const auto& [device, stats] : s.devices) {
    if (device == name) return &stats;
  }
  return nullptr;
}

double UtilPct(const DiskStats& d, double wall_ms) {
  return std::min(100.0, static_cast<double>(d.io_ticks_ms) * 100 / wall_ms);
}

// fio's aggr_* of `u`, over the slaves of `disk` read in both snapshots.
void AddAggregates(const FioDisk& disk, const FioDiskSnapshot& before, const FioDiskSnapshot& after,
                   double wall_ms, FioDiskUtil& u) {
  DiskStats sum;
  uint32_t count = 0;
  double busiest = 0;
  for (const std::string& slave : disk.slaves) {
    const DiskStats* earlier = CountersOf(before, slave);
    const DiskStats* later = CountersOf(after, slave);
    if (earlier == nullptr || later == nullptr) continue;
    const DiskStats d = DiskStatsSince(*earlier, *later);
    sum.read_ios += d.read_ios;
    sum.write_ios += d.write_ios;
    sum.read_merges += d.read_merges;
    sum.write_merges += d.write_merges;
    sum.read_ticks_ms += d.read_ticks_ms;
    sum.write_ticks_ms += d.write_ticks_ms;
    sum.time_in_queue_ms += d.time_in_queue_ms;
    busiest = std::max(busiest, UtilPct(d, wall_ms));
    ++count;
  }
  if (count == 0) return;
  u.slaves = count;
  u.aggr_read_ios = sum.read_ios / count;
  u.aggr_write_ios = sum.write_ios / count;
  u.aggr_read_merges = sum.read_merges / count;
  u.aggr_write_merges = sum.write_merges / count;
  u.aggr_read_ticks_ms = sum.read_ticks_ms / count;
  u.aggr_write_ticks_ms = sum.write_ticks_ms / count;
  u.aggr_in_queue_ms = sum.time_in_queue_ms / count;
  u.aggr_util_pct = busiest;
}

}  // namespace

std::vector<std::string> FioDiskNames(const FioPlan& plan) {
  std::vector<std::string> names;
  for (const auto& step : plan.steps) {
    for (const FioPlannedJob& job : step) {
      if (job.settings.engine == "null") continue;
      for (const std::string& path : job.settings.files) {
        const std::string name = DiskNameOf(path);
        if (!name.empty() && std::find(names.begin(), names.end(), name) == names.end()) {
          names.push_back(name);
        }
      }
    }
  }
  return names;
}

std::vector<FioDisk> FioDisksWithSlaves(const std::vector<std::string>& names,
                                        const std::string& class_block) {
  std::vector<FioDisk> out;
  for (const std::string& name : names) AddWithSlaves(name, class_block, 0, out);
  return out;
}

FioDiskSnapshot TakeFioDiskSnapshot(const std::vector<FioDisk>& disks,
                                    const std::string& class_block) {
  FioDiskSnapshot s;
  s.disks = disks;
  for (const FioDisk& disk : disks) {
    Result<DiskStats> stats = ReadDiskStats(disk.name, class_block);
    if (stats.ok()) s.devices.emplace_back(disk.name, *stats);
  }
  s.at = MonotonicNow();
  return s;
}

std::vector<FioDiskUtil> FioDiskUtilBetween(const FioDiskSnapshot& before,
                                            const FioDiskSnapshot& after) {
  std::vector<FioDiskUtil> out;
  const double wall_ms = static_cast<double>(std::max<Nanos>(1, after.at - before.at)) / 1e6;
  for (const FioDisk& disk : before.disks) {
    const DiskStats* earlier = CountersOf(before, disk.name);
    const DiskStats* later = CountersOf(after, disk.name);
    if (earlier == nullptr || later == nullptr) continue;
    const DiskStats d = DiskStatsSince(*earlier, *later);
    FioDiskUtil u;
    u.name = disk.name;
    u.read_ios = d.read_ios;
    u.write_ios = d.write_ios;
    u.read_merges = d.read_merges;
    u.write_merges = d.write_merges;
    u.read_ticks_ms = d.read_ticks_ms;
    u.write_ticks_ms = d.write_ticks_ms;
    u.in_queue_ms = d.time_in_queue_ms;
    u.util_pct = UtilPct(d, wall_ms);
    AddAggregates(disk, before, after, wall_ms, u);
    out.push_back(u);
  }
  return out;
}

std::string EncodeFioDisks(const std::string& host, const std::vector<FioDiskUtil>& disks) {
  std::string out = host + "\n";
  for (const FioDiskUtil& d : disks) {
    out += fmt::format("{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}", d.name, d.read_ios, d.write_ios,
                       d.read_merges, d.write_merges, d.read_ticks_ms, d.write_ticks_ms,
                       d.in_queue_ms, d.util_pct);
    // fio's aggr_* of a device that stands on others, as its client gets
    // them from a server with the device's own figures.
    out +=
        fmt::format("\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n", d.slaves, d.aggr_read_ios,
                    d.aggr_write_ios, d.aggr_read_merges, d.aggr_write_merges, d.aggr_read_ticks_ms,
                    d.aggr_write_ticks_ms, d.aggr_in_queue_ms, d.aggr_util_pct);
  }
  return out;
}

std::vector<FioDiskUtil> MergeFioRankDisks(const std::vector<std::string>& parts) {
  std::vector<std::pair<std::string, FioDiskUtil>> rows;  // host, device
  std::set<std::string> hosts;
  for (const std::string& part : parts) {
    std::istringstream in(part);
    std::string host;
    if (!std::getline(in, host)) continue;
    hosts.insert(host);
    std::string line;
    while (std::getline(in, line)) {
      std::istringstream cells(line);
      FioDiskUtil d;
      if (!std::getline(cells, d.name, '\t')) continue;
      cells >> d.read_ios >> d.write_ios >> d.read_merges >> d.write_merges >> d.read_ticks_ms >>
          d.write_ticks_ms >> d.in_queue_ms >> d.util_pct;
      if (!cells) continue;
      // fio's aggr_*, for a device that stands on others.
      const FioDiskUtil own = d;
      cells >> d.slaves >> d.aggr_read_ios >> d.aggr_write_ios >> d.aggr_read_merges >>
          d.aggr_write_merges >> d.aggr_read_ticks_ms >> d.aggr_write_ticks_ms >>
          d.aggr_in_queue_ms >> d.aggr_util_pct;
      if (!cells || d.slaves == 0) d = own;
      const bool seen = std::any_of(rows.begin(), rows.end(), [&](const auto& r) {
        return r.first == host && r.second.name == d.name;
      });
      if (!seen) rows.emplace_back(host, d);
    }
  }
  std::vector<FioDiskUtil> out;
  for (auto& [host, d] : rows) {
    if (hosts.size() > 1) d.name = host + ":" + d.name;
    out.push_back(std::move(d));
  }
  return out;
}

std::vector<FioDiskUtil> GatherFioDisks(Cluster& cluster, const std::vector<FioDiskUtil>& mine) {
  const std::vector<std::string> parts =
      cluster.GatherOnRankZero(EncodeFioDisks(cluster.Host(), mine));
  return cluster.Reports() ? MergeFioRankDisks(parts) : mine;
}

}  // namespace loadcell
