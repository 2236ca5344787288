#include "cli/sysbench_mode.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "cli/app.h"
#include "cli/cli_style.h"
#include "cli/script_command.h"
#include "cli/sysbench_compat.h"
#include "cli/test_setup.h"
#include "core/build_info.h"
#include "core/version.h"
#include "db/db_driver.h"
#include "os/file_system.h"
#include "runner/run_config.h"
#include "workloads/fileio/fileio_options.h"

namespace loadcell {
namespace {

// sysbench's own built-in tests (the rest of its tests are Lua scripts).
constexpr const char* kSysbenchBuiltins[] = {"fileio", "cpu", "memory", "threads", "mutex"};

bool IsSysbenchBuiltin(const std::string& name) {
  return std::find(std::begin(kSysbenchBuiltins), std::end(kSysbenchBuiltins), name) !=
         std::end(kSysbenchBuiltins);
}

bool IsCommandWord(const std::string& w) {
  return w == "prepare" || w == "run" || w == "cleanup" || w == "help";
}

// The banner sysbench prints before anything else (at verbosity 3 and up).
std::string Banner() {
  return fmt::format("{} (using loadcell {})\n\n", kSysbenchVersionString, kVersion);
}

// One section of sysbench's help: "  --name=TYPE" padded to the longest
// entry plus one space, then the description and "[default]".
struct HelpRow {
  std::string left;
  std::string right;
};

std::string HelpRows(const std::vector<HelpRow>& rows) {
  size_t width = 0;
  for (const HelpRow& r : rows) width = std::max(width, r.left.size());
  std::string out;
  for (const HelpRow& r : rows) {
    out += "  " + r.left + std::string(width - r.left.size() + 1, ' ') + r.right + "\n";
  }
  return out;
}

// A row for `name` of `set` in sysbench's spelling of types and defaults.
std::optional<HelpRow> RowFor(const OptionSet& set, const std::string& name) {
  const OptionSpec* s = set.Find(name);
  if (s == nullptr) return std::nullopt;
  HelpRow row;
  switch (s->type()) {
    case OptionType::kBool:
      row.left = "--" + name + "[=on|off]";
      break;
    case OptionType::kList:
      row.left = "--" + name + "=[LIST,...]";
      break;
    default:
      row.left = "--" + name + "=" + std::string(OptionTypeName(s->type()));
  }
  row.right = s->help();
  if (!s->choices().empty()) {
    std::string choices;
    for (const std::string& c : s->choices()) choices += (choices.empty() ? "" : ",") + c;
    row.right += " {" + choices + "}";
  }
  row.right += " [" + s->default_text() + "]";
  return row;
}

std::string Section(const OptionSet& set, const std::vector<std::string>& names) {
  std::vector<HelpRow> rows;
  for (const std::string& n : names) {
    if (std::optional<HelpRow> r = RowFor(set, n)) rows.push_back(*r);
  }
  return HelpRows(rows);
}

// The drivers of this build that sysbench has (sqlite is loadcell's own:
// accepted with --db-driver=sqlite, not listed).
std::vector<std::string> SysbenchDrivers() {
  std::vector<std::string> out;
  for (const std::string& d : DbDriverNames()) {
    if (d == "mysql" || d == "pgsql") out.push_back(d);
  }
  return out;
}

std::string DriverTitle(const std::string& driver) {
  return driver == "mysql" ? "MySQL driver" : driver == "pgsql" ? "PostgreSQL driver" : driver;
}

// sysbench's warnings for its deprecated aliases, in its order.
void SayDeprecated(CommandLine& cl, std::ostream& out) {
  static constexpr std::pair<const char*, const char*> kAliases[] = {
      {"num-threads", "threads"},
      {"max-requests", "events"},
      {"max-time", "time"},
      {"tx-rate", "rate"},
  };
  for (const auto& [old_name, new_name] : kAliases) {
    if (cl.options.Find(old_name) != nullptr) {
      out << "WARNING: --" << old_name << " is deprecated, use --" << new_name << " instead\n";
    }
  }
}

// sysbench takes any --rate; one above loadcell's bound (kMaxOptionRate, a
// period of 1 ns) runs at the bound, which no test reaches: the event queue
// fills and the run fails as sysbench's does.
void CapRate(CommandLine& cl) {
  for (const char* name : {"rate", "tx-rate"}) {
    RawOption* o = cl.options.Find(name);
    if (o == nullptr || !o->has_value) continue;
    char* end = nullptr;
    const double rate = std::strtod(o->value.c_str(), &end);
    if (end != o->value.c_str() && *end == '\0' && rate > kMaxOptionRate) {
      o->value = fmt::format("{:.0f}", kMaxOptionRate);
    }
  }
}

// What a word after the test is in sysbench: a command, or an error.
int UnrecognizedArgument(const std::string& word, std::ostream& out) {
  out << "Unrecognized command line argument: " << word << "\n";
  return kSysbenchExitFailure;
}

}  // namespace

Result<bool> TakeCompatOption(std::vector<std::string>& args) {
  bool sysbench = false;
  for (auto it = args.begin(); it != args.end();) {
    if (*it == "--") break;
    if (it->rfind("--compat=", 0) != 0) {
      ++it;
      continue;
    }
    const std::string value = it->substr(9);
    if (value != "sysbench" && value != "loadcell") {
      return Status::InvalidArgument("--compat=" + value + ": valid: sysbench, loadcell");
    }
    sysbench = value == "sysbench";
    it = args.erase(it);
  }
  return sysbench;
}

bool StartedAsSysbench(const std::string& argv0) {
  std::string base = argv0;
  const size_t slash = base.find_last_of("/\\");
  if (slash != std::string::npos) base = base.substr(slash + 1);
  std::transform(base.begin(), base.end(), base.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return base == "sysbench" || base == "sysbench.exe";
}

std::string SysbenchHelp() {
  RunConfig cfg;
  OptionSet general("General options");
  cfg.RegisterOptions(general);
  std::string out =
      "Usage:\n"
      "  sysbench [options]... [testname] [command]\n"
      "\n"
      "Commands implemented by most tests: prepare run cleanup help\n"
      "\n"
      "General options:\n";
  out += Section(general, {"threads", "events", "time", "forced-shutdown", "thread-stack-size",
                           "rate", "report-interval", "report-checkpoints", "config-file"});
  out += "\nPseudo-Random Numbers Generator options:\n";
  out += Section(general, {"rand-type", "rand-spec-iter", "rand-spec-pct", "rand-spec-res",
                           "rand-seed", "rand-pareto-h", "rand-zipfian-exp"});
  out += "\nLog options:\n";
  out += Section(general, {"verbosity"});
  out += "\n";
  out += Section(general, {"percentile", "histogram"});
  out += "\nGeneral database options:\n\n";
  OptionSet db("General database options");
  DbOptions db_options;
  RegisterDbOptions(db, &db_options);
  out += Section(db, {"db-driver", "db-ps-mode", "db-connect-timeout", "db-read-timeout",
                      "db-write-timeout", "db-connector"});
  out += "\n\n";
  out += "Compiled-in database drivers:\n";
  for (const std::string& driver : SysbenchDrivers()) {
    out += "  " + driver + " - " + DriverTitle(driver) + "\n";
  }
  out += "\n";
  for (const std::string& driver : SysbenchDrivers()) {
    Result<std::unique_ptr<DbDriver>> made = MakeDbDriver(driver);
    if (!made.ok()) continue;
    OptionSet set(driver + " options");
    (*made)->RegisterOptions(set);
    std::vector<std::string> names;
    for (const OptionSpec& s : set.specs()) {
      if (!s.hidden()) names.push_back(s.name());
    }
    out += driver + " options:\n" + Section(set, names) + "\n";
  }
  out += "Compiled-in tests:\n";
  for (const char* name : kSysbenchBuiltins) {
    Result<std::unique_ptr<TestSetup>> created = CreateTest(name, name);
    if (!created.ok()) continue;
    out += std::string("  ") + name + " - " + (*created)->workload->Info().summary + "\n";
  }
  out += "\nSee 'sysbench <testname> help' for a list of options for each test.\n\n";
  return out;
}

std::string SysbenchTestHelp(const OptionSet& test_options) {
  std::vector<std::string> names;
  for (const OptionSpec& s : test_options.specs()) {
    if (!s.hidden()) names.push_back(s.name());
  }
  return test_options.title() + ":\n" + Section(test_options, names) + "\n";
}

std::string SysbenchScriptOptions(const std::string& script_name, const OptionSet& options,
                                  std::vector<std::pair<std::string, std::string>> names) {
  std::sort(names.begin(), names.end());
  std::vector<HelpRow> rows;
  for (const auto& [spelled, registered] : names) {
    std::optional<HelpRow> row = RowFor(options, registered);
    if (!row) continue;
    row->left.replace(2, registered.size(), spelled);
    // A script option without a default shows none (no "[]").
    if (row->right.size() >= 3 && row->right.compare(row->right.size() - 3, 3, " []") == 0) {
      row->right.resize(row->right.size() - 3);
    }
    rows.push_back(*row);
  }
  if (rows.empty()) return "";
  return script_name + " options:\n" + HelpRows(rows) + "\n";
}

int RunSysbenchCommandLine(const std::vector<std::string>& args, ParsedCommandLineFn dispatch,
                           std::ostream& out, std::ostream& err) {
  Result<CommandLine> parsed = TokenizeArgs(args);
  if (!parsed.ok()) {
    out << parsed.status().message() << "\n";
    return kSysbenchExitFailure;
  }
  CommandLine& cl = *parsed;
  if (const RawOption* h = cl.options.Find("help"); h != nullptr && h->value != "off") {
    out << SysbenchHelp();
    return kExitOk;
  }
  if (const RawOption* v = cl.options.Find("version"); v != nullptr && v->value != "off") {
    out << kSysbenchVersionString << "\n";
    return kExitOk;
  }
  // sysbench 1.0 still takes --test (0.5's way of naming the test).
  // On standard error, as sysbench writes this one (the others on stdout).
  if (RawOption* t = cl.options.Find("test"); t != nullptr && t->has_value) {
    err << "WARNING: the --test option is deprecated. You can pass a script name or path on the "
           "command line without any options.\n";
    t->consumed = true;
    cl.words.insert(cl.words.begin(), t->value);
    cl.flag_before.insert(cl.flag_before.begin(), std::string());
    std::erase_if(cl.options.entries(), [](const RawOption& o) { return o.name == "test"; });
  }
  if (cl.words.size() > 2) return UnrecognizedArgument(cl.words[2], out);
  UseSysbenchScriptVersion();
  CapRate(cl);
  // sysbench's default: events running at the time limit are waited for.
  if (cl.options.Find("forced-shutdown") == nullptr) {
    cl.options.Add("--forced-shutdown", "off", true, "sysbench mode");
  }
  // As sysbench, the alias warnings come while the options are read: before
  // the banner, and at every verbosity.
  SayDeprecated(cl, out);
  if (Style().verbosity >= kVerbosityNotice) out << Banner() << std::flush;

  const std::string test = cl.words.empty() ? "-" : cl.words[0];
  const bool has_command = cl.words.size() > 1;
  if (test == "-" || (!IsBuiltinTest(test) && IsScriptSpelling(test, &IsBuiltinTest))) {
    // A script (standard input for "-"): without a command sysbench only
    // runs its main chunk.
    if (!has_command || test == "-") {
      if (test == "-") {
        cl.words = {"-"};
        cl.flag_before = {std::string()};
      }
      cl.options.Add("--script-load-only", "on", true, "sysbench mode");
    }
    return SysbenchExitCode(dispatch(cl, out, out));
  }
  if (!IsBuiltinTest(test)) {
    PrintCliError(out,
                  "Cannot find benchmark '" + test + "': no such built-in test, file or module");
    return kSysbenchExitFailure;
  }
  if (!has_command) {
    if (IsSysbenchBuiltin(test)) {
      err << "The '" << test << "' test requires a command argument. See 'sysbench " << test
          << " help'\n";
      return kSysbenchExitFailure;
    }
    return kExitOk;  // a test that sysbench has as a script: its main chunk alone
  }
  if (!IsCommandWord(cl.words[1])) {
    err << "Unknown command: " << cl.words[1] << "\n";
    return kSysbenchExitFailure;
  }
  return SysbenchExitCode(dispatch(cl, out, out));
}

std::optional<std::string> SysbenchInvalidOption(const Status& s, const RawOptions& raw,
                                                 const OptionSet* values_of) {
  const std::string& msg = s.message();
  for (const RawOption& o : raw.entries()) {
    const std::string given = o.has_value ? o.spelled + "=" + o.value : o.spelled;
    if (!o.consumed && msg.rfind("unknown option '" + o.spelled + "'", 0) == 0) return given;
    if (values_of != nullptr && values_of->Find(o.name) != nullptr &&
        msg.rfind(given + ":", 0) == 0) {
      return given;
    }
  }
  return std::nullopt;
}

std::optional<std::string> SysbenchOptionError(const Status& s, const RawOptions& raw) {
  // The options whose refused value sysbench reports in words of its own
  // (whatever loadcell found wrong with it), as "{}" of the value.
  static constexpr std::pair<const char*, const char*> kValueMessages[] = {
      {"memory-block-size", "Invalid value for memory-block-size: {}"},
      {"file-test-mode", "Invalid IO operations mode: {}."},
  };
  const std::string& msg = s.message();
  for (const RawOption& o : raw.entries()) {
    for (const auto& [name, words] : kValueMessages) {
      if (o.name == name && o.has_value && msg.rfind("--" + o.name + "=" + o.value + ":", 0) == 0) {
        return fmt::format(fmt::runtime(words), o.value);
      }
    }
  }
  // fileio's run without a mode (FileIoWorkload::Validate).
  if (msg.rfind("run needs --file-test-mode", 0) == 0) {
    return std::string("Missing required argument: --file-test-mode");
  }
  return std::nullopt;
}

namespace {

// The file name of `path` (sysbench names its test files without a folder).
std::string FileNameOf(std::string_view path) {
  const size_t slash = path.find_last_of("/\\");
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

// The text between `open` and the next `close` after it in `msg`, or "".
std::string Between(std::string_view msg, std::string_view open, std::string_view close) {
  const size_t a = msg.find(open);
  if (a == std::string_view::npos) return "";
  const size_t from = a + open.size();
  const size_t b = msg.find(close, from);
  return b == std::string_view::npos ? "" : std::string(msg.substr(from, b - from));
}

}  // namespace

std::optional<SysbenchLines> SysbenchRunStartError(const Status& s) {
  const std::string& msg = s.message();
  if (s.code() != StatusCode::kNotReady) return std::nullopt;
  // fileio's run without its files (CheckFilesForRun): sysbench fails to
  // open the first file it lacks.
  std::string missing;
  if (msg.rfind("no test files prepared by loadcell in ", 0) == 0) missing = "test_file.0";
  if (msg.rfind("test file '", 0) == 0 && msg.find("' does not exist") != std::string::npos) {
    missing = FileNameOf(Between(msg, "test file '", "'"));
  }
  if (!missing.empty()) {
    return SysbenchLines{
        fmt::format("Cannot open file '{}' errno = 2 (No such file or directory)", missing),
        {"Did you forget to run the prepare step?"}};
  }
  // A test file of another size than the options give.
  if (msg.rfind("file ", 0) == 0 && msg.find(" has size ") != std::string::npos) {
    const std::string path = Between(msg, "file ", " has size ");
    const std::string size = Between(msg, " has size ", ",");
    const std::string expected = Between(msg, "expected ", " from ");
    char* end = nullptr;
    const uint64_t have = std::strtoull(size.c_str(), &end, 10);
    const uint64_t want = std::strtoull(expected.c_str(), &end, 10);
    if (path.empty() || size.empty() || expected.empty()) return std::nullopt;
    return SysbenchLines{
        fmt::format("Size of file '{}' is {}, but at least {} is expected.", FileNameOf(path),
                    HumanBytes(have), HumanBytes(want)),
        {"Did you run 'prepare' with different --file-total-size or --file-num values?"}};
  }
  return std::nullopt;
}

int SysbenchExitCode(int loadcell_code) {
  if (loadcell_code == kExitOk || loadcell_code == kExitInterrupted) return loadcell_code;
  return kSysbenchExitFailure;
}

}  // namespace loadcell
