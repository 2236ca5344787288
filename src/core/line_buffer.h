#pragma once
// A stream buffer that hands its text on in whole lines: everything up to
// the last '\n' written reaches the sink in one call, and an explicit flush
// hands on what there is. loadcell's standard error goes through one
// (main.cpp): written through the standard one, a line put together with <<
// reaches the file in one write per piece, and an MPI launcher, which
// forwards every rank's standard error into its own, then mixes pieces of
// two ranks' lines into one ("loadcell: error: loadcell: error: rank 2 ...").
//
//   WriteInWholeLines(std::cerr, stderr);   // once, at the start of main
//
// Thread-safe: the standard streams may be written from any thread.

#include <cstddef>
#include <cstdio>
#include <functional>
#include <mutex>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>

namespace loadcell {

class WholeLineBuffer final : public std::streambuf {
 public:
  using Sink = std::function<void(std::string_view)>;
  // A line longer than this is handed on in pieces of this size.
  static constexpr size_t kMaxPending = size_t{64} * 1024;

  explicit WholeLineBuffer(Sink sink);
  ~WholeLineBuffer() override;  // hands on an unfinished line

  WholeLineBuffer(const WholeLineBuffer&) = delete;
  WholeLineBuffer& operator=(const WholeLineBuffer&) = delete;

 protected:
  int_type overflow(int_type ch) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;

 private:
  // With mutex_ held: appends, then hands on every whole line (or a piece
  // of kMaxPending).
  void Append(std::string_view text);
  void HandOnAll();

  Sink sink_;
  std::mutex mutex_;
  std::string pending_;
};

// Makes `stream` write through a WholeLineBuffer into `file`, one fwrite per
// hand-on, for the rest of the process (the buffer is never destroyed, so it
// outlives the static objects that may still print), and stops its flush
// after every output (std::cerr's unitbuf): std::flush still hands on a
// partial line at once (the progress bar's redraw).
void WriteInWholeLines(std::ostream& stream, std::FILE* file);

}  // namespace loadcell
