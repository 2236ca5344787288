#include "cli/fio/fio_disk_util.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <sstream>

namespace loadcell {

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

FioDiskSnapshot TakeFioDiskSnapshot(const std::vector<std::string>& names) {
  FioDiskSnapshot s;
  for (const std::string& name : names) {
    Result<DiskStats> stats = ReadDiskStats(name);
    if (stats.ok()) s.devices.emplace_back(name, *stats);
  }
  s.at = MonotonicNow();
  return s;
}

std::vector<FioDiskUtil> FioDiskUtilBetween(const FioDiskSnapshot& before,
                                            const FioDiskSnapshot& after) {
  std::vector<FioDiskUtil> out;
  const double wall_ms = static_cast<double>(std::max<Nanos>(1, after.at - before.at)) / 1e6;
  for (const auto& device : before.devices) {
    const std::string& name = device.first;
    const auto later = std::find_if(after.devices.begin(), after.devices.end(),
                                    [&name](const auto& e) { return e.first == name; });
    if (later == after.devices.end()) continue;
    const DiskStats d = DiskStatsSince(device.second, later->second);
    FioDiskUtil u;
    u.name = name;
    u.read_ios = d.read_ios;
    u.write_ios = d.write_ios;
    u.read_merges = d.read_merges;
    u.write_merges = d.write_merges;
    u.read_ticks_ms = d.read_ticks_ms;
    u.write_ticks_ms = d.write_ticks_ms;
    u.in_queue_ms = d.time_in_queue_ms;
    u.util_pct = std::min(100.0, static_cast<double>(d.io_ticks_ms) * 100 / wall_ms);
    out.push_back(u);
  }
  return out;
}

std::string EncodeFioDisks(const std::string& host, const std::vector<FioDiskUtil>& disks) {
  std::string out = host + "\n";
  for (const FioDiskUtil& d : disks) {
    out += fmt::format("{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n", d.name, d.read_ios, d.write_ios,
                       d.read_merges, d.write_merges, d.read_ticks_ms, d.write_ticks_ms,
                       d.in_queue_ms, d.util_pct);
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
