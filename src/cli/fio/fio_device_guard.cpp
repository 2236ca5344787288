#include "cli/fio/fio_device_guard.h"

#include <fmt/format.h>

#include <algorithm>

#include "cli/fio/fio_plan_checks.h"
#include "cli/mpi_ranks.h"
#include "os/block_device.h"
#include "workloads/sqlio/sqlio_manifest.h"

namespace loadcell {

Status CheckFioDeviceWrite(const fio::FioJobSpec& spec, const std::string& path, bool changes,
                           bool allow_destructive) {
  if (!changes) return Status::Ok();
  const std::string where = FioWhere(spec, "filename");
  std::string mount;
  Result<bool> mounted = BlockDeviceMounted(path, &mount);
  if (!mounted.ok()) return Status::InvalidArgument(where + mounted.status().message());
  if (*mounted && !spec.allow_mounted_write) {
    return Status::InvalidArgument(where + path + " is mounted (" + mount +
                                   "): a job that writes to it would corrupt that file system; "
                                   "fio's allow_mounted_write=1 allows it");
  }
  Result<std::string> signature = BlockDeviceSignature(path);
  if (!signature.ok()) return Status::InvalidArgument(where + signature.status().message());
  if (!signature->empty() && !allow_destructive) {
    return Status::InvalidArgument(where + path + " holds " + *signature +
                                   ": a job that writes to it destroys that; loadcell writes to "
                                   "such a device only with --allow-destructive");
  }
  return Status::Ok();
}

Status CheckFioFileWrite(const fio::FioJobSpec& spec, const FioFileUse& use, bool allow_destructive,
                         FileSystem& fs) {
  if (allow_destructive) return Status::Ok();
  const std::string where = FioWhere(spec, "filename");
  Result<FileInfo> st = fs.Stat(use.path);
  if (!st.ok()) return Status::InvalidArgument(where + st.status().message());
  if (!st->exists || !st->is_regular) return Status::Ok();
  const bool relays = use.lays_out && st->size < use.needed;
  if (!use.writes && !use.trims && !relays) return Status::Ok();
  Result<bool> ours = SqlioMadeFile(fs, use.path);
  if (!ours.ok()) return Status::InvalidArgument(where + use.path + ": " + ours.status().message());
  if (*ours) return Status::Ok();
  const std::string what = use.writes ? "writes to " + use.path
                           : use.trims
                               ? "trims " + use.path
                               : fmt::format("would lay out {} again ({} bytes; it needs {})",
                                             use.path, st->size, use.needed);
  return Status::InvalidArgument(
      fmt::format("{}job {} {}, an existing file loadcell did not lay out (it is not listed in "
                  "{}): loadcell changes such a file only with --allow-destructive",
                  where, use.job, what, JoinPath(Dirname(use.path), kSqlioManifestName)));
}

Status CheckFioFileCreate(const fio::FioJobSpec& spec, const FioJobSettings& s, bool readonly,
                          const std::string& rank_folder, FileSystem& fs) {
  if (s.engine == "null") return Status::Ok();
  const bool lays_out = FioJobLaysOutFiles(s);
  for (size_t f = 0; f < s.files.size(); ++f) {
    const std::string& path = s.files[f];
    if (IsBlockDevice(path)) continue;
    LC_ASSIGN_OR_RETURN(FileInfo st, fs.Stat(path));
    if (st.exists && (!st.is_regular || !lays_out || st.size >= s.FileSize(f))) continue;
    if (!st.exists) {
      std::string folder = Dirname(path);
      if (!rank_folder.empty() && Basename(folder) == rank_folder) folder = Dirname(folder);
      LC_ASSIGN_OR_RETURN(FileInfo dir, fs.Stat(folder));
      if (!dir.exists || !dir.is_directory) {
        return FioRefuse(spec, spec.filenames.empty() ? "directory" : "filename",
                         fmt::format("job {}: the folder {} of {} does not exist: loadcell makes "
                                     "no folder for a job's files (fio would); make it first",
                                     s.name, folder, path));
      }
    }
    if (spec.allow_file_create && !readonly) continue;
    const std::string what = st.exists
                                 ? fmt::format("would lay out {} again ({} bytes; it needs {})",
                                               path, st.size, s.FileSize(f))
                                 : "would create " + path + ", which does not exist";
    if (!spec.allow_file_create) {
      return FioRefuse(spec, "allow_file_create",
                       fmt::format("job {} {}: allow_file_create=0 forbids making or extending "
                                   "a file",
                                   s.name, what));
    }
    return FioRefuse(
        spec, "filename",
        fmt::format("job {} {}: --readonly forbids making or extending a file", s.name, what));
  }
  return Status::Ok();
}

Status LockFioJobFolders(const fio::FioJobSpec& spec, const FioJobSettings& s,
                         const std::string& rank_folder, FileSystem& fs, FioFolderLocks& locks) {
  if (s.engine == "null") return Status::Ok();
  const bool changes = (FioRwWrites(spec.rw) && !spec.verify_only) || FioRwTrims(spec.rw);
  const bool lays_out = FioJobLaysOutFiles(s);
  for (size_t f = 0; f < s.files.size(); ++f) {
    const std::string& path = s.files[f];
    if (IsBlockDevice(path)) continue;
    const std::string folder = Dirname(path);
    const auto& held = locks.folders;
    if (std::find(held.begin(), held.end(), folder) != held.end()) continue;
    LC_ASSIGN_OR_RETURN(FileInfo st, fs.Stat(path));
    if (st.exists && !st.is_regular) continue;  // never laid out (a character device, a FIFO)
    const bool short_file = st.exists && lays_out && st.size < s.FileSize(f);
    if (!changes && st.exists && !short_file) continue;
    LC_ASSIGN_OR_RETURN(FileInfo dir, fs.Stat(folder));
    if (!dir.exists) {
      if (rank_folder.empty() || Basename(folder) != rank_folder) continue;
      LC_ASSIGN_OR_RETURN(FileInfo parent, fs.Stat(Dirname(folder)));
      if (!parent.exists) continue;
      if (!MakeRankFolders({path}, rank_folder, locks.made).ok()) continue;  // the layout says why
    }
    LC_ASSIGN_OR_RETURN(FolderLock lock, LockSqlioFolder(fs, folder, "loadcell fio"));
    locks.locks.push_back(std::move(lock));
    locks.folders.push_back(folder);
  }
  return Status::Ok();
}

void FioFolderLocks::Release() {
  locks.clear();  // each lock file removed as its lock goes
  folders.clear();
  RemoveRankFolders(made);
  made.clear();
}

}  // namespace loadcell
