#include "os/report_stdout.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <iostream>
#include <streambuf>

namespace loadcell {

// An unbuffered-enough stream buffer over one descriptor (writes in chunks
// of its buffer, retrying after EINTR and short writes).
class ReportStdout::FdBuf final : public std::streambuf {
 public:
  explicit FdBuf(int fd) : fd_(fd) { setp(buf_, buf_ + sizeof(buf_)); }
  ~FdBuf() override { Drain(); }
  FdBuf(const FdBuf&) = delete;
  FdBuf& operator=(const FdBuf&) = delete;

 protected:
  int_type overflow(int_type ch) override {
    if (!Drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(ch, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(ch);
      pbump(1);
    }
    return traits_type::not_eof(ch);
  }
  int sync() override { return Drain() ? 0 : -1; }

 private:
  bool Drain() {
    const char* p = pbase();
    while (p < pptr()) {
      const ssize_t n = ::write(fd_, p, static_cast<size_t>(pptr() - p));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      p += n;
    }
    setp(buf_, buf_ + sizeof(buf_));
    return true;
  }

  int fd_;
  char buf_[8192];
};

ReportStdout::ReportStdout() {
  std::cout.flush();
  std::fflush(stdout);
  const int saved = ::dup(STDOUT_FILENO);
  if (saved < 0) return;
  if (::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    ::close(saved);
    return;
  }
  saved_fd_ = saved;
  buf_ = std::make_unique<FdBuf>(saved_fd_);
  stream_ = std::make_unique<std::ostream>(buf_.get());
}

ReportStdout::~ReportStdout() {
  if (!active()) return;
  stream_->flush();
  std::cout.flush();
  std::fflush(stdout);  // a script's buffered print() belongs to stderr
  ::dup2(saved_fd_, STDOUT_FILENO);
  stream_.reset();
  buf_.reset();
  ::close(saved_fd_);
}

std::ostream& ReportStdout::stream() { return active() ? *stream_ : std::cout; }

}  // namespace loadcell
