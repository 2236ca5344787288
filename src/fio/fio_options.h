#pragma once
// The one table of the fio options loadcell runs (issue #29's list, plus
// kb_base, which changes how sizes are read), and the step from a job's raw
// options (fio/job_file.h) to its FioJobSpec (fio/fio_job_spec.h).
//
// Every option not in the table is refused, in one line naming it and the
// file and line it came from: "FILE:LINE: fio option 'zonemode' is not
// supported by loadcell". Values fio rejects are refused the same way, and
// so are the contradictions checked once the whole job is known (a job with
// no size and no file, rate with rate_iops, ...). All are InvalidArgument
// (exit 2 at the command line).

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "fio/fio_job_spec.h"
#include "fio/fio_values.h"
#include "fio/job_file.h"

namespace loadcell::fio {

// What one job's options share while they are applied.
struct FioOptionContext {
  FioKbBase kb_base = FioKbBase::k1024;
  bool batch_complete_max_given = false;  // else it is iodepth
  // write_*_log given bare (or empty): the prefix is the job's name, known
  // once every option is applied.
  bool lat_log_bare = false;
  bool bw_log_bare = false;
  bool iops_log_bare = false;
};

// One option of the table.
struct FioOptionInfo {
  // Parses `option`'s value into `spec`; an error message without the
  // origin and option name (the caller adds them).
  using Apply = std::function<Status(const FioRawOption& option, FioOptionContext& context,
                                     FioJobSpec& spec)>;

  std::string_view name;
  std::vector<std::string_view> aliases;  // other names fio accepts for it
  std::string_view kind;         // its value's form, for docs and messages: "bool", "size", ...
  std::string_view fio_default;  // fio 3.33's default, as fio writes it ("" none)
  std::string_view unit;         // the unit of a bare number ("bytes", "seconds", ...), or ""
  std::string_view valid;  // what values are valid, for messages ("1 to 100", "psync|sync|...")
  Apply apply;
};

// The table, in the order docs/fio.md lists it.
const std::vector<FioOptionInfo>& FioOptionTable();
// The option named `name` (or one of its aliases), or nullptr.
const FioOptionInfo* FindFioOption(std::string_view name);

// The FioJobSpec of one job: every option applied in order (kb_base first,
// as fio sorts it first), then the checks that need the whole job. The
// implied stonewall of a later job file's first job (starts_file) sets
// `stonewall`.
Result<FioJobSpec> BuildFioJobSpec(const FioJobOptions& job);
// Every job's, in order; the first error ends it.
Result<std::vector<FioJobSpec>> BuildFioJobSpecs(const std::vector<FioJobOptions>& jobs);

// numjobs clones and fio's groups, a pure function: the jobs in order,
// each with its numjobs instances (clone 0 the job, 1.. its clones: fio's
// $jobnum); a job with stonewall starts a new step (it and every job after
// it wait until every job before it has ended); a job with stonewall or
// new_group starts a new reporting group once the current one has a job
// (fio's groupid, from 0). Clones are in their job's step and group.
std::vector<FioRunStep> ScheduleFioJobs(const std::vector<FioJobSpec>& jobs);

}  // namespace loadcell::fio
