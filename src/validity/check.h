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
  // The host's busy CPU time over its total, -1 when the system does not
  // say: over the workers' CPUs alone when they may run on some of the
  // host's CPUs only (`host_busy_cpus` of them; 0: over all the host's).
  double host_busy_fraction = -1;
  int host_busy_cpus = 0;
  // The host's steal time over its total CPU time, -1 when unknown.
  double steal_fraction = -1;
  // Thermal throttle events over the run, where the CPUs count them.
  bool throttle_known = false;
  uint64_t throttle_events = 0;
  // The CPUs' frequencies (those the process may use) at the start and the
  // end, in MHz averaged over the CPUs whose both are known, and the largest
  // change of one CPU's over the larger of its two (-1: unknown).
  double frequency_start_mhz = 0;
  double frequency_end_mhz = 0;
  double frequency_change = -1;
  std::string governor;  // cpufreq's governor, "" unknown
  // The bytes loadcell itself made the block devices read and write over
  // the run (process_io_known false when the system does not say), and
  // how much the page cache's dirty and under-writeback bytes fell
  // (host-wide): writes the devices made of earlier dirty pages, anyone's.
  bool process_io_known = false;
  uint64_t process_read_bytes = 0;
  uint64_t process_written_bytes = 0;
  uint64_t dirty_flushed_bytes = 0;
};

// A block device under the file targets, over the run (each device once).
struct DeviceWindow {
  std::string device;  // "vda1", "dm-0"
  uint64_t read_bytes = 0;
  uint64_t written_bytes = 0;
  std::vector<std::string> under;  // the disks counted under a stacked device
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
  // The page cache's dirty and under-writeback bytes at the end, host-wide.
  bool dirty_known = false;
  uint64_t dirty_bytes_end = 0;
  uint64_t writeback_bytes_end = 0;
  // The hypervisor the host runs under ("" none seen; stated, not judged).
  std::string virtual_machine;
};

// Gathered at the end for each I/O target, in WorkloadFacts::io's order.
struct TargetEndFacts {
  // Bytes in holes over the target's files; `holes_unknown` says why when
  // the system could not tell (then holes_bytes is 0).
  uint64_t hole_bytes = 0;
  std::string holes_unknown;
  // Bytes in unwritten extents (allocated and never written, as fallocate
  // leaves them), and in holes or unwritten extents counted once;
  // `unwritten_unknown` says why the extents were not read (then
  // unwritten_bytes is 0 and never_written_bytes the holes').
  uint64_t unwritten_bytes = 0;
  uint64_t never_written_bytes = 0;
  std::string unwritten_unknown;
  // Pages sampled from the files read after the run (validity/zero_pages.h),
  // those all zeros and the files that hold them; `zero_pages_unknown` says
  // why they were not sampled.
  uint64_t sampled_pages = 0;
  uint64_t zero_pages = 0;
  std::vector<std::string> zero_page_files;
  std::string zero_pages_unknown;
  std::string write_cache;  // "write back", "write through", "" unknown
  // Whether the storage under a target written compresses (or may: ZFS)
  // what is written (1), does not (0), or nothing says (-1); `savings` says
  // what told ("btrfs mounted with compress=zstd:3").
  int storage_compresses = -1;
  std::string savings;
  // The block sizes of the device under the target's folder; 0 unknown.
  uint32_t logical_block_bytes = 0;
  uint32_t physical_block_bytes = 0;
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

// Whether a file target (not the null engine) reads (`writes`: writes)
// without direct I/O.
bool AnyBufferedTarget(const CheckInput& in, bool writes);
// `id` not checked for want of the devices' counters, with the reason.
CheckOutcome NoDeviceCounters(const char* id, const CheckInput& in);

// The checks (checks/<name>.cpp).
std::optional<CheckOutcome> CheckCache(const CheckInput& in);
std::optional<CheckOutcome> CheckDeviceReads(const CheckInput& in);
std::optional<CheckOutcome> CheckDeviceWrites(const CheckInput& in);
std::optional<CheckOutcome> CheckUnwrittenData(const CheckInput& in);
std::optional<CheckOutcome> CheckWriteData(const CheckInput& in);
std::optional<CheckOutcome> CheckSamples(const CheckInput& in);
std::optional<CheckOutcome> CheckSteadyState(const CheckInput& in);
std::optional<CheckOutcome> CheckWarmUp(const CheckInput& in);
std::optional<CheckOutcome> CheckClientCpu(const CheckInput& in);
std::optional<CheckOutcome> CheckQueueDepth(const CheckInput& in);
std::optional<CheckOutcome> CheckRate(const CheckInput& in);
std::optional<CheckOutcome> CheckDurability(const CheckInput& in);
std::optional<CheckOutcome> CheckAlignment(const CheckInput& in);
std::optional<CheckOutcome> CheckErrors(const CheckInput& in);
std::optional<CheckOutcome> CheckFairness(const CheckInput& in);
std::optional<CheckOutcome> CheckRanks(const CheckInput& in);
std::optional<CheckOutcome> CheckDatabase(const CheckInput& in);
std::optional<CheckOutcome> CheckNoisyHost(const CheckInput& in);
std::optional<CheckOutcome> CheckOtherIo(const CheckInput& in);
std::optional<CheckOutcome> CheckMemoryCache(const CheckInput& in);
std::optional<CheckOutcome> CheckCpuFrequency(const CheckInput& in);

// Runs every check over `in`: the verdict (judged, cost_ms left to the
// caller).
Validity RunChecks(const CheckInput& in);

}  // namespace loadcell::validity

namespace loadcell::validity {

// "512 MiB", "1.50 GiB", "100 bytes": sizes in the checks' words.
std::string BytesText(uint64_t bytes);

// "vda1", "dm-0 (over sda2, sdb2)", "vda1, vdb": the devices of a window in
// the checks' words.
std::string DevicesText(const std::vector<DeviceWindow>& devices);

// The options of an advice as alternatives: "A, B or C". An empty name, or
// one whose first word an earlier one has (DiskSpd's "-Sw (write-through)"
// and "-Sw"), is left out.
std::string OptionsText(const std::vector<std::string>& names);

}  // namespace loadcell::validity
