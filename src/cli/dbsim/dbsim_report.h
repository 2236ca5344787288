#pragma once
// The text and JSON reports of `loadcell dbsim`: per user (I/O by kind, bytes, IOPS,
// latency percentiles, failed checks by kind), per file, the failures, the
// verdict. Formats what the results and the database hold; computes
// nothing else.

#include <ostream>
#include <string>
#include <vector>

#include "runner/jobs.h"
#include "workloads/dbsim/dbsim_database.h"

namespace loadcell {

// Each cycle is two groups of jobs: its users, then its audit pass.
inline constexpr int kDbsimGroupsPerCycle = 2;

struct DbsimReportInput {
  const JobsResult* result = nullptr;
  const DbsimDatabase* db = nullptr;
  std::string log_name;
  uint32_t page_size = 0;
  double duration_s = 0;
  int64_t cycles = 1;
  // Every user's verdict merged (MergeVerdicts): the run's, with each
  // finding named by the users that made it.
  Validity verdict;
};

// The first line, printed before the users start (a watcher knows the run
// began).
void WriteDbsimHeader(const DbsimReportInput& in, std::ostream& out);
// The rest, once the run ended.
void WriteDbsimText(const DbsimReportInput& in, std::ostream& out);
// The same as one JSON document (dbsim_json.cpp; docs/dbsim.md, "JSON").
void WriteDbsimJson(const DbsimReportInput& in, std::ostream& out);

}  // namespace loadcell
