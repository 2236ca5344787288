#include "cli/fio/fio_mpi.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "cli/fio/fio_plan_checks.h"
#include "os/block_device.h"

namespace loadcell {

std::string FioRanks::RankFolder() const {
  return PerRank() ? fmt::format("rank{}", launch.rank) : "";
}

Result<FioRanks> ReadFioRanks(const std::vector<fio::FioRawOption>& given) {
  FioRanks r;
  for (const fio::FioRawOption& o : given) {
    if (o.name == "mpi") {
      r.settings.mode = MpiMode::kOn;
      if (o.has_value) {
        LC_ASSIGN_OR_RETURN(r.settings.mode, ParseMpiMode(o.value));
      }
    } else if (o.name == "mpi-files") {
      LC_ASSIGN_OR_RETURN(r.settings.files, ParseMpiFiles(o.has_value ? o.value : ""));
    } else if (o.name == "mpi-timeout") {
      LC_ASSIGN_OR_RETURN(r.settings.timeout_s, ParseMpiTimeout(o.has_value ? o.value : ""));
    }
  }
  r.launch = DetectLaunch();
  r.across = r.launch.detected && r.settings.mode != MpiMode::kOff;
  return r;
}

RunPlan FioRunPlan(const std::vector<fio::FioJobOptions>& jobs, const FioRanks& ranks) {
  RunPlan plan;
  plan.test = "fio";
  plan.command = "run";
  plan.limits.push_back(
      {"--mpi-files", ranks.settings.files == MpiFiles::kShared ? "shared" : "per-rank"});
  for (size_t j = 0; j < jobs.size(); ++j) {
    // A later value of an option overrides an earlier one (the globals
    // first), as the job runs it.
    std::vector<PlanItem> items;
    for (const fio::FioRawOption& o : jobs[j].options) {
      const std::string name = fmt::format("job {} ({}) {}", j + 1, jobs[j].section_name, o.name);
      auto same = std::find_if(items.begin(), items.end(),
                               [&](const PlanItem& i) { return i.name == name; });
      const std::string value = o.has_value ? o.value : "(bare)";
      if (same != items.end()) {
        same->value = value;
      } else {
        items.push_back({name, value});
      }
    }
    plan.options.insert(plan.options.end(), items.begin(), items.end());
  }
  return plan;
}

Status CheckFioAcrossRanks(const FioPlan& plan) {
  for (const auto& step : plan.steps) {
    for (const FioPlannedJob& j : step) {
      if (j.logs.empty()) continue;
      const char* option = !j.spec->write_lat_log.empty()  ? "write_lat_log"
                           : !j.spec->write_bw_log.empty() ? "write_bw_log"
                                                           : "write_iops_log";
      return FioRefuse(*j.spec, option,
                       fmt::format("fio option '{}' under MPI is not supported by loadcell yet "
                                   "(each rank's log is not merged)",
                                   option));
    }
  }
  return Status::Ok();
}

Status MakeFioRankFolders(const FioPlan& plan, const std::string& rank_folder,
                          std::vector<std::string>& made) {
  for (const auto& step : plan.steps) {
    for (const FioPlannedJob& j : step) {
      for (const std::string& path : j.settings.files) {
        const std::string folder = Dirname(path);
        if (Basename(folder) != rank_folder || IsBlockDevice(path)) continue;
        std::error_code ec;
        if (std::filesystem::is_directory(folder, ec)) continue;
        std::filesystem::create_directory(folder, ec);
        if (ec) {
          return Status::IoError(fmt::format("cannot create the folder {}", folder), ec.value());
        }
        made.push_back(folder);
      }
    }
  }
  return Status::Ok();
}

void RemoveFioRankFolders(const std::vector<std::string>& made) {
  for (auto it = made.rbegin(); it != made.rend(); ++it) {
    std::error_code ec;
    if (std::filesystem::is_empty(*it, ec) && !ec) std::filesystem::remove(*it, ec);
  }
}

}  // namespace loadcell
