#pragma once
// fileio --file-use-existing: test files that loadcell did not create (for
// example made by `sysbench fileio prepare` with the same --file-num and
// --file-total-size) used as they are. Read modes use them with =on; write
// modes (never seqwr, which re-creates files) only with =write. They are
// never listed in the manifest, so cleanup never removes them.

#include <cstdint>
#include <string>

#include "core/status.h"
#include "os/file_system.h"
#include "workloads/fileio/fileio_files.h"
#include "workloads/fileio/fileio_options.h"

namespace loadcell {

// Whether test file `i`, which exists (`info`) and is not in the manifest,
// may serve this run: a regular file of the size the options give, a read
// mode (or --file-use-existing=write), no --validate. FailedPrecondition
// (exit 2) in one line saying why not and what to do.
Status CheckForeignFile(const FileIoSettings& s, uint64_t i, const FileInfo& info);

// The test files of `s` that exist and are not in `m` (null: no manifest).
uint64_t CountForeignFiles(FileSystem& fs, const FileIoSettings& s, const FileManifest* m);

// For the errors of a folder whose test files loadcell did not create: how
// to use them anyway ("" when test_file.0 does not exist).
std::string UseExistingHint(FileSystem& fs, const FileIoSettings& s);

// prepare with --file-use-existing: writes nothing; checks the files as a
// read run would and says that they are used as they are.
Status PrepareWithExisting(FileSystem& fs, const FileIoSettings& s, const FileIoConsole& console);

// After cleanup: says how many test files it left because loadcell did not
// create them (nothing when there are none).
void SayForeignLeft(FileSystem& fs, const FileIoSettings& s, const FileIoConsole& console);

}  // namespace loadcell
