#include "cli/cli_style.h"

#include <mutex>
#include <utility>

#include "cluster/cluster.h"

namespace loadcell {
namespace {

CliStyle& MutableStyle() {
  static CliStyle style;
  return style;
}

// The HeldCliErrors that holds error lines now (nullptr: none).
std::mutex g_hold_mutex;
std::vector<HeldCliError>* g_held = nullptr;

// Prints `prefix` + the escaped `message`, or holds it.
void PrintErrorLine(std::ostream& err, std::string_view prefix, std::string_view message) {
  HeldCliError e;
  e.message = EscapeControlBytes(message);
  e.line = std::string(prefix) + e.message + "\n";
  e.to = &err;
  {
    const std::lock_guard<std::mutex> lock(g_hold_mutex);
    if (g_held != nullptr && !ClusterJoinTried()) {
      g_held->push_back(std::move(e));
      return;
    }
  }
  err << e.line;
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
  PrintErrorLine(err, SysbenchMode() ? "FATAL: " : "loadcell: error: ", message);
}

void PrintSysbenchInvalidOption(std::ostream& err, std::string_view given) {
  PrintErrorLine(err, "", "invalid option: " + std::string(given));
}

HeldCliErrors::HeldCliErrors(std::ostream& err) : err_(err) {
  const std::lock_guard<std::mutex> lock(g_hold_mutex);
  g_held = &lines_;
}

HeldCliErrors::~HeldCliErrors() {
  for (const HeldCliError& e : Take()) (e.to != nullptr ? *e.to : err_) << e.line;
}

std::vector<HeldCliError> HeldCliErrors::Take() {
  const std::lock_guard<std::mutex> lock(g_hold_mutex);
  if (g_held == &lines_) g_held = nullptr;
  return std::exchange(lines_, {});
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
