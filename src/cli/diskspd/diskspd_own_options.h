#pragma once
// loadcell's own options of `loadcell diskspd` among DiskSpd's switches
// (docs/diskspd.md, "loadcell's own options"): --allow-destructive,
// --verdict, --mpi*, --help and loadcell's reports of the run
// (--format=json, --output-file, --report-html), and the rules of those
// reports against DiskSpd's own.

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "cli/fio/fio_results.h"
#include "cli/mpi_ranks.h"
#include "core/status.h"
#include "diskspd/diskspd_switches.h"
#include "validity/verdict.h"

namespace loadcell {

struct DiskspdOwnOptions {
  bool allow_destructive = false;
  MpiRanks ranks;                          // --mpi, --mpi-files, --mpi-timeout and the launcher
  VerdictMode verdict = VerdictMode::kOn;  // --verdict=off|on|strict
  FioResultOptions results;                // --format=json, --output-file, --report-html
};

// loadcell's own options among the arguments into `own` (and the
// launcher looked for), DiskSpd's into `args`; an exit code when the
// command ends here (--help, an unknown option or a bad value).
std::optional<int> TakeOwnOptions(const std::vector<std::string>& all_args, DiskspdOwnOptions& own,
                                  std::vector<std::string>& args, std::ostream& out,
                                  std::ostream& err);

// The rules of --format=json, --output-file and --report-html against
// DiskSpd's reports and targets (`first`: the first timespan's switches).
Status CheckResultOptions(const FioResultOptions& r, const diskspd::DiskspdSwitches& first);

}  // namespace loadcell
