// The result of a `loadcell dbsim` run as loadcell's run schema states it
// (docs/json-schema.md), so that `loadcell report` and `loadcell compare`
// read it as they read any other test's.

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cli/dbsim/dbsim_report.h"
#include "runner/runner.h"

namespace loadcell {

namespace {

constexpr uint64_t kResultMiB = uint64_t{1} << 20;

// The configuration in force, key by key ("RandomUser.UserCount"), each
// marked default when it is SQLIOSim's; then loadcell's own options.
std::vector<ResolvedOption> DbsimOptions(const DbsimReportInput& in) {
  const std::vector<DbsimConfigEntry> defaults = DbsimConfigEntries(DbsimConfig{});
  std::vector<ResolvedOption> options;
  for (const DbsimConfigEntry& e : DbsimConfigEntries(*in.config)) {
    const bool is_default =
        std::any_of(defaults.begin(), defaults.end(), [&e](const DbsimConfigEntry& d) {
          return d.section == e.section && d.key == e.key && d.value == e.value;
        });
    options.push_back({"dbsim", e.section + "." + e.key, e.value, is_default});
  }
  options.push_back({"dbsim", "page-size", std::to_string(in.page_size), !in.page_size_given});
  options.push_back({"dbsim", "preset", in.preset.empty() ? "none" : in.preset, in.preset.empty()});
  options.push_back(
      {"dbsim", "engine", in.config->null_engine ? "null" : "sync", !in.config->null_engine});
  options.push_back({"dbsim", "verify", in.config->verify ? "on" : "off", in.config->verify});
  return options;
}

// The folder of the files as one target: every file, read and written a
// page at a time (scatter and gather runs aside) by the synchronous calls.
TargetManifest DbsimTarget(const DbsimReportInput& in) {
  IoTargetFacts t;
  t.engine = in.config->null_engine ? "null" : "sync";
  t.null_engine = in.config->null_engine;
  t.direct = in.config->no_buffering;
  t.reads = true;
  t.writes = true;
  t.write_through = in.config->write_through;
  t.write_pattern = "random";
  t.block_bytes = in.page_size;
  for (const DbsimFileConfig& f : in.config->files) t.file_set_bytes += f.initial_mb * kResultMiB;
  t.dir = in.dir;
  return TargetManifestOf(t);
}

Manifest DbsimManifest(const DbsimReportInput& in, Manifest m) {
  m.test = "dbsim";
  m.options = DbsimOptions(in);
  m.workload = {
      {"configuration", in.cfg_path.empty() ? "SQLIOSim's defaults" : in.cfg_path},
      {"preset", in.preset.empty() ? "none" : in.preset},
      {"page size", fmt::format("{} bytes", in.page_size)},
      {"data files", std::to_string(in.db->data_files())},
      {"pages", std::to_string(in.db->total_pages())},
      {"log file", in.log_name},
      {"cycles", fmt::format("{} x {} s", in.cycles, in.duration_s)},
  };
  m.targets = {DbsimTarget(in)};
  m.targets_recorded = true;
  return m;
}

}  // namespace

RunResult DbsimRunResult(const DbsimReportInput& in) {
  RunResult r = in.result->total;
  r.manifest = DbsimManifest(in, r.manifest);
  if (in.workload != nullptr) r.metrics = in.workload->Metrics(r);
  // A user that ended its work (the audit pass, a cycle's end) did not fail.
  r.failure = Status::Ok();
  for (const JobRunResult& job : in.result->jobs) {
    const Status& f = job.result.failure;
    if (f.ok() || IsEndOfWork(f)) continue;
    r.failure = Status(f.code(), job.name + ": " + f.message(), f.err());
    break;
  }
  // A page that failed its check fails the run (exit 1).
  if (const uint64_t failed = in.db->TotalFaults(); r.failure.ok() && failed > 0) {
    const std::vector<std::string> lines = in.db->FaultLines();
    const uint64_t pages = in.db->TotalFaultPages();
    r.failure = Status::IoError(fmt::format("{} check{} failed, of {} page{}", failed,
                                            failed == 1 ? "" : "s", pages, pages == 1 ? "" : "s") +
                                (lines.empty() ? "" : "; the first, " + lines.front()));
  }
  r.validity = in.verdict;  // every user's, merged
  return r;
}

}  // namespace loadcell
