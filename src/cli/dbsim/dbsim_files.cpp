// The files of a dbsim run (cli/dbsim/dbsim_files.h): checked, made, opened
// into the database and removed, each one loadcell's by the folder's
// manifest.
#include "cli/dbsim/dbsim_files.h"

#include <fcntl.h>
#include <fmt/format.h>

#include <algorithm>
#include <span>

#include "cli/app.h"
#include "core/progress.h"
#include "dbsim/page_format.h"
#include "os/file_cache.h"
#include "os/open_flags.h"
#include "workloads/dbsim/dbsim_worker.h"
#include "workloads/sqlio/sqlio.h"
#include "workloads/sqlio/sqlio_manifest.h"

namespace loadcell {
namespace {

// A sparse data file: made empty (listed in the manifest), then extended to
// its size without a byte written (every page a hole until written).
Status CreateSparseFile(FileSystem& fs, const std::string& dir, const DbsimFileConfig& f) {
  const std::string path = JoinPath(dir, f.name);
  LC_RETURN_IF_ERROR(CreateSqlioFile(fs, path, 0, nullptr, false, {}, "dbsim"));
  LC_ASSIGN_OR_RETURN(int fd, fs.Open(path, O_RDWR));
  Status st = fs.Truncate(fd, f.initial_mb * kDbsimMiB);
  const Status closed = fs.Close(fd);
  if (st.ok()) st = closed;
  return st.ok() ? RecordDbsimFileSize(fs, dir, f.name) : st;
}

}  // namespace

Status CheckDbsimFiles(const DbsimArgs& a, const DbsimConfig& config) {
  FileSystem& fs = DefaultFileSystem();
  // The folder is not made: one that is missing or not writable is refused
  // naming -dir.
  if (Status st = fs.CheckWritableDir(a.dir); !st.ok()) {
    return Status(st.code(), fmt::format("dbsim: -dir {}: {}", a.dir, st.message()), st.err());
  }
  for (const auto& f : config.files) {
    const std::string path = JoinPath(a.dir, f.name);
    LC_ASSIGN_OR_RETURN(FileInfo info, fs.Stat(path));
    if (!info.exists || a.allow_destructive) continue;
    LC_ASSIGN_OR_RETURN(bool ours, SqlioMadeFile(fs, path));
    if (!ours) {
      return Status::FailedPrecondition(fmt::format(
          "dbsim: '{}' exists and loadcell did not create it (it is not listed in {}); give "
          "--allow-destructive to replace it",
          path, JoinPath(a.dir, kSqlioManifestName)));
    }
  }
  return Status::Ok();
}

Status RemoveDbsimFile(FileSystem& fs, const std::string& dir, const std::string& name) {
  LC_ASSIGN_OR_RETURN(ScopedDir folder, OpenScopedDir(fs, dir));
  LC_ASSIGN_OR_RETURN(FileInfo info, fs.StatAt(folder.get(), name));
  if (!info.exists) return Status::Ok();
  const FileId id = info.id();
  return fs.UnlinkAt(folder.get(), name, &id);
}

Status RecordDbsimFileSize(FileSystem& fs, const std::string& dir, const std::string& name) {
  LC_ASSIGN_OR_RETURN(ScopedDir folder, OpenScopedDir(fs, dir));
  LC_ASSIGN_OR_RETURN(FileInfo info, fs.StatAt(folder.get(), name));
  if (!info.exists) return Status::Ok();
  SqlioManifestEntry entry;
  entry.name = name;
  entry.size = info.size;
  entry.complete = true;
  entry.id = info.id();
  return RecordSqlioFile(fs, folder.get(), entry);
}

Status CreateDbsimFiles(const DbsimArgs& a, const DbsimConfig& config, uint64_t seed,
                        std::ostream& err) {
  FileSystem& fs = DefaultFileSystem();
  for (const auto& f : config.files) {
    const std::string path = JoinPath(a.dir, f.name);
    // DeleteFilesAtStartup=FALSE: a file loadcell made, whole and of the
    // size asked, is kept and written again in place.
    bool reuse = false;
    if (!config.delete_files_at_startup && !f.sparse && !config.null_engine) {
      LC_ASSIGN_OR_RETURN(FileInfo info, fs.Stat(path));
      if (info.exists && info.size == f.initial_mb * kDbsimMiB) {
        LC_ASSIGN_OR_RETURN(reuse, SqlioMadeFile(fs, path));
      }
    }
    if (!reuse) LC_RETURN_IF_ERROR(RemoveDbsimFile(fs, a.dir, f.name));
    // The null engine's files are holes: its I/O never reaches them.
    if (f.sparse || config.null_engine) {
      LC_RETURN_IF_ERROR(CreateSparseFile(fs, a.dir, f));
      continue;
    }
    SqlioFill fill;
    if (config.stamp_files) {
      fill = [](unsigned char* buf, size_t len, uint64_t) { std::fill_n(buf, len, 0); };
    } else if (!f.log_file && !f.doublewrite_area) {
      const uint32_t page = a.page_size;
      const auto id = static_cast<uint32_t>(f.number);
      fill = [page, id, seed](unsigned char* buf, size_t len, uint64_t offset) {
        for (size_t at = 0; at + page <= len; at += page) {
          const uint64_t page_no = (offset + at) / page;
          StampDbPage(std::span<uint8_t>(buf + at, page),
                      {id, page_no, 0, DbContentSeed(seed, id, page_no, 0), 0});
        }
      };
    }
    std::ostream* progress = ProgressEnabled() ? &err : nullptr;
    LC_RETURN_IF_ERROR(reuse ? RefillSqlioFile(fs, path, f.initial_mb * kDbsimMiB, progress,
                                               StderrIsTerminal(), fill)
                             : CreateSqlioFile(fs, path, f.initial_mb * kDbsimMiB, progress,
                                               StderrIsTerminal(), fill, "dbsim"));
  }
  return Status::Ok();
}

Status OpenDbsimDatabase(const DbsimArgs& a, const DbsimConfig& config, uint64_t seed,
                         DbsimOpenFiles& open, DbsimDatabase& db, std::string& log_name,
                         DbNullFileSystem* null) {
  const int flags =
      O_RDWR | (config.no_buffering ? O_DIRECT : 0) | (config.write_through ? O_DSYNC : 0);
  for (const auto& f : config.files) {
    // InnoDB's O_DIRECT: the data files unbuffered, the redo log not.
    const int file_flags = f.log_file && config.log_buffered ? flags & ~O_DIRECT : flags;
    LC_ASSIGN_OR_RETURN(int fd, open.fs->Open(JoinPath(a.dir, f.name), file_flags));
    open.fds.push_back(fd);
    if ((file_flags & O_DIRECT) != 0 && null == nullptr) {
      // The file was made through the page cache; its pages left there
      // would make every unbuffered write invalidate its range first. As
      // fio's invalidate=1 before a job: dropped (Windows keeps no per-file
      // cache a program may drop: Unimplemented, nothing to do).
      const Status dropped = DropCachedPages(fd);
      if (!dropped.ok() && dropped.code() != StatusCode::kUnimplemented) {
        return Status(dropped.code(), f.name + ": " + dropped.message(), dropped.err());
      }
    }
    if (f.log_file) {
      db.SetLog(fd, f.initial_mb * kDbsimMiB, config.write_through);
      log_name = f.name;
      continue;
    }
    if (f.doublewrite_area) {
      db.SetDoublewrite(fd, f.initial_mb * kDbsimMiB / a.page_size, a.page_size);
      continue;
    }
    if (open.first_data_fd < 0) open.first_data_fd = fd;
    DbPageFileSettings s;
    s.file_id = static_cast<uint32_t>(f.number);
    s.page_size = a.page_size;
    s.pages = f.initial_mb * kDbsimMiB / a.page_size;
    s.capacity = std::max(f.initial_mb, f.max_mb) * kDbsimMiB / a.page_size;
    s.run_seed = seed;
    s.write_through = config.write_through;
    s.sparse = f.sparse;
    s.verify = config.verify;
    DbsimFileResize resize;
    resize.shrinkable = f.shrinkable;
    resize.increment_pages = std::max<uint64_t>(1, f.increment_mb * kDbsimMiB / a.page_size);
    db.AddDataFile(f.name, fd, s, resize);
    if (null != nullptr) {
      LC_RETURN_IF_ERROR(null->Hold(fd, s.capacity * a.page_size));
    }
    if ((config.stamp_files || null != nullptr) && !f.sparse && config.verify) {
      // Zero stamping done at creation (the null engine's pages are in
      // memory, zeros); now the pages, at key 0.
      auto buf = NewDbsimIoBuffer(a.page_size);
      LC_RETURN_IF_ERROR(
          db.file(db.data_files() - 1).StampAll(std::span<uint8_t>(buf.get(), a.page_size)));
    }
  }
  db.SetThrottle(config.target_io_duration_ms, config.max_outstanding_io);
  return Status::Ok();
}

}  // namespace loadcell
