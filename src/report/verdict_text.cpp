// The verdict block of the text and SQLIO reports (report/format.h): the
// lines that did not pass, gravest first, and the verdict line.

#include <fmt/format.h>

#include "report/format.h"

namespace loadcell::report_internal {

std::string VerdictBlock(const Validity& v) {
  if (!v.judged) return "";
  std::string o =
      fmt::format("Validity ({} checks: {} passed", v.checks.size(), v.Count(CheckLevel::kPass));
  const int warned = v.Count(CheckLevel::kWarn);
  if (warned > 0) o += fmt::format(", {} warned", warned);
  const int invalid = v.Count(CheckLevel::kInvalid);
  if (invalid > 0) o += fmt::format(", {} invalid", invalid);
  const int unchecked = v.Count(CheckLevel::kNotChecked);
  if (unchecked > 0) o += fmt::format(", {} not checked", unchecked);
  o += "):\n";
  for (const CheckOutcome* c : v.NotPassed()) {
    o += fmt::format("    {} {}: {}", CheckLevelWord(c->level), c->id, c->seen);
    if (!c->advice.empty()) o += fmt::format("; change: {}", c->advice);
    o += "\n";
  }
  o += "Verdict: " + VerdictLine(v) + "\n";
  return o;
}

}  // namespace loadcell::report_internal
