#pragma once
// fileio: the test files on disk. Prepare writes every block of every file
// and keeps a manifest of what it created (fileio_manifest.h); cleanup
// removes exactly those files; run checks them before it starts. Every file
// call in the folder is relative to the opened folder and never follows a
// link; a file is loadcell's only when it is the one the manifest records
// (CheckIdentity): a file that is not is refused and left in place.

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/status.h"
#include "os/file_system.h"
#include "workloads/fileio/fileio_identity.h"
#include "workloads/fileio/fileio_manifest.h"
#include "workloads/fileio/fileio_options.h"

namespace loadcell {

// Where prepare and cleanup report. `progress_tty`: draw a bar on
// `progress` (else one line per 10%).
struct FileIoConsole {
  std::ostream* out = nullptr;
  std::ostream* progress = nullptr;
  bool progress_tty = false;
  bool sysbench = false;             // sysbench 1.0.20's prepare lines
  std::ostream* warnings = nullptr;  // the page-cache warning before a run
};

// Creates the files of `s` (or reuses complete ones from an earlier
// prepare), writing every block, then fsyncs each. Refuses (exit 2), with
// nothing changed, to touch a file it cannot prove it created (not in the
// manifest, a link, a special file, another file under the name). On
// interruption (SIGINT), ENOSPC, EFBIG or another write error, removes the
// file being written and says how to go on.
Status PrepareFiles(FileSystem& fs, const FileIoSettings& s, uint64_t seed,
                    const FileIoConsole& console);

// Removes exactly the files named in the manifest that are still the files
// loadcell created, then the manifest. A file that fails CheckIdentity is
// left in place with a note naming it and why, and cleanup goes on: it
// succeeds (exit 0) having removed everything that is loadcell's.
Status CleanupFiles(FileSystem& fs, const std::string& dir, const FileIoConsole& console);

// Before a run that is not seqwr: every file exists, is listed in the
// manifest as complete, passes CheckIdentity, and has the size the options
// give. Returns the
// manifest; FailedPrecondition (exit 2) naming the file and what to do.
Result<FileManifest> CheckFilesForRun(FileSystem& fs, const FileIoSettings& s);

// Before a seqwr run (sysbench's creation test): re-creates every file
// empty (only files that are provably loadcell's, or absent ones) and
// records them in the manifest as kSeqWrite.
Result<FileManifest> RecreateForSeqWrite(FileSystem& fs, const FileIoSettings& s);

// After a seqwr run: each file i with whole[i] (the run wrote every block
// of it) becomes complete at its full size, usable by every mode as after a
// prepare, its blocks stamped if s.stamp_writes; the others stay kSeqWrite
// at the size they have (`sizes`, read from their open descriptors). Writes
// the manifest; returns how many are complete.
Result<uint64_t> FinishSeqWrite(FileSystem& fs, const FileIoSettings& s, FileManifest& m,
                                const std::vector<bool>& whole, const std::vector<uint64_t>& sizes);

}  // namespace loadcell
