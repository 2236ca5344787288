#pragma once
// The command-line program: what main() calls.

#include <ostream>
#include <string>
#include <vector>

namespace loadcell {

struct RunResult;

// Exit codes (docs/cli.md).
inline constexpr int kExitOk = 0;
inline constexpr int kExitRunFailed = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitInterrupted = 130;

// The exit code of a run that ended with `r`, its report already written: a
// failure other than an interrupt is printed on `err` ("loadcell: error:
// ...") and gives kExitRunFailed; an interrupt is noted on `err` and gives
// kExitInterrupted; otherwise `ok_code`.
int RunEndExitCode(const RunResult& r, std::ostream& err, int ok_code = kExitOk);

// Runs the command line `args` (argv without argv[0]): reports go to `out`,
// warnings and errors (one line each, "loadcell: error: ...") to `err`.
// Returns the process exit code. Every option is validated before anything
// is started.
int RunCommandLine(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace loadcell
