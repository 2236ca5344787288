#pragma once
// A report file that appears whole or not at all. Written to a temporary
// file beside its target and renamed over the target by Commit(); until then
// an existing file of that name is untouched, and a ReportFile destroyed
// without Commit() (a usage error, a failed start) removes its temporary.
// A symbolic link is followed: its file gets the report, the link stays.
// A target that is no file to replace (a device such as /dev/null or
// Windows' NUL, a FIFO, a socket) is written directly, never renamed over.

#include <fstream>
#include <string>

#include "core/status.h"

namespace loadcell {

class ReportFile final {
 public:
  ReportFile() = default;
  ReportFile(const ReportFile&) = delete;
  ReportFile& operator=(const ReportFile&) = delete;
  ~ReportFile();

  // Creates the temporary for `path` (the value of `option`, named in
  // errors). InvalidArgument "OPTION=PATH: cannot open for writing: REASON"
  // when the folder does not exist or cannot be written.
  Status Open(const std::string& option, const std::string& path);
  bool is_open() const { return file_.is_open(); }
  // The stream to write the report to. REQUIRES: is_open().
  std::ostream& stream() { return file_; }
  // Flushes, closes and renames the temporary over the target. IoError
  // "OPTION=PATH: write failed" (the target untouched) when any write or the
  // rename failed. Does nothing when not open.
  Status Commit();
  // The temporary's path as opened ("" when not open, and once committed or
  // removed).
  const std::string& temporary() const { return temp_; }

 private:
  void RemoveTemporary();

  std::string option_;
  std::string path_;
  std::string temp_;
  std::ofstream file_;
};

// Whether two paths name the same file: equal after making them absolute
// and normal, or the same existing file (a link, "./x" and "x").
bool SamePath(const std::string& a, const std::string& b);

}  // namespace loadcell
