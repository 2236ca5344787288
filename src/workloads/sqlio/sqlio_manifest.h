#pragma once
// sqlio: which files of a folder loadcell's SQLIO made, and whether a test
// may write to a file. The folder's manifest (kSqlioManifestName) gets a
// line when a file's creation begins and another once it is written whole
// and fsynced; each names the file, its size, device and inode, and its
// birth (ns since 1970) where the file system gives one:
//   creating t.dat 8388608 bytes by loadcell sqlio device=2049 inode=131 birth=1765080000123456789
//   created t.dat 8388608 bytes by loadcell sqlio device=2049 inode=131 birth=1765080000123456789
// The last line for a name says what it is. A file is SQLIO's own only when
// that line is a `created` one with the file's device, inode, birth (when
// the line and the file system both have one: see FileId) and size;
// anything else is the user's, and a write test (-kW) uses it only with
// --sqlio-use-existing=write. See docs/safety.md.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "os/file_system.h"
#include "workloads/fileio/fileio_lock.h"

namespace loadcell {

inline constexpr const char* kSqlioManifestName = ".loadcell-sqlio.manifest";
inline constexpr const char* kSqlioLockName = ".loadcell-sqlio.lock";

struct SqlioManifestEntry {
  std::string name;  // an entry of the folder
  uint64_t size = 0;
  bool complete = false;     // `created`; false: `creating` (begun, never finished)
  std::optional<FileId> id;  // absent on lines of older versions (unprovable)
};

// The entries of a manifest's text, in order; lines that are not loadcell's
// are skipped (they prove nothing).
std::vector<SqlioManifestEntry> ParseSqlioManifest(const std::string& text);
// The line RecordSqlioFile appends for `e` (with its newline).
std::string FormatSqlioManifestLine(const SqlioManifestEntry& e);
// The identity that ends a line of the manifest, " device=D inode=I", then
// " birth=B" when the birth is known; and back (nullopt unless `text` is
// exactly that, or the older form without the birth). Also dbsim's lines.
std::string FormatManifestIdentity(const FileId& id);
std::optional<FileId> ParseManifestIdentity(std::string_view text);

// The manifest of folder `dir` (empty when there is none). A link or a
// special file in its place is refused (FailedPrecondition) and left alone.
Result<std::vector<SqlioManifestEntry>> ReadSqlioManifestAt(FileSystem& fs, const DirHandle& dir);
// Its text, every line ("" when there is none), refused as ReadSqlioManifestAt.
Result<std::string> ReadSqlioManifestTextAt(FileSystem& fs, const DirHandle& dir);
// Appends `e`'s line to the manifest of `dir` and fsyncs it (never through a
// link in the manifest's place).
Status RecordSqlioFile(FileSystem& fs, const DirHandle& dir, const SqlioManifestEntry& e);
// Appends `line` (with its newline) so; for the lines of other kinds that
// share the manifest (ParseSqlioManifest skips them).
Status AppendSqlioManifestLine(FileSystem& fs, const DirHandle& dir, const std::string& line);

// What a test asks of one existing file.
struct SqlioFileUse {
  std::string path;   // on this system
  std::string shown;  // as the user wrote it
  bool write = false;
  bool use_existing_write = false;   // --sqlio-use-existing=write
  std::optional<FileId> param_file;  // -F's file
};

// What no test may use, whatever it asks (FailedPrecondition, exit 2, one
// line): the manifest's or the lock's name, the param file itself, the
// manifest under another name (a hard link). A missing file (or folder) is
// only checked by its name.
Status CheckSqlioFileName(FileSystem& fs, const SqlioFileUse& use);
// Whether the test may use the file `use.path`, under the folder's lock:
// CheckSqlioFileName, then refused a file whose creation was never finished
// (the last line for it is `creating` with its identity), and for a write
// test a file that is not provably SQLIO's own (a `created` line with its
// identity and size) without --sqlio-use-existing=write.
Status CheckSqlioFileUse(FileSystem& fs, const SqlioFileUse& use);

// Whether the manifest of `path`'s folder lists it as made by loadcell,
// whole, with its identity and size (false for a missing file).
Result<bool> SqlioMadeFile(FileSystem& fs, const std::string& path);

// Takes the SQLIO lock of folder `dir` (kSqlioLockName) for `command`
// ("loadcell sqlio", "loadcell diskspd", "loadcell fio": every command whose
// files this folder's manifest lists): held by another loadcell, one line
// naming it, after the command's last word ("fio: "), exit 2.
Result<FolderLock> LockSqlioFolder(FileSystem& fs, const std::string& dir,
                                   const std::string& command);

}  // namespace loadcell
