#pragma once
// What a validity check reads and returns (docs/validity.md). A check is a
// pure function of its input: the result, the workload's facts and the
// facts gathered around the run; it does no I/O. Each lives in a file of
// its own under checks/; checks.cpp lists them.

#include <optional>
#include <string>
#include <vector>

#include "runner/run_facts.h"
#include "runner/run_result.h"
#include "runner/validity.h"

namespace loadcell::validity {

// The host over the measured run (from the run's start to its end).
struct HostWindow {
  bool known = false;  // the start was seen
  double wall_s = 0;
  double process_cpu_s = 0;  // loadcell's own (user + system)
  // The host's busy CPU time over its total, -1 when the system does not say.
  double host_busy_fraction = -1;
};

// A block device under the file targets, over the run (each device once).
struct DeviceWindow {
  std::string device;  // "vda1"
  uint64_t read_bytes = 0;
  uint64_t written_bytes = 0;
};

struct HostFacts {
  uint64_t memory_bytes = 0;        // RAM
  uint64_t cgroup_limit_bytes = 0;  // 0: none
  int cpus = 0;                     // CPUs this process may use
  HostWindow window;
  // The devices under the file targets; `devices_unknown` says why when
  // their counters were not read (then `devices` is empty).
  std::vector<DeviceWindow> devices;
  std::string devices_unknown;
};

// Gathered at the end for each I/O target, in WorkloadFacts::io's order.
struct TargetEndFacts {
  // Bytes in holes over the target's files; `holes_unknown` says why when
  // the system could not tell (then holes_bytes is 0).
  uint64_t hole_bytes = 0;
  std::string holes_unknown;
  std::string write_cache;  // "write back", "write through", "" unknown
};

struct CheckInput {
  const RunResult& result;
  const WorkloadFacts& workload;
  HostFacts host;
  std::vector<TargetEndFacts> targets;
  double percentile = 95;  // the printed one (--percentile; 0: none)
  double report_interval_s = 0;
};

// nullopt: the check does not concern this run (a cpu test has no queue).
using CheckFn = std::optional<CheckOutcome> (*)(const CheckInput& in);

struct CheckEntry {
  const char* id;
  CheckFn fn;
};

// Every check, in the order reports list them.
const std::vector<CheckEntry>& AllChecks();

// Builders for the checks.
CheckOutcome Passed(const char* id, std::vector<CheckFigure> figures = {});
CheckOutcome Found(const char* id, CheckLevel level, std::string seen, std::string advice,
                   std::vector<CheckFigure> figures = {});
CheckOutcome NotChecked(const char* id, std::string why);

// The checks (checks/<name>.cpp).
std::optional<CheckOutcome> CheckCache(const CheckInput& in);
std::optional<CheckOutcome> CheckDeviceReads(const CheckInput& in);
std::optional<CheckOutcome> CheckUnwrittenData(const CheckInput& in);
std::optional<CheckOutcome> CheckWriteData(const CheckInput& in);
std::optional<CheckOutcome> CheckSamples(const CheckInput& in);
std::optional<CheckOutcome> CheckSteadyState(const CheckInput& in);
std::optional<CheckOutcome> CheckWarmUp(const CheckInput& in);
std::optional<CheckOutcome> CheckClientCpu(const CheckInput& in);
std::optional<CheckOutcome> CheckQueueDepth(const CheckInput& in);
std::optional<CheckOutcome> CheckRate(const CheckInput& in);
std::optional<CheckOutcome> CheckDurability(const CheckInput& in);
std::optional<CheckOutcome> CheckErrors(const CheckInput& in);
std::optional<CheckOutcome> CheckMemoryCache(const CheckInput& in);

// Runs every check over `in`: the verdict (judged, cost_ms left to the
// caller).
Validity RunChecks(const CheckInput& in);

}  // namespace loadcell::validity

namespace loadcell::validity {

// "512 MiB", "1.50 GiB", "100 bytes": sizes in the checks' words.
std::string BytesText(uint64_t bytes);

}  // namespace loadcell::validity
