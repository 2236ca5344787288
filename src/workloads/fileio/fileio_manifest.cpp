#include "workloads/fileio/fileio_manifest.h"

#include <fcntl.h>
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <functional>
#include <set>
#include <sstream>

namespace loadcell {
namespace {

constexpr const char* kTestFilePrefix = "test_file.";
// A manifest larger than this is not one loadcell wrote (a line per file).
constexpr uint64_t kMaxManifestBytes = uint64_t{16} << 20;

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

bool ParseState(std::string_view s, FileState& out) {
  for (FileState st : {FileState::kComplete, FileState::kPartial, FileState::kSeqWrite}) {
    if (s == StateName(st)) {
      out = st;
      return true;
    }
  }
  return false;
}

bool ParseU64(std::string_view v, uint64_t& out) {
  const char* end = v.data() + v.size();
  auto [p, ec] = std::from_chars(v.data(), end, out);
  return ec == std::errc() && p == end && !v.empty();
}

// One key=value field of a file line; an optional one is written only when
// `format` gives a value.
struct ManifestFileField {
  const char* key;
  std::function<bool(std::string_view, ManifestFile&)> parse;
  std::function<std::string(const ManifestFile&)> format;
  bool required = true;
};

const std::vector<ManifestFileField>& FileFields() {
  static const std::vector<ManifestFileField> fields = {
      {"size", [](std::string_view v, ManifestFile& f) { return ParseU64(v, f.size); },
       [](const ManifestFile& f) { return std::to_string(f.size); }},
      {"state", [](std::string_view v, ManifestFile& f) { return ParseState(v, f.state); },
       [](const ManifestFile& f) { return std::string(StateName(f.state)); }},
      {"device", [](std::string_view v, ManifestFile& f) { return ParseU64(v, f.id.device); },
       [](const ManifestFile& f) { return std::to_string(f.id.device); }},
      {"inode", [](std::string_view v, ManifestFile& f) { return ParseU64(v, f.id.inode); },
       [](const ManifestFile& f) { return std::to_string(f.id.inode); }},
      {"birth",
       [](std::string_view v, ManifestFile& f) {
         return ParseU64(v, f.id.birth_ns) && f.id.birth_ns != 0;
       },
       [](const ManifestFile& f) {
         return f.id.birth_ns == 0 ? "" : std::to_string(f.id.birth_ns);
       },
       /*required=*/false},
  };
  return fields;
}

// Parses "NAME key=value..." into `f`; "" when it is right, else what is
// wrong.
std::string ParseFileLine(std::istringstream& fields, ManifestFile& f) {
  if (!(fields >> f.name)) return "a file line without a name";
  if (!IsTestFileName(f.name)) {
    return fmt::format("names '{}', which is not a loadcell test file (test_file.N)", f.name);
  }
  std::set<std::string> seen;
  size_t required = 0;
  std::string item;
  while (fields >> item) {
    const size_t eq = item.find('=');
    const std::string key = item.substr(0, eq);
    const auto& all = FileFields();
    auto field = std::find_if(all.begin(), all.end(),
                              [&](const ManifestFileField& x) { return key == x.key; });
    if (eq == std::string::npos || field == all.end() || !seen.insert(key).second ||
        !field->parse(std::string_view(item).substr(eq + 1), f)) {
      return fmt::format("'{}' is not a field of a file line", item);
    }
    if (field->required) ++required;
  }
  const auto& all = FileFields();
  if (required != static_cast<size_t>(std::count_if(all.begin(), all.end(),
                                                    [](const auto& x) { return x.required; }))) {
    return "a file line without its identity fields";
  }
  return "";
}

// Parses one header or file line into `m`; "" when it is right.
std::string ParseLine(const std::string& line, FileManifest& m, bool& versioned) {
  std::istringstream fields(line);
  std::string key;
  fields >> key;
  if (key == "version") {
    int v = 0;
    if (!(fields >> v)) return "a version line without a number";
    if (v != kFileIoManifestVersion) {
      return fmt::format(
          "version {} (written by another loadcell; this one reads version {}, which records "
          "each file's identity)",
          v, kFileIoManifestVersion);
    }
    versioned = true;
    return "";
  }
  if (!versioned) return "no 'version' line before it";
  if (key == "block-size") return fields >> m.block_size ? "" : "a bad block size";
  if (key == "pattern") return fields >> m.pattern ? "" : "a pattern line without a pattern";
  if (key == "stamped") {
    int v = 0;
    if (!(fields >> v)) return "a bad stamped line";
    m.stamped = v != 0;
    return "";
  }
  if (key == "flags") {
    fields >> m.flags;
    return "";
  }
  if (key == "file") {
    ManifestFile f;
    if (std::string bad = ParseFileLine(fields, f); !bad.empty()) return bad;
    if (m.Find(f.name) != nullptr) return fmt::format("'{}' is listed twice", f.name);
    m.files.push_back(f);
    return "";
  }
  return "not a loadcell fileio manifest line";
}

}  // namespace

bool IsTestFileName(const std::string& name) {
  const std::string_view prefix = kTestFilePrefix;
  if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) return false;
  const std::string_view digits = std::string_view(name).substr(prefix.size());
  if (digits.size() > 1 && digits[0] == '0') return false;
  uint64_t n = 0;
  return ParseU64(digits, n);
}

uint64_t TestFileIndex(const std::string& name) {
  uint64_t n = 0;
  (void)ParseU64(std::string_view(name).substr(std::string_view(kTestFilePrefix).size()), n);
  return n;
}

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

