#pragma once
// The command line of `loadcell dbsim`: SQLIOSim's switches (-cfg, -dir, -d,
// -size, -log, -save) and loadcell's own options (docs/dbsim.md, "The
// command"). Pure: nothing is opened or read.

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"
#include "dbsim/fault_file_system.h"
#include "runner/validity.h"

namespace loadcell {

// The most I/Os one user thread keeps in flight (--user-depth).
inline constexpr int64_t kDbsimMaxUserDepth = 64;

// The command line: SQLIOSim's switches and loadcell's own options.
struct DbsimArgs {
  std::string cfg;
  std::string dir = ".";
  int64_t duration_s = 0;  // -d: replaces TestCycleDuration
  int64_t size_mb = 0;     // -size: replaces the data files' InitialSize
  uint32_t page_size = 8192;
  bool page_size_given = false;
  std::string preset;        // --preset=NAME
  int64_t user_depth = 0;    // --user-depth=N: each user thread's I/Os in flight (0: not given)
  bool verify = true;        // --verify=on|off
  bool null_engine = false;  // --engine=sync|null
  bool allow_destructive = false;
  bool help = false;
  std::string log_file;     // -log: the XML error log (else the configuration's ErrorFile)
  std::string save_file;    // -save: the configuration of the run, written out
  std::string report_html;  // --report-html=FILE: the HTML page of the run
  std::string journal;      // --journal=FILE
  bool json = false;        // --format=json
  VerdictMode verdict = VerdictMode::kOn;  // --verdict=off|on|strict
  bool verify_after_crash = false;
  // --inject-fault=KIND[:SKIP] (for tests): one I/O broken through the seam.
  DbIoFault fault = DbIoFault::kNone;
  uint64_t fault_skip = 0;
};

// Reads `args` (the words after "dbsim"). InvalidArgument with one line
// naming the switch or option and what is valid.
Result<DbsimArgs> ParseDbsimArgs(const std::vector<std::string>& args);

}  // namespace loadcell
