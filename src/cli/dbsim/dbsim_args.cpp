#include "cli/dbsim/dbsim_args.h"

#include <fmt/format.h>

#include <charconv>

#include "cli/app.h"
#include "cli/dbsim/dbsim_preset.h"
#include "dbsim/page_format.h"

namespace loadcell {

namespace {

Result<int64_t> WholeNumber(const std::string& option, const std::string& text, int64_t lo,
                            int64_t hi) {
  int64_t v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size() || v < lo || v > hi) {
    return Status::InvalidArgument(
        fmt::format("dbsim: {} {}: a whole number from {} to {}", option, text, lo, hi));
  }
  return v;
}

Status ParseFault(const std::string& value, DbsimArgs& a) {
  const auto colon = value.find(':');
  LC_ASSIGN_OR_RETURN(a.fault, ParseDbIoFault(value.substr(0, colon)));
  if (colon == std::string::npos) return Status::Ok();
  LC_ASSIGN_OR_RETURN(int64_t skip,
                      WholeNumber("--inject-fault", value.substr(colon + 1), 0, 1000000000));
  a.fault_skip = static_cast<uint64_t>(skip);
  return Status::Ok();
}

Status ParseOwnOption(const std::string& arg, DbsimArgs& a) {
  if (arg == "--allow-destructive") {
    a.allow_destructive = true;
  } else if (arg == "--help") {
    a.help = true;
  } else if (arg.rfind("--page-size=", 0) == 0) {
    LC_ASSIGN_OR_RETURN(int64_t v, WholeNumber("--page-size", arg.substr(12), 0, kDbMaxPageSize));
    LC_RETURN_IF_ERROR(CheckDbPageSize(static_cast<uint64_t>(v)));
    a.page_size = static_cast<uint32_t>(v);
    a.page_size_given = true;
  } else if (arg.rfind("--preset=", 0) == 0) {
    a.preset = arg.substr(9);
    LC_ASSIGN_OR_RETURN(DbsimPresetBase preset, DbsimPreset(a.preset));
    if (!a.page_size_given) a.page_size = preset.page_size;
  } else if (arg.rfind("--user-depth=", 0) == 0) {
    LC_ASSIGN_OR_RETURN(a.user_depth,
                        WholeNumber("--user-depth", arg.substr(13), 1, kDbsimMaxUserDepth));
  } else if (arg == "--verify=on" || arg == "--verify=off") {
    a.verify = arg == "--verify=on";
  } else if (arg == "--engine=sync" || arg == "--engine=null") {
    a.null_engine = arg == "--engine=null";
  } else if (arg.rfind("--verify=", 0) == 0 || arg.rfind("--engine=", 0) == 0) {
    const auto eq = arg.find('=');
    return Status::InvalidArgument(fmt::format(
        "dbsim: {}: '{}' is not a choice (valid: {})", arg.substr(0, eq),
        EscapeControlBytes(arg.substr(eq + 1)), arg[2] == 'v' ? "on, off" : "sync, null"));
  } else if (arg == "--journal=" || arg == "--report-html=") {
    return Status::InvalidArgument(
        fmt::format("dbsim: {}: give a file name ({}FILE)", arg.substr(0, arg.size() - 1), arg));
  } else if (arg.rfind("--journal=", 0) == 0) {
    a.journal = arg.substr(10);
  } else if (arg.rfind("--report-html=", 0) == 0) {
    a.report_html = arg.substr(14);
  } else if (arg == "--format=json" || arg == "--format=text") {
    a.json = arg == "--format=json";
  } else if (arg.rfind("--verdict=", 0) == 0) {
    LC_ASSIGN_OR_RETURN(a.verdict, ParseVerdictOption("dbsim: ", arg.substr(10)));
  } else if (arg == "--verify-after-crash") {
    a.verify_after_crash = true;
  } else if (arg.rfind("--inject-fault=", 0) == 0) {
    LC_RETURN_IF_ERROR(ParseFault(arg.substr(15), a));
  } else {
    return Status::InvalidArgument(fmt::format(
        "dbsim: unknown option '{}' (loadcell's own: --preset=sqlserver|postgresql|innodb, "
        "--page-size=BYTES, --user-depth=N, --engine=sync|null, --verify=on|off, "
        "--allow-destructive, --journal=FILE, --verify-after-crash, "
        "--format=text|json, --report-html=FILE, --verdict=off|on|strict, --help)",
        arg));
  }
  return Status::Ok();
}

}  // namespace

Result<DbsimArgs> ParseDbsimArgs(const std::vector<std::string>& args) {
  DbsimArgs a;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg.rfind("--", 0) == 0) {
      LC_RETURN_IF_ERROR(ParseOwnOption(arg, a));
      continue;
    }
    if (arg != "-cfg" && arg != "-dir" && arg != "-d" && arg != "-size" && arg != "-log" &&
        arg != "-save") {
      return Status::InvalidArgument(fmt::format(
          "dbsim: unknown switch '{}': the switches are -cfg FILE, -dir DIR, -d SECONDS, "
          "-size MB, -log FILE, -save FILE",
          arg));
    }
    if (i + 1 >= args.size()) {
      return Status::InvalidArgument(fmt::format("dbsim: {} needs a value", arg));
    }
    const std::string& value = args[++i];
    if (arg == "-cfg") a.cfg = value;
    if (arg == "-dir") a.dir = value;
    if (arg == "-log") a.log_file = value;
    if (arg == "-save") a.save_file = value;
    if (arg == "-d") {
      LC_ASSIGN_OR_RETURN(a.duration_s, WholeNumber(arg, value, 1, 86400));
    } else if (arg == "-size") {
      LC_ASSIGN_OR_RETURN(a.size_mb, WholeNumber(arg, value, 1, 1048576));
    }
  }
  if (a.verify_after_crash && (!a.log_file.empty() || !a.save_file.empty())) {
    return Status::InvalidArgument(
        "dbsim: -log and -save go with a run, not with --verify-after-crash");
  }
  if ((!a.verify || a.null_engine) &&
      (!a.journal.empty() || a.verify_after_crash || a.fault != DbIoFault::kNone)) {
    return Status::InvalidArgument(
        fmt::format("dbsim: {} goes with no --journal, --verify-after-crash or --inject-fault (an "
                    "unverified run keeps no key table; the null engine writes nothing to check)",
                    a.null_engine ? "--engine=null" : "--verify=off"));
  }
  if (a.verify_after_crash && a.journal.empty()) {
    return Status::InvalidArgument(
        "dbsim: --verify-after-crash needs --journal=FILE, the "
        "journal of the run that crashed");
  }
  return a;
}

}  // namespace loadcell
