#include "cluster/launch.h"

#include <fmt/format.h>

#include <charconv>
#include <cstdlib>

#include "core/option_values.h"

namespace loadcell {
namespace {

// The variable `name` as a non-negative int, or -1.
int IntVar(const EnvLookup& env, const char* name) {
  const char* v = env(name);
  if (v == nullptr || *v == '\0') return -1;
  int out = -1;
  const char* end = v + std::char_traits<char>::length(v);
  auto [p, ec] = std::from_chars(v, end, out);
  if (ec != std::errc() || p != end || out < 0) return -1;
  return out;
}

struct Probe {
  const char* launcher;
  const char* rank_var;
  const char* size_var;  // nullptr: the size is not in the environment
  bool size_required;
};

constexpr Probe kProbes[] = {
    {"Open MPI", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", true},
    {"PMIx", "PMIX_RANK", "PMIX_SIZE", false},
    {"PMI", "PMI_RANK", "PMI_SIZE", true},
    {"Slurm", "SLURM_PROCID", "SLURM_NTASKS", true},
};

}  // namespace

Result<MpiMode> ParseMpiMode(std::string_view value) {
  if (value == "auto") return MpiMode::kAuto;
  if (value == "on" || value == "yes" || value == "true" || value == "1") return MpiMode::kOn;
  if (value == "off" || value == "no" || value == "false" || value == "0") return MpiMode::kOff;
  return Status::InvalidArgument("--mpi=" + std::string(value) + ": expected auto, on or off");
}

Result<MpiFiles> ParseMpiFiles(std::string_view value) {
  if (value == "per-rank") return MpiFiles::kPerRank;
  if (value == "shared") return MpiFiles::kShared;
  return Status::InvalidArgument("--mpi-files=" + std::string(value) +
                                 ": expected per-rank or shared");
}

Result<double> ParseMpiTimeout(std::string_view value) {
  Result<double> s = ParseSeconds(value);
  if (!s.ok() || !(*s >= kMinMpiTimeoutS && *s <= kMaxMpiTimeoutS)) {
    return Status::InvalidArgument(
        fmt::format("--mpi-timeout={}: expected a duration from {} s to {} s (5, 30s, 2m)", value,
                    kMinMpiTimeoutS, kMaxMpiTimeoutS));
  }
  return *s;
}

LaunchInfo DetectLaunch(const EnvLookup& env) {
  LaunchInfo info;
  for (const Probe& p : kProbes) {
    const int rank = IntVar(env, p.rank_var);
    const int size = IntVar(env, p.size_var);
    if (rank < 0 || (p.size_required && size < 1)) continue;
    info.detected = true;
    info.launcher = p.launcher;
    info.rank = rank;
    info.size = size >= 1 ? size : 0;  // 0: not known before MPI starts
    return info;
  }
  return info;
}

LaunchInfo DetectLaunch() {
  return DetectLaunch([](const char* name) -> const char* { return std::getenv(name); });
}

}  // namespace loadcell
