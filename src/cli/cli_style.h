#pragma once
// How the command line speaks: loadcell's own words, or sysbench 1.0.20's
// (sysbench mode: the binary started as `sysbench`, or --compat=sysbench;
// docs/sysbench-mode.md). Chosen once, by RunCommandLine, before anything is
// printed; read only by cli/ and by the reporters it makes.
//
// Verbosity follows sysbench's levels in both dialects: 0 fatal errors only,
// 1 alerts, 2 warnings, 3 notices (the text report: header, intervals, end
// report), 4 information, 5 debug. Errors are always printed.

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace loadcell {

enum class CliDialect { kLoadcell, kSysbench };

struct CliStyle {
  CliDialect dialect = CliDialect::kLoadcell;
  int verbosity = 3;
};

inline constexpr int kVerbosityFatal = 0;
inline constexpr int kVerbosityAlert = 1;
inline constexpr int kVerbosityWarning = 2;
inline constexpr int kVerbosityNotice = 3;
inline constexpr int kVerbosityDebug = 5;

// The process's style (loadcell's dialect, verbosity 3 until set).
const CliStyle& Style();
void SetStyle(const CliStyle& style);
inline bool SysbenchMode() { return Style().dialect == CliDialect::kSysbench; }

// An error that stopped a command: "loadcell: error: MESSAGE", or sysbench's
// "FATAL: MESSAGE". Control bytes in the message are escaped.
void PrintCliError(std::ostream& err, const Status& s);
void PrintCliError(std::ostream& err, std::string_view message);
// sysbench's line for an option it does not know: "invalid option: GIVEN".
void PrintSysbenchInvalidOption(std::ostream& err, std::string_view given);

// An error line held instead of printed (HeldCliErrors).
struct HeldCliError {
  std::string line;     // as it would have been printed, with its '\n'
  std::string message;  // the error itself, without "loadcell: error: "
  // The stream it was for (sysbench mode prints errors on stdout).
  std::ostream* to = nullptr;
};

// While one exists, the error lines PrintCliError and
// PrintSysbenchInvalidOption would print go to lines() instead, until this
// process tries to join its ranks (cluster.h ClusterJoinTried): under an MPI
// launcher the errors a rank finds before MPI starts are said once for the
// job (cli/cluster_setup.h SayHeldErrorsAcrossRanks). Lines still held when
// it ends are printed to `err` then. One at a time.
class HeldCliErrors {
 public:
  explicit HeldCliErrors(std::ostream& err);
  ~HeldCliErrors();
  HeldCliErrors(const HeldCliErrors&) = delete;
  HeldCliErrors& operator=(const HeldCliErrors&) = delete;

  // Stops holding and hands over what was held (printed by nobody else).
  std::vector<HeldCliError> Take();

 private:
  std::ostream& err_;
  std::vector<HeldCliError> lines_;
};

// A warning ("loadcell: warning: ...", sysbench's "WARNING: ..."), printed
// from verbosity 2 up.
void PrintCliWarning(std::ostream& err, std::string_view message);
// A note ("loadcell: note: ..."), printed from verbosity 3 up; sysbench mode
// prints none (sysbench has no such line).
void PrintCliNote(std::ostream& err, std::string_view message);

}  // namespace loadcell
