// errors (docs/validity.md): errors, a failure, short I/Os, ignored errors
// and reconnects: the figures then cover less than the run asked.

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <string>
#include <vector>

#include "validity/check.h"

namespace loadcell::validity {
namespace {

// "thread 0", "3 threads (0, 1, 2)", "threads" when none are named.
std::string AbandonedThreadsText(const std::vector<int>& ids) {
  if (ids.empty()) return "threads";
  if (ids.size() == 1) return fmt::format("thread {}", ids[0]);
  return fmt::format("{} threads ({})", ids.size(), fmt::join(ids, ", "));
}

}  // namespace

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
  const uint64_t short_ios = in.workload.counts_short_ios ? in.workload.short_ios : 0;
  if (in.workload.counts_short_ios) {
    figures.push_back({"short_ios", static_cast<double>(short_ios)});
  }
  if (short_ios > 0) {
    seen += fmt::format("{}{} short I/Os (fewer bytes moved than asked)", seen.empty() ? "" : ", ",
                        short_ios);
  }
  if (r.forced_shutdown) {
    figures.push_back({"abandoned_threads", static_cast<double>(r.abandoned_threads.size())});
    return Found(kId, CheckLevel::kInvalid,
                 fmt::format("{} abandoned inside an event past the --forced-shutdown grace: "
                             "the figures leave out the events they never finished, and the "
                             "workload's own facts were not read",
                             AbandonedThreadsText(r.abandoned_threads)),
                 "find what holds the events (a server or device that stops answering) and run "
                 "again",
                 std::move(figures));
  }
  if (!r.failure.ok() && r.failure.code() != StatusCode::kCancelled) {
    return Found(kId, CheckLevel::kInvalid, fmt::format("the run failed: {}", r.failure.message()),
                 "fix the error above and run again", std::move(figures));
  }
  if (r.errors > 0) {
    seen = fmt::format("{} errors{}{}", r.errors, seen.empty() ? "" : ", ", seen);
  }
  if (seen.empty()) return Passed(kId, std::move(figures));
  std::string what_to_do = !advice.empty() ? "look at the server's log; these follow " + advice
                                           : "look at the errors and the server's log";
  if (short_ios > 0) {
    what_to_do = (advice.empty() && r.errors == 0 ? std::string("look at the files") : what_to_do) +
                 "; a short I/O reads or writes past a file's end: a file shorter than the "
                 "job's region, or one truncated while the run used it";
  }
  return Found(kId, CheckLevel::kWarn, seen + ": the figures count only what succeeded", what_to_do,
               std::move(figures));
}

}  // namespace loadcell::validity
