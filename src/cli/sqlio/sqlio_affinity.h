#pragma once
// SQLIO's CPU switches (-p, -a) and a param file's masks against the CPUs
// this machine has and this process may use: a CPU that is not there is bad
// input, refused before anything is made.

#include <string>
#include <vector>

#include "cli/sqlio/sqlio_options.h"
#include "core/status.h"

namespace loadcell {

// The CPUs here: 0 to machine-1 (ReadSystemInfo's count), of which the
// process may use `allowed` (AllowedCpus()).
struct CpuFacts {
  int machine = 0;           // 0: unknown
  std::vector<int> allowed;  // increasing; empty: unknown
};

// "0-1", "0,2-5": CPU numbers (increasing) as ranges.
std::string CpuRanges(const std::vector<int>& cpus);

// InvalidArgument (one line naming the switch or the param file and line,
// the mask and the CPUs there are) when -p, -a or a line's mask (0: no
// affinity) names a CPU the machine lacks or the process may not use.
Status CheckSqlioAffinity(const SqlioSwitches& sw, const std::vector<SqlioParamLine>& lines,
                          const CpuFacts& facts);

}  // namespace loadcell
