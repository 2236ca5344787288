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

namespace loadcell {
namespace {

constexpr uint64_t kChunkTarget = 1ULL << 20;  // prepare writes ~1 MiB per call

const char* StateName(FileState s) {
  switch (s) {
    case FileState::kComplete:
      return "complete";
    case FileState::kPartial:
      return "partial";
    case FileState::kSeqWrite:
      return "seqwr";
  }
  return "partial";
}

FileState ParseState(const std::string& s) {
  if (s == "complete") return FileState::kComplete;
  if (s == "seqwr") return FileState::kSeqWrite;
  return FileState::kPartial;
}

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

// Writes file `index` from start to end, advancing `progress` by the bytes written.
Status WriteOneFile(FileSystem& fs, const FileIoSettings& s, uint64_t index, bool stamped,
                    Random& rng, unsigned char* buf, uint64_t chunk, Progress& progress) {
  const std::string path = s.FilePath(index);
  LC_ASSIGN_OR_RETURN(int fd, fs.Open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644));
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
  Status closed = fs.Close(fd);
  if (st.ok()) st = closed;
  return st;
}

}  // namespace

ManifestFile* FileManifest::Find(const std::string& name) {
  for (ManifestFile& f : files) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

const ManifestFile* FileManifest::Find(const std::string& name) const {
  for (const ManifestFile& f : files) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

void FileManifest::Remove(const std::string& name) {
  files.erase(std::remove_if(files.begin(), files.end(),
                             [&](const ManifestFile& f) { return f.name == name; }),
              files.end());
}

std::string ManifestPath(const std::string& dir) { return dir + "/" + kFileIoManifestName; }

Result<std::optional<FileManifest>> ReadManifest(FileSystem& fs, const std::string& dir) {
  const std::string path = ManifestPath(dir);
  LC_ASSIGN_OR_RETURN(FileInfo info, fs.Stat(path));
  if (!info.exists) return std::optional<FileManifest>();
  LC_ASSIGN_OR_RETURN(int fd, fs.Open(path, O_RDONLY));
  std::string text(info.size, '\0');
  Status st = ReadFully(fs, fd, text.data(), text.size(), 0, "reading '" + path + "'");
  (void)fs.Close(fd);
  LC_RETURN_IF_ERROR(st);

  FileManifest m;
  std::istringstream in(text);
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string key;
    fields >> key;
    bool ok = true;
    if (key == "version") {
      int v = 0;
      ok = static_cast<bool>(fields >> v) && v == 1;
    } else if (key == "block-size") {
      ok = static_cast<bool>(fields >> m.block_size);
    } else if (key == "pattern") {
      ok = static_cast<bool>(fields >> m.pattern);
    } else if (key == "stamped") {
      int v = 0;
      ok = static_cast<bool>(fields >> v);
      m.stamped = v != 0;
    } else if (key == "flags") {
      fields >> m.flags;
    } else if (key == "file") {
      ManifestFile f;
      std::string state;
      ok = static_cast<bool>(fields >> f.name >> f.size >> state) &&
           f.name.find('/') == std::string::npos && f.name != "." && f.name != "..";
      f.state = ParseState(state);
      if (ok) m.files.push_back(f);
    }
    if (!ok) {
      return Status::FailedPrecondition(
          fmt::format("{} line {}: not a loadcell fileio manifest line; remove the files by hand",
                      path, line_no));
    }
  }
  return std::optional<FileManifest>(std::move(m));
}

Status WriteManifest(FileSystem& fs, const std::string& dir, const FileManifest& m) {
  std::string text =
      "# loadcell fileio: the files that loadcell created in this directory.\n"
      "# 'loadcell fileio cleanup' removes exactly these files, then this manifest.\n"
      "version 1\n";
  text += fmt::format("block-size {}\npattern {}\nstamped {}\n", m.block_size, m.pattern,
                      m.stamped ? 1 : 0);
  if (!m.flags.empty()) text += "flags " + m.flags + "\n";
  for (const ManifestFile& f : m.files) {
    text += fmt::format("file {} {} {}\n", f.name, f.size, StateName(f.state));
  }
  const std::string path = ManifestPath(dir);
  const std::string tmp = path + ".tmp";
  LC_ASSIGN_OR_RETURN(int fd, fs.Open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644));
  Status st = WriteFully(fs, fd, text.data(), text.size(), 0, "writing '" + tmp + "'");
  if (st.ok()) st = fs.Fsync(fd);
  Status closed = fs.Close(fd);
  if (st.ok()) st = closed;
  if (st.ok()) st = fs.Rename(tmp, path);
  if (!st.ok()) (void)fs.Unlink(tmp);
  return st;
}

