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

// FioJobWorkload's files: laid out as fio lays them out (fallocate=,
// create_on_open), opened for the job's thread, removed with unlink=1.

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

// Writes `size` bytes of random data to a new or short file at `path`,
// its space reserved first as `mode` says.
Status LayOutFile(FileSystem& fs, const std::string& path, uint64_t size, uint64_t seed,
                  FioFallocateMode mode) {
  LC_ASSIGN_OR_RETURN(int fd, fs.Open(path, O_RDWR | O_CREAT, 0644));
  if (Status st = Reserve(fs, fd, mode, size); !st.ok()) {
    (void)fs.Close(fd);
    return Status(st.code(), path + ": " + st.message(), st.err());
  }
  std::vector<unsigned char> buf(kLayoutChunk);
  Random rng(seed);
  FillRandom(buf.data(), buf.size(), rng);
  Status st;
  for (uint64_t off = 0; off < size && st.ok(); off += kLayoutChunk) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(kLayoutChunk, size - off));
    MakeSectorsUnique(buf.data(), n, off);
    Result<size_t> w = fs.PWrite(fd, buf.data(), n, off);
    if (!w.ok()) st = w.status();
    if (w.ok() && *w != n) st = Status::IoError("short write laying out " + path);
  }
  if (st.ok()) st = fs.Fsync(fd);
  Status closed = fs.Close(fd);
  return st.ok() ? closed : st;
}

}  // namespace

bool FioJobWorkload::LaysOutFiles() const {
  const bool write_only = !s_.pattern.dirs[static_cast<int>(FioDir::kRead)] &&
                          !s_.pattern.dirs[static_cast<int>(FioDir::kTrim)] && !s_.verify_only;
  return s_.engine != "null" && !(s_.create_on_open && write_only);
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
    if (st.exists && st.size >= s_.file_size) continue;
    const bool existed = st.exists;
    LC_RETURN_IF_ERROR(LayOutFile(fs_, path, s_.file_size, ctx.seed + f, s_.fallocate));
    if (!existed) created_.push_back(path);
  }
  return Status::Ok();
}

Status FioJobWorkload::Cleanup(const PrepareContext&) {
  if (!s_.unlink) return Status::Ok();
  for (const std::string& path : created_) LC_RETURN_IF_ERROR(fs_.Unlink(path));
  created_.clear();
  return Status::Ok();
}

Status FioJobWorkload::Init(int) {
  if (s_.engine == "null") {
    for (const std::string& p : s_.files) open_.push_back(IoFile{p, -1, s_.file_size});
    return Status::Ok();
  }
  // Read-only jobs open their files read-only, as fio does (a device too).
  const bool writes = (s_.pattern.dirs[static_cast<int>(FioDir::kWrite)] && !s_.verify_only) ||
                      s_.pattern.dirs[static_cast<int>(FioDir::kTrim)];
  const int flags = (writes ? O_RDWR : O_RDONLY) | (s_.direct ? O_DIRECT : 0) |
                    (s_.sync_writes ? O_SYNC : 0) | (s_.dsync_writes ? O_DSYNC : 0);
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
    open_.push_back(IoFile{p, *fd, s_.file_size});
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
