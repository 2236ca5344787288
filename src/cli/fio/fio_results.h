#pragma once
// loadcell's own reports of a `loadcell fio` run, beside fio's output:
// `--format=json` (loadcell's run schema, docs/json-schema.md, "Runs of
// several jobs": every job merged at the top, each job and group in a part
// of its own) to `--output-file=PATH` or standard output, and
// `--report-html=PATH` (the page drawn from that document). `loadcell
// report` and `loadcell compare` read the document back. See docs/fio.md.

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "cli/fio/fio_plan.h"
#include "cli/report_file.h"
#include "core/status.h"
#include "fio/job_file.h"
#include "report/fio/fio_report.h"
#include "report/reporter.h"
#include "runner/jobs.h"

namespace loadcell {

struct FioResultOptions {
  bool json = false;      // --format=json
  std::string json_file;  // --output-file=PATH; "": standard output
  std::string html_file;  // --report-html=PATH; "": none

  // loadcell's JSON replaces fio's report on standard output.
  bool JsonOnStdout() const { return json && json_file.empty(); }
};

// Whether `name` is one of the options above.
bool IsFioResultOption(const std::string& name);
// Reads one of them into `out`; InvalidArgument naming it when its value is
// not one it takes.
Status ReadFioResultOption(const fio::FioRawOption& o, FioResultOptions& out);
// The rules between them and fio's own output options, one line each:
// --output-file without --format=json, nothing to report with --parse-only,
// two outputs in one file, loadcell's JSON and fio's explicit
// --output-format both on standard output.
Status CheckFioResultOptions(const FioResultOptions& r, bool parse_only,
                             const std::string& fio_output, bool output_format_given);

// A job's options as its manifest records them (group "fio", as given,
// later ones overriding), so that `compare` names the ones two runs differ in.
std::vector<ResolvedOption> FioManifestOptions(
    const std::vector<std::pair<std::string, std::string>>& given);

// The files of loadcell's reports, opened before anything is laid out (a
// place that cannot take one is a usage error) and put in place whole at
// the end.
class FioResultFiles final {
 public:
  // InvalidArgument naming the option when one names a data file or a log
  // of a job of `plan` (it would replace it).
  Status Open(const FioResultOptions& o, const FioPlan& plan);
  // The document of the run (`report`'s jobs and groups, `ran`'s total,
  // `workload` any job's: its counter names and metrics) to --output-file
  // or `out`, and its page to --report-html. An IoError when a file could
  // not be written.
  Status Write(const FioResultOptions& o, const FioReport& report, const JobsResult& ran,
               const Workload& workload, std::ostream& out);

  // The same for a front end that runs fio's jobs without fio's job files
  // (`loadcell diskspd`): the files opened with nothing to check them
  // against, and the document of `total`, `jobs` and `groups` (each with
  // its metrics) written.
  Status OpenFiles(const FioResultOptions& o);
  Status WriteDocument(const FioResultOptions& o, const RunResult& total,
                       const std::vector<JobPart>& jobs, const std::vector<JobPart>& groups,
                       const Workload& workload, std::ostream& out);

 private:
  ReportFile json_;
  ReportFile html_;
};

}  // namespace loadcell
