#include "cli/report_file.h"

#include <fmt/format.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <system_error>

#include "os/folder_check.h"

namespace loadcell {
namespace {

// The stream that failed keeps no errno: one more byte written to `path`
// (the temporary file, removed afterwards) shows why writes fail there
// (a full disk, a quota); 0 when that byte is taken.
int WhyWritesFail(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "ab");
  if (f == nullptr) return errno;
  int err = 0;
  if (std::fputc('\n', f) == EOF || std::fflush(f) != 0) err = errno;
  std::fclose(f);
  return err;
}

namespace fs = std::filesystem;

// "DIR/.NAME.loadcell-XXXXXXXX" beside `path`: the same folder, so that the
// rename stays on one file system and is atomic.
std::string TemporaryName(const std::string& path, uint32_t tag) {
  const fs::path target(path);
  char suffix[16];
  std::snprintf(suffix, sizeof suffix, "%08x", tag);
  std::string name = ".";
  name.append(target.filename().string()).append(".loadcell-").append(suffix);
  return (target.parent_path() / name).string();
}

// Where a report named `path` goes: a symbolic link is followed to the
// file it names (up to 40 links), so that the link stays and its file gets
// the report, as a plain write through the link would.
fs::path FollowLinks(const fs::path& path) {
  fs::path p = path;
  std::error_code ec;
  for (int i = 0; i < 40 && fs::is_symlink(fs::symlink_status(p, ec)); ++i) {
    const fs::path to = fs::read_symlink(p, ec);
    if (ec) break;
    p = to.is_absolute() ? to : p.parent_path() / to;
  }
  return p;
}

// Whether `path` names something that is not a file to replace: a device
// (/dev/null, a terminal, Windows' NUL), a FIFO or a socket. The report is
// written to it directly; renaming a file over it would put a regular file
// in its place (a run as root with --output=/dev/null would replace the
// system's /dev/null).
bool WrittenInPlace(const fs::path& path) {
#if defined(_WIN32)
  std::string stem = path.stem().string();
  for (char& c : stem) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (stem == "NUL" || stem == "CON" || stem == "PRN" || stem == "AUX" ||
      ((stem.rfind("COM", 0) == 0 || stem.rfind("LPT", 0) == 0) && stem.size() == 4 &&
       stem[3] >= '1' && stem[3] <= '9')) {
    return true;
  }
#endif
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  return !ec && fs::exists(st) && !fs::is_regular_file(st) && !fs::is_directory(st);
}

// "OPTION=PATH: cannot open for writing".
std::string CannotOpen(const std::string& option, const std::string& path) {
  return fmt::format("{}={}: cannot open for writing", option, path);
}

}  // namespace

ReportFile::~ReportFile() {
  if (file_.is_open()) file_.close();
  RemoveTemporary();
}

Status ReportFile::Open(const std::string& option, const std::string& path) {
  option_ = option;
  path_ = path;
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    return PosixUsageError(CannotOpen(option, path), EISDIR);
  }
  if (WrittenInPlace(path)) {
    file_.open(path, std::ios::out | std::ios::binary);
    if (!file_.is_open()) return PosixUsageError(CannotOpen(option, path), errno);
    return Status::Ok();
  }
  const std::string target = FollowLinks(path).string();
  std::random_device rd;
  for (int attempt = 0; attempt < 16; ++attempt) {
    const std::string temp = TemporaryName(target, rd());
    // "x": created here, never an existing file (or link) of that name.
    std::FILE* f = std::fopen(temp.c_str(), "wbx");
    if (f == nullptr) {
      const int e = errno;
      if (e == EEXIST) continue;
      return PosixUsageError(CannotOpen(option, path), e);
    }
    std::fclose(f);
    temp_ = temp;
    file_.open(temp_, std::ios::out | std::ios::trunc | std::ios::binary);
    if (!file_.is_open()) {
      const int e = errno;
      RemoveTemporary();
      return PosixUsageError(CannotOpen(option, path), e);
    }
    return Status::Ok();
  }
  return Status::InvalidArgument(CannotOpen(option, path) + ": no free temporary name beside it");
}

Status ReportFile::Commit() {
  if (!file_.is_open()) return Status::Ok();
  file_.flush();
  bool written = file_.good();
  file_.close();
  written = written && !file_.fail();
  std::error_code ec;
  if (temp_.empty()) {  // written in place (WrittenInPlace)
    return written ? Status::Ok() : Status::IoError(option_ + "=" + path_ + ": write failed");
  }
  if (written) fs::rename(temp_, FollowLinks(path_), ec);
  if (!written || ec) {
    const int err = ec ? 0 : WhyWritesFail(temp_);
    RemoveTemporary();
    const std::string why = ec ? ": " + ec.message() : err != 0 ? ": " + FileErrnoInWords(err) : "";
    return Status::IoError(option_ + "=" + path_ + ": write failed" + why);
  }
  temp_.clear();
  return Status::Ok();
}

void ReportFile::RemoveTemporary() {
  if (temp_.empty()) return;
  std::error_code ec;
  fs::remove(temp_, ec);
  temp_.clear();
}

bool SamePath(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (fs::equivalent(a, b, ec)) return true;
  const fs::path na = fs::weakly_canonical(fs::absolute(a, ec), ec);
  const fs::path nb = fs::weakly_canonical(fs::absolute(b, ec), ec);
  return na == nb;
}

}  // namespace loadcell
