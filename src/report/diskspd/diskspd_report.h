#pragma once
// DiskSpd's text report and its -Rxml results (DiskSpd 2.2's sections and
// element names), from DiskspdReport: figures computed once by
// DiskspdRowOf / DiskspdCpuTable from each job's RunResult and the host's
// per-CPU times. The writers format only.

#include <array>
#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "diskspd/diskspd_switches.h"
#include "os/cpu_topology.h"
#include "os/host_facts.h"
#include "runner/run_result.h"
#include "stats/histogram.h"

namespace loadcell {

// One direction (read or write) of one thread and target.
struct DiskspdDirection {
  uint64_t bytes = 0;
  uint64_t ios = 0;
  LatencyHistogram latency;  // ns
  // Per -D interval (DiskSpd's IoBucketizer): I/Os completed and their
  // latencies.
  std::vector<uint64_t> bucket_ios;
  std::vector<LatencyHistogram> bucket_latency;
};

inline constexpr size_t kDiskspdRead = 0;
inline constexpr size_t kDiskspdWrite = 1;
inline constexpr size_t kDiskspdWaitCounts = 12;

// One row of DiskSpd's tables: a thread's work on one target.
struct DiskspdRow {
  int thread = 0;
  size_t target = 0;
  std::string path;
  uint64_t file_size = 0;
  std::array<DiskspdDirection, 2> dirs;
  // -vs: DiskSpd's wait statistics of the job's loop, in DiskSpd's order:
  // completion waits, throttle waits, throttle sleeps, lookasides, then the
  // lookasides that found 0, 1, ..., 6, 7 or more completions.
  std::array<uint64_t, kDiskspdWaitCounts> waits{};
};

struct DiskspdCpu {
  int id = 0;
  double usage = 0;  // percent: user + kernel
  double user = 0;
  double kernel = 0;  // without idle
  double idle = 0;
};

struct DiskspdReportTarget {
  std::string path;
  uint64_t size = 0;
  bool created = false;  // made by this run's -c
  // The target's own settings (a profile's <Target>); nullptr: the report's.
  const diskspd::DiskspdSwitches* sw = nullptr;
  std::string engine;      // loadcell's engine; "" when not planned (-Rp)
  std::string open_flags;  // "O_DIRECT|O_DSYNC", "" when none
  // What loadcell did with a switch that means something else here, or
  // nothing (-ft, -Sr): a loadcell line each in the Input parameters.
  std::vector<std::string> notes;
};

// One target's verdict, its threads judged as one (runner/validity.h).
struct DiskspdTargetVerdict {
  std::string path;
  Validity validity;
};

struct DiskspdReport {
  const diskspd::DiskspdSwitches* sw = nullptr;
  std::vector<DiskspdReportTarget> targets;
  std::string engine;      // loadcell's engine name
  std::string open_flags;  // "O_DIRECT|O_DSYNC", "" when none
  uint32_t seed = 0;
  std::vector<int> pinned_cpus;  // thread k on pinned_cpus[k % size]; empty: not pinned
  std::string version;           // loadcell's
  // Under MPI: the ranks merged (0: one process) and their targets'
  // layout ("per-rank", "shared"); the rows are every rank's threads.
  int ranks = 0;
  std::string mpi_files;
  // System information.
  std::string computer;
  std::string start_time_utc;  // "2025/01/31 12:00:00 UTC"
  int cpu_count = 0;
  // Groups, NUMA nodes, sockets and cores (os/cpu_topology.h); the per-CPU
  // rows (`cpus`) are its active processors in order.
  CpuTopology topology;
  // Results.
  double test_time_s = 0;  // the measured time
  int thread_count = 0;
  bool cpus_known = false;
  std::vector<DiskspdCpu> cpus;
  std::vector<DiskspdRow> rows;  // thread by thread, each thread's targets in order
  // Each target's verdict: its threads' verdicts merged (MergeVerdicts),
  // after the text report and in each <TimeSpan> of the XML.
  std::vector<DiskspdTargetVerdict> verdicts;
};

// The figures of one job (a FioJobWorkload's RunResult: its counters, its
// read and write latency kinds, its intervals of -D's length).
DiskspdRow DiskspdRowOf(const RunResult& r, int thread, size_t target, const std::string& path,
                        uint64_t file_size);

// -vs: each DiskSpd thread's wait statistics (its rows, one per target,
// added), in the order of the rows.
using DiskspdThreadWait = std::pair<int, std::array<uint64_t, kDiskspdWaitCounts>>;
std::vector<DiskspdThreadWait> DiskspdThreadWaits(const DiskspdReport& r);

// DiskSpd's CPU table from the per-CPU times at the measured start and end.
std::vector<DiskspdCpu> DiskspdCpuTable(const std::vector<PerCpuTimes>& start,
                                        const std::vector<PerCpuTimes>& end);

// A size as DiskSpd shows one: "64KiB", "1.50MiB", "512".
std::string DiskspdSizeText(uint64_t bytes);

void WriteDiskspdText(const DiskspdReport& r, std::ostream& out);
void WriteDiskspdXml(const DiskspdReport& r, std::ostream& out);
// Several timespans (a profile's, run one after another): the command
// line, every timespan's input parameters, the system, then each
// timespan's results (text); <Results> with one <Profile> and a <TimeSpan>
// per timespan (XML). The first report's command line and system are used.
void WriteDiskspdText(const std::vector<DiskspdReport>& spans, std::ostream& out);
void WriteDiskspdXml(const std::vector<DiskspdReport>& spans, std::ostream& out);
// -Rp: the profile alone, as DiskSpd's <Profile> XML or its text input
// parameters.
void WriteDiskspdProfileXml(const std::vector<DiskspdReport>& spans, std::ostream& out);
void WriteDiskspdProfileText(const std::vector<DiskspdReport>& spans, std::ostream& out);

}  // namespace loadcell
