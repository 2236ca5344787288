// errors (docs/validity.md): errors, a failure, ignored errors and
// reconnects: the figures then cover less than the run asked.

#include <fmt/format.h>

#include "validity/check.h"

namespace loadcell::validity {

std::optional<CheckOutcome> CheckErrors(const CheckInput& in) {
  constexpr const char* kId = "errors";
  const RunResult& r = in.result;
  std::vector<CheckFigure> figures = {{"errors", static_cast<double>(r.errors)}};
  std::string seen;
  std::string advice;
  for (const IncidentCount& i : in.workload.incidents) {
    figures.push_back({i.what, static_cast<double>(i.count)});
    if (i.count == 0) continue;
    seen += fmt::format("{}{} {}", seen.empty() ? "" : ", ", i.count, i.what);
    if (!i.option.empty() && advice.find(i.option) == std::string::npos) {
      advice += (advice.empty() ? "" : ", ") + i.option;
    }
  }
  if (!r.failure.ok() && r.failure.code() != StatusCode::kCancelled) {
    return Found(kId, CheckLevel::kInvalid, fmt::format("the run failed: {}", r.failure.message()),
                 "fix the error above and run again", std::move(figures));
  }
  if (r.errors > 0) {
    seen = fmt::format("{} errors{}{}", r.errors, seen.empty() ? "" : ", ", seen);
  }
  if (seen.empty()) return Passed(kId, std::move(figures));
  return Found(kId, CheckLevel::kWarn, seen + ": the figures count only what succeeded",
               advice.empty() ? "look at the errors and the server's log"
                              : "look at the server's log; these follow " + advice,
               std::move(figures));
}

}  // namespace loadcell::validity
