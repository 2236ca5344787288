#pragma once
// Standard output kept for a machine-readable report alone. While a
// ReportStdout is held, file descriptor 1 is standard error, so whatever
// else writes to "stdout" (a Lua script's print() and io.write, C stdio,
// std::cout, a child process) lands on stderr; the report goes to stream(),
// which writes to the original standard output. The destructor flushes
// everything and puts standard output back.

#include <memory>
#include <ostream>

namespace loadcell {

class ReportStdout final {
 public:
  ReportStdout();
  ReportStdout(const ReportStdout&) = delete;
  ReportStdout& operator=(const ReportStdout&) = delete;
  ~ReportStdout();

  // False when the descriptors could not be duplicated (stdout is then left
  // as it was and stream() is std::cout).
  bool active() const { return saved_fd_ >= 0; }
  std::ostream& stream();

 private:
  class FdBuf;
  int saved_fd_ = -1;
  std::unique_ptr<FdBuf> buf_;
  std::unique_ptr<std::ostream> stream_;
};

}  // namespace loadcell
