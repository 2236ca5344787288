#include "cli/commands/compare_jobs.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "cli/commands/comparability.h"
#include "cli/table_text.h"

namespace loadcell {
namespace {

struct JobFigures {
  double events_per_second = 0;
  std::optional<double> mib_per_second;  // nullopt: it counts no bytes
  double p99_ms = 0;
};

JobFigures FiguresOf(const ResultData& j) {
  JobFigures f;
  f.events_per_second = j.events_per_second;
  const std::optional<double> read = j.CounterRate("bytes_read");
  const std::optional<double> written = j.CounterRate("bytes_written");
  if (read || written) f.mib_per_second = (read.value_or(0) + written.value_or(0)) / (1 << 20);
  const std::optional<uint64_t> p99 = j.latency.Percentile("99");
  f.p99_ms = p99 ? static_cast<double>(*p99) / 1e6 : 0;
  return f;
}

std::string Ratio(double a, double b) {
  if (a == 0 || !std::isfinite(a) || !std::isfinite(b)) return "n/a";
  return fmt::format("{:.2f}x", b / a);
}

// The job of `r` whose key is `key`, or null.
const ResultData* JobNamed(const ResultData& r, const std::vector<std::string>& keys,
                           const std::string& key) {
  const auto it = std::find(keys.begin(), keys.end(), key);
  return it == keys.end() ? nullptr : &r.jobs[static_cast<size_t>(it - keys.begin())];
}

// The job keys of each group's first run.
std::vector<std::vector<std::string>> FirstRunKeys(
    const std::vector<std::vector<ResultData>>& groups) {
  std::vector<std::vector<std::string>> keys;
  keys.reserve(groups.size());
  for (const auto& g : groups) keys.push_back(JobKeys(g.front()));
  return keys;
}

// A's jobs, then those only later results have, each once.
std::vector<std::string> JobOrder(const std::vector<std::vector<std::string>>& keys) {
  std::vector<std::string> order;
  for (const auto& k : keys) {
    for (const std::string& name : k) {
      if (std::find(order.begin(), order.end(), name) == order.end()) order.push_back(name);
    }
  }
  return order;
}

// The job `key` of each of `runs` that has it, with its run's source and
// cluster (the files, ranks and hosts of its row).
std::vector<ResultData> JobRuns(const std::vector<ResultData>& runs, const std::string& key) {
  std::vector<ResultData> out;
  for (const ResultData& r : runs) {
    const ResultData* job = JobNamed(r, JobKeys(r), key);
    if (job == nullptr) continue;
    ResultData& j = out.emplace_back(*job);
    j.source = r.source;
    j.cluster = r.cluster;
  }
  return out;
}

// The rows of job `key`.
std::string JobCsvRows(const std::vector<std::vector<ResultData>>& groups, const std::string& key,
                       const GroupFigures& columns) {
  std::vector<std::vector<ResultData>> runs;
  runs.reserve(groups.size());
  for (const auto& g : groups) runs.push_back(JobRuns(g, key));
  std::vector<GroupFigures> figs(groups.size());
  for (size_t i = 0; i < groups.size(); ++i) {
    if (!runs[i].empty()) figs[i] = Aggregate(runs[i]);
  }
  const bool in_a = !runs[0].empty();
  ComparisonVerdict verdict;
  if (in_a) {
    verdict = JudgeComparison(runs, &CompareJob);
  } else {  // as CompareFacts names a job only B has
    verdict.against_a.resize(groups.size(), Comparability{{{"job set", "none", key}}, {}});
    verdict.within.resize(groups.size());
    verdict.noise.resize(groups.size());
  }
  std::string out;
  for (size_t i = 0; i < groups.size(); ++i) {
    ComparisonCsvRow row{i, &key, &groups[i], &figs[i], &columns, nullptr, verdict.noise[i], ""};
    if (runs[i].empty()) {
      row.figures = nullptr;
      row.verdict_cells = fmt::format("{},no such job,,,", i == 0 ? "" : "no");
    } else {
      row.runs = &runs[i];
      row.base = i > 0 && in_a ? &figs[0] : nullptr;
      row.verdict_cells = ComparisonVerdictCsv(runs[i], i, verdict);
    }
    out += ComparisonCsvLine(row);
  }
  return out;
}

}  // namespace

std::string FormatJobComparisonCsv(const std::vector<std::vector<ResultData>>& groups,
                                   const GroupFigures& columns) {
  std::string out;
  for (const std::string& key : JobOrder(FirstRunKeys(groups))) {
    out += JobCsvRows(groups, key, columns);
  }
  return out;
}

std::string FormatJobComparison(const std::vector<std::vector<ResultData>>& groups) {
  const bool any = std::any_of(groups.begin(), groups.end(),
                               [](const auto& g) { return !g.front().jobs.empty(); });
  if (!any) return "";
  const std::vector<std::vector<std::string>> keys = FirstRunKeys(groups);
  const std::vector<std::string> order = JobOrder(keys);
  TextTable t;
  t.AddRow({"job", "result", "events/s", "MiB/s", "p99 (ms)", "events/s vs A", "MiB/s vs A",
            "p99 vs A"});
  for (const std::string& name : order) {
    const ResultData* base = JobNamed(groups[0].front(), keys[0], name);
    const JobFigures a = base != nullptr ? FiguresOf(*base) : JobFigures{};
    for (size_t i = 0; i < groups.size(); ++i) {
      const ResultData* job = JobNamed(groups[i].front(), keys[i], name);
      if (job == nullptr) {
        t.AddRow({name, GroupLabel(i), "(no such job)", "", "", "", "", ""});
        continue;
      }
      const JobFigures f = FiguresOf(*job);
      std::vector<std::string> cells = {
          name, GroupLabel(i), fmt::format("{:.2f}", f.events_per_second),
          f.mib_per_second ? fmt::format("{:.2f}", *f.mib_per_second) : "-",
          fmt::format("{:.4g}", f.p99_ms)};  // sub-microsecond ones too (the null engine)
      if (i == 0 || base == nullptr) {
        cells.insert(cells.end(), {"", "", ""});
      } else {
        cells.push_back(Ratio(a.events_per_second, f.events_per_second));
        cells.push_back(a.mib_per_second && f.mib_per_second
                            ? Ratio(*a.mib_per_second, *f.mib_per_second)
                            : "n/a");
        cells.push_back(Ratio(a.p99_ms, f.p99_ms));
      }
      t.AddRow(std::move(cells));
    }
  }
  const bool repeats =
      std::any_of(groups.begin(), groups.end(), [](const auto& g) { return g.size() > 1; });
  return fmt::format("\nJobs, matched by name{} (\"vs A\": the figure over A's):\n",
                     repeats ? ", the first run of each group" : "") +
         t.Render(/*left_columns=*/2);
}

}  // namespace loadcell