namespace {

// What a prepare writes: the files to (re)write, and how many are kept.
struct PrepareWork {
  std::vector<uint64_t> to_write;
  uint64_t reused = 0;
};

// Decides for every file before anything is written: a file loadcell did not
// create stops the prepare with nothing changed; a complete file of the
// right size and data is kept.
Result<PrepareWork> DecidePrepareWork(FileSystem& fs, const FileIoSettings& s,
                                      const FileManifest& m, bool stamped,
                                      const std::string& pattern) {
  PrepareWork work;
  for (uint64_t i = 0; i < s.num_files; ++i) {
    const std::string name = s.FileName(i);
    LC_ASSIGN_OR_RETURN(FileInfo info, fs.Stat(s.FilePath(i)));
    const ManifestFile* entry = m.Find(name);
    if (info.exists && entry == nullptr) {
      return Status::FailedPrecondition(fmt::format(
          "'{}' exists and was not created by loadcell (it is not in {}); move it away or use "
          "another --file-dir",
          s.FilePath(i), kFileIoManifestName));
    }
    if (info.exists && !info.is_regular) {
      return Status::FailedPrecondition(
          fmt::format("'{}' exists and is not a regular file", s.FilePath(i)));
    }
    const bool same_data =
        m.pattern == pattern && (!stamped || (m.stamped && m.block_size == s.block_size));
    if (info.exists && entry->state == FileState::kComplete && entry->size == s.file_size &&
        info.size == s.file_size && same_data) {
      ++work.reused;
      continue;
    }
    work.to_write.push_back(i);
  }
  return work;
}

// The lines that open a prepare: the file set, then what is written.
// `total`: the bytes to write (0: nothing to write).
void SayPrepareStart(const FileIoConsole& console, const FileIoSettings& s, const PrepareWork& work,
                     uint64_t total) {
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
    return Status::ResourceExhausted(
        fmt::format("prepare failed: {} ({}); removed the partial file; {}; free "
                    "space or use a smaller --file-total-size",
                    why, st.message(), state),
        st.err());
  }
  return Status(
      st.code(),
      fmt::format("prepare failed: {}; removed the partial file; {}", st.message(), state),
      st.err());
}

// Lists file `i` in the manifest as `state` at this prepare's size.
void ListAs(FileManifest& m, const FileIoSettings& s, uint64_t i, FileState state) {
  const std::string name = s.FileName(i);
  if (ManifestFile* f = m.Find(name)) {
    f->size = s.file_size;
    f->state = state;
  } else {
    m.files.push_back({name, s.file_size, state});
  }
}

// Removes the partially written file `i` and its manifest entry.
void RemovePartial(FileSystem& fs, const FileIoSettings& s, FileManifest& m, uint64_t i) {
  (void)fs.Unlink(s.FilePath(i));
  m.Remove(s.FileName(i));
  (void)WriteManifest(fs, s.dir, m);
}

}  // namespace

Status PrepareFiles(FileSystem& fs, const FileIoSettings& s, uint64_t seed,
                    const FileIoConsole& console) {
  LC_ASSIGN_OR_RETURN(std::optional<FileManifest> existing, ReadManifest(fs, s.dir));
  FileManifest m = existing.value_or(FileManifest{});
  const bool stamped = s.validate || s.pattern == WritePattern::kRandom;
  const std::string pattern = WritePatternName(s.pattern);
  LC_ASSIGN_OR_RETURN(const PrepareWork work, DecidePrepareWork(fs, s, m, stamped, pattern));
  // Files kept from before must match what this prepare writes.
  m.block_size = s.block_size;
  m.pattern = pattern;
  m.stamped = stamped;
  m.flags = s.OpenFlagsText();

  const uint64_t total = static_cast<uint64_t>(work.to_write.size()) * s.file_size;
  SayPrepareStart(console, s, work, total);
  if (work.to_write.empty()) return WriteManifest(fs, s.dir, m);

  const uint64_t chunk = std::max<uint64_t>(1, kChunkTarget / s.block_size) * s.block_size;
  IoBuffer buf(static_cast<unsigned char*>(AllocateIoBuffer(chunk)));
  if (buf == nullptr) return Status::Internal("prepare: out of memory for the write buffer");
  const Nanos start = MonotonicNow();
  Progress progress("prepare", total, "bytes", console.progress, console.progress_tty);
  Random rng(seed != 0 ? seed : 0x6c6f6164ULL);
  uint64_t written_files = 0;
  for (uint64_t i : work.to_write) {
    // Listed before the first byte, so a crash leaves it to cleanup.
    ListAs(m, s, i, FileState::kPartial);
    LC_RETURN_IF_ERROR(WriteManifest(fs, s.dir, m));
    if (Status st = WriteOneFile(fs, s, i, stamped, rng, buf.get(), chunk, progress); !st.ok()) {
      progress.Done();
      RemovePartial(fs, s, m, i);  // never leave a half-written file behind
      return PrepareFailure(st, s, i, work.reused + written_files);
    }
    ListAs(m, s, i, FileState::kComplete);
    LC_RETURN_IF_ERROR(WriteManifest(fs, s.dir, m));
    ++written_files;
  }
  progress.Done();
  const double secs = static_cast<double>(MonotonicNow() - start) / 1e9;
  Say(console, fmt::format("{} bytes written in {:.2f} seconds ({:.2f} MiB/sec).", total, secs,
                           secs > 0 ? static_cast<double>(total) / (1 << 20) / secs : 0.0));
  return Status::Ok();
}

