#include "cli/command_line.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <optional>

#include "cli/option_file.h"
#include "os/file_system.h"

namespace loadcell {
namespace {

constexpr std::string_view kCommandLineOrigin = "command line";

// Dashes that word processors and web pages put in place of '-'.
constexpr std::string_view kTypographicDashes[] = {
    "\xE2\x80\x93",  // U+2013 en dash
    "\xE2\x80\x94",  // U+2014 em dash
    "\xE2\x88\x92",  // U+2212 minus sign
};

// Length in bytes of a typographic dash at the start of `s`, or 0.
size_t TypographicDashAt(std::string_view s) {
  for (std::string_view d : kTypographicDashes) {
    if (s.substr(0, d.size()) == d) return d.size();
  }
  return 0;
}

bool IsCommandWord(std::string_view w) {
  return w == "prepare" || w == "run" || w == "cleanup" || w == "help";
}

Command CommandFor(std::string_view w) {
  if (w == "prepare") return Command::kPrepare;
  if (w == "cleanup") return Command::kCleanup;
  if (w == "help") return Command::kTestHelp;
  return Command::kRun;
}

std::string Trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(b, e - b + 1));
}

bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.';
}

// Takes a boolean switch such as --help out of `options`: nullopt when absent.
Result<std::optional<bool>> TakeSwitch(RawOptions& options, std::string_view name) {
  RawOption* o = options.Find(name);
  if (o == nullptr || o->consumed) return std::optional<bool>();
  o->consumed = true;
  if (!o->has_value) return std::optional<bool>(true);
  auto v = ParseBool(o->value);
  if (!v.ok())
    return Status::InvalidArgument(o->spelled + "=" + o->value + ": " + v.status().message());
  return std::optional<bool>(*v);
}

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace

std::optional<std::string> RepairTypographicDashes(std::string_view arg) {
  std::string_view rest = arg;
  bool typographic = false;
  for (int unit = 0; unit < 2 && !rest.empty(); ++unit) {
    if (size_t n = TypographicDashAt(rest); n > 0) {
      typographic = true;
      rest.remove_prefix(n);
    } else if (rest.front() == '-') {
      rest.remove_prefix(1);
    } else {
      break;
    }
  }
  if (!typographic) return std::nullopt;
  return "--" + std::string(rest);
}

std::string TypographicDashWarning(std::string_view arg, std::string_view repaired) {
  return fmt::format("'{}' uses a typographic dash; read as '{}'",
                     HideSecretValue(std::string(arg)), HideSecretValue(std::string(repaired)));
}

Result<CommandLine> TokenizeArgs(const std::vector<std::string>& args) {
  CommandLine cl;
  cl.args = args;
  bool options_ended = false;
  std::string last_bare_flag;  // set while the previous argument was a bare --flag
  for (const std::string& original : args) {
    std::string arg = original;
    std::string previous_flag = std::move(last_bare_flag);
    last_bare_flag.clear();
    if (options_ended) {
      cl.words.push_back(arg);
      cl.flag_before.emplace_back();
      continue;
    }
    if (auto repaired = RepairTypographicDashes(arg)) {
      cl.warnings.push_back(TypographicDashWarning(arg, *repaired));
      arg = *repaired;
    }
    if (arg == "--") {
      options_ended = true;
      continue;
    }
    if (arg.size() >= 2 && arg[0] == '-' && arg[1] == '-') {
      size_t eq = arg.find('=');
      std::string name = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
      if (name.empty() || !std::all_of(name.begin(), name.end(), IsNameChar)) {
        return Status::InvalidArgument("'" + original +
                                       "': not an option; options are written --name=value");
      }
      bool has_value = eq != std::string::npos;
      cl.options.Add("--" + name, has_value ? arg.substr(eq + 1) : std::string(), has_value,
                     std::string(kCommandLineOrigin));
      if (!has_value) last_bare_flag = "--" + name;
      continue;
    }
    if (arg == "-h") {
      cl.options.Add("--help", "", false, std::string(kCommandLineOrigin));
      continue;
    }
    if (arg.size() >= 2 && arg[0] == '-') {
      return Status::InvalidArgument(
          fmt::format("unknown option '{}'; options start with two dashes: '-{}'", original, arg));
    }
    cl.words.push_back(arg);
    cl.flag_before.push_back(previous_flag);
  }
  return cl;
}

