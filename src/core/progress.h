#pragma once
// Progress of a long phase (file creation, table loading, a sweep) on
// stderr:
//   - on a terminal, one bar redrawn in place (at most ten times a second)
//     with the rate and the time left, erased by Done();
//   - otherwise one line per 10% ("prepare: 30% (300 of 1000 rows, 52 rows/s,
//     13 s left)"), so logs stay short;
//   - nothing at all after SetProgressEnabled(false) (--quiet).
//
//   Progress p("prepare", total_rows, "rows");
//   ... p.Advance(n);   // from any thread
//   p.Done();
//
// Advance() is thread-safe and cheap (one relaxed atomic add, plus a lock
// taken with try_lock only when a redraw or a 10% line is due). A unit of
// "bytes" prints sizes and rates with binary prefixes ("1.5MiB", "80.0MiB/s").

#include <atomic>
#include <cstdint>
#include <mutex>
#include <ostream>
#include <string>

#include "core/clock.h"

namespace loadcell {

// Process-wide switch, on by default; the front end turns it off for
// --quiet. Progress objects created afterwards print nothing.
void SetProgressEnabled(bool enabled);
bool ProgressEnabled();

class Progress final {
 public:
  // Writes to stderr; a bar when stderr is a terminal.
  Progress(std::string label, uint64_t total, std::string unit);
  // Writes to `out` (nullptr: nowhere), a bar when `tty`. For tests and for
  // callers that own their console.
  Progress(std::string label, uint64_t total, std::string unit, std::ostream* out, bool tty);
  ~Progress();  // calls Done()
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Adds `n` finished units. Any thread.
  void Advance(uint64_t n);
  // Ends the display: erases the bar on a terminal; prints the 100% line
  // otherwise if it was not printed yet and something was done. Idempotent.
  void Done();

  uint64_t done() const { return done_.load(std::memory_order_relaxed); }
  // The text of the bar for `done` units after `elapsed_s` (no "\r").
  // Exposed for tests.
  std::string BarText(uint64_t done, double elapsed_s, int width) const;
  // The text of a 10% line (no newline). Exposed for tests.
  std::string LineText(uint64_t done, double elapsed_s) const;

 private:
  void Draw(bool final_draw);
  std::string Amount(double units) const;  // "1.5MiB" for bytes, "1500" else

  std::string label_;
  uint64_t total_;
  std::string unit_;
  std::ostream* out_;
  bool tty_;
  Nanos start_;
  std::atomic<uint64_t> done_{0};
  std::atomic<Nanos> next_draw_{0};     // tty: next redraw time
  std::atomic<uint64_t> next_line_{0};  // not tty: units at which the next 10% line is due
  std::mutex mu_;                       // guards the fields below and output
  int deciles_printed_ = 0;
  uint64_t last_line_units_ = 0;  // units shown by the last 10% line
  size_t last_width_ = 0;
  bool finished_ = false;
};

}  // namespace loadcell
