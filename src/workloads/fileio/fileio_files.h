#pragma once
// fileio: the test files on disk. Prepare writes every block of every file
// and keeps a manifest of what it created (<file-dir>/.loadcell-fileio.manifest);
// cleanup removes exactly those files; run checks them before it starts.

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/status.h"
#include "os/file_system.h"
#include "workloads/fileio/fileio_options.h"

namespace loadcell {

inline constexpr const char* kFileIoManifestName = ".loadcell-fileio.manifest";

enum class FileState {
  kComplete,  // every block written by prepare (or by a seqwr run that wrapped)
  kPartial,   // being written, or the prepare that wrote it was interrupted
  kSeqWrite,  // re-created by a seqwr run: may not be fully written
};

struct ManifestFile {
  std::string name;  // relative to the directory
  uint64_t size = 0;
  FileState state = FileState::kPartial;
};

// The manifest: which files loadcell created here and how.
struct FileManifest {
  uint64_t block_size = 0;
  std::string pattern = "random";
  bool stamped = false;  // every block carries a --validate stamp
  std::string flags;     // open flags prepare used
  std::vector<ManifestFile> files;

  ManifestFile* Find(const std::string& name);
  const ManifestFile* Find(const std::string& name) const;
  void Remove(const std::string& name);
};

std::string ManifestPath(const std::string& dir);
// std::nullopt when the directory has no manifest.
Result<std::optional<FileManifest>> ReadManifest(FileSystem& fs, const std::string& dir);
// Replaces the manifest atomically (write a temporary file, fsync, rename).
Status WriteManifest(FileSystem& fs, const std::string& dir, const FileManifest& m);

// Where prepare and cleanup report. `progress_tty`: draw a bar on
// `progress` (else one line per 10%).
struct FileIoConsole {
  std::ostream* out = nullptr;
  std::ostream* progress = nullptr;
  bool progress_tty = false;
};

// Creates the files of `s` (or reuses complete ones from an earlier
// prepare), writing every block, then fsyncs each. Refuses (exit 2) to
// touch a file it did not create. On interruption (SIGINT), ENOSPC, EFBIG
// or another write error, removes the file being written and says how to
// go on.
Status PrepareFiles(FileSystem& fs, const FileIoSettings& s, uint64_t seed,
                    const FileIoConsole& console);

// Removes exactly the files named in the manifest, then the manifest.
Status CleanupFiles(FileSystem& fs, const std::string& dir, const FileIoConsole& console);

// Before a run that is not seqwr: every file exists, is listed in the
// manifest as complete, and has the size the options give. Returns the
// manifest; FailedPrecondition (exit 2) naming the file and what to do.
Result<FileManifest> CheckFilesForRun(FileSystem& fs, const FileIoSettings& s);

// Before a seqwr run (sysbench's creation test): re-creates every file
// empty (only files loadcell created, or absent ones) and records them in
// the manifest as kSeqWrite.
Result<FileManifest> RecreateForSeqWrite(FileSystem& fs, const FileIoSettings& s);

// After a seqwr run: each file i with whole[i] (the run wrote every block
// of it) becomes complete at its full size, usable by every mode as after a
// prepare, its blocks stamped if s.stamp_writes; the others stay kSeqWrite
// at the size they have. Writes the manifest; returns how many are complete.
Result<uint64_t> FinishSeqWrite(FileSystem& fs, const FileIoSettings& s, FileManifest& m,
                                const std::vector<bool>& whole);

}  // namespace loadcell