Result<RawOptions> ParseConfigText(std::string_view text, const std::string& path) {
  RawOptions out;
  int line_no = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string line = Trim(text.substr(pos, end - pos));
    pos = end + 1;
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    std::string origin = "config file " + path + " line " + std::to_string(line_no);
    if (auto repaired = RepairTypographicDashes(line)) line = *repaired;
    std::string_view body = line;
    if (body.substr(0, 2) == "--") body.remove_prefix(2);
    size_t eq = body.find('=');
    std::string name = Trim(body.substr(0, eq));
    if (name.empty() || !std::all_of(name.begin(), name.end(), IsNameChar)) {
      // Not quoted: a line that is no option (a .pgpass line, a connection
      // string) may be all secret.
      return Status::InvalidArgument(fmt::format(
          "{}: expected 'name=value' with a name of letters, digits, '-' and '_' (the line "
          "is not shown: it may hold a secret)",
          origin));
    }
    bool has_value = eq != std::string_view::npos;
    std::string value = has_value ? Trim(body.substr(eq + 1)) : std::string();
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') &&
        value.back() == value.front()) {
      value = value.substr(1, value.size() - 2);
    }
    out.Add("--" + name, std::move(value), has_value, std::move(origin));
  }
  return out;
}

Result<RawOptions> ReadConfigFile(const std::string& path) {
  LC_ASSIGN_OR_RETURN(std::string text, ReadOptionFile(path, "--config-file=" + path));
  return ParseConfigText(text, path);
}

Status MergeConfigFile(RawOptions& options) {
  RawOption* o = options.Find("config-file");
  if (o == nullptr) return Status::Ok();
  if (!o->has_value || o->value.empty()) {
    return Status::InvalidArgument(o->spelled + ": needs a file name (--config-file=PATH)");
  }
  LC_ASSIGN_OR_RETURN(RawOptions file, ReadConfigFile(o->value));
  options.AddDefaults(file);
  return Status::Ok();
}

std::string_view CommandName(Command c) {
  switch (c) {
    case Command::kRun:
      return "run";
    case Command::kPrepare:
      return "prepare";
    case Command::kCleanup:
      return "cleanup";
    case Command::kTestHelp:
      return "help";
    case Command::kUsage:
      return "usage";
    case Command::kVersion:
      return "version";
    case Command::kList:
      return "list";
    case Command::kSuite:
      return "suite";
  }
  return "?";
}

std::string TestNameFromSpelling(std::string_view spelled) {
  std::string_view s = spelled;
  size_t slash = s.find_last_of('/');
  if (slash != std::string_view::npos) s.remove_prefix(slash + 1);
  if (s.size() > 4 && s.substr(s.size() - 4) == ".lua") s.remove_suffix(4);
  return std::string(s);
}

