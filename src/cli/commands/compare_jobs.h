#pragma once
// `loadcell compare` of runs of several jobs (fio's): each job of the
// baseline beside the same job (matched by name, comparability.h's
// JobKeys) of every other result, with its ratios to the baseline's.

#include <string>
#include <vector>

#include "report/json/json_reader.h"

namespace loadcell {

// The jobs' table: per job of A, a row per result (its first run when a
// group has several) with its events/s, MiB/s (bytes read and written) and
// p99 latency and, from B on, each over A's ("1.05x"); a job missing from a
// result says so, and the jobs only other results have follow. "" when no
// result has jobs.
std::string FormatJobComparison(const std::vector<std::vector<ResultData>>& groups);

}  // namespace loadcell
