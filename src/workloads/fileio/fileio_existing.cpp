#include "workloads/fileio/fileio_existing.h"

#include <fmt/format.h>

#include "core/plural.h"

namespace loadcell {
namespace {

void SayLine(const FileIoConsole& c, const std::string& line) {
  if (c.out != nullptr) *c.out << line << "\n" << std::flush;
}

}  // namespace

Status CheckForeignFile(const FileIoSettings& s, uint64_t i, const FileInfo& info) {
  const std::string path = s.FilePath(i);
  if (!info.is_regular) {
    return Status::FailedPrecondition(fmt::format("'{}' is not a regular file", path));
  }
  if (s.validate) {
    return Status::FailedPrecondition(fmt::format(
        "--validate: '{}' was not created by loadcell (--file-use-existing), so its blocks carry "
        "no stamp to check; run without --validate",
        path));
  }
  if (ModeWrites(s.mode) && s.use_existing != UseExisting::kWrite) {
    return Status::FailedPrecondition(
        fmt::format("--file-test-mode={} would write into '{}', which loadcell did not create: add "
                    "--file-use-existing=write to allow it",
                    FileTestModeName(s.mode), path));
  }
  if (info.size != s.file_size) {
    return Status::FailedPrecondition(fmt::format(
        "'{}' (not created by loadcell) has size {}, expected {} from --file-total-size={} and "
        "--file-num={}: give the sizes the files were made with",
        path, info.size, s.file_size, FormatSize(s.total_size), s.num_files));
  }
  return Status::Ok();
}

uint64_t CountForeignFiles(FileSystem& fs, const FileIoSettings& s, const FileManifest* m) {
  uint64_t n = 0;
  for (uint64_t i = 0; i < s.num_files; ++i) {
    Result<FileInfo> info = fs.Stat(s.FilePath(i));
    if (info.ok() && info->exists && (m == nullptr || m->Find(s.FileName(i)) == nullptr)) ++n;
  }
  return n;
}

std::string UseExistingHint(FileSystem& fs, const FileIoSettings& s) {
  Result<FileInfo> info = fs.Stat(s.FilePath(0));
  if (!info.ok() || !info->exists) return "";
  return "; to use files made by another tool as they are, add --file-use-existing=on";
}

Status PrepareWithExisting(FileSystem& fs, const FileIoSettings& s, const FileIoConsole& console) {
  for (uint64_t i = 0; i < s.num_files; ++i) {
    LC_ASSIGN_OR_RETURN(FileInfo info, fs.Stat(s.FilePath(i)));
    if (!info.exists) {
      return Status::FailedPrecondition(fmt::format(
          "--file-use-existing: '{}' does not exist, and prepare writes nothing with this "
          "option: make the files with the other tool, or prepare without it",
          s.FilePath(i)));
    }
  }
  FileIoSettings as_read = s;
  as_read.mode = FileTestMode::kRndRead;
  as_read.mode_given = true;
  as_read.validate = false;
  Result<FileManifest> m = CheckFilesForRun(fs, as_read);
  if (!m.ok()) {
    return Status(m.status().code(),
                  "--file-use-existing: prepare writes nothing, and " + m.status().message(),
                  m.status().err());
  }
  const uint64_t foreign = CountForeignFiles(fs, s, &*m);
  SayLine(console, fmt::format("--file-use-existing: the {} in {} are used as they are ({} not "
                               "created by loadcell); nothing written.",
                               CountOf(s.num_files, "test file", "test files"), s.dir, foreign));
  return Status::Ok();
}

void SayForeignLeft(FileSystem& fs, const FileIoSettings& s, const FileIoConsole& console) {
  // After cleanup every test file still there is one that loadcell did not create.
  const uint64_t left = CountForeignFiles(fs, s, nullptr);
  if (left == 0) return;
  SayLine(console,
          fmt::format("Left {} in place: loadcell did not create {}.",
                      CountOf(left, "test file", "test files"), left == 1 ? "it" : "them"));
}

}  // namespace loadcell
