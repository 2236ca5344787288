#pragma once
// The text and JSON reports of `loadcell dbsim`: per user (I/O by kind, bytes, IOPS,
// latency percentiles, failed checks by kind), per file, the failures, the
// verdict. Formats what the results and the database hold; computes
// nothing else.

#include <array>
#include <ostream>
#include <string>
#include <vector>

#include "dbsim/dbsim_config.h"
#include "dbsim/fault_file_system.h"
#include "runner/jobs.h"
#include "workloads/dbsim/dbsim_database.h"
#include "workloads/dbsim/dbsim_users.h"

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
  // What the run's manifest records (DbsimRunResult): the configuration in
  // force, where it came from, the folder of the files, the users' workload
  // (its metrics).
  const DbsimConfig* config = nullptr;
  std::string cfg_path;  // -cfg; empty: none
  std::string preset;    // --preset; empty: none
  bool page_size_given = false;
  std::string dir;
  const Workload* workload = nullptr;
  // Each job's user, in the jobs' order (its depth and peak in flight).
  std::vector<const DbsimUserWorkload*> users;
  // Every user's verdict merged (MergeVerdicts): the run's, with each
  // finding named by the users that made it.
  Validity verdict;
  // --inject-fault (tests): the seam that breaks one I/O and the option as
  // given; null: none. The report says whether the fault fired.
  const DbFaultFileSystem* injected = nullptr;
  std::string injected_option;
};

// One data file's figures as the users timed them, from the run's total
// (every job's result merged, across cycles and, like the users' figures,
// processes): its I/Os (every kind), their rate over the total's time, its
// latency histogram (percentiles, the longest I/O) and its failed pages by
// kind (index DbPageFault).
struct DbsimFileFigures {
  uint64_t ios = 0;
  double iops = 0;
  const LatencyHistogram* latency = nullptr;  // into the total; null when absent
  std::array<uint64_t, kDbPageFaultKinds> failed{};
  uint64_t throttled_ns = 0;  // its I/Os' waits at the throttle (TargetIODuration)
};
DbsimFileFigures DbsimFileFiguresOf(const RunResult& total, size_t file);

// What the verdict says of an unverified run (--verify=off), a WARN
// `page-checks`: no page was checked, so the run says nothing of whether
// the storage keeps pages.
CheckOutcome DbsimUnverifiedOutcome();

// The first line, printed before the users start (a watcher knows the run
// began).
void WriteDbsimHeader(const DbsimReportInput& in, std::ostream& out);
// The rest, once the run ended.
void WriteDbsimText(const DbsimReportInput& in, std::ostream& out);
// The same as one JSON document (dbsim_json.cpp; docs/dbsim.md, "JSON"):
// a run of loadcell's run schema (DbsimRunResult) with dbsim's own figures
// beside its members.
void WriteDbsimJson(const DbsimReportInput& in, std::ostream& out);
// The HTML page of the run (--report-html): the page `loadcell report`
// makes of its JSON, with its users and data files as tables.
Status WriteDbsimHtml(const DbsimReportInput& in, std::ostream& out);

// The run as loadcell's run schema states it (docs/json-schema.md): every
// user's result merged (the jobs' total), with dbsim's manifest (the
// configuration in force as options, the folder as its target), the users'
// metrics over the whole run, the first user's failure that is not the end
// of its work, and the verdict the text prints. dbsim_result.cpp.
RunResult DbsimRunResult(const DbsimReportInput& in);

}  // namespace loadcell
