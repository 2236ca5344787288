#include "cli/dbsim/dbsim_outputs.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string_view>
#include <system_error>

#include "workloads/sqlio/sqlio_manifest.h"

namespace loadcell {
namespace {

constexpr std::string_view kTemporaryStart = "temporary ";
constexpr std::string_view kTemporaryMark = " by loadcell dbsim";

// What `path` is of the run's own files and journal (none: nullopt): what
// -log and -save may not replace.
std::optional<std::string> TakenBy(const DbsimArgs& a, const DbsimConfig& config,
                                   const std::string& path) {
  for (const auto& f : config.files) {
    if (SamePath(path, JoinPath(a.dir, f.name))) return "the run's file " + f.name;
  }
  if (!a.journal.empty() && SamePath(path, a.journal)) return "the journal (--journal)";
  if (!a.cfg.empty() && SamePath(path, a.cfg)) return "the configuration (-cfg)";
  return std::nullopt;
}

// Checks -save's and the log's places and opens them.
Status OpenOutputs(const DbsimArgs& a, const DbsimConfig& config, DbsimOutputs& out) {
  const bool log_given = !a.log_file.empty();
  const std::string log = log_given ? a.log_file : config.error_file_given ? config.error_file : "";
  const std::string log_option = log_given ? "-log" : "ErrorFile";
  const std::pair<std::string, std::string> outputs[] = {
      {"-save", a.save_file}, {log_option, log}, {"--report-html", a.report_html}};
  for (size_t i = 0; i < std::size(outputs); ++i) {
    const auto& [option, path] = outputs[i];
    if (path.empty()) continue;
    // -save may rewrite the configuration it read (SQLIOSim's -cfg F -save F).
    std::optional<std::string> taken = TakenBy(a, config, path);
    if (taken && !(option == "-save" && SamePath(path, a.cfg))) {
      return Status::InvalidArgument(
          fmt::format("dbsim: {} {}: that is {}; give a file of its own", option, path, *taken));
    }
    for (size_t j = 0; j < i; ++j) {
      if (!outputs[j].second.empty() && SamePath(path, outputs[j].second)) {
        return Status::InvalidArgument(
            fmt::format("dbsim: {} {} is also {}'s file; give each a file of its own", option, path,
                        outputs[j].first));
      }
    }
  }
  if (!a.save_file.empty()) LC_RETURN_IF_ERROR(out.save.Open("dbsim: -save", a.save_file));
  if (!log.empty()) LC_RETURN_IF_ERROR(out.log.Open("dbsim: " + log_option, log));
  if (!a.report_html.empty()) {
    LC_RETURN_IF_ERROR(out.html.Open("dbsim: --report-html", a.report_html));
  }
  return Status::Ok();
}

}  // namespace

Status OpenDbsimOutputs(const DbsimArgs& a, const DbsimConfig& config, DbsimOutputs& out) {
  FileSystem& fs = DefaultFileSystem();
  LC_RETURN_IF_ERROR(RemoveStaleDbsimTemporaries(fs, a.dir));
  LC_RETURN_IF_ERROR(OpenOutputs(a, config, out));
  return RecordDbsimTemporaries(fs, a.dir,
                                {out.save.temporary(), out.log.temporary(), out.html.temporary()});
}

std::string FormatDbsimTemporaryLine(const DbsimTemporary& t) {
  return fmt::format("{}{}{}{}\n", kTemporaryStart, t.path, kTemporaryMark,
                     FormatManifestIdentity(t.id));
}

std::vector<DbsimTemporary> ParseDbsimTemporaries(const std::string& manifest) {
  std::vector<DbsimTemporary> out;
  size_t pos = 0;
  while (pos < manifest.size()) {
    const size_t end = std::min(manifest.find('\n', pos), manifest.size());
    std::string_view line = std::string_view(manifest).substr(pos, end - pos);
    pos = end + 1;
    if (!line.starts_with(kTemporaryStart)) continue;
    line.remove_prefix(kTemporaryStart.size());
    const size_t mark = line.rfind(kTemporaryMark);
    if (mark == std::string_view::npos || mark == 0) continue;
    const std::optional<FileId> id =
        ParseManifestIdentity(line.substr(mark + kTemporaryMark.size()));
    if (!id.has_value()) continue;
    DbsimTemporary t;
    t.id = *id;
    t.path = std::string(line.substr(0, mark));
    out.push_back(std::move(t));
  }
  return out;
}

Status RecordDbsimTemporaries(FileSystem& fs, const std::string& dir,
                              const std::vector<std::string>& paths) {
  std::string lines;
  for (const std::string& path : paths) {
    // A name with a line break cannot be one line of the manifest.
    if (path.empty() || path.find_first_of("\r\n") != std::string::npos) continue;
    std::error_code ec;
    const std::string absolute = std::filesystem::absolute(path, ec).string();
    if (ec) return Status::IoError(fmt::format("cannot name {} absolutely", path), ec.value());
    LC_ASSIGN_OR_RETURN(ScopedDir folder, OpenScopedDir(fs, Dirname(absolute)));
    LC_ASSIGN_OR_RETURN(FileInfo info, fs.StatAt(folder.get(), Basename(absolute)));
    if (!info.exists) continue;
    lines += FormatDbsimTemporaryLine({absolute, info.id()});
  }
  if (lines.empty()) return Status::Ok();
  LC_ASSIGN_OR_RETURN(ScopedDir folder, OpenScopedDir(fs, dir));
  return AppendSqlioManifestLine(fs, folder.get(), lines);
}

Status RemoveStaleDbsimTemporaries(FileSystem& fs, const std::string& dir) {
  LC_ASSIGN_OR_RETURN(ScopedDir folder, OpenScopedDir(fs, dir));
  LC_ASSIGN_OR_RETURN(std::string text, ReadSqlioManifestTextAt(fs, folder.get()));
  for (const DbsimTemporary& t : ParseDbsimTemporaries(text)) {
    Result<ScopedDir> at = OpenScopedDir(fs, Dirname(t.path));
    if (!at.ok()) continue;  // its folder is gone, and it with it
    const std::string name = Basename(t.path);
    Result<FileInfo> info = fs.StatAt(at->get(), name);
    if (!info.ok() || !info->exists || !info->is_regular || info->id() != t.id) continue;
    (void)fs.UnlinkAt(at->get(), name, &t.id);
  }
  return Status::Ok();
}

}  // namespace loadcell
