#pragma once
// fio's disk_util for a run of fio jobs: the block devices under the jobs'
// files and, for a device-mapper or md device, the devices it stands on
// (as fio lists them), their kernel counters (os/disk_stats.h) read before
// the jobs start and after they end, and the differences as fio reports
// them, with fio's aggr_* figures for a device that stands on others.

#include <string>
#include <utility>
#include <vector>

#include "cli/fio/fio_plan.h"
#include "cluster/cluster.h"
#include "core/clock.h"
#include "os/disk_stats.h"
#include "report/fio/fio_report.h"

namespace loadcell {

// The devices under the files of `plan`'s jobs, each once, in the order
// met (none for the null engine's jobs; none where no block device stands
// behind a file, as on tmpfs).
std::vector<std::string> FioDiskNames(const FioPlan& plan);

// A device of disk_util and the devices it stands on directly (its
// `slaves/`: a device-mapper or md device's disks or partitions).
struct FioDisk {
  std::string name;
  std::vector<std::string> slaves;
};

// `names`, each followed by the devices it stands on and theirs (depth
// first, each device once, as fio lists them), as `class_block` (a folder
// of one entry per block device, as /sys/class/block) says.
std::vector<FioDisk> FioDisksWithSlaves(const std::vector<std::string>& names,
                                        const std::string& class_block = "/sys/class/block");

struct FioDiskSnapshot {
  Nanos at = 0;
  std::vector<FioDisk> disks;                              // as asked
  std::vector<std::pair<std::string, DiskStats>> devices;  // those that could be read
};
// The counters of `disks` from `class_block`, and the time they were read.
FioDiskSnapshot TakeFioDiskSnapshot(const std::vector<FioDisk>& disks,
                                    const std::string& class_block = "/sys/class/block");

// Each device read in both: its counters' differences, and util as the
// share of the wall time between the two in which it had I/O in flight
// (io_ticks; at most 100%). A device that stands on others read in both
// gets fio's aggr_* over those (FioDiskUtil::slaves).
std::vector<FioDiskUtil> FioDiskUtilBetween(const FioDiskSnapshot& before,
                                            const FioDiskSnapshot& after);

// Under MPI: every rank's device figures (`mine` on each) gathered on rank
// 0 (Cluster::GatherOnRankZero) as one row per device of each host: ranks
// on one host read the same device's counters over nearly the same time,
// so the lowest rank's figures of each host's device stand for it (added up
// they would count every I/O once per rank there). When the ranks ran on
// several hosts each name is "HOST:DEVICE". Rank 0 gets the rows; the
// others get `mine`.
std::vector<FioDiskUtil> GatherFioDisks(Cluster& cluster, const std::vector<FioDiskUtil>& mine);

// The pure halves: a rank's figures as bytes (each device's own and, for
// one that stands on others, fio's aggr_*), and every rank's (in rank
// order; "" for a rank that sent none) as rows.
std::string EncodeFioDisks(const std::string& host, const std::vector<FioDiskUtil>& disks);
std::vector<FioDiskUtil> MergeFioRankDisks(const std::vector<std::string>& parts);

}  // namespace loadcell
