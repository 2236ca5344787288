#pragma once
// `loadcell sqlio ...`: SQLIO 1.5's command line and param file, run on
// fileio's engines and worker loop (workloads/sqlio.h), reported in SQLIO's
// shape with DiskSpd's tables (report/sqlio_report.h). See docs/sqlio.md.

#include <ostream>
#include <string>
#include <vector>

#include "cli/sqlio/sqlio_options.h"
#include "core/status.h"
#include "report/sqlio_report.h"
#include "workloads/sqlio/sqlio.h"

namespace loadcell {

// Everything decided before a file is touched.
struct SqlioSetup {
  SqlioPlan plan;
  SqlioHeaderInfo header;
  std::vector<bool> missing;  // per target: to be created
};

// Turns the switches into a plan: reads the param file, maps Windows paths
// and drive letters (`cwd` is the default folder), checks every file or its
// folder, chooses the engine. Touches nothing; InvalidArgument /
// FailedPrecondition (exit 2) with one line on bad input.
// `rank_folder` (a rank's own copies, --mpi-files=per-rank): each file is
// the one of that name in the sub-folder `rank_folder` next to it.
Result<SqlioSetup> PlanSqlio(const SqlioSwitches& sw, const std::string& cwd,
                             const std::string& rank_folder = "");

// The whole command: argv after "sqlio". Returns the exit code.
int RunSqlioCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

std::string SqlioUsage();

}  // namespace loadcell
