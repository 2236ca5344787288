#pragma once
// The SQLIO-shaped text report of `loadcell sqlio`: SQLIO 1.5's header and
// CUMULATIVE DATA block (IOs/sec, MBs/sec, latency min/avg/max and the
// 0..24+ ms histogram), then, unless classic, DiskSpd's per-thread table
// and percentile table. Formatting only; the figures come from RunResult.

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "report/reporter.h"
#include "runner/run_result.h"
#include "stats/histogram.h"

namespace loadcell {

struct SqlioHeaderFile {
  std::string shown;  // as in the param file / command line
  std::string path;   // on this system
  int threads = 1;
  int first_thread = 0;
  uint64_t mask = 0;
  uint64_t size_mb = 0;     // size used for the test, MiB
  bool size_given = false;  // from the param file
  bool created = false;     // created by this run
};

struct SqlioHeaderInfo {
  std::string version;     // loadcell's
  char latency = 0;        // 'S' / 'P' / 0
  std::string param_file;  // "" when none
  std::vector<SqlioHeaderFile> files;
  bool write = false;
  double seconds = 0;
  uint64_t block_kb = 8;
  std::string access = "random";  // "random", "sequential", "striped"
  uint64_t start_block = 0;       // -S
  uint64_t stripe = 0;            // -f<N> (0: none)
  uint64_t ios_per_run = 64;      // -i (with -f<N>)
  bool same_runs = false;         // -v1.1.1
  int outstanding = 1;
  std::string buffering;   // what -B meant, in words
  std::string open_flags;  // "O_RDWR|O_DIRECT"
  std::string engine;
  std::vector<std::string> drives;  // "drive C: is /data (--drive C=/data)"
  std::vector<std::string> notes;   // one line each
};

// The lines printed before the run, ending with "initialization done".
std::string FormatSqlioHeader(const SqlioHeaderInfo& h);

struct SqlioReportSettings {
  bool latency = false;  // -L: latency metrics and histogram
  bool classic = false;  // --sqlio-classic: SQLIO's block only
  uint64_t block_size = 8192;
  std::vector<std::string> thread_files;  // file shown for each thread
  std::optional<double> cpu_percent;      // -U
  double cpu_user_s = 0, cpu_system_s = 0;
  std::vector<std::string> notes;  // printed after the figures
};

// CUMULATIVE DATA and, unless classic, the DiskSpd tables. Formats only:
// IOs/sec and MBs/sec are r's metrics "ios_per_second" and "mbs_per_second"
// (SqlioWorkload::Metrics), the per-thread rates and the -L histogram
// (latency_whole_ms_pct) r's derived figures.
// REQUIRES: FillDerivedFigures(r) and r.metrics filled, as RunWorkload does.
std::string FormatSqlioResults(const RunResult& r, const SqlioReportSettings& s);

// A reporter that prints FormatSqlioResults at OnEnd.
std::unique_ptr<Reporter> MakeSqlioReporter(std::ostream& out, SqlioReportSettings s);

}  // namespace loadcell
