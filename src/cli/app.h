#pragma once
// The command-line program: what main() calls.

#include <ostream>
#include <string>
#include <vector>

#include "core/status.h"
#include "runner/validity.h"

namespace loadcell {

struct RunResult;

// Exit codes (docs/cli.md).
inline constexpr int kExitOk = 0;
inline constexpr int kExitRunFailed = 1;
inline constexpr int kExitUsage = 2;
// --verdict=strict and the result's verdict is INVALID (docs/validity.md).
inline constexpr int kExitInvalid = 3;
inline constexpr int kExitInterrupted = 130;

// Runs the command line `args` (argv without argv[0]): reports go to `out`,
// warnings and errors (one line each, "loadcell: error: ...") to `err`.
// --compat=sysbench (anywhere; main adds it when started as `sysbench`)
// runs it in sysbench mode (cli/sysbench_mode.h).
// Returns the process exit code. Every option is validated before anything
// is started.
int RunCommandLine(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

struct CommandLine;

// RunCommandLine once the arguments are split into options and words (the
// sysbench-mode front end's way into loadcell's own pipeline).
int RunParsedCommandLine(CommandLine& cl, std::ostream& out, std::ostream& err);

// True when a run's report on standard output is machine-readable
// (--format=json or csv without --output-file): nothing else may go there.
bool ReportOwnsStdout(const std::string& format, const std::string& output_file);

// The exit code once a run has ended and its report is written: `code` (the
// caller's so far) unless the run failed (kExitRunFailed, the error printed
// on `err`) or was interrupted (kExitInterrupted, said so on `err`).
// After a forced shutdown it does not return: it names the abandoned threads
// on `err` and exits the process at once (130 after a stop signal, else 1),
// so the caller flushes its report and files first.
int ExitCodeAfterRun(const RunResult& result, int code, std::ostream& err);

// The exit code once the results judged by `verdicts` are reported: `code`
// unless it is kExitOk and one of them was judged under --verdict=strict and
// is INVALID: then kExitInvalid, said so on `err`. Null entries are skipped.
int ExitCodeForVerdicts(const std::vector<const Validity*>& verdicts, int code, std::ostream& err);

// --verdict=`value` of a front end that reads its own options (fio,
// diskspd, dbsim): the mode, or a usage error (`who` starts its message:
// "dbsim: ").
Result<VerdictMode> ParseVerdictOption(const std::string& who, const std::string& value);

}  // namespace loadcell
