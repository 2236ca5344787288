#include "cli/fio/fio_results.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <set>
#include <sstream>

#include "cli/fio/fio_mpi.h"
#include "report/html/html_report.h"
#include "report/json/json_reader.h"

namespace loadcell {
namespace {

constexpr std::array<const char*, 3> kResultOptions = {"format", "output-file", "report-html"};

Status NeedsValue(const fio::FioRawOption& o, const char* what) {
  return Status::InvalidArgument("--" + o.name + ": needs " + what + " (--" + o.name + "=" + what +
                                 ")");
}

// The total as the document's top level states it: every job's targets,
// each job's options under its name ("reader.bs"), the jobs' verdicts
// merged (each check at its gravest) and the metrics.
RunResult FioTotal(const FioReport& report, const JobsResult& ran, const Workload& workload) {
  RunResult total = ran.total;
  std::vector<const RunResult*> parts;
  parts.reserve(ran.jobs.size());
  for (const JobRunResult& j : ran.jobs) parts.push_back(&j.result);
  AddFioRanks(parts, total);  // under MPI: each rank's row of the whole run
  total.manifest.test = "fio";
  total.manifest.targets.clear();
  total.manifest.options.clear();
  std::vector<NamedValidity> verdicts;
  std::set<std::string> named;
  for (const JobRunResult& j : ran.jobs) {
    const Manifest& m = j.result.manifest;
    total.manifest.targets.insert(total.manifest.targets.end(), m.targets.begin(), m.targets.end());
    if (!named.insert(j.name).second) continue;  // a clone (numjobs): the same options
    for (const ResolvedOption& o : m.options) {
      total.manifest.options.push_back({o.group, j.name + "." + o.name, o.value, o.is_default});
    }
  }
  total.manifest.targets_recorded = true;
  for (const FioReportJob& job : report.jobs) {
    verdicts.push_back({"job " + job.name, &job.result->validity});
  }
  total.validity = MergeVerdicts(verdicts);
  total.metrics = workload.Metrics(total);
  return total;
}

// A part's result with its metrics (a merge's are left to its caller).
RunResult WithMetrics(const RunResult& r, const Workload& workload) {
  RunResult out = r;
  if (out.metrics.empty()) out.metrics = workload.Metrics(out);
  return out;
}

}  // namespace

bool IsFioResultOption(const std::string& name) {
  return std::find(kResultOptions.begin(), kResultOptions.end(), name) != kResultOptions.end();
}

Status ReadFioResultOption(const fio::FioRawOption& o, FioResultOptions& out) {
  if (o.name == "format") {
    if (o.value != "json") {
      return Status::InvalidArgument(
          "--format=" + o.value +
          ": loadcell fio takes --format=json (loadcell's JSON result); fio's own formats are "
          "--output-format=normal|json|json+");
    }
    out.json = true;
  } else if (o.name == "output-file") {
    if (o.value.empty()) return NeedsValue(o, "PATH");
    out.json_file = o.value;
  } else if (o.name == "report-html") {
    if (o.value.empty()) return NeedsValue(o, "PATH");
    out.html_file = o.value;
  }
  return Status::Ok();
}

Status CheckFioResultOptions(const FioResultOptions& r, bool parse_only,
                             const std::string& fio_output, bool output_format_given) {
  if (!r.json_file.empty() && !r.json) {
    return Status::InvalidArgument("--output-file=" + r.json_file +
                                   ": needs --format=json (it is where loadcell's JSON result "
                                   "goes; fio's own output file is --output)");
  }
  if (parse_only && (r.json || !r.html_file.empty())) {
    return Status::InvalidArgument(
        std::string(r.json ? "--format=json" : "--report-html") +
        ": --parse-only runs nothing, so there is no result to report; leave one of them out");
  }
  const std::vector<std::pair<std::string, std::string>> files = {
      {"--output-file", r.json_file}, {"--report-html", r.html_file}, {"--output", fio_output}};
  for (size_t i = 0; i < files.size(); ++i) {
    for (size_t k = i + 1; k < files.size(); ++k) {
      if (files[i].second.empty() || files[k].second.empty()) continue;
      if (SamePath(files[i].second, files[k].second)) {
        return Status::InvalidArgument(files[i].first + "=" + files[i].second +
                                       ": the same file as " + files[k].first +
                                       "; give each its own");
      }
    }
  }
  if (r.JsonOnStdout() && fio_output.empty() && output_format_given) {
    return Status::InvalidArgument(
        "--format=json and --output-format both write to standard output; give one a file "
        "(--output-file=PATH for loadcell's JSON, --output=FILE for fio's)");
  }
  return Status::Ok();
}

std::vector<ResolvedOption> FioManifestOptions(
    const std::vector<std::pair<std::string, std::string>>& given) {
  std::vector<ResolvedOption> out;
  out.reserve(given.size());
  for (const auto& [name, value] : given) out.push_back({"fio", name, value, false});
  return out;
}

namespace {

// `option`=`path` against every job's data files and logs.
Status CheckNotAJobsFile(const std::string& option, const std::string& path, const FioPlan& plan) {
  if (path.empty()) return Status::Ok();
  for (const auto& step : plan.steps) {
    for (const FioPlannedJob& job : step) {
      const auto is_path = [&path](const std::string& other) { return SamePath(path, other); };
      const char* what = nullptr;
      if (std::any_of(job.settings.files.begin(), job.settings.files.end(), is_path)) {
        what = "a data file";
      } else if (std::any_of(job.logs.begin(), job.logs.end(),
                             [&is_path](const auto& log) { return is_path(log.second); })) {
        what = "a log";
      }
      if (what != nullptr) {
        return Status::InvalidArgument(
            fmt::format("{}={}: {} of job {}; give the report a file "
                        "of its own",
                        option, path, what, job.instance.name));
      }
    }
  }
  return Status::Ok();
}

}  // namespace

Status FioResultFiles::Open(const FioResultOptions& o, const FioPlan& plan) {
  LC_RETURN_IF_ERROR(CheckNotAJobsFile("--output-file", o.json_file, plan));
  LC_RETURN_IF_ERROR(CheckNotAJobsFile("--report-html", o.html_file, plan));
  return OpenFiles(o);
}

Status FioResultFiles::OpenFiles(const FioResultOptions& o) {
  if (!o.json_file.empty()) LC_RETURN_IF_ERROR(json_.Open("--output-file", o.json_file));
  if (!o.html_file.empty()) LC_RETURN_IF_ERROR(html_.Open("--report-html", o.html_file));
  return Status::Ok();
}

Status FioResultFiles::Write(const FioResultOptions& o, const FioReport& report,
                             const JobsResult& ran, const Workload& workload, std::ostream& out) {
  if (!o.json && o.html_file.empty()) return Status::Ok();
  const RunResult total = FioTotal(report, ran, workload);
  std::vector<RunResult> results;  // the parts' results, with their metrics
  results.reserve(report.jobs.size() + report.groups.size());
  for (const FioReportJob& job : report.jobs) results.push_back(WithMetrics(*job.result, workload));
  for (const auto& [gid, r] : report.groups) results.push_back(WithMetrics(*r, workload));
  std::vector<JobPart> jobs;
  std::vector<JobPart> groups;
  size_t at = 0;
  for (const FioReportJob& job : report.jobs) {
    jobs.push_back({job.name, job.groupid, job.jobs, &results[at++]});
  }
  for (const auto& [gid, r] : report.groups) {
    groups.push_back({"group " + std::to_string(gid), gid, 0, &results[at++]});
  }
  for (JobPart& g : groups) {  // the job instances of the group
    for (const FioReportJob& job : report.jobs)
      g.instances += job.groupid == g.group ? job.jobs : 0;
  }
  return WriteDocument(o, total, jobs, groups, workload, out);
}

Status FioResultFiles::WriteDocument(const FioResultOptions& o, const RunResult& total,
                                     const std::vector<JobPart>& jobs,
                                     const std::vector<JobPart>& groups, const Workload& workload,
                                     std::ostream& out) {
  ReportSettings settings;
  settings.percentile = 99;
  std::ostringstream text;
  WriteJobsDocument(text, total, jobs, groups, workload, settings);
  if (o.json) (json_.is_open() ? json_.stream() : out) << text.str();
  if (html_.is_open()) {
    // The page is drawn from the document read back, as for every run.
    Result<ResultData> data = ParseResultJson(text.str(), "this run");
    if (!data.ok()) return Status::Internal("--report-html: " + data.status().message());
    html_.stream() << RenderRunHtml(*data);
  }
  Status st = json_.Commit();
  if (Status h = html_.Commit(); st.ok()) st = h;
  return st;
}

}  // namespace loadcell
