#include "workloads/fileio/fileio_files.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <memory>
#include <sstream>

#include "core/clock.h"
#include "core/plural.h"
#include "core/progress.h"
#include "core/random.h"
#include "io/io_engine.h"
#include "runner/runner.h"
#include "workloads/fileio/fileio_data.h"
#include "workloads/fileio/fileio_existing.h"

namespace loadcell {
namespace {

constexpr uint64_t kChunkTarget = 1ULL << 20;  // prepare writes ~1 MiB per call

struct FreeDeleter {
  void operator()(void* p) const { FreeIoBuffer(p); }
};
using IoBuffer = std::unique_ptr<unsigned char, FreeDeleter>;

void Say(const FileIoConsole& c, const std::string& line) {
  if (c.out != nullptr) *c.out << line << "\n" << std::flush;
}

std::string PrepareCommand(const FileIoSettings& s) {
  std::string cmd = "loadcell fileio";
  if (s.dir != ".") cmd += " --file-dir=" + s.dir;
  cmd += fmt::format(" --file-num={} --file-total-size={}", s.num_files, FormatSize(s.total_size));
  return cmd + " prepare";
}

// Writes every block of test file `index` (open as `fd`) from start to
// end and fsyncs it, advancing `progress` by the bytes written.
Status WriteOneFile(FileSystem& fs, const FileIoSettings& s, uint64_t index, int fd, bool stamped,
                    Random& rng, unsigned char* buf, uint64_t chunk, Progress& progress) {
  const std::string path = s.FilePath(index);
  Status st;
  uint64_t off = 0;
  while (off < s.file_size) {
    if (StopRequested()) {
      st = Status::Cancelled("interrupted");
      break;
    }
    const uint64_t len = std::min(chunk, s.file_size - off);
    switch (s.pattern) {
      case WritePattern::kRandom:
        FillRandom(buf, len, rng);
        break;
      case WritePattern::kZero:
        std::fill(buf, buf + len, 0);
        break;
      case WritePattern::kSequence:
        FillSequence(buf, len, off);
        break;
    }
    if (stamped) StampBlocks(buf, len, static_cast<uint32_t>(index), off, s.block_size, 0);
    st = WriteFully(fs, fd, buf, len, off, fmt::format("writing '{}' at offset {}", path, off));
    if (!st.ok()) break;
    off += len;
    progress.Advance(len);
  }
  if (st.ok()) {
    st = fs.Fsync(fd);
    if (!st.ok()) st = Status(st.code(), "fsync '" + path + "': " + st.message(), st.err());
  }
  return st;
}

// The refusal of a file in a test file's place that loadcell cannot prove
// is its own: one line, and the file is left as it is.
Status NotOurs(const std::string& path, const std::string& why, const std::string& todo) {
  return Status::FailedPrecondition(
      fmt::format("'{}' {}: loadcell leaves it as it is; {}", path, why, todo));
}

constexpr const char* kMoveAway = "move it away or use another --file-dir";

// Whether test file `name` of `dir` may be written by a prepare or a seqwr
// run: OK when it is missing or provably loadcell's (*ours says which);
// otherwise the refusal.
Status CheckWritable(FileSystem& fs, const DirHandle& dir, const FileManifest& m,
                     const std::string& name, bool* ours) {
  *ours = false;
  const std::string path = EntryPath(dir, name);
  LC_ASSIGN_OR_RETURN(FileInfo info, fs.StatAt(dir, name));
  if (!info.exists) return Status::Ok();
  if (info.is_symlink) return NotOurs(path, "is a symbolic link", kMoveAway);
  if (!info.is_regular) return NotOurs(path, "is not a regular file", kMoveAway);
  const ManifestFile* entry = m.Find(name);
  if (entry == nullptr) {
    return NotOurs(path,
                   fmt::format("exists and was not created by loadcell (it is not in {})",
                               kFileIoManifestName),
                   kMoveAway);
  }
  LC_ASSIGN_OR_RETURN(IdentityCheck check, CheckIdentity(fs, dir, m, *entry));
  if (check.kind == IdentityCheck::kNotOurs) return NotOurs(path, check.why, kMoveAway);
  *ours = check.kind == IdentityCheck::kOurs;
  return Status::Ok();
}

// Opens test file `name` for writing from empty: the file the manifest
// records (truncated only once it is known to be that file), or a new one
// (created exclusively). *id gets the file's identity.
Result<int> OpenForRewrite(FileSystem& fs, const DirHandle& dir, const FileManifest& m,
                           const std::string& name, bool ours, FileId* id) {
  const ManifestFile* entry = m.Find(name);
  Result<int> fd = ours && entry != nullptr
                       ? fs.OpenAt(dir, name, O_WRONLY | O_TRUNC, 0644, &entry->id)
                       : fs.OpenAt(dir, name, O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (!fd.ok()) return fd.status();
  Result<FileInfo> info = fs.Fstat(*fd);
  if (!info.ok()) {
    (void)fs.Close(*fd);
    return info.status();
  }
  *id = info->id();
  return *fd;
}

}  // namespace

namespace {

// What a prepare writes: the files to (re)write (with whether each is
// loadcell's already), and how many are kept.
struct PrepareWork {
  std::vector<uint64_t> to_write;
  std::vector<bool> ours;  // by index of to_write
  uint64_t reused = 0;
};

// Decides for every file before anything is written: a file loadcell cannot
// prove it created stops the prepare with nothing changed; a complete file
// of the right size and data is kept; entries of files gone are dropped.
Result<PrepareWork> DecidePrepareWork(FileSystem& fs, const DirHandle& dir, const FileIoSettings& s,
                                      FileManifest& m, bool stamped, const std::string& pattern) {
  PrepareWork work;
  std::vector<std::string> gone;
  for (uint64_t i = 0; i < s.num_files; ++i) {
    const std::string name = s.FileName(i);
    bool ours = false;
    LC_RETURN_IF_ERROR(CheckWritable(fs, dir, m, name, &ours));
    const ManifestFile* entry = m.Find(name);
    if (!ours && entry != nullptr) gone.push_back(name);
    const bool same_data =
        m.pattern == pattern && (!stamped || (m.stamped && m.block_size == s.block_size));
    if (ours && entry->state == FileState::kComplete && entry->size == s.file_size && same_data) {
      ++work.reused;
      continue;
    }
    work.to_write.push_back(i);
    work.ours.push_back(ours);
  }
  for (const std::string& name : gone) m.Remove(name);
  return work;
}

// The lines that open a prepare: the file set, then what is written.
// `total`: the bytes to write (0: nothing to write).
constexpr uint64_t kMiBytes = uint64_t{1} << 20;

// "Extra file open flags: (none)" or the flags, as sysbench says them (in
// loadcell's own words without sysbench's trailing space).
std::string ExtraFlagsLine(const FileIoSettings& s, bool sysbench) {
  std::string flags = s.ExtraFlagsText();
  if (!sysbench && flags.back() == ' ') flags.pop_back();
  return "Extra file open flags: " + flags;
}

void SayPrepareStart(const FileIoConsole& console, const FileIoSettings& s, const PrepareWork& work,
                     uint64_t total) {
  if (console.sysbench) {
    Say(console, fmt::format("{} files, {}Kb each, {}Mb total", s.num_files, s.file_size / 1024,
                             s.file_size * s.num_files / kMiBytes));
    Say(console, "Creating files for the test...");
    Say(console, ExtraFlagsLine(s, true));
    return;
  }
  const bool one = s.num_files == 1;
  Say(console, one ? fmt::format("1 file of {}", HumanBytes(s.file_size))
                   : fmt::format("{} files, {} each, {} total", s.num_files,
                                 HumanBytes(s.file_size), HumanBytes(s.file_size * s.num_files)));
  if (work.to_write.empty()) {
    Say(console, one ? fmt::format("The file exists from an earlier prepare (complete, {}); "
                                   "nothing to write.",
                                   HumanBytes(s.file_size))
                     : fmt::format("All {} files exist from an earlier prepare (complete, {} "
                                   "each); nothing to write.",
                                   s.num_files, HumanBytes(s.file_size)));
    return;
  }
  Say(console,
      fmt::format("Creating files for the test in {} ({} to write{})...", s.dir, HumanBytes(total),
                  work.reused > 0
                      ? fmt::format(", {} reused", CountOf(work.reused, "file", "files"))
                      : ""));
  Say(console, ExtraFlagsLine(s, false));
}

// "Creating file test_file.N" before file N is written, "Reusing existing
// file test_file.N" for a complete one kept, in file order.
void SayFile(const FileIoConsole& console, const FileIoSettings& s, uint64_t i, bool reused) {
  Say(console, (reused ? "Reusing existing file " : "Creating file ") + s.FileName(i));
}

// The status of a prepare whose write of file `i` failed with `st` (the
// partial file already removed), with `complete` files complete.
Status PrepareFailure(const Status& st, const FileIoSettings& s, uint64_t i, uint64_t complete) {
  const std::string state =
      fmt::format("{} of {} complete", complete, CountOf(s.num_files, "file", "files"));
  if (st.code() == StatusCode::kCancelled) {
    return Status::Cancelled(fmt::format(
        "prepare interrupted: removed the partial file '{}'; {}; run '{}' again to resume",
        s.FilePath(i), state, PrepareCommand(s)));
  }
  if (st.err() == ENOSPC || st.err() == EFBIG || st.err() == EDQUOT) {
    const char* why = st.err() == EFBIG    ? "the file size limit was reached"
                      : st.err() == EDQUOT ? "the disk quota is exhausted"
                                           : "the filesystem is full";
    // The folder cannot hold the files asked for: the user's setup (exit 2).
    return Status::FailedPrecondition(
        fmt::format("--file-dir={}: prepare stopped: {} ({}); removed the partial file; {}; "
                    "free space or use a smaller --file-total-size",
                    s.dir, why, st.message(), state));
  }
  return Status(
      st.code(),
      fmt::format("prepare failed: {}; removed the partial file; {}", st.message(), state),
      st.err());
}

// Lists file `i` (identity `id`) in the manifest as `state` at this
// prepare's size.
void ListAs(FileManifest& m, const FileIoSettings& s, uint64_t i, FileState state, FileId id) {
  const std::string name = s.FileName(i);
  ManifestFile* f = m.Find(name);
  if (f == nullptr) {
    m.files.push_back({name, 0, state, id});
    f = &m.files.back();
  }
  f->size = s.file_size;
  f->state = state;
  f->id = id;
}

// Removes the partially written file `i` (identity `id`) and its entry.
void RemovePartial(FileSystem& fs, const DirHandle& dir, const FileIoSettings& s, FileManifest& m,
                   uint64_t i, FileId id) {
  (void)fs.UnlinkAt(dir, s.FileName(i), &id);
  m.Remove(s.FileName(i));
  (void)WriteManifestAt(fs, dir, m);
}

// Writes file to_write[k] of `work` whole, listed in the manifest as
// partial before the first byte (so a crash leaves it to cleanup) and as
// complete after its fsync. A failure removes the partial file.
Status PrepareOneFile(FileSystem& fs, const DirHandle& dir, const FileIoSettings& s,
                      FileManifest& m, const PrepareWork& work, size_t k, Random& rng,
                      unsigned char* buf, uint64_t chunk, Progress& progress) {
  const uint64_t i = work.to_write[k];
  FileId id;
  LC_ASSIGN_OR_RETURN(const int fd, OpenForRewrite(fs, dir, m, s.FileName(i), work.ours[k], &id));
  ListAs(m, s, i, FileState::kPartial, id);
  Status st = WriteManifestAt(fs, dir, m);
  if (st.ok()) st = WriteOneFile(fs, s, i, fd, m.stamped, rng, buf, chunk, progress);
  const Status closed = fs.Close(fd);
  if (st.ok()) st = closed;
  if (!st.ok()) {
    progress.Done();
    RemovePartial(fs, dir, s, m, i, id);  // never leave a half-written file behind
    return st;
  }
  ListAs(m, s, i, FileState::kComplete, id);
  return WriteManifestAt(fs, dir, m);
}

}  // namespace

Status PrepareFiles(FileSystem& fs, const FileIoSettings& s, uint64_t seed,
                    const FileIoConsole& console) {
  LC_ASSIGN_OR_RETURN(ScopedDir dir, OpenScopedDir(fs, s.dir));
  LC_ASSIGN_OR_RETURN(std::optional<FileManifest> existing, ReadManifestAt(fs, dir.get()));
  LC_RETURN_IF_ERROR(CheckManifestPlaces(fs, dir.get()));
  FileManifest m = existing.value_or(FileManifest{});
  const bool stamped = s.stamp_writes;
  const std::string pattern = WritePatternName(s.pattern);
  LC_ASSIGN_OR_RETURN(const PrepareWork work,
                      DecidePrepareWork(fs, dir.get(), s, m, stamped, pattern));
  // Files kept from before must match what this prepare writes.
  m.block_size = s.block_size;
  m.pattern = pattern;
  m.stamped = stamped;
  m.flags = s.OpenFlagsText();

  const uint64_t total = static_cast<uint64_t>(work.to_write.size()) * s.file_size;
  SayPrepareStart(console, s, work, total);
  std::vector<bool> written(s.num_files, false);
  for (uint64_t i : work.to_write) written[i] = true;
  if (work.to_write.empty()) {
    if (console.sysbench) {
      for (uint64_t i = 0; i < s.num_files; ++i) SayFile(console, s, i, true);
      Say(console, "No bytes written.");
    }
    return WriteManifestAt(fs, dir.get(), m);
  }

  const uint64_t chunk = std::max<uint64_t>(1, kChunkTarget / s.block_size) * s.block_size;
  IoBuffer buf(static_cast<unsigned char*>(AllocateIoBuffer(chunk)));
  if (buf == nullptr) return Status::Internal("prepare: out of memory for the write buffer");
  const Nanos start = MonotonicNow();
  Progress progress("prepare", total, "bytes", console.progress, console.progress_tty);
  Random rng(seed != 0 ? seed : 0x6c6f6164ULL);
  uint64_t said = 0;  // files named so far, in order
  for (size_t k = 0; k < work.to_write.size(); ++k) {
    for (; said <= work.to_write[k]; ++said) SayFile(console, s, said, !written[said]);
    Status st = PrepareOneFile(fs, dir.get(), s, m, work, k, rng, buf.get(), chunk, progress);
    if (!st.ok()) {
      if (st.IsUsageError()) return st;  // refused before a byte was written
      // Nothing to keep, and no manifest before: the folder is left as it was.
      if (!existing.has_value() && m.files.empty()) (void)RemoveManifestAt(fs, dir.get());
      return PrepareFailure(st, s, work.to_write[k], work.reused + k);
    }
  }
  progress.Done();
  for (; said < s.num_files; ++said) SayFile(console, s, said, true);
  const double secs = static_cast<double>(MonotonicNow() - start) / 1e9;
  Say(console, fmt::format("{} bytes written in {:.2f} seconds ({:.2f} MiB/sec).", total, secs,
                           secs > 0 ? static_cast<double>(total) / (1 << 20) / secs : 0.0));
  return Status::Ok();
}

Status CleanupFiles(FileSystem& fs, const std::string& dir, const FileIoConsole& console) {
  LC_ASSIGN_OR_RETURN(ScopedDir d, OpenScopedDir(fs, dir));
  LC_ASSIGN_OR_RETURN(std::optional<FileManifest> m, ReadManifestAt(fs, d.get()));
  if (!m.has_value()) {
    // sysbench says the same line whatever there is to remove.
    Say(console, console.sysbench ? std::string("Removing test files...")
                                  : fmt::format("Nothing to remove: {} has no {} (no files "
                                                "prepared by loadcell).",
                                                dir, kFileIoManifestName));
    return Status::Ok();
  }
  Say(console, "Removing test files...");
  size_t removed = 0;
  size_t left = 0;
  for (const ManifestFile& f : m->files) {
    LC_ASSIGN_OR_RETURN(IdentityCheck check, CheckIdentity(fs, d.get(), *m, f));
    Status st =
        check.kind == IdentityCheck::kOurs ? fs.UnlinkAt(d.get(), f.name, &f.id) : Status::Ok();
    if (check.kind == IdentityCheck::kNotOurs || st.IsUsageError()) {
      ++left;
      Say(console, fmt::format("Left '{}' in place: it {}, so it is not loadcell's to remove.",
                               EntryPath(d.get(), f.name),
                               check.kind == IdentityCheck::kNotOurs ? check.why : st.message()));
    } else if (st.ok() && check.kind == IdentityCheck::kOurs) {
      ++removed;
    } else if (!st.ok() && st.err() != ENOENT) {
      return st;
    }
  }
  LC_RETURN_IF_ERROR(RemoveManifestAt(fs, d.get()));
  // A temporary manifest left by a crash (a regular file only).
  if (Result<FileInfo> tmp = fs.StatAt(d.get(), kFileIoManifestTmpName);
      tmp.ok() && tmp->exists && tmp->is_regular) {
    (void)fs.UnlinkAt(d.get(), kFileIoManifestTmpName);
  }
  // sysbench says nothing after "Removing test files..." (a file left in
  // place is named above in both modes).
  if (console.sysbench) return Status::Ok();
  Say(console, fmt::format("Removed {} and the manifest{}.", CountOf(removed, "file", "files"),
                           left == 0 ? ""
                                     : fmt::format("; left {} that loadcell did not create",
                                                   CountOf(left, "file", "files"))));
  return Status::Ok();
}

namespace {

// The refusal of a run whose test file `i` is not ready: OK when it is.
// A file that is missing, half written or of another size fails the run
// (NotReady, exit 1, as sysbench's run fails on it); a file in its place
// that loadcell cannot prove is its own is refused as it is everywhere
// (FailedPrecondition, exit 2).
Status RunProblem(FileSystem& fs, const DirHandle& dir, const FileIoSettings& s,
                  const FileManifest& m, uint64_t i) {
  const std::string path = s.FilePath(i);
  const std::string prepare_first = fmt::format("run '{}' first", PrepareCommand(s));
  const ManifestFile* entry = m.Find(s.FileName(i));
  if (entry == nullptr) {
    LC_ASSIGN_OR_RETURN(FileInfo info, fs.StatAt(dir, s.FileName(i)));
    if (!info.exists) {
      return Status::NotReady(
          fmt::format("test file '{}' does not exist: {}", path, prepare_first));
    }
    return Status::FailedPrecondition(
        fmt::format("test file '{}' was not created by loadcell "
                    "prepare: {}{}",
                    path, prepare_first, UseExistingHint(fs, s)));
  }
  LC_ASSIGN_OR_RETURN(IdentityCheck check, CheckIdentity(fs, dir, m, *entry));
  if (check.kind == IdentityCheck::kMissing) {
    return Status::NotReady(fmt::format("test file '{}' does not exist: {}", path, prepare_first));
  }
  if (check.kind == IdentityCheck::kNotOurs) {
    return Status::FailedPrecondition(
        fmt::format("'{}' {}: loadcell does not use it and leaves it as it is; {}, then run "
                    "'{}'",
                    path, check.why, kMoveAway, PrepareCommand(s)));
  }
  if (entry->state != FileState::kComplete) {
    return Status::NotReady(
        fmt::format("file {} is not completely written ({}); run '{}' to write it whole", path,
                    entry->state == FileState::kSeqWrite
                        ? "re-created by a seqwr run that ended before it wrote every block"
                        : "its prepare was interrupted",
                    PrepareCommand(s)));
  }
  if (entry->size != s.file_size) {
    return Status::NotReady(fmt::format(
        "file {} has size {}, expected {} from --file-total-size={} and --file-num={}; re-run "
        "prepare after cleanup",
        path, entry->size, s.file_size, FormatSize(s.total_size), s.num_files));
  }
  return Status::Ok();
}

}  // namespace

Result<FileManifest> CheckFilesForRun(FileSystem& fs, const FileIoSettings& s) {
  LC_ASSIGN_OR_RETURN(ScopedDir dir, OpenScopedDir(fs, s.dir));
  LC_ASSIGN_OR_RETURN(std::optional<FileManifest> m, ReadManifestAt(fs, dir.get()));
  const bool use_existing = s.use_existing != UseExisting::kOff;
  if (!m.has_value() && use_existing) m = FileManifest{};  // every file is another tool's
  if (!m.has_value()) {
    // Nothing prepared fails the run; another tool's files in their place
    // are refused until the user says to use them (--file-use-existing).
    const std::string hint = UseExistingHint(fs, s);
    return Status(hint.empty() ? StatusCode::kNotReady : StatusCode::kFailedPrecondition,
                  fmt::format("no test files prepared by loadcell in {}: run '{}' first{}", s.dir,
                              PrepareCommand(s), hint));
  }
  for (uint64_t i = 0; i < s.num_files; ++i) {
    if (use_existing && m->Find(s.FileName(i)) == nullptr) {
      // Not loadcell's: used as it is when it is a regular file (never
      // through a link) of the right size.
      LC_ASSIGN_OR_RETURN(FileInfo info, fs.StatAt(dir.get(), s.FileName(i)));
      if (info.exists) {
        LC_RETURN_IF_ERROR(CheckForeignFile(s, i, info));
        continue;
      }
    }
    LC_RETURN_IF_ERROR(RunProblem(fs, dir.get(), s, *m, i));
  }
  if (s.validate && !m->stamped) {
    return Status::FailedPrecondition(
        "--validate: the files hold blocks without a stamp (written with "
        "--file-write-pattern=zero|sequence without --validate); run cleanup, then prepare "
        "again");
  }
  if (s.validate && m->block_size != s.block_size) {
    return Status::FailedPrecondition(fmt::format(
        "--validate: the blocks were stamped with --file-block-size={}; use that size or run "
        "cleanup and prepare again",
        m->block_size));
  }
  return std::move(*m);
}

Result<FileManifest> RecreateForSeqWrite(FileSystem& fs, const FileIoSettings& s) {
  if (s.use_existing != UseExisting::kOff) {
    return Status::FailedPrecondition(
        "--file-test-mode=seqwr re-creates the test files, so it never uses files that loadcell "
        "did not create: drop --file-use-existing, or use another mode on those files");
  }
  LC_ASSIGN_OR_RETURN(ScopedDir dir, OpenScopedDir(fs, s.dir));
  LC_ASSIGN_OR_RETURN(std::optional<FileManifest> existing, ReadManifestAt(fs, dir.get()));
  LC_RETURN_IF_ERROR(CheckManifestPlaces(fs, dir.get()));
  FileManifest m = existing.value_or(FileManifest{});
  // Every file is checked before any is touched.
  std::vector<bool> ours(s.num_files);
  for (uint64_t i = 0; i < s.num_files; ++i) {
    bool mine = false;
    LC_RETURN_IF_ERROR(CheckWritable(fs, dir.get(), m, s.FileName(i), &mine));
    ours[i] = mine;
  }
  m.block_size = s.block_size;
  m.pattern = WritePatternName(s.pattern);
  m.stamped = false;
  m.flags = s.OpenFlagsText();
  for (uint64_t i = 0; i < s.num_files; ++i) {
    const std::string name = s.FileName(i);
    FileId id;
    LC_ASSIGN_OR_RETURN(const int fd, OpenForRewrite(fs, dir.get(), m, name, ours[i], &id));
    LC_RETURN_IF_ERROR(fs.Close(fd));
    m.Remove(name);
    m.files.push_back({name, 0, FileState::kSeqWrite, id});
  }
  LC_RETURN_IF_ERROR(WriteManifestAt(fs, dir.get(), m));
  return m;
}

Result<uint64_t> FinishSeqWrite(FileSystem& fs, const FileIoSettings& s, FileManifest& m,
                                const std::vector<bool>& whole,
                                const std::vector<uint64_t>& sizes) {
  uint64_t complete = 0;
  for (uint64_t i = 0; i < s.num_files; ++i) {
    ManifestFile* f = m.Find(s.FileName(i));
    if (f == nullptr) continue;
    if (i < whole.size() && whole[i]) {
      f->size = s.file_size;
      f->state = FileState::kComplete;
      ++complete;
      continue;
    }
    if (i < sizes.size()) f->size = sizes[i];
    f->state = FileState::kSeqWrite;
  }
  m.stamped = s.stamp_writes;
  LC_RETURN_IF_ERROR(WriteManifest(fs, s.dir, m));
  return complete;
}

}  // namespace loadcell
