#pragma once
// DiskSpd's switches (diskspd/diskspd_switches.h) turned into the jobs
// core's jobs: one job per DiskSpd thread and target, each a FioJobWorkload
// (workloads/fio/fio_job.h) with its own RunConfig. docs/architecture.md,
// "DiskSpd on the jobs core".

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/status.h"
#include "diskspd/diskspd_profile.h"
#include "diskspd/diskspd_switches.h"
#include "os/cpu_topology.h"
#include "os/file_system.h"
#include "runner/run_config.h"
#include "workloads/fio/fio_job.h"

namespace loadcell {

struct DiskspdTarget {
  std::string path;              // as given
  uint64_t size = 0;             // the file's or device's size (what -c creates when missing)
  bool device = false;           // a block device
  bool missing = false;          // -c creates it before the run
  bool created_earlier = false;  // missing now; an earlier timespan creates it
  // The region I/O goes to: [base, base + length).
  uint64_t base = 0;
  uint64_t length = 0;
  const diskspd::DiskspdSwitches* sw = nullptr;  // the target's own settings
  uint32_t requests = 0;                         // in flight per thread (-o, or -O's share)
  std::string engine;                            // loadcell's engine name
  int open_flags = 0;                            // O_DIRECT, O_DSYNC as it is opened
  std::string write_buffer;                      // -Z<size>,<file>: the file's first bytes
  // What loadcell did with a switch that means something else here, or
  // nothing (-ft, -Sr), in words for the report's Input parameters.
  std::vector<std::string> notes;
};

struct DiskspdJob {
  int thread = 0;           // DiskSpd's thread number
  size_t target = 0;        // into DiskspdPlan::targets
  int relative_thread = 0;  // the thread's number among its target's threads
  FioJobSettings settings;
  RunConfig cfg;
};

struct DiskspdPlan {
  std::vector<DiskspdTarget> targets;
  std::vector<DiskspdJob> jobs;  // in DiskSpd's order: thread, then target
  std::string engine;            // the first target's engine (each target's: targets)
  uint32_t seed = 0;             // the seed in force (-z; the clock's for bare -z)
  int open_flags = 0;            // the first target's open flags
  std::string write_buffer;      // -Z<size>,<file>: the file's first bytes
  // The CPUs thread k is pinned to, round robin (k % size); empty: none.
  std::vector<int> pinned_cpus;
  // The timespan the targets' switches point into, when the plan made it.
  std::shared_ptr<const diskspd::DiskspdTimespan> owned;
};

// Plans the run: each target's size (the file's, the device's, or -c's for
// a missing one), region and jobs. `fs` is asked about the targets and reads
// -Z's source file. InvalidArgument (exit 2), one line, for what cannot run:
// a missing target without -c, a missing /dev path, a base offset at or past
// the end, a region smaller than a block, a drive target (#N, E:) on
// Linux or one Windows does not have.
// `ts` must outlive the plan (its targets point into it). `earlier`: the
// files earlier timespans create (path, size), taken as there.
Result<DiskspdPlan> PlanDiskspd(const diskspd::DiskspdTimespan& ts, FileSystem& fs,
                                const std::map<std::string, uint64_t>& earlier);
// A command line's one timespan (kept in the plan).
Result<DiskspdPlan> PlanDiskspd(const diskspd::DiskspdSwitches& sw, FileSystem& fs);

// The engine a run with `requests` per thread uses: io_uring when the
// kernel allows it, else libaio (Linux); iocp (Windows); sync for 1, and
// in a build with no asynchronous engine (the command warns then).
std::string DiskspdEngine(uint32_t requests, FileSystem& fs);

// The CPUs DiskSpd's threads are pinned to, thread k to the k-th round
// robin (SetCurrentThreadCpus' numbers: group 0's CPUs, then group 1's, ...;
// empty: none pinned): none with -n; without -a's CPUs every CPU in
// `allowed` (the process' own), or where that is not known over several
// groups every active CPU of `topology`; else -a's CPUs, each `g,c` the
// c-th CPU of group g. A group the topology lacks, a CPU not active in its
// group or not in `allowed`: InvalidArgument naming them.
Result<std::vector<int>> DiskspdPinnedCpus(const diskspd::DiskspdSwitches& sw,
                                           const CpuTopology& topology,
                                           const std::vector<int>& allowed);

// A write (-w`write_ratio`) to the device at `path`: never to a mounted
// one (a file system in use; DiskSpd has no switch to allow it), and to one
// that holds a partition table, a file system or another signature only
// with --allow-destructive (the rule fio's jobs follow,
// cli/fio/fio_device_guard.h). InvalidArgument in one line (exit 2).
Status CheckDiskspdDeviceWrite(const std::string& path, uint32_t write_ratio,
                               bool allow_destructive);

// The caching open flags of `flags` as this platform names them, for the
// report: "O_DIRECT|O_DSYNC" on Linux, "FILE_FLAG_NO_BUFFERING|
// FILE_FLAG_WRITE_THROUGH" on Windows (where the Win32 FileSystem maps them
// so); "" for neither.
std::string DiskspdOpenFlagsText(int flags);

// Fills `buf` (`len` bytes at `offset` of a stream of writes) with DiskSpd's
// write-buffer content of `sw`: the 0..255 sequence, zeros, or random bytes
// (-Zr, -Z<size>); `pattern` is -Z<size>,<file>'s bytes when given.
void FillDiskspdBuffer(const diskspd::DiskspdSwitches& sw, const std::string& pattern,
                       unsigned char* buf, size_t len, uint64_t offset);

}  // namespace loadcell
