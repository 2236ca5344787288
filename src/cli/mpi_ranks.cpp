#include "cli/mpi_ranks.h"

#include <fmt/format.h>

#include <filesystem>
#include <system_error>

#include "os/block_device.h"
#include "os/file_system.h"

namespace loadcell {

std::string MpiRanks::RankFolder() const {
  return PerRank() ? fmt::format("rank{}", launch.rank) : "";
}

Result<bool> TakeMpiOption(const std::string& name, bool has_value, const std::string& value,
                           ClusterSettings& settings) {
  if (name == "mpi") {
    settings.mode = MpiMode::kOn;
    if (has_value) {
      LC_ASSIGN_OR_RETURN(settings.mode, ParseMpiMode(value));
    }
  } else if (name == "mpi-files") {
    LC_ASSIGN_OR_RETURN(settings.files, ParseMpiFiles(has_value ? value : ""));
  } else if (name == "mpi-timeout") {
    LC_ASSIGN_OR_RETURN(settings.timeout_s, ParseMpiTimeout(has_value ? value : ""));
  } else {
    return false;
  }
  return true;
}

void DetectMpiRanks(MpiRanks& ranks) {
  ranks.launch = DetectLaunch();
  ranks.across = ranks.launch.detected && ranks.settings.mode != MpiMode::kOff;
}

std::string PathInRankFolder(const std::string& path, const std::string& rank_folder) {
  return JoinPath(JoinPath(Dirname(path), rank_folder), Basename(path));
}

Status MakeRankFolders(const std::vector<std::string>& paths, const std::string& rank_folder,
                       std::vector<std::string>& made) {
  for (const std::string& path : paths) {
    const std::string folder = Dirname(path);
    if (Basename(folder) != rank_folder || IsBlockDevice(path)) continue;
    std::error_code ec;
    if (std::filesystem::is_directory(folder, ec)) continue;
    const bool created = std::filesystem::create_directory(folder, ec);
    if (ec) {
      return Status::IoError(fmt::format("cannot create the folder {}", folder), ec.value());
    }
    if (created) made.push_back(folder);  // not one another process has just made
  }
  return Status::Ok();
}

void RemoveRankFolders(const std::vector<std::string>& made) {
  for (auto it = made.rbegin(); it != made.rend(); ++it) {
    std::error_code ec;
    if (std::filesystem::is_empty(*it, ec) && !ec) std::filesystem::remove(*it, ec);
  }
}

}  // namespace loadcell
