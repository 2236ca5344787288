#pragma once
// fio's log files of a run (write_lat_log, write_bw_log, write_iops_log):
// their names, checked before anything runs, and written whole after it.
// loadcell replaces no file it cannot tell is a log: a file of a log's name
// that holds anything but fio log lines is refused, as is a log named as a
// job's data file, --output or another log.

#include <string>
#include <vector>

#include "cli/fio/fio_plan.h"
#include "fio/fio_job_spec.h"
#include "os/file_system.h"
#include "workloads/fio/fio_log.h"

namespace loadcell {

// What a job logs (workloads/fio/fio_log.h).
FioLogSettings FioLogSettingsOf(const fio::FioJobSpec& spec);

// The log files of `spec`'s instance number `index` (1-based over the run,
// fio's thread number): write_lat_log's lat, clat and slat, write_bw_log's
// bw, write_iops_log's iops, each PREFIX_KIND.INDEX.log (fio's names).
std::vector<std::pair<FioLogKind, std::string>> FioLogFilesOf(const fio::FioJobSpec& spec,
                                                              int index);

// Before anything is laid out: InvalidArgument, one line naming the option
// and the file, for a log that cannot be written or would replace what is
// not a log. `output` is --output ("" when none).
Status CheckFioLogTargets(const FioPlan& plan, const std::string& output, FileSystem& fs);

// Writes `job`'s logs from `log` (nothing when null), each file whole,
// appending the paths written to `written`.
Status WriteFioLogs(const FioPlannedJob& job, const FioLogRecorder* log,
                    std::vector<std::string>* written);

}  // namespace loadcell
