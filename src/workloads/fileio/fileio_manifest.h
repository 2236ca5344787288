#pragma once
// fileio: the manifest, <file-dir>/.loadcell-fileio.manifest, which lists the
// files loadcell created in the folder and how to know each again: its
// name (only loadcell's own test_file.N), device and inode (and birth, where
// the file system gives one: see FileId), size and state.
// Read and written only through the FileSystem's directory-relative calls:
// a link or a special file in the manifest's place (or in its temporary's,
// .loadcell-fileio.manifest.tmp) is refused and left alone.
//
// Format (version 2), one item per line, '#' starts a comment:
//   version 2
//   block-size 4096
//   pattern random            (random | zero | sequence | mixed)
//   stamped 1                 (every block carries a validation stamp)
//   flags direct              (open flags prepare used; may be absent)
//   file test_file.0 size=1048576 state=complete device=2049 inode=131 birth=1765080000123456789
// A file line is the name, then key=value fields in any order; every
// required field of FileFields() once, an optional one (birth: absent when
// not known) at most once; an unknown key is refused. A
// field is added by adding a row to that table (and a member to
// ManifestFile); a state by adding it to FileState and StateName/ParseState.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "os/file_system.h"

namespace loadcell {

inline constexpr const char* kFileIoManifestName = ".loadcell-fileio.manifest";
inline constexpr const char* kFileIoManifestTmpName = ".loadcell-fileio.manifest.tmp";
inline constexpr int kFileIoManifestVersion = 2;

enum class FileState {
  kComplete,  // every block written by prepare (or by a seqwr run that wrapped)
  kPartial,   // being written, or the prepare that wrote it was interrupted
  kSeqWrite,  // re-created by a seqwr run: may not be fully written
};

struct ManifestFile {
  std::string name;  // an entry of the folder: always a test file name
  uint64_t size = 0;
  FileState state = FileState::kPartial;
  FileId id;  // the file loadcell created (device, inode, birth)
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

// True for the names of loadcell's test files: "test_file.N", N a decimal
// number without leading zeros.
bool IsTestFileName(const std::string& name);
// The index N of a test file name (IsTestFileName(name) must hold).
uint64_t TestFileIndex(const std::string& name);

std::string ManifestPath(const std::string& dir);
// std::nullopt when the directory has no manifest. A manifest that is a
// link or not a regular file, of another version, or with a line that is not
// loadcell's (an entry naming anything but a test file, twice the same
// name, a missing or unknown field) is FailedPrecondition (exit 2) naming
// the line and what to do.
Result<std::optional<FileManifest>> ReadManifest(FileSystem& fs, const std::string& dir);
Result<std::optional<FileManifest>> ReadManifestAt(FileSystem& fs, const DirHandle& dir);
// Replaces the manifest atomically: writes the temporary (created
// exclusively; one left by a crash is removed first when it is a regular
// file), fsyncs it and renames it over the manifest. A link or special
// file in either place is refused and left alone.
Status WriteManifest(FileSystem& fs, const std::string& dir, const FileManifest& m);
Status WriteManifestAt(FileSystem& fs, const DirHandle& dir, const FileManifest& m);
// What WriteManifestAt checks first: neither the manifest's nor its
// temporary's place holds a link or a special file (the refusal otherwise).
// Commands that write files call it before their first byte.
Status CheckManifestPlaces(FileSystem& fs, const DirHandle& dir);
// Removes the manifest (a regular file only).
Status RemoveManifestAt(FileSystem& fs, const DirHandle& dir);

// The text of a manifest (what WriteManifest writes), and its parse; `path`
// names the manifest in messages.
std::string FormatManifest(const FileManifest& m);
Result<FileManifest> ParseManifest(const std::string& text, const std::string& path);

}  // namespace loadcell
