#pragma once
// `loadcell sweep`: a matrix of runs over lists of option values.
//
//   loadcell sweep --threads=1,2,4,8 [--file-block-size=4K,64K ...]
//                  [--repeat=N] [--output-dir=DIR] [--format=text|csv]
//                  [--report-html=PATH] [--quiet] -- TEST [test options] [run]
//
// Every option before `--` other than the sweep's own is swept: its
// comma-separated values form one axis; the points are all combinations,
// the first option varying slowest. Every point's options are validated
// before anything runs. Each run goes through the same flow as
// `loadcell TEST run` (in this process) and its JSON result is written to
// the output directory. See docs/compare-sweep.md.

#include <ostream>
#include <string>
#include <vector>

#include "report/html/html_report.h"
#include "report/json/json_reader.h"

namespace loadcell {

struct SweepTable {
  std::string test;
  std::vector<std::string> options;  // swept option names, without dashes
  int repeat = 1;
  std::vector<std::vector<std::string>> values;  // per point: one value per option
  // Per point, the values as shown in tables, pages and file names: a secret
  // option's (a password) as "hidden-N". Empty: as `values`.
  std::vector<std::vector<std::string>> shown;
  std::vector<std::vector<ResultData>> runs;  // per point: its finished runs
  bool interrupted = false;
};

// Point `p`'s values as tables, pages and file names show them.
inline const std::vector<std::string>& ShownValuesOf(const SweepTable& t, size_t p) {
  return t.shown.empty() ? t.values[p] : t.shown[p];
}

// The table of finished points: "text" (aligned columns) or "csv" (the run
// CSV's columns after the swept options; docs/compare-sweep.md).
std::string FormatSweep(const SweepTable& t, const std::string& format);

// The figures the HTML page draws (means over each point's runs).
SweepFigures SweepToFigures(const SweepTable& t);

// The command: `args` are the words after "sweep". Returns the exit code.
int RunSweepCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace loadcell
