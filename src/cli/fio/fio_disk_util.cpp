#include "cli/fio/fio_disk_util.h"

#include <algorithm>

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

}  // namespace loadcell
