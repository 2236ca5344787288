#include "workloads/sqlio/sqlio_manifest.h"

#include <fcntl.h>
#include <fmt/format.h>

#include <charconv>
#include <string_view>

namespace loadcell {
namespace {

constexpr std::string_view kSqlioMark = " bytes by loadcell sqlio";
// A manifest larger than this is not one loadcell wrote (a line per file).
constexpr uint64_t kMaxSqlioManifestBytes = uint64_t{16} << 20;

bool ParseSqlioNumber(std::string_view v, uint64_t& out) {
  const char* end = v.data() + v.size();
  auto [p, ec] = std::from_chars(v.data(), end, out);
  return ec == std::errc() && p == end && !v.empty();
}

// One line, or nullopt when it is not loadcell's.
std::optional<SqlioManifestEntry> ParseSqlioLine(std::string_view line) {
  SqlioManifestEntry e;
  if (line.starts_with("created ")) {
    e.complete = true;
    line.remove_prefix(8);
  } else if (line.starts_with("creating ")) {
    line.remove_prefix(9);
  } else {
    return std::nullopt;
  }
  const size_t mark = line.rfind(kSqlioMark);
  if (mark == std::string_view::npos) return std::nullopt;
  const std::string_view head = line.substr(0, mark);
  const size_t space = head.rfind(' ');
  if (space == std::string_view::npos || space == 0 ||
      !ParseSqlioNumber(head.substr(space + 1), e.size)) {
    return std::nullopt;
  }
  e.name = std::string(head.substr(0, space));
  const std::string_view rest = line.substr(mark + kSqlioMark.size());
  e.id = ParseManifestIdentity(rest);
  if (!rest.empty() && !e.id.has_value()) return std::nullopt;
  return e;
}

const SqlioManifestEntry* LastEntryFor(const std::vector<SqlioManifestEntry>& entries,
                                       const std::string& name) {
  for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
    if (it->name == name) return &*it;
  }
  return nullptr;
}

Status RefuseSqlioFile(const SqlioFileUse& use, const std::string& why) {
  const std::string named =
      use.shown == use.path ? use.path : fmt::format("{} ({})", use.path, use.shown);
  return Status::FailedPrecondition(fmt::format("sqlio: {} {}", named, why));
}

// The refusal of a write to a file SQLIO cannot prove it made.
Status RefuseForeignWrite(const SqlioFileUse& use, const std::string& why) {
  return RefuseSqlioFile(use,
                         fmt::format("{}: -kW writes only to files loadcell sqlio created; give "
                                     "--sqlio-use-existing=write to overwrite it anyway",
                                     why));
}

}  // namespace

std::string FormatManifestIdentity(const FileId& id) {
  std::string out = fmt::format(" device={} inode={}", id.device, id.inode);
  if (id.birth_ns != 0) out += fmt::format(" birth={}", id.birth_ns);
  return out;
}

std::optional<FileId> ParseManifestIdentity(std::string_view text) {
  FileId id;
  constexpr std::string_view kDevice = " device=", kInode = " inode=", kBirth = " birth=";
  if (!text.starts_with(kDevice)) return std::nullopt;
  text.remove_prefix(kDevice.size());
  const size_t inode = text.find(kInode);
  if (inode == std::string_view::npos || !ParseSqlioNumber(text.substr(0, inode), id.device)) {
    return std::nullopt;
  }
  text.remove_prefix(inode + kInode.size());
  const size_t birth = text.find(kBirth);
  if (!ParseSqlioNumber(text.substr(0, birth), id.inode)) return std::nullopt;
  if (birth != std::string_view::npos &&
      (!ParseSqlioNumber(text.substr(birth + kBirth.size()), id.birth_ns) || id.birth_ns == 0)) {
    return std::nullopt;
  }
  return id;
}

std::vector<SqlioManifestEntry> ParseSqlioManifest(const std::string& text) {
  std::vector<SqlioManifestEntry> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    if (std::optional<SqlioManifestEntry> e =
            ParseSqlioLine(std::string_view(text).substr(pos, end - pos))) {
      out.push_back(std::move(*e));
    }
    pos = end + 1;
  }
  return out;
}

std::string FormatSqlioManifestLine(const SqlioManifestEntry& e) {
  std::string line =
      fmt::format("{} {} {}{}", e.complete ? "created" : "creating", e.name, e.size, kSqlioMark);
  if (e.id.has_value()) line += FormatManifestIdentity(*e.id);
  return line + "\n";
}

Result<std::vector<SqlioManifestEntry>> ReadSqlioManifestAt(FileSystem& fs, const DirHandle& dir) {
  LC_ASSIGN_OR_RETURN(std::string text, ReadSqlioManifestTextAt(fs, dir));
  return ParseSqlioManifest(text);
}

Result<std::string> ReadSqlioManifestTextAt(FileSystem& fs, const DirHandle& dir) {
  const std::string path = EntryPath(dir, kSqlioManifestName);
  LC_ASSIGN_OR_RETURN(FileInfo info, fs.StatAt(dir, kSqlioManifestName));
  if (!info.exists) return std::string();
  if (!info.is_regular) {
    return Status::FailedPrecondition(
        fmt::format("'{}' {}, not loadcell's manifest: remove it, or use another folder", path,
                    info.is_symlink ? "is a symbolic link" : "is not a regular file"));
  }
  if (info.size > kMaxSqlioManifestBytes) {
    return Status::FailedPrecondition(
        fmt::format("{}: {} bytes, too large for a loadcell manifest", path, info.size));
  }
  return ReadEntryAt(fs, dir, kSqlioManifestName, info.size);
}

