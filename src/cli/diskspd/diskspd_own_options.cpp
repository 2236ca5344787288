#include "cli/diskspd/diskspd_own_options.h"

#include <fmt/format.h>

#include <ostream>
#include <utility>

#include "cli/app.h"
#include "cli/cli_style.h"
#include "cli/diskspd/diskspd_command.h"
#include "cli/report_file.h"

namespace loadcell {

using diskspd::DiskspdSwitches;

namespace {

// --format=json, --output-file=PATH or --report-html=PATH into `r`: the
// status of reading it (a bad value named), nothing when `a` is none of them.
std::optional<Status> TakeResultOption(const std::string& a, FioResultOptions& r) {
  const auto value = [&a](const char* name) -> std::optional<std::string> {
    const std::string prefix = std::string("--") + name + "=";
    if (a.rfind(prefix, 0) != 0) return std::nullopt;
    return a.substr(prefix.size());
  };
  if (std::optional<std::string> v = value("format")) {
    if (*v != "json") {
      return Status::InvalidArgument(
          "diskspd: --format=" + *v +
          ": loadcell diskspd takes --format=json (loadcell's JSON result); DiskSpd's own "
          "reports are -Rtext and -Rxml");
    }
    r.json = true;
    return Status::Ok();
  }
  for (auto [name, into] :
       {std::pair{"output-file", &r.json_file}, std::pair{"report-html", &r.html_file}}) {
    std::optional<std::string> v = value(name);
    if (!v) continue;
    if (v->empty()) {
      return Status::InvalidArgument(
          fmt::format("diskspd: --{}: needs a file name (--{}=PATH)", name, name));
    }
    *into = *v;
    return Status::Ok();
  }
  return std::nullopt;
}

}  // namespace

std::optional<int> TakeOwnOptions(const std::vector<std::string>& all_args, DiskspdOwnOptions& own,
                                  std::vector<std::string>& args, std::ostream& out,
                                  std::ostream& err) {
  for (const std::string& a : all_args) {
    if (a == "--allow-destructive") {
      own.allow_destructive = true;
      continue;
    }
    if (a.rfind("--verdict=", 0) == 0) {
      Result<VerdictMode> mode = ParseVerdictOption("diskspd: ", a.substr(10));
      if (!mode.ok()) {
        PrintCliError(err, mode.status());
        return kExitUsage;
      }
      own.verdict = *mode;
      continue;
    }
    if (a == "--help") {
      out << DiskspdUsage();
      return kExitOk;
    }
    if (std::optional<Status> st = TakeResultOption(a, own.results)) {
      if (!st->ok()) {
        PrintCliError(err, *st);
        return kExitUsage;
      }
      continue;
    }
    if (a.rfind("--", 0) != 0) {
      args.push_back(a);
      continue;
    }
    const size_t eq = a.find('=');
    const bool has_value = eq != std::string::npos;
    Result<bool> mpi = TakeMpiOption(a.substr(2, has_value ? eq - 2 : std::string::npos), has_value,
                                     has_value ? a.substr(eq + 1) : "", own.ranks.settings);
    if (!mpi.ok() || !*mpi) {
      PrintCliError(
          err, !mpi.ok() ? mpi.status()
                         : Status::InvalidArgument(fmt::format(
                               "diskspd: unknown option '{}' (loadcell's own options "
                               "here: --allow-destructive, --verdict=off|on|strict, "
                               "--format=json, --output-file, --report-html, --mpi, --mpi-files, "
                               "--mpi-timeout, --help)",
                               a)));
      return kExitUsage;
    }
  }
  DetectMpiRanks(own.ranks);
  return std::nullopt;
}

Status CheckResultOptions(const FioResultOptions& r, const DiskspdSwitches& first) {
  if (!r.json && r.html_file.empty()) {
    if (r.json_file.empty()) return Status::Ok();
    return Status::InvalidArgument("diskspd: --output-file=" + r.json_file +
                                   ": needs --format=json (it is where loadcell's JSON result "
                                   "goes; DiskSpd's XML to a file is -Rxml:FILE)");
  }
  if (first.profile_only) {
    return Status::InvalidArgument(
        std::string("diskspd: ") + (r.json ? "--format=json" : "--report-html") +
        ": -Rp prints the profile and runs nothing, so there is no result to report");
  }
  if (r.JsonOnStdout() && first.format_given && (first.xml || first.xml_file.empty())) {
    return Status::InvalidArgument(
        fmt::format("diskspd: --format=json and {} both write to standard output; give one a "
                    "file (--output-file=PATH for loadcell's JSON, -Rxml:FILE for DiskSpd's XML)",
                    first.xml ? "-Rxml" : "-Rtext"));
  }
  std::vector<std::pair<std::string, std::string>> files = {
      {"--output-file", r.json_file}, {"--report-html", r.html_file}, {"-Rxml", first.xml_file}};
  for (const std::string& t : first.targets) files.emplace_back("target", t);
  for (size_t i = 0; i < 2; ++i) {
    for (size_t k = i + 1; k < files.size(); ++k) {
      if (files[i].second.empty() || files[k].second.empty()) continue;
      if (SamePath(files[i].second, files[k].second)) {
        return Status::InvalidArgument(
            fmt::format("diskspd: {}={}: the same file as {} '{}'; "
                        "give each its own",
                        files[i].first, files[i].second, files[k].first, files[k].second));
      }
    }
  }
  return Status::Ok();
}

}  // namespace loadcell
