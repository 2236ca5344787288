#pragma once
// The rules for a job that writes to (or trims) a raw block device, checked
// before anything runs: a device that is mounted (itself, a partition of it
// or a device stacked on it) only with fio's allow_mounted_write=1, and a
// device that holds a partition table, a file system or another signature
// loadcell knows only with loadcell's --allow-destructive. A device with
// neither is written as fio writes it.

#include <string>

#include "core/status.h"
#include "fio/fio_job_spec.h"

namespace loadcell {

// InvalidArgument, one line naming the job's filename= line, the device and
// what would allow it, when `spec` may not change the device at `path`.
// `changes`: whether the job writes or trims.
Status CheckFioDeviceWrite(const fio::FioJobSpec& spec, const std::string& path, bool changes,
                           bool allow_destructive);

}  // namespace loadcell
