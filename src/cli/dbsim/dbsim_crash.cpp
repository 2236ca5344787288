#include "cli/dbsim/dbsim_crash.h"

#include <fcntl.h>
#include <fmt/format.h>

#include "cli/app.h"
#include "cli/cli_style.h"
#include "dbsim/crash_verify.h"
#include "os/file_system.h"
#include "workloads/sqlio/sqlio_manifest.h"

namespace loadcell {

namespace {
constexpr uint64_t kCrashMiB = uint64_t{1} << 20;

void WriteCrashVerdict(const DbCrashVerdict& v, const std::string& journal, size_t files,
                       std::ostream& out) {
  out << fmt::format("loadcell dbsim --verify-after-crash: {} pages of {} data file{} against {}\n",
                     v.pages, files, files == 1 ? "" : "s", journal);
  out << fmt::format("  the newest version intended: {}\n", v.intact);
  out << fmt::format("  unflushed writes lost (allowed): {}\n", v.unflushed_lost);
  out << fmt::format("  torn pages of unflushed writes (allowed): {}\n", v.torn_unflushed);
  out << fmt::format("  acknowledged, flushed writes lost: {}\n",
                     v.errors[static_cast<size_t>(DbPageFault::kLostWrite)]);
  for (int k = 1; k < kDbPageFaultKinds; ++k) {
    const auto kind = static_cast<DbPageFault>(k);
    if (kind == DbPageFault::kLostWrite || v.errors[k] == 0) continue;
    out << fmt::format("  {}: {}\n", DbPageFaultName(kind), v.errors[k]);
  }
  if (!v.lines.empty()) out << "  first failures:\n";
  for (const std::string& line : v.lines) out << "    " << line << "\n";
  out << (v.TotalErrors() == 0 ? "Result: every acknowledged, flushed write survived\n"
                               : fmt::format("Result: {} pages failed\n", v.TotalErrors()));
}

}  // namespace

Status CheckDbsimJournalPath(const std::string& dir, const DbsimConfig& config,
                             const std::string& journal) {
  FileSystem& fs = DefaultFileSystem();
  LC_ASSIGN_OR_RETURN(FileInfo info, fs.Stat(journal));
  for (const auto& f : config.files) {
    const std::string path = JoinPath(dir, f.name);
    LC_ASSIGN_OR_RETURN(FileInfo data, fs.Stat(path));
    if (path == journal || (info.exists && data.exists && info.id() == data.id())) {
      return Status::InvalidArgument(fmt::format(
          "dbsim: --journal={} is the file [File{}] names: the journal must be a file of its own "
          "(best on another device)",
          journal, f.number));
    }
  }
  if (!info.exists) return Status::Ok();
  auto text = ReadFileToString(fs, journal);
  if (!text.ok() || text->rfind(std::string(kDbJournalFirstLine), 0) != 0) {
    return Status::InvalidArgument(fmt::format(
        "dbsim: --journal={} exists and is not a loadcell dbsim journal: it is left alone",
        journal));
  }
  return Status::Ok();
}

int RunDbsimVerifyAfterCrash(const std::string& dir, const DbsimConfig& config, uint32_t page_size,
                             const std::string& journal, std::ostream& out, std::ostream& err) {
  FileSystem& fs = DefaultFileSystem();
  auto text = ReadFileToString(fs, journal);
  if (!text.ok()) {
    PrintCliError(err, ReadFailureAsUsageError("dbsim", text.status(), "--journal " + journal));
    return kExitUsage;
  }
  Result<DbJournalState> state = ParseDbJournal(*text, journal);
  if (!state.ok()) {
    PrintCliError(err, state.status());
    return kExitUsage;
  }
  DbCrashVerdict verdict;
  size_t files = 0;
  for (const auto& f : config.files) {
    if (f.log_file || f.doublewrite_area) continue;
    const std::string path = JoinPath(dir, f.name);
    Result<bool> ours = SqlioMadeFile(fs, path);
    if (!ours.ok() || !*ours) {
      PrintCliError(err, Status::InvalidArgument(fmt::format(
                             "dbsim: '{}' is not a data file loadcell dbsim made (not whole in "
                             "the folder's manifest): nothing to verify",
                             path)));
      return kExitUsage;
    }
    Result<int> fd = fs.Open(path, O_RDONLY);
    if (!fd.ok()) {
      PrintCliError(err, fd.status());
      return kExitRunFailed;
    }
    const DbCrashFile file{*fd, static_cast<uint32_t>(f.number), page_size,
                           f.initial_mb * kCrashMiB / page_size};
    Status st = VerifyDbFileAfterCrash(fs, file, *state, verdict);
    (void)fs.Close(*fd);
    if (!st.ok()) {
      PrintCliError(err, st);
      return kExitRunFailed;
    }
    ++files;
  }
  WriteCrashVerdict(verdict, journal, files, out);
  return verdict.TotalErrors() == 0 ? kExitOk : kExitRunFailed;
}

}  // namespace loadcell
