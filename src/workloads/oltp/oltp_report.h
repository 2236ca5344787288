#pragma once
// The OLTP report pieces in sysbench 1.0's shape: the "SQL statistics"
// section, the interval line, and the derived metrics (with loadcell's own
// CPU time per transaction). Pure functions of a result whose counters are
// named by OltpCounterNames().

#include <string>
#include <vector>

#include "runner/run_result.h"

namespace loadcell {

std::string OltpTextSection(const RunResult& r);
// The same without loadcell's additions (the client block): sysbench mode.
std::string OltpSysbenchSection(const RunResult& r);
// "thds: 4 tps: 120.00 qps: 2400.00 (r/w/o: 1680.00/480.00/240.00) lat (ms,95%): 3.25
// err/s: 0.00 reconn/s: 0.00" (the reporter adds the "[ 1s ] " stamp).
std::string OltpIntervalLine(const IntervalSnapshot& s, double percentile);
std::vector<Metric> OltpMetrics(const RunResult& r);

}  // namespace loadcell
