#pragma once
// loadcell's rules for a job that changes what it did not make, checked
// before anything runs (each refusal one line naming the job file's line,
// InvalidArgument, exit 2):
// - a raw block device a job writes to (or trims): one that is mounted
//   (itself, a partition of it or a device stacked on it) only with fio's
//   allow_mounted_write=1, and one that holds a partition table, a file
//   system or another signature loadcell knows only with loadcell's
//   --allow-destructive. A device with neither is written as fio writes it.
// - an existing regular file a job writes to, trims or would lay out again
//   (shorter than the job needs): only one loadcell laid out itself (the
//   folder's manifest lists it with its identity and size: the manifest
//   SQLIO's and DiskSpd's files use, workloads/sqlio/sqlio_manifest.h), or
//   with --allow-destructive. Reads of any file are allowed.
// - a file a job would make or extend (missing, or shorter than the job lays
//   out): refused in a folder that does not exist (loadcell makes no folder
//   for a job's files), with fio's allow_file_create=0 and with fio's
//   --readonly.
// - two loadcell runs never lay out or change the files of one folder at
//   once: a job takes the folder's lock (the one SQLIO's and DiskSpd's
//   files use) before it checks the files it would change, and the run
//   holds it to its end.

#include <cstdint>
#include <string>

#include "cli/fio/fio_plan.h"
#include "core/status.h"
#include "fio/fio_job_spec.h"
#include "os/file_system.h"

namespace loadcell {

// When `spec` may not change the device at `path`. `changes`: whether the
// job writes or trims.
Status CheckFioDeviceWrite(const fio::FioJobSpec& spec, const std::string& path, bool changes,
                           bool allow_destructive);

// What a job instance asks of one of its files.
struct FioFileUse {
  std::string job;   // the instance's name
  std::string path;  // on this system
  bool writes = false;
  bool trims = false;
  // The job lays out its files (not the null engine, nor a write-only job
  // with create_on_open), so a file shorter than `needed` is written whole.
  bool lays_out = false;
  uint64_t needed = 0;
};

// When `spec` may not change the existing regular file `use.path` (a
// missing file is the job's own to make; anything but a regular file is
// refused at the layout).
Status CheckFioFileWrite(const fio::FioJobSpec& spec, const FioFileUse& use, bool allow_destructive,
                         FileSystem& fs);

// When the job `s` planned from `spec` may not make or extend one of its
// files: a missing one in a folder that does not exist (a rank's own folder
// `rank_folder`, "" for none, is made for it: its parent must exist), or,
// with allow_file_create=0 or `readonly`, any file it would make or lay out
// again. None for the null engine or a block device.
Status CheckFioFileCreate(const fio::FioJobSpec& spec, const FioJobSettings& s, bool readonly,
                          const std::string& rank_folder, FileSystem& fs);

// Takes, for the job `s` planned from `spec`, the lock of each folder (once
// per run: `locks.folders`) that holds a file the job would lay out, create,
// write or trim: a file it writes or trims, a missing one, or one shorter
// than the job lays out. None for the null engine, a block device or another
// file that is not a regular one, nor for a folder that does not exist
// (CheckFioFileCreate refuses its job), but a rank's own folder `rank_folder` ("rank1"; "" for
// none) in a folder that exists: made here (listed in `locks.made`) and
// locked, so that a rank's first run holds its folder as later ones do.
// Held by another loadcell: FailedPrecondition in one line naming the holder
// (exit 2); nothing written but a rank folder made here, which `locks`
// removes when it lets go.
Status LockFioJobFolders(const fio::FioJobSpec& spec, const FioJobSettings& s,
                         const std::string& rank_folder, FileSystem& fs, FioFolderLocks& locks);

}  // namespace loadcell
