#include "cli/cluster_setup.h"

#include <fmt/format.h>

#include <string>

#include "cli/test_setup.h"
#include "core/build_info.h"
#include "core/option_values.h"
#include "workloads/builtin.h"

namespace loadcell {
namespace {

// "cpu, memory, threads, mutex and null": the tests that run per rank.
std::string TestsThatRunPerRank() {
  std::vector<std::string> names;
  for (const WorkloadEntry& e : BuiltinWorkloads()) {
    const WorkloadInfo info = e.make()->Info();
    if (info.runs_per_process || info.files_per_process || info.runs_across_processes) {
      names.push_back(e.name);
    }
  }
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " and " : ", ";
    out += names[i];
  }
  return out;
}

Status CheckRunsAcrossRanks(const ClusterSettings& settings, const TestSetup& setup) {
  const std::string off = " (--mpi=off runs each process on its own)";
  const WorkloadInfo info = setup.workload->Info();
  if (info.files_per_process && !info.files_shared && settings.files == MpiFiles::kShared) {
    return Status::InvalidArgument("--mpi-files=shared: '" + setup.test +
                                   "' test: only --mpi-files=per-rank (the default)");
  }
  if (!info.runs_per_process && !info.files_per_process && !info.runs_across_processes) {
    return Status::InvalidArgument("'" + setup.test + "' test: MPI runs support only the tests " +
                                   TestsThatRunPerRank() + " and Lua scripts so far" + off);
  }
  const RunConfig& cfg = setup.cfg;
  if (settings.stonewall && cfg.events <= 0) {
    return Status::InvalidArgument(
        "--stonewall=on: needs --events=N (the budget whose first end stops every rank)");
  }
  if (!cfg.report_checkpoints.empty()) {
    return Status::InvalidArgument("--report-checkpoints: not merged across MPI ranks yet" + off);
  }
  return Status::Ok();
}

// A limit's value as the plan has it: "none" when it is off (0).
std::string LimitValue(double v) { return v == 0 ? "none" : fmt::format("{}", v); }

// The general options that change what an event does (which rows, blocks
// or values it touches).
constexpr const char* kEventOptions[] = {"rand-type",     "rand-spec-iter", "rand-spec-pct",
                                         "rand-spec-res", "rand-pareto-h",  "rand-zipfian-exp"};

// The test options that say where, not what: a rank on another host may
// name another folder.
bool WhereNotWhat(const std::string& name) { return name == "file-dir"; }

}  // namespace

RunPlan RunPlanOf(const TestSetup& setup, const std::string& command,
                  const ClusterSettings& settings) {
  RunPlan plan;
  plan.test = setup.test;
  plan.command = command;
  plan.mixed = settings.mixed;
  const RunConfig& cfg = setup.cfg;
  if (command == "run") {
    plan.limits.push_back({"--time", LimitValue(cfg.time_s)});
    plan.limits.push_back({"--events", LimitValue(static_cast<double>(cfg.events))});
    plan.limits.push_back({"--rate", LimitValue(cfg.rate)});
    plan.limits.push_back({"--warmup-time", LimitValue(cfg.warmup_s)});
    plan.limits.push_back({"--stonewall", settings.stonewall ? "on" : "off"});
  }
  plan.limits.push_back(
      {"--mpi-files", settings.files == MpiFiles::kShared ? "shared" : "per-rank"});
  plan.limits.push_back({"--mpi-mixed", settings.mixed ? "on" : "off"});
  for (const char* name : kEventOptions) {
    if (const OptionSpec* o = setup.general.Find(name)) {
      plan.options.push_back({"--" + o->name(), o->ValueText()});
    }
  }
  for (const OptionSpec& o : setup.test_options.specs()) {
    if (WhereNotWhat(o.name()) || IsSecretOptionName(o.name())) continue;
    plan.options.push_back({"--" + o.name(), o.ValueText()});
  }
  return plan;
}

Status FailAcrossRanks(const ClusterSettings& settings, const Status& error) {
  const LaunchInfo launch = DetectLaunch();
  if (settings.mode == MpiMode::kOff || !launch.detected || IsLeftOut("mpi")) return error;
  ClusterSettings mine = settings;
  mine.setup = error;
  Result<std::unique_ptr<Cluster>> joined = JoinCluster(mine, launch);
  // Every rank is here: the ranks' outcome is the lowest failed rank's.
  return joined.ok() ? error : joined.status();
}

ClusterSettings SpelledClusterSettings(const std::vector<std::string>& args) {
  ClusterSettings settings;
  for (const std::string& a : args) {
    if (a == "--mpi") {
      settings.mode = MpiMode::kOn;
    } else if (a.rfind("--mpi=", 0) == 0) {
      if (Result<MpiMode> mode = ParseMpiMode(a.substr(6)); mode.ok()) settings.mode = *mode;
    } else if (a.rfind("--mpi-timeout=", 0) == 0) {
      if (Result<double> s = ParseMpiTimeout(a.substr(14)); s.ok()) settings.timeout_s = *s;
    }
  }
  return settings;
}

bool SaysErrorsAcrossRanks(const ClusterSettings& settings) {
  return settings.mode != MpiMode::kOff && !IsLeftOut("mpi") && DetectLaunch().detected;
}

