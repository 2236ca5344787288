#include "cli/cli_style.h"

namespace loadcell {
namespace {

CliStyle& MutableStyle() {
  static CliStyle style;
  return style;
}

}  // namespace

const CliStyle& Style() { return MutableStyle(); }

void SetStyle(const CliStyle& style) { MutableStyle() = style; }

void PrintCliError(std::ostream& err, const Status& s) {
  // An error rank 0 of an MPI run prints for every rank (SaidByRankZero).
  if (!s.ok() && s.message().empty()) return;
  PrintCliError(err, s.ToString());
}

void PrintCliError(std::ostream& err, std::string_view message) {
  err << (SysbenchMode() ? "FATAL: " : "loadcell: error: ") << EscapeControlBytes(message) << "\n";
}

void PrintCliWarning(std::ostream& err, std::string_view message) {
  if (Style().verbosity < kVerbosityWarning) return;
  err << (SysbenchMode() ? "WARNING: " : "loadcell: warning: ") << EscapeControlBytes(message)
      << "\n";
}

void PrintCliNote(std::ostream& err, std::string_view message) {
  if (SysbenchMode() || Style().verbosity < kVerbosityNotice) return;
  err << "loadcell: note: " << EscapeControlBytes(message) << "\n";
}

}  // namespace loadcell
