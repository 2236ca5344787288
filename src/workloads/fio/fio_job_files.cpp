#include <fcntl.h>

#include <algorithm>
#include <vector>

#include "core/random.h"
#include "os/block_device.h"
#include "os/file_cache.h"
#include "os/file_space.h"
#include "os/open_flags.h"
#include "workloads/fileio/fileio_data.h"
#include "workloads/fio/fio_job.h"
#include "workloads/sqlio/sqlio_manifest.h"

// FioJobWorkload's files: laid out as fio lays them out (fallocate=,
// create_on_open) and recorded as loadcell's in their folder's manifest,
// opened for the job's thread, removed with unlink=1.

namespace loadcell {
namespace {

constexpr size_t kLayoutChunk = size_t{1} << 20;

// fallocate=: the file's space reserved (or its size set) before it is
// written.
Status Reserve(FileSystem& fs, int fd, FioFallocateMode mode, uint64_t size) {
  switch (mode) {
    case FioFallocateMode::kNone:
      return Status::Ok();
    case FioFallocateMode::kTruncate:
      return fs.Truncate(fd, size);
    case FioFallocateMode::kPosix:
      return ReserveSpace(fd, SpaceReservation::kPosix, size);
    case FioFallocateMode::kKeep:
      return ReserveSpace(fd, SpaceReservation::kKeepSize, size);
    case FioFallocateMode::kNative:
      return ReserveSpace(fd, SpaceReservation::kNative, size);
  }
  return Status::Ok();
}

// One file to lay out.
struct FioLayout {
  std::string path;
  uint64_t size = 0;
  uint64_t seed = 0;
  FioFallocateMode mode = FioFallocateMode::kNative;
  bool record = false;  // loadcell's own: recorded in its folder's manifest
  bool is_new = false;  // missing before: removed again when the layout fails
  bool data = true;     // written whole (FioLayoutWritesData), else reserved only
  bool empty = false;   // reserved only: emptied first (a job that writes)
  bool sized = false;   // reserved only: its size set (the mmap engine maps it)
};

// The manifest line of the file at `path` in its folder's manifest:
// `creating` (not `complete`) or `created`, with its identity and size.
Status RecordFioFile(FileSystem& fs, const std::string& path, const FileId& id, uint64_t size,
                     bool complete) {
  LC_ASSIGN_OR_RETURN(ScopedDir dir, OpenScopedDir(fs, Dirname(path)));
  SqlioManifestEntry e;
  e.name = Basename(path);
  e.size = size;
  e.complete = complete;
  e.id = id;
  return RecordSqlioFile(fs, dir.get(), e);
}

// Reserves the file's space as `l.mode` says, then writes it whole with
// random data (each sector unique) and fsyncs it. Without data: emptied
// first for a job that writes (fio makes such a file anew), reserved, and
// left as the reservation left it (fallocate=keep and none: shorter).
Status WriteLayout(FileSystem& fs, int fd, const FioLayout& l) {
  if (l.empty) LC_RETURN_IF_ERROR(fs.Truncate(fd, 0));
  if (Status st = Reserve(fs, fd, l.mode, l.size); !st.ok()) {
    return Status(st.code(), l.path + ": " + st.message(), st.err());
  }
  if (!l.data) {
    if (l.sized) LC_RETURN_IF_ERROR(fs.Truncate(fd, l.size));
    return Status::Ok();
  }
  std::vector<unsigned char> buf(kLayoutChunk);
  Random rng(l.seed);
  FillRandom(buf.data(), buf.size(), rng);
  for (uint64_t off = 0; off < l.size; off += kLayoutChunk) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(kLayoutChunk, l.size - off));
    MakeSectorsUnique(buf.data(), n, off);
    Result<size_t> w = fs.PWrite(fd, buf.data(), n, off);
    if (!w.ok()) return w.status();
    if (*w != n) return Status::IoError("short write laying out " + l.path);
  }
  return fs.Fsync(fd);
}