int SayHeldErrorsAcrossRanks(const ClusterSettings& settings, std::vector<HeldCliError> held,
                             int code, std::ostream& err) {
  auto each_rank = [&] {
    for (const HeldCliError& e : held) (e.to != nullptr ? *e.to : err) << e.line;
    return code;
  };
  if (held.empty() || code == 0 || ClusterJoinTried() || !SaysErrorsAcrossRanks(settings)) {
    return each_rank();
  }
  // The exit code as a status's: what the join carries to every rank.
  StatusCode as = StatusCode::kNotReady;  // exit 1
  if (code == ExitCodeFor(Status::InvalidArgument(""))) as = StatusCode::kInvalidArgument;
  if (code == ExitCodeFor(Status::Cancelled(""))) as = StatusCode::kCancelled;
  const Status error(as, held.front().message);
  const Status said = FailAcrossRanks(settings, error);
  // The ranks did not meet (no MPI library, MPI's start refused): each rank
  // says its own.
  if (!ClusterRanksMet()) return each_rank();
  PrintCliError(held.front().to != nullptr ? *held.front().to : err, said);
  return said.code() == as ? code : ExitCodeFor(said);
}

Result<ClusterSettings> TakeClusterOptions(RawOptions& options) {
  ClusterSettings settings;
  // The option `name` when given and not yet taken (then marked taken).
  auto take = [&options](const char* name) -> RawOption* {
    RawOption* o = options.Find(name);
    if (o == nullptr || o->consumed) return nullptr;
    o->consumed = true;
    return o;
  };
  if (RawOption* o = take("mpi")) {
    settings.mode = MpiMode::kOn;
    if (o->has_value) {
      LC_ASSIGN_OR_RETURN(settings.mode, ParseMpiMode(o->value));
    }
  }
  if (RawOption* o = take("mpi-timeout")) {
    LC_ASSIGN_OR_RETURN(settings.timeout_s, ParseMpiTimeout(o->has_value ? o->value : ""));
  }
  if (RawOption* o = take("stonewall")) {
    settings.stonewall = true;
    if (o->has_value) {
      Result<bool> on = ParseBool(o->value);
      if (!on.ok()) {
        return Status::InvalidArgument("--stonewall=" + o->value + ": expected on or off");
      }
      settings.stonewall = *on;
    }
  }
  if (RawOption* o = take("mpi-mixed")) {
    settings.mixed = true;
    if (o->has_value) {
      Result<bool> on = ParseBool(o->value);
      if (!on.ok()) {
        return Status::InvalidArgument("--mpi-mixed=" + o->value + ": expected on or off");
      }
      settings.mixed = *on;
    }
  }
  if (RawOption* o = take("mpi-files")) {
    LC_ASSIGN_OR_RETURN(settings.files, ParseMpiFiles(o->has_value ? o->value : ""));
  }
  return settings;
}

Result<std::unique_ptr<Cluster>> JoinRunCluster(const ClusterSettings& settings, TestSetup& setup,
                                                const std::string& command) {
  const LaunchInfo launch = DetectLaunch();
  // This rank's own setup (its sub-folder): an error is said at the join,
  // so that no rank goes ahead.
  Status own;
  if (settings.mode != MpiMode::kOff && launch.detected && !IsLeftOut("mpi")) {
    // The same on every rank: each refuses alike before MPI starts.
    LC_RETURN_IF_ERROR(CheckRunsAcrossRanks(settings, setup));
    if (setup.workload->Info().files_per_process && settings.files == MpiFiles::kShared) {
      // --mpi-files=shared: one set in --file-dir, rank 0 prepares it.
      LC_RETURN_IF_ERROR(setup.workload->ShareFiles(launch.rank, launch.size));
    } else if (setup.workload->Info().files_per_process) {
      // --mpi-files=per-rank: rank N's files in the sub-folder rankN.
      own = setup.workload->TakeProcessFolder("rank" + std::to_string(launch.rank));
    }
  }
  ClusterSettings mine = settings;
  mine.threads = static_cast<int>(setup.cfg.threads);
  mine.plan = RunPlanOf(setup, command, settings);
  mine.setup = own;
  LC_ASSIGN_OR_RETURN(std::unique_ptr<Cluster> cluster, JoinCluster(mine, launch));
  if (!own.ok()) return own;  // (the join refuses it: not reached under MPI)
  if (cluster == nullptr) return cluster;
  // Every rank's threads are one set: global thread ids, seeds from one
  // seed and the global id, and each rank's share of one --rate schedule.
  setup.cfg.share.first_thread = cluster->FirstThread();
  setup.cfg.share.total_threads = cluster->TotalThreads();
  setup.cfg.share.seed = cluster->CommonSeed();
  if (setup.workload->Info().runs_across_processes) {
    if (Status s = setup.workload->JoinProcesses(*cluster); !s.ok()) {
      // The same on every rank (Workload::JoinProcesses): rank 0 says it
      // for the job, the others end with its code and print nothing.
      return cluster->Reports() ? s : Status(s.code(), "");
    }
  }
  return cluster;
}

}  // namespace loadcell