std::string FormatManifest(const FileManifest& m) {
  std::string text =
      "# loadcell fileio: the files that loadcell created in this directory.\n"
      "# 'loadcell fileio cleanup' removes exactly these files (when each is still the\n"
      "# file loadcell made: same device, inode, size and stamp), then this manifest.\n";
  text += fmt::format("version {}\nblock-size {}\npattern {}\nstamped {}\n", kFileIoManifestVersion,
                      m.block_size, m.pattern, m.stamped ? 1 : 0);
  if (!m.flags.empty()) text += "flags " + m.flags + "\n";
  for (const ManifestFile& f : m.files) {
    text += "file " + f.name;
    for (const ManifestFileField& field : FileFields()) {
      const std::string value = field.format(f);
      if (!value.empty()) text.append(" ").append(field.key).append("=").append(value);
    }
    text += "\n";
  }
  return text;
}

Result<FileManifest> ParseManifest(const std::string& text, const std::string& path) {
  FileManifest m;
  std::istringstream in(text);
  std::string line;
  int line_no = 0;
  bool versioned = false;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    if (std::string bad = ParseLine(line, m, versioned); !bad.empty()) {
      return Status::FailedPrecondition(
          fmt::format("{} line {}: {}; loadcell touches none of the files it lists: remove them "
                      "and the manifest by hand, or use another --file-dir",
                      path, line_no, bad));
    }
  }
  if (!versioned) {
    return Status::FailedPrecondition(fmt::format(
        "{}: not a loadcell fileio manifest (no version line); remove it by hand", path));
  }
  return m;
}

Result<std::optional<FileManifest>> ReadManifestAt(FileSystem& fs, const DirHandle& dir) {
  const std::string path = EntryPath(dir, kFileIoManifestName);
  LC_ASSIGN_OR_RETURN(FileInfo info, fs.StatAt(dir, kFileIoManifestName));
  if (!info.exists) return std::optional<FileManifest>();
  if (!info.is_regular) {
    return Status::FailedPrecondition(fmt::format(
        "'{}' {}, not loadcell's manifest: loadcell touches none of the folder's files; remove "
        "it, or use another --file-dir",
        path, info.is_symlink ? "is a symbolic link" : "is not a regular file"));
  }
  if (info.size > kMaxManifestBytes) {
    return Status::FailedPrecondition(
        fmt::format("{}: {} bytes, too large for a loadcell manifest", path, info.size));
  }
  LC_ASSIGN_OR_RETURN(std::string text, ReadEntryAt(fs, dir, kFileIoManifestName, info.size));
  LC_ASSIGN_OR_RETURN(FileManifest m, ParseManifest(text, path));
  return std::optional<FileManifest>(std::move(m));
}

Result<std::optional<FileManifest>> ReadManifest(FileSystem& fs, const std::string& dir) {
  LC_ASSIGN_OR_RETURN(ScopedDir d, OpenScopedDir(fs, dir));
  return ReadManifestAt(fs, d.get());
}

Status CheckManifestPlaces(FileSystem& fs, const DirHandle& dir) {
  for (const char* name : {kFileIoManifestName, kFileIoManifestTmpName}) {
    LC_ASSIGN_OR_RETURN(FileInfo info, fs.StatAt(dir, name));
    if (info.exists && !info.is_regular) {
      return Status::FailedPrecondition(fmt::format(
          "'{}' {}: loadcell leaves it as it is and writes no manifest through it; remove it, "
          "or use another --file-dir",
          EntryPath(dir, name), info.is_symlink ? "is a symbolic link" : "is not a regular file"));
    }
  }
  return Status::Ok();
}

Status WriteManifestAt(FileSystem& fs, const DirHandle& dir, const FileManifest& m) {
  LC_RETURN_IF_ERROR(CheckManifestPlaces(fs, dir));
  LC_ASSIGN_OR_RETURN(FileInfo tmp, fs.StatAt(dir, kFileIoManifestTmpName));
  if (tmp.exists) LC_RETURN_IF_ERROR(fs.UnlinkAt(dir, kFileIoManifestTmpName));  // a crash's
  const std::string text = FormatManifest(m);
  const std::string tmp_path = EntryPath(dir, kFileIoManifestTmpName);
  LC_ASSIGN_OR_RETURN(int fd,
                      fs.OpenAt(dir, kFileIoManifestTmpName, O_WRONLY | O_CREAT | O_EXCL, 0644));
  Status st = WriteFully(fs, fd, text.data(), text.size(), 0, "writing '" + tmp_path + "'");
  if (st.ok()) st = fs.Fsync(fd);
  Status closed = fs.Close(fd);
  if (st.ok()) st = closed;
  if (st.ok()) st = fs.RenameAt(dir, kFileIoManifestTmpName, kFileIoManifestName);
  if (!st.ok()) (void)fs.UnlinkAt(dir, kFileIoManifestTmpName);
  return st;
}

Status WriteManifest(FileSystem& fs, const std::string& dir, const FileManifest& m) {
  LC_ASSIGN_OR_RETURN(ScopedDir d, OpenScopedDir(fs, dir));
  return WriteManifestAt(fs, d.get(), m);
}

Status RemoveManifestAt(FileSystem& fs, const DirHandle& dir) {
  return fs.UnlinkAt(dir, kFileIoManifestName);
}

}  // namespace loadcell
