#pragma once
// fio's per-job logs (write_lat_log, write_bw_log, write_iops_log): what a
// job's thread records of each measured I/O, and the lines of fio's log
// files made from it. fio 3.33's line is "TIME, VALUE, DIRECTION, BS, PRIO"
// (log_offset=1 puts the I/O's offset before PRIO): TIME in ms from the
// job's measured start, DIRECTION 0 read, 1 write, 2 trim, PRIO 0 (loadcell
// sets no I/O priority).
//
// Without log_avg_msec every I/O is a line: lat, clat and slat its
// latencies in ns (those the summary records), bw its bytes over its clat
// (fio's bytes x 10^6 / ns), iops 1, BS its length. With log_avg_msec=N the
// measured time is cut into windows of N ms (the last one ends with the
// job); each window with I/Os of a direction is a line of that direction at
// the window's end: lat, clat and slat the mean latencies, bw KiB/s and iops I/Os a
// second over the window, BS and offset 0 (fio's averaged lines). Every
// measured I/O is in exactly one window, so the logs add up to the summary.
// slat: only the I/Os whose submission was timed apart (the asynchronous
// engines' reads and writes, docs/fio.md) have slat lines; fio's slat log
// of a synchronous engine is empty too.

#include <array>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "core/clock.h"
#include "workloads/fio/fio_pattern.h"

namespace loadcell {

struct FioLogSettings {
  bool lat = false;     // write_lat_log: the lat, clat and slat logs
  bool bw = false;      // write_bw_log
  bool iops = false;    // write_iops_log
  int64_t avg_ns = 0;   // log_avg_msec; 0: a line per I/O
  bool offset = false;  // log_offset: the offset column
  bool any() const { return lat || bw || iops; }
};

enum class FioLogKind { kLat, kClat, kSlat, kBw, kIops };
// "lat", "clat", "slat", "bw", "iops": the file name's part.
const char* FioLogKindName(FioLogKind kind);

struct FioLogLine {
  uint64_t time_ms = 0;
  uint64_t value = 0;
  int dir = 0;
  uint64_t bs = 0;
  uint64_t offset = 0;
  friend bool operator==(const FioLogLine&, const FioLogLine&) = default;
};

// One job thread's log: Start once measuring begins, Add each measured I/O
// in completion order, Finish at the job's end. Owner thread only; read
// after the run.
class FioLogRecorder {
 public:
  explicit FioLogRecorder(FioLogSettings s) : s_(s) {}

  const FioLogSettings& settings() const { return s_; }
  bool started() const { return started_; }
  void Start(Nanos epoch);
  // An I/O of `bytes` at `offset` completed at `at` after `latency_ns`
  // (lat); its clat (negative: the same as lat) and slat (negative: not
  // timed apart, no slat line).
  void Add(Nanos at, FioDir dir, uint64_t bytes, uint64_t offset, uint64_t latency_ns,
           int64_t clat_ns = -1, int64_t slat_ns = -1);
  // Closes the last window at `end` (averaged logs).
  void Finish(Nanos end);

  // The lines of the log `kind`, in time order.
  std::vector<FioLogLine> Lines(FioLogKind kind) const;

 private:
  struct Io {
    uint64_t time_ms;
    uint64_t latency_ns;
    uint64_t clat_ns;
    int64_t slat_ns;  // negative: none
    uint64_t bytes;
    uint64_t offset;
    FioDir dir;
  };
  struct Window {
    uint64_t end_ms = 0;
    int64_t length_ns = 0;
    std::array<uint64_t, kFioDirs> ios{};
    std::array<uint64_t, kFioDirs> bytes{};
    std::array<uint64_t, kFioDirs> latency_sum{};
    std::array<uint64_t, kFioDirs> clat_sum{};
    std::array<uint64_t, kFioDirs> slat_sum{};
    std::array<uint64_t, kFioDirs> slat_ios{};  // those with a slat
  };
  void CloseWindow(int64_t length_ns, uint64_t end_ms);
  // The value of one averaged line of `kind` for direction `d` of `w`, and
  // of the line of one I/O.
  static uint64_t WindowValue(FioLogKind kind, const Window& w, size_t d);
  static uint64_t IoValue(FioLogKind kind, const Io& io);

  FioLogSettings s_;
  bool started_ = false;
  bool finished_ = false;
  Nanos epoch_ = 0;
  std::vector<Io> ios_;          // without averaging
  std::vector<Window> windows_;  // with averaging: the closed ones
  Window open_;                  // the window being filled
  int64_t open_index_ = 0;       // its number from the epoch
  bool open_used_ = false;
};

// Writes `lines` in fio's format (`offset`: with the offset column).
void WriteFioLog(const std::vector<FioLogLine>& lines, bool offset, std::ostream& out);

// fio's file name of job instance `index` (1-based over the run, fio's
// thread number) for the log `kind` with prefix `prefix`:
// "PREFIX_KIND.INDEX.log".
std::string FioLogFileName(const std::string& prefix, FioLogKind kind, int index);

// Whether `line` reads as a line of a fio log ("N, N, N, N[, N[, N]]"):
// a file that holds one may be replaced by a new log of that name.
bool LooksLikeFioLogLine(const std::string& line);

}  // namespace loadcell