Status RecordSqlioFile(FileSystem& fs, const DirHandle& dir, const SqlioManifestEntry& e) {
  return AppendSqlioManifestLine(fs, dir, FormatSqlioManifestLine(e));
}

Status AppendSqlioManifestLine(FileSystem& fs, const DirHandle& dir, const std::string& line) {
  Result<int> fd = fs.OpenAt(dir, kSqlioManifestName, O_WRONLY | O_CREAT, 0644);
  Status st = fd.status();
  if (fd.ok()) {
    Result<FileInfo> info = fs.Fstat(*fd);
    st = info.status();
    if (st.ok()) st = WriteFully(fs, *fd, line.data(), line.size(), info->size, "write");
    if (st.ok()) st = fs.Fsync(*fd);
    const Status closed = fs.Close(*fd);
    if (st.ok()) st = closed;
  }
  if (!st.ok() && !st.IsUsageError()) {
    return Status(st.code(),
                  "cannot write " + EntryPath(dir, kSqlioManifestName) + ": " + st.message(),
                  st.err());
  }
  return st;
}

Status CheckSqlioFileName(FileSystem& fs, const SqlioFileUse& use) {
  const std::string name = Basename(use.path);
  if (name == kSqlioManifestName || name == kSqlioLockName) {
    return RefuseSqlioFile(use, "is loadcell sqlio's own bookkeeping file, not a test file");
  }
  LC_ASSIGN_OR_RETURN(FileInfo folder, fs.Stat(Dirname(use.path)));
  if (!folder.exists) return Status::Ok();  // a rank's folder, still to be made
  LC_ASSIGN_OR_RETURN(ScopedDir dir, OpenScopedDir(fs, Dirname(use.path)));
  LC_ASSIGN_OR_RETURN(FileInfo info, fs.StatAt(dir.get(), name));
  if (!info.exists || !info.is_regular) return Status::Ok();  // created, or refused elsewhere
  if (use.param_file.has_value() && info.id() == *use.param_file) {
    return RefuseSqlioFile(use, "is the param file (-F) itself, not a test file");
  }
  LC_ASSIGN_OR_RETURN(FileInfo manifest, fs.StatAt(dir.get(), kSqlioManifestName));
  if (manifest.exists && manifest.id() == info.id()) {
    return RefuseSqlioFile(
        use, fmt::format("is the folder's {} under another name", kSqlioManifestName));
  }
  return Status::Ok();
}

Status CheckSqlioFileUse(FileSystem& fs, const SqlioFileUse& use) {
  LC_RETURN_IF_ERROR(CheckSqlioFileName(fs, use));
  const std::string name = Basename(use.path);
  LC_ASSIGN_OR_RETURN(FileInfo folder, fs.Stat(Dirname(use.path)));
  if (!folder.exists) return Status::Ok();
  LC_ASSIGN_OR_RETURN(ScopedDir dir, OpenScopedDir(fs, Dirname(use.path)));
  LC_ASSIGN_OR_RETURN(FileInfo info, fs.StatAt(dir.get(), name));
  if (!info.exists || !info.is_regular) return Status::Ok();
  LC_ASSIGN_OR_RETURN(std::vector<SqlioManifestEntry> entries, ReadSqlioManifestAt(fs, dir.get()));
  const SqlioManifestEntry* e = LastEntryFor(entries, name);
  const bool same_file = e != nullptr && e->id.has_value() && *e->id == info.id();
  if (same_file && !e->complete) {
    return RefuseSqlioFile(
        use, fmt::format("is incomplete ({} of {} bytes): its creation by loadcell sqlio was "
                         "killed, or is still under way; it is not measured: remove it to have "
                         "it created again",
                         info.size, e->size));
  }
  if (!use.write || use.use_existing_write) return Status::Ok();
  if (!same_file) {
    return RefuseForeignWrite(use, fmt::format("is not listed as created by loadcell sqlio in {}",
                                               EntryPath(dir.get(), kSqlioManifestName)));
  }
  if (info.size != e->size) {
    return RefuseForeignWrite(
        use,
        fmt::format("is {} bytes, not the {} loadcell sqlio created it with", info.size, e->size));
  }
  return Status::Ok();
}

Result<FolderLock> LockSqlioFolder(FileSystem& fs, const std::string& dir,
                                   const std::string& command) {
  FolderLockSpec spec;
  spec.name = kSqlioLockName;
  spec.option = "";
  spec.command = command;
  Result<FolderLock> lock = LockFolder(fs, dir, spec);
  if (lock.ok()) return lock;
  // The refusal names the tool that was refused ("loadcell fio": "fio: ").
  const size_t space = command.rfind(' ');
  const std::string tool = space == std::string::npos ? command : command.substr(space + 1);
  return Status(lock.status().code(), tool + ": " + lock.status().message(), lock.status().err());
}

Result<bool> SqlioMadeFile(FileSystem& fs, const std::string& path) {
  LC_ASSIGN_OR_RETURN(ScopedDir dir, OpenScopedDir(fs, Dirname(path)));
  const std::string name = Basename(path);
  LC_ASSIGN_OR_RETURN(FileInfo info, fs.StatAt(dir.get(), name));
  if (!info.exists) return false;
  LC_ASSIGN_OR_RETURN(std::vector<SqlioManifestEntry> entries, ReadSqlioManifestAt(fs, dir.get()));
  const SqlioManifestEntry* last = nullptr;
  for (const SqlioManifestEntry& e : entries) {
    if (e.name == name) last = &e;
  }
  return last != nullptr && last->complete && last->id.has_value() && *last->id == info.id() &&
         last->size == info.size;
}

}  // namespace loadcell
