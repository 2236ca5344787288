#pragma once
// `loadcell compare` of runs of several jobs (fio's): each job of the
// baseline beside the same job (matched by name, comparability.h's
// JobKeys) of every other result, with its ratios to the baseline's.

#include <string>
#include <vector>

#include "cli/commands/compare_command.h"
#include "report/json/json_reader.h"

namespace loadcell {

// The jobs' table: per job of A, a row per result (its first run when a
// group has several) with its events/s, MiB/s (bytes read and written) and
// p99 latency and, from B on, each over A's ("1.05x"); a job missing from a
// result says so, and the jobs only other results have follow. "" when no
// result has jobs.
std::string FormatJobComparison(const std::vector<std::vector<ResultData>>& groups);

// The CSV's rows of the jobs (compare_command.h ComparisonCsvLine, with the
// job column): per job in the order above, a row per result or group with
// the same columns as the totals' (`columns`: A's totals, whose counters
// the header names), the job's figures over the group's runs that have it,
// its changes against A's same job and its verdict (CompareJob; the job's
// own validity). A result without the job: `runs` 0, the figures blank,
// differences "no such job"; a job A lacks: no changes, "job set none vs
// NAME".
std::string FormatJobComparisonCsv(const std::vector<std::vector<ResultData>>& groups,
                                   const GroupFigures& columns);

}  // namespace loadcell