namespace {

// What the words of a command line say, read one at a time.
struct WordsRead {
  std::string test_option;   // --test=NAME as spelled
  std::string test_spelled;  // from --test= or the first word that is no command
  std::optional<Command> command;
  std::string command_word;
  std::optional<Command> top_level;  // list, suite, version as the first word
};

bool LooksLikeTest(const std::string& w, bool (*is_test)(const std::string& name)) {
  return (is_test != nullptr && is_test(TestNameFromSpelling(w))) ||
         (w.size() > 4 && w.substr(w.size() - 4) == ".lua");
}

// A word that is neither the test nor the command: the one-line error.
Status StrayWord(const WordsRead& r, const std::string& w,
                 bool (*is_test)(const std::string& name)) {
  if (LooksLikeTest(w, is_test)) {
    std::string first =
        r.test_option.empty() ? "'" + r.test_spelled + "'" : "--test=" + r.test_option;
    return Status::InvalidArgument("test given twice: " + first + " and '" + w +
                                   "'; give one test per run");
  }
  if (!r.command.has_value()) {
    std::string msg = "unknown command '" + w + "' for test '" +
                      TestNameFromSpelling(r.test_spelled) + "'; use prepare, run, cleanup or help";
    std::string close = ClosestMatch(w, {"prepare", "run", "cleanup", "help"});
    if (!close.empty()) msg += " (did you mean '" + close + "'?)";
    return Status::InvalidArgument(msg);
  }
  return Status::InvalidArgument("unexpected argument '" + w + "' after '" + r.command_word + "'");
}

// Reads word `i` of `cl` into `r`; InvalidArgument for a word out of place.
Status ReadWord(const CommandLine& cl, size_t i, bool (*is_test)(const std::string& name),
                WordsRead& r) {
  const std::string& w = cl.words[i];
  const std::string& flag = cl.flag_before[i];
  if (i == 0 && r.test_option.empty() && (w == "list" || w == "suite" || w == "version")) {
    r.top_level = w == "list" ? Command::kList : w == "suite" ? Command::kSuite : Command::kVersion;
    return Status::Ok();
  }
  if (r.top_level.has_value()) {
    return Status::InvalidArgument("unexpected argument '" + w + "' after '" + cl.words[0] + "'");
  }
  if (IsCommandWord(w)) {
    if (r.command.has_value() && r.command_word != w) {
      return Status::InvalidArgument("more than one command given: '" + r.command_word + "' and '" +
                                     w + "'");
    }
    r.command = CommandFor(w);
    r.command_word = w;
    return Status::Ok();
  }
  if (!flag.empty() && !LooksLikeTest(w, is_test)) {
    // `--threads 4`: the user meant `--threads=4`.
    const std::string shown = IsSecretOptionName(flag) ? "(hidden)" : w;
    return Status::InvalidArgument(fmt::format(
        "'{} {}': options take their value after '=': write '{}={}'", flag, shown, flag, shown));
  }
  if (r.test_spelled.empty()) {
    r.test_spelled = w;
    return Status::Ok();
  }
  return StrayWord(r, w, is_test);
}

// The command once every word is read: --version, then --help, then a
// top-level word win; help without a test is the usage.
Result<Command> ChosenCommand(const WordsRead& r, const std::string& test, bool help,
                              bool version) {
  if (version) return Command::kVersion;
  if (help) return test.empty() ? Command::kUsage : Command::kTestHelp;
  if (r.top_level.has_value()) return *r.top_level;
  if (r.command == Command::kTestHelp && test.empty()) return Command::kUsage;
  if (test.empty()) {
    return Status::InvalidArgument(
        "no test given; usage: loadcell [options] TEST [prepare|run|cleanup|help] "
        "(see 'loadcell list' and 'loadcell help')");
  }
  return r.command.value_or(Command::kRun);
}

}  // namespace

Result<Invocation> Interpret(CommandLine& cl, bool (*is_test)(const std::string& name)) {
  LC_ASSIGN_OR_RETURN(std::optional<bool> help, TakeSwitch(cl.options, "help"));
  LC_ASSIGN_OR_RETURN(std::optional<bool> version, TakeSwitch(cl.options, "version"));
  WordsRead r;
  if (RawOption* t = cl.options.Find("test"); t != nullptr) {
    t->consumed = true;
    if (!t->has_value || t->value.empty()) {
      return Status::InvalidArgument(t->spelled + ": needs a test name (--test=NAME)");
    }
    r.test_option = t->value;
    r.test_spelled = t->value;
  }
  for (size_t i = 0; i < cl.words.size(); ++i) LC_RETURN_IF_ERROR(ReadWord(cl, i, is_test, r));
  Invocation inv;
  inv.test_spelled = r.test_spelled;
  inv.test = TestNameFromSpelling(inv.test_spelled);
  LC_ASSIGN_OR_RETURN(inv.command,
                      ChosenCommand(r, inv.test, help.value_or(false), version.value_or(false)));
  return inv;
}

std::string ClosestMatch(std::string_view word, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_distance = 3;
  size_t limit = word.size() <= 3 ? 1 : 2;
  for (const std::string& c : candidates) {
    size_t d = EditDistance(word, c);
    if (d <= limit && d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  if (!best.empty()) return best;
  if (word.size() >= 3) {
    for (const std::string& c : candidates) {
      if (c.substr(0, word.size()) == word) return c;
    }
  }
  return "";
}

}  // namespace loadcell