Status CleanupFiles(FileSystem& fs, const std::string& dir, const FileIoConsole& console) {
  LC_ASSIGN_OR_RETURN(std::optional<FileManifest> m, ReadManifest(fs, dir));
  if (!m.has_value()) {
    Say(console, fmt::format("Nothing to remove: {} has no {} (no files prepared by loadcell).",
                             dir, kFileIoManifestName));
    return Status::Ok();
  }
  Say(console, "Removing test files...");
  size_t removed = 0;
  for (const ManifestFile& f : m->files) {
    Status st = fs.Unlink(dir + "/" + f.name);
    if (st.ok()) {
      ++removed;
    } else if (st.err() != ENOENT) {
      return st;
    }
  }
  LC_RETURN_IF_ERROR(fs.Unlink(ManifestPath(dir)));
  Say(console, fmt::format("Removed {} and the manifest.", CountOf(removed, "file", "files")));
  return Status::Ok();
}

Result<FileManifest> CheckFilesForRun(FileSystem& fs, const FileIoSettings& s) {
  LC_ASSIGN_OR_RETURN(std::optional<FileManifest> m, ReadManifest(fs, s.dir));
  const std::string prepare_first = fmt::format("run '{}' first", PrepareCommand(s));
  if (!m.has_value()) {
    return Status::FailedPrecondition(
        fmt::format("no test files prepared by loadcell in {}: {}", s.dir, prepare_first));
  }
  for (uint64_t i = 0; i < s.num_files; ++i) {
    const std::string path = s.FilePath(i);
    LC_ASSIGN_OR_RETURN(FileInfo info, fs.Stat(path));
    const ManifestFile* entry = m->Find(s.FileName(i));
    if (!info.exists || entry == nullptr) {
      return Status::FailedPrecondition(fmt::format(
          "test file '{}' {}: {}", path,
          info.exists ? "was not created by loadcell prepare" : "does not exist", prepare_first));
    }
    if (info.size != s.file_size) {
      return Status::FailedPrecondition(fmt::format(
          "file {} has size {}, expected {} from --file-total-size={} and --file-num={}; re-run "
          "prepare after cleanup",
          path, info.size, s.file_size, FormatSize(s.total_size), s.num_files));
    }
    if (entry->state != FileState::kComplete) {
      return Status::FailedPrecondition(
          fmt::format("file {} is not completely written ({}); run '{}' again", path,
                      entry->state == FileState::kSeqWrite ? "re-created by a seqwr run"
                                                           : "its prepare was interrupted",
                      PrepareCommand(s)));
    }
  }
  if (s.validate && !m->stamped) {
    return Status::FailedPrecondition(
        "--validate: the files hold blocks without a stamp (prepared with "
        "--file-write-pattern=zero|sequence, or rewritten by a run without --validate); run "
        "cleanup, then prepare again");
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
  LC_ASSIGN_OR_RETURN(std::optional<FileManifest> existing, ReadManifest(fs, s.dir));
  FileManifest m = existing.value_or(FileManifest{});
  for (uint64_t i = 0; i < s.num_files; ++i) {
    LC_ASSIGN_OR_RETURN(FileInfo info, fs.Stat(s.FilePath(i)));
    if (info.exists && m.Find(s.FileName(i)) == nullptr) {
      return Status::FailedPrecondition(fmt::format(
          "'{}' exists and was not created by loadcell (it is not in {}); seqwr re-creates the "
          "test files, so move it away or use another --file-dir",
          s.FilePath(i), kFileIoManifestName));
    }
  }
  m.block_size = s.block_size;
  m.pattern = WritePatternName(s.pattern);
  m.stamped = false;
  m.flags = s.OpenFlagsText();
  for (uint64_t i = 0; i < s.num_files; ++i) {
    const std::string name = s.FileName(i);
    if (ManifestFile* f = m.Find(name)) {
      f->size = 0;
      f->state = FileState::kSeqWrite;
    } else {
      m.files.push_back({name, 0, FileState::kSeqWrite});
    }
  }
  LC_RETURN_IF_ERROR(WriteManifest(fs, s.dir, m));
  for (uint64_t i = 0; i < s.num_files; ++i) {
    LC_ASSIGN_OR_RETURN(int fd, fs.Open(s.FilePath(i), O_WRONLY | O_CREAT | O_TRUNC, 0644));
    LC_RETURN_IF_ERROR(fs.Close(fd));
  }
  return m;
}

}  // namespace loadcell
