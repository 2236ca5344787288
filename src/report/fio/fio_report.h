#pragma once
// fio's own outputs for a run of fio jobs (`loadcell fio`): the JSON (and
// json+, with each latency's bins) that fio 3.33 writes, field for field and
// in fio's units, and its normal text. loadcell's additions (the verdict,
// the measured queue depth) sit in one "loadcell" object per job and at the
// top, never in fio's fields. The reporters format only: every figure comes
// from the results (runner/run_result.h) and the pure FioFigures below.

#include <array>
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "runner/run_result.h"
#include "stats/histogram.h"

namespace loadcell {

// unified_rw_reporting: each direction apart (none), one "mixed" direction
// of them all (mixed), or both.
enum class FioUnified { kNone, kMixed, kBoth };

// One job as fio reports it (or a group's jobs as one, group_reporting).
struct FioReportJob {
  std::string name;
  int groupid = 0;
  int jobs = 1;         // the jobs it stands for (group_reporting)
  int error = 0;        // errno of its failure, 0 when none (fio's "err=")
  std::string failure;  // its failure in words ("" when none)
  std::string description;
  // "job options": what the job file gave it (global ones included), as
  // written.
  std::vector<std::pair<std::string, std::string>> options;
  std::string rw;  // the rw= value as given ("randrw"), for the header line
  std::string engine;
  // thread= as given: fio runs a job as a forked process unless it is set;
  // loadcell runs every job as a thread of its one process (loadcell's
  // object says both).
  bool thread = false;
  uint32_t iodepth = 1;
  // percentile_list as percents (99.9), in order.
  std::vector<double> percentiles;
  bool clat_percentiles = true;
  bool lat_percentiles = false;
  FioUnified unified = FioUnified::kNone;
  const RunResult* result = nullptr;
  // The log files written for it (write_*_log), in loadcell's object.
  std::vector<std::string> logs;
  // The CPUs its thread ran on (cpus_allowed), as the system reported them
  // once it was confined; empty when it was not.
  std::vector<int> cpus;
};

// One device's counters over the run (fio's disk_util): the differences of
// the kernel's counters read before and after, and the share of the run's
// wall time the device was busy.
struct FioDiskUtil {
  std::string name;
  uint64_t read_ios = 0;
  uint64_t write_ios = 0;
  uint64_t read_merges = 0;
  uint64_t write_merges = 0;
  uint64_t read_ticks_ms = 0;
  uint64_t write_ticks_ms = 0;
  uint64_t in_queue_ms = 0;
  double util_pct = 0;
  // For a device that stands on others (device-mapper, md: its `slaves/`),
  // fio's aggr_* figures: each counter of the devices directly under it,
  // summed and divided by how many they are (as fio, in whole numbers), and
  // the busiest one's util. `slaves` 0: it stands on none, no aggr_*.
  uint32_t slaves = 0;
  uint64_t aggr_read_ios = 0;
  uint64_t aggr_write_ios = 0;
  uint64_t aggr_read_merges = 0;
  uint64_t aggr_write_merges = 0;
  uint64_t aggr_read_ticks_ms = 0;
  uint64_t aggr_write_ticks_ms = 0;
  uint64_t aggr_in_queue_ms = 0;
  double aggr_util_pct = 0;
};

struct FioReport {
  std::string version;  // "loadcell-0.1.0": fio's "fio version" field names the tool
  // fio's "global options": the global sections' options (each job's
  // "job options" holds its own), present when a global section gave any.
  bool has_global_options = false;
  std::vector<std::pair<std::string, std::string>> global_options;
  int64_t timestamp_ms = 0;  // wall clock at the end
  std::vector<FioReportJob> jobs;
  // Each group's jobs merged, by group id (fio's "Run status group").
  std::vector<std::pair<int, const RunResult*>> groups;
  // The devices under the jobs' files (fio's "Disk stats" and disk_util).
  std::vector<FioDiskUtil> disks;
  // Under MPI: how many ranks ran every job (0: one process) and their
  // files' layout ("per-rank", "shared"); each job's result then holds every
  // rank's figures merged, and its `cluster` each rank's own (the rows of
  // the job's "loadcell" object).
  int ranks = 0;
  std::string mpi_files;
};

// kMixed: read, write and trim as one (unified_rw_reporting).
enum class FioDir3 { kRead = 0, kWrite = 1, kTrim = 2, kMixed = 3 };

// fio's figures of one direction of a result.
struct FioDirFigures {
  uint64_t io_bytes = 0;
  uint64_t total_ios = 0;
  uint64_t short_ios = 0;   // I/Os that moved fewer bytes than asked
  uint64_t runtime_ms = 0;  // the result's measured time when the direction ran, else 0
  double iops = 0;          // total_ios over the measured time
  uint64_t bw_bytes = 0;    // io_bytes over the measured time, bytes/s
  // lat: each I/O from its start (under a rate, its intended start) to its
  // completion. null when the result has none.
  const LatencyHistogram* latency = nullptr;
  // clat: from the submission call's return to completion, and slat: from
  // the start to that return, for the asynchronous engines' reads and
  // writes. A synchronous engine's (and a trim's) clat is its lat; its slat
  // is null (fio's N 0).
  const LatencyHistogram* clat = nullptr;
  const LatencyHistogram* slat = nullptr;
  // kMixed: the directions' histograms merged (what the pointers point to).
  std::shared_ptr<const LatencyHistogram> merged, merged_clat, merged_slat;
  // bw (KiB/s) and iops over each interval of the result (fio samples them
  // every 500 ms): min, max, mean, standard deviation, number of samples.
  double bw_min = 0, bw_max = 0, bw_mean = 0, bw_dev = 0;
  double iops_min = 0, iops_max = 0, iops_mean = 0, iops_dev = 0;
  uint64_t samples = 0;
};
FioDirFigures FioFigures(const RunResult& r, FioDir3 d);

// The directions a job's report has, in fio's order, with their JSON keys:
// read, write, trim; mixed alone; or the three and then mixed.
std::vector<std::pair<const char*, FioDir3>> FioReportDirs(FioUnified u);

// The counter named `name` of `r`, 0 when it has none.
uint64_t FioCounter(const RunResult& r, const std::string& name);

// fio's latency tables: the share (percent) of `h`'s samples below each
// bound of the ns, us and ms rows (2, 4, 10, 20, 50, 100, 250, 500, 750,
// 1000; the ms row also 2000 and >= 2000), each sample in the first row
// whose bound it is below.
struct FioLatencyTable {
  std::array<double, 10> ns{};
  std::array<double, 10> us{};
  std::array<double, 12> ms{};
};
FioLatencyTable FioLatencyTableOf(const LatencyHistogram& h);
// fio's latency table of a job: of its clat over every direction (all 0
// when it has none).
FioLatencyTable FioJobLatencyTable(const RunResult& r);

// The bw_bytes of direction `d` of group `groupid`'s merge, 0 when the
// report has no such group.
uint64_t FioGroupBw(const FioReport& report, int groupid, FioDir3 d);
// fio's time stamp, "Thu Dec  3 20:20:06 2026", of `ms` since the epoch in
// local time.
std::string FioTimeText(int64_t ms);

// fio's JSON (`plus`: json+, with "bins").
void WriteFioJson(const FioReport& report, bool plus, std::ostream& out);
// fio's normal text.
void WriteFioText(const FioReport& report, std::ostream& out);

}  // namespace loadcell
