#pragma once
// The OLTP report pieces in sysbench 1.0's shape: the "SQL statistics"
// section, the interval line, and the derived metrics (with loadcell's own
// CPU time per transaction). Pure functions of a result whose counters are
// named by OltpCounterNames().

#include <string>
#include <vector>

#include "runner/run_facts.h"
#include "runner/run_result.h"

namespace loadcell {

std::string OltpTextSection(const RunResult& r);
// The same without loadcell's additions (the client block): sysbench mode.
std::string OltpSysbenchSection(const RunResult& r);
// "thds: 4 tps: 120.00 qps: 2400.00 (r/w/o: 1680.00/480.00/240.00) lat (ms,95%): 3.25
// err/s: 0.00 reconn/s: 0.00" (the reporter adds the "[ 1s ] " stamp).
std::string OltpIntervalLine(const IntervalSnapshot& s, double percentile);
std::vector<Metric> OltpMetrics(const RunResult& r);
// The validity checks' facts of an OLTP run on `driver` (its
// --DRIVER-ignore-errors): ignored errors, deadlocks, and reconnects unless
// `reconnects_asked` (--oltp-reconnect-mode other than session).
WorkloadFacts OltpFacts(const RunResult& r, const std::string& driver, bool reconnects_asked);
// Puts `data_set` (the tables and the buffer pool) in `f` for the database
// check, with `r`'s transactions and rolled-back ones.
void AddDataSetFacts(WorkloadFacts& f, const DatabaseFacts& data_set, const RunResult& r);

}  // namespace loadcell
