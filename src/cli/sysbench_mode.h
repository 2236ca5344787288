#pragma once
// sysbench mode: loadcell started as `sysbench` (or with --compat=sysbench)
// reads sysbench 1.0.20's command line with sysbench's rules and prints what
// sysbench prints (docs/sysbench-mode.md):
//
//   sysbench [options]... [testname] [command]
//
// The first word is the test (a built-in test, a script file, or a Lua
// module found through LUA_PATH), the second its command; a built-in test
// needs one, a script without one only runs its main chunk. No test, or
// "-", reads the script from standard input. The banner names loadcell's
// version; errors are sysbench's FATAL lines on standard output, and every
// failure exits 1.

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cli/command_line.h"

namespace loadcell {

// The version line of `sysbench --version`.
inline constexpr const char* kSysbenchVersionString = "sysbench 1.0.20";

// sysbench exits 1 for every failure, a usage error included.
inline constexpr int kSysbenchExitFailure = 1;

// loadcell's exit code as sysbench's: 0 and 130 stay, any failure is 1.
int SysbenchExitCode(int loadcell_code);

// Takes --compat=sysbench (or --compat=loadcell) out of `args`; true when the
// command line asks for sysbench mode. InvalidArgument for another value.
Result<bool> TakeCompatOption(std::vector<std::string>& args);

// Whether argv[0] names sysbench ("sysbench", "sysbench.exe", any folder).
bool StartedAsSysbench(const std::string& argv0);

using ParsedCommandLineFn = int (*)(CommandLine& cl, std::ostream& out, std::ostream& err);

// Runs `args` (argv without argv[0], --compat taken out) in sysbench mode:
// the words checked with sysbench's rules, then `dispatch` (loadcell's own
// pipeline) for the rest. Returns sysbench's exit code.
int RunSysbenchCommandLine(const std::vector<std::string>& args, ParsedCommandLineFn dispatch,
                           std::ostream& out, std::ostream& err);

// `sysbench TEST help`: "TEST options:" and its options in sysbench's layout.
std::string SysbenchTestHelp(const OptionSet& test_options);

// `sysbench SCRIPT help` for a script without help(): "NAME options:" and the
// options it declares (as it spells them, sorted), or "" when it declares none.
// `names`: (as the script spells it, as the option set knows it) pairs.
std::string SysbenchScriptOptions(const std::string& script_name, const OptionSet& options,
                                  std::vector<std::pair<std::string, std::string>> names);

// sysbench's "invalid option: ARG" (ARG as given, "--name" or "--name=value")
// when `s`, the failure of applying `raw` to a test's options, is about an
// option the test does not know, or about the value given to an option of
// `values_of` (sysbench's option parser refuses a value it cannot read in
// the same words: a script's --bool-opt=5); nullopt for any other failure.
std::optional<std::string> SysbenchInvalidOption(const Status& s, const RawOptions& raw,
                                                 const OptionSet* values_of = nullptr);

// sysbench's FATAL message for `s`, a built-in test's refusal of its options
// `raw`, where sysbench has one of its own (an invalid --memory-block-size,
// an unknown --file-test-mode or none given); nullopt otherwise.
std::optional<std::string> SysbenchOptionError(const Status& s, const RawOptions& raw);

// What sysbench says for a run that cannot start: its FATAL line, then its
// WARNING lines (the advice).
struct SysbenchLines {
  std::string fatal;
  std::vector<std::string> warnings;
};

// sysbench's lines for `s`, the failure of a run's start, where sysbench has
// words of its own (fileio's run without its files or with files of another
// size); nullopt otherwise.
std::optional<SysbenchLines> SysbenchRunStartError(const Status& s);

// `sysbench --help`: sysbench's sections and option names, loadcell's words.
std::string SysbenchHelp();

}  // namespace loadcell
