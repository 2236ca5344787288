#pragma once
// `loadcell report RESULT.json [-o PAGE.html]`: the HTML report of a saved
// JSON result. And the run-time additions of the CLI layer to a normal run:
// --report-html=PATH, --quiet and the live status line.

#include <fstream>
#include <ostream>
#include <string>
#include <vector>

#include "cli/report_file.h"
#include "cluster/launch.h"
#include "core/options.h"
#include "report/reporter.h"
#include "runner/run_config.h"

namespace loadcell {

// Options the CLI layer adds to every run (not RunConfig's: the runner does
// not know them).
struct RunExtras {
  std::string report_html;  // --report-html=PATH; empty: none
  bool quiet = false;       // --quiet: no progress, no live status
  ClusterSettings cluster;  // --mpi, --mpi-timeout... (cli/cluster_setup.h)
};

// Takes --report-html, --quiet and the --mpi options out of `options` (marks them consumed)
// and applies --quiet to the process-wide progress switch.
Result<RunExtras> TakeRunExtras(RawOptions& options);

// The status-tick period for the HTML report's time series when there are
// no --report-interval intervals: about 60 points over --time, between
// 0.1 s and 1 s.
double HtmlSamplePeriod(double time_limit_s);

// Owns what RunExtras add to a run: the HTML file and reporter, the live
// status line. Lives as long as the run.
class RunAddons final {
 public:
  // Opens the HTML file (InvalidArgument naming it when it cannot be
  // written), adds the live status (when stderr is a terminal, the report
  // interval is 0 and not quiet; first, so that it is erased before the
  // final report) and the HTML reporter to `reporters`, and sets
  // cfg.status_interval_s as they need.
  Status Attach(const RunExtras& extras, const Workload& w, const ReportSettings& settings,
                RunConfig& cfg, MultiReporter& reporters, std::ostream& err);
  // After OnEnd: puts the HTML file in place; an IoError when it could not
  // be written (an existing file of that name is then left as it was).
  Status Finish();

 private:
  ReportFile html_;
};

// The command: `args` are the words after "report". Returns the exit code.
int RunReportCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace loadcell