// Lays out a new or short file; a file of loadcell's own is recorded
// `creating` before its first byte and `created` once whole, so that a
// layout cut short leaves a file no later run takes for a whole one. A new
// file whose layout fails is removed (and the manifest, when this made it).
Status LayOutFile(FileSystem& fs, const FioLayout& l) {
  const std::string manifest = JoinPath(Dirname(l.path), kSqlioManifestName);
  Result<FileInfo> before = fs.Stat(manifest);
  const bool manifest_is_new = before.ok() && !before->exists;
  LC_ASSIGN_OR_RETURN(int fd, fs.Open(l.path, O_RDWR | O_CREAT, 0644));
  Status st;
  FileId id;
  if (l.record) {
    Result<FileInfo> info = fs.Fstat(fd);
    st = info.status();
    if (st.ok()) {
      id = info->id();
      st = RecordFioFile(fs, l.path, id, l.size, /*complete=*/false);
    }
  }
  if (st.ok()) st = WriteLayout(fs, fd, l);
  const Status closed = fs.Close(fd);
  if (st.ok()) st = closed;
  if (st.ok() && l.record) {
    // Its size now: a reservation may leave it shorter (recorded again at
    // its end size by Cleanup).
    Result<FileInfo> now = fs.Stat(l.path);
    st = now.status();
    if (st.ok()) st = RecordFioFile(fs, l.path, id, now->size, /*complete=*/true);
  }
  if (!st.ok() && l.is_new) {
    (void)fs.Unlink(l.path);
    if (l.record && manifest_is_new) (void)fs.Unlink(manifest);
  }
  return st;
}

}  // namespace

bool FioJobLaysOutFiles(const FioJobSettings& s) {
  const bool write_only = !s.pattern.dirs[static_cast<int>(FioDir::kRead)] &&
                          !s.pattern.dirs[static_cast<int>(FioDir::kTrim)] && !s.verify_only;
  return s.engine != "null" && !(s.create_on_open && write_only);
}

bool FioLayoutWritesData(const FioJobSettings& s) {
  const bool writes = s.pattern.dirs[static_cast<int>(FioDir::kWrite)];
  return s.pattern.dirs[static_cast<int>(FioDir::kRead)] || s.verify_only ||
         (writes && s.overwrite);
}

std::vector<size_t> FioJobWorkload::FilesToLayOut() const {
  std::vector<size_t> out;
  if (!LaysOutFiles()) return out;
  for (size_t f = 0; f < s_.files.size(); ++f) {
    if (IsBlockDevice(s_.files[f])) continue;
    Result<FileInfo> st = fs_.Stat(s_.files[f]);
    if (st.ok() && st->exists && st->size >= s_.FileSize(f)) continue;
    out.push_back(f);
  }
  return out;
}

Status FioJobWorkload::Prepare(const PrepareContext& ctx) {
  if (!LaysOutFiles()) return Status::Ok();
  for (size_t f = 0; f < s_.files.size(); ++f) {
    const std::string& path = s_.files[f];
    if (IsBlockDevice(path)) continue;  // a device is read as it is, never laid out
    LC_ASSIGN_OR_RETURN(FileInfo st, fs_.Stat(path));
    if (st.exists && !st.is_regular) {
      return Status::InvalidArgument("fio job " + s_.name + ": " + path + " is not a regular file");
    }
    FioLayout l;
    l.path = path;
    l.size = s_.FileSize(f);
    if (st.exists && st.size >= l.size) continue;
    l.seed = ctx.seed + f;
    l.mode = s_.fallocate;
    l.is_new = !st.exists;
    // A new file is loadcell's, and so stays one it made before; a user's
    // file laid out again (--allow-destructive) stays the user's.
    bool ours = l.is_new;
    if (!ours) {
      LC_ASSIGN_OR_RETURN(ours, SqlioMadeFile(fs_, path));
    }
    l.record = ours && !s_.unlink;
    l.data = FioLayoutWritesData(s_);
    l.empty = !l.data && s_.pattern.dirs[static_cast<int>(FioDir::kWrite)];
    l.sized = s_.engine == "mmap";
    LC_RETURN_IF_ERROR(LayOutFile(fs_, l));
    if (l.is_new) created_.push_back(path);
    if (l.record && !l.data) reserved_.push_back(path);
  }
  return Status::Ok();
}

