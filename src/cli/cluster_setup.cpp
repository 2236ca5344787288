#include "cli/cluster_setup.h"

#include <string>

#include "cli/test_setup.h"
#include "core/build_info.h"
#include "workloads/builtin.h"

namespace loadcell {
namespace {

// "cpu, memory, threads, mutex and null": the tests that run per rank.
std::string TestsThatRunPerRank() {
  std::vector<std::string> names;
  for (const WorkloadEntry& e : BuiltinWorkloads()) {
    if (e.make()->Info().runs_per_process) names.push_back(e.name);
  }
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " and " : ", ";
    out += names[i];
  }
  return out;
}

Status CheckRunsAcrossRanks(const TestSetup& setup) {
  const std::string off = " (--mpi=off runs each process on its own)";
  if (!setup.workload->Info().runs_per_process) {
    return Status::InvalidArgument("'" + setup.test + "' test: MPI runs support only the tests " +
                                   TestsThatRunPerRank() + " so far" + off);
  }
  const RunConfig& cfg = setup.cfg;
  const char* unsupported = nullptr;
  if (cfg.report_interval_s > 0) unsupported = "--report-interval";
  if (!cfg.report_checkpoints.empty()) unsupported = "--report-checkpoints";
  if (cfg.rate > 0) unsupported = "--rate";
  if (unsupported != nullptr) {
    return Status::InvalidArgument(std::string(unsupported) + ": not merged across MPI ranks yet" +
                                   off);
  }
  return Status::Ok();
}

}  // namespace

Result<MpiMode> TakeMpiOption(RawOptions& options) {
  RawOption* o = options.Find("mpi");
  if (o == nullptr || o->consumed) return MpiMode::kAuto;
  o->consumed = true;
  if (!o->has_value) return MpiMode::kOn;
  return ParseMpiMode(o->value);
}

Result<std::unique_ptr<Cluster>> JoinRunCluster(MpiMode mode, const TestSetup& setup) {
  const LaunchInfo launch = DetectLaunch();
  if (mode != MpiMode::kOff && launch.detected && !IsLeftOut("mpi")) {
    LC_RETURN_IF_ERROR(CheckRunsAcrossRanks(setup));
  }
  return JoinCluster(mode, launch);
}

}  // namespace loadcell
