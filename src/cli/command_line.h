#pragma once
// Splitting the command line into options and words, reading config files,
// and deciding what the user asked for (sysbench 1.0 and 0.4/0.5 forms).
//
//   loadcell [opts] TEST [opts] [prepare|run|cleanup|help] [opts]   (1.0)
//   loadcell --test=TEST [opts] [prepare|run|cleanup|help]           (0.4/0.5)
//   loadcell list | suite | help | version
//
// Options are `--name=value` or a bare `--flag`; they may stand anywhere.
// A word after a bare `--flag` is a word, never the flag's value.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/options.h"
#include "core/status.h"

namespace loadcell {

struct CommandLine {
  RawOptions options;
  std::vector<std::string> words;
  // For each word: the bare `--flag` that came right before it, or "".
  // Lets an error suggest `--flag=word` when the user wrote `--flag word`.
  std::vector<std::string> flag_before;
  // Lines to print on stderr (without the "loadcell: warning: " prefix).
  std::vector<std::string> warnings;
  // The arguments as given (a script's sysbench.cmdline.argv).
  std::vector<std::string> args;
};

// Splits `args` (argv without argv[0]). Typographic dashes (U+2013, U+2014,
// U+2212) leading an argument are read as "--" with a warning. "--" alone
// ends the options. InvalidArgument for a single-dash option or a missing
// option name.
Result<CommandLine> TokenizeArgs(const std::vector<std::string>& args);

// If `arg` starts with one or two dashes of which at least one is
// typographic, returns it with those dashes replaced by "--" (a lone one
// becomes "--"); std::nullopt otherwise.
std::optional<std::string> RepairTypographicDashes(std::string_view arg);
// The warning for an argument read with repaired dashes (secrets hidden).
std::string TypographicDashWarning(std::string_view arg, std::string_view repaired);

// Parses a config file's text: `name=value` or `--name=value` lines, '#'
// comments and blank lines ignored, a bare `name` meaning a flag set on.
// `path` is used in origins and messages ("config file PATH line N").
Result<RawOptions> ParseConfigText(std::string_view text, const std::string& path);
// Reads and parses PATH. Errors are one line naming the file.
Result<RawOptions> ReadConfigFile(const std::string& path);

// Merges the file named by --config-file (if any) under the command line's
// options: the command line wins.
Status MergeConfigFile(RawOptions& options);

enum class Command {
  kRun,
  kPrepare,
  kCleanup,
  kTestHelp,  // `loadcell TEST help`
  kUsage,     // `loadcell help`, `loadcell --help`
  kVersion,
  kList,
  kSuite,
};

std::string_view CommandName(Command c);

struct Invocation {
  Command command = Command::kRun;
  std::string test;          // the test's name ("oltp" for --test=/x/oltp.lua)
  std::string test_spelled;  // as the user wrote it
};

// The test name for a spelling: the basename without ".lua".
std::string TestNameFromSpelling(std::string_view spelled);

// Decides what `cl` asks for. Consumes --test, --help and --version from
// cl.options. `is_test(name)` tells whether a word names a test (to report a
// test named twice rather than an unknown command). Does not check that the
// test exists.
Result<Invocation> Interpret(CommandLine& cl, bool (*is_test)(const std::string& name));

// The closest of `candidates` to `word` (edit distance at most 2, or a
// prefix), or "" when none is close.
std::string ClosestMatch(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace loadcell