Status FioJobWorkload::Cleanup(const PrepareContext&) {
  if (!s_.unlink) {
    // create_on_open's files are loadcell's too, at the size the job left
    // them, as are those laid out without data (the others were recorded
    // as they were laid out).
    std::vector<std::string> opened = LaysOutFiles() ? std::vector<std::string>{} : created_;
    opened.insert(opened.end(), reserved_.begin(), reserved_.end());
    created_.clear();
    reserved_.clear();
    for (const std::string& path : opened) {
      LC_ASSIGN_OR_RETURN(FileInfo st, fs_.Stat(path));
      if (st.exists && st.is_regular) {
        LC_RETURN_IF_ERROR(RecordFioFile(fs_, path, st.id(), st.size, /*complete=*/true));
      }
    }
    return Status::Ok();
  }
  for (const std::string& path : created_) LC_RETURN_IF_ERROR(fs_.Unlink(path));
  created_.clear();
  return Status::Ok();
}

Status FioJobWorkload::Init(int) {
  if (s_.engine == "null") {
    for (size_t f = 0; f < s_.files.size(); ++f) {
      open_.push_back(IoFile{s_.files[f], -1, s_.FileSize(f)});
    }
    return Status::Ok();
  }
  // Read-only jobs open their files read-only, as fio does (a device too).
  const bool writes = (s_.pattern.dirs[static_cast<int>(FioDir::kWrite)] && !s_.verify_only) ||
                      s_.pattern.dirs[static_cast<int>(FioDir::kTrim)];
  const int flags = (writes ? O_RDWR : O_RDONLY) | (s_.direct ? O_DIRECT : 0) |
                    (s_.sync_writes ? O_SYNC : 0) | (s_.dsync_writes ? O_DSYNC : 0) | s_.open_hints;
  for (const std::string& p : s_.files) {
    // create_on_open: a missing file is made now, empty (the job's writes
    // make it longer); it is the job's own, as a laid-out one is.
    bool create = false;
    if (!LaysOutFiles()) {
      Result<FileInfo> st = fs_.Stat(p);
      create = st.ok() && !st->exists;
    }
    Result<int> fd = fs_.Open(p, flags | (create ? O_CREAT : 0));
    if (fd.ok() && create) created_.push_back(p);
    if (!fd.ok()) {
      (void)Done();
      return Status(fd.status().code(), "fio job " + s_.name + ": " + fd.status().message(),
                    fd.status().err());
    }
    open_.push_back(IoFile{p, *fd, s_.FileSize(open_.size())});
    if (Status hinted = AdviseFileAccess(*fd, s_.access_hint); !hinted.ok()) {
      (void)Done();
      return Status(hinted.code(), "fio job " + s_.name + ": " + hinted.message(), hinted.err());
    }
    // fio's invalidate=1: the job starts from the device, not from what the
    // layout left in the page cache (Windows cannot: the verdict's cache
    // check then says what was read from memory).
    Status dropped = DropCachedPages(*fd);
    if (!dropped.ok() && dropped.code() != StatusCode::kUnimplemented) {
      (void)Done();
      return Status(dropped.code(), "fio job " + s_.name + ": " + p + ": " + dropped.message(),
                    dropped.err());
    }
  }
  return Status::Ok();
}

Status FioJobWorkload::Done() {
  Status st;
  for (const IoFile& f : open_) {
    if (f.fd >= 0) {
      Status c = fs_.Close(f.fd);
      if (st.ok()) st = c;
    }
  }
  open_.clear();
  return st;
}

}  // namespace loadcell
