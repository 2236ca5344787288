#pragma once
// Whether two saved results can be compared at all (docs/validity.md,
// "Comparing results"): the facts of their manifests that change what a
// figure measures (engine, caching, block size, queue depth, write data,
// file set size, tool version, kernel, file system, mount options, the
// database's cache, the database server's version and settings), and how
// a figure's change stands against the noise of repeated runs. Pure
// functions of the figures read back from JSON; the compare command formats
// what they return.

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "report/json/json_reader.h"

namespace loadcell {

// Repeated runs each side needs before a change can be told from noise.
inline constexpr int kMinRunsForNoise = 3;

// One fact that differs between a result (B) and the baseline (A), with
// each one's value as the comparison prints it ("engine", "io_uring",
// "sync").
struct FactDifference {
  std::string name;
  std::string a;
  std::string b;
};

struct Comparability {
  // The facts both results record and that differ, in the order of the
  // list of facts.
  std::vector<FactDifference> differences;
  // The facts one side (or both) does not record (a result written before
  // they were part of the manifest, a fact the system did not give): not a
  // difference, named so that the reader knows what was not compared.
  std::vector<std::string> not_recorded;

  bool comparable() const { return differences.empty(); }
};

// The facts of `b` against those of `a`. A fact that concerns neither (the
// file system of a cpu run) is left out. Linear in the results' targets.
// Runs of several jobs (fio's) also differ in their job set (a job of one
// alone: "job set 'w' vs none") and in each job matched by name: its own
// facts and the options that change what it measures ("job 'r' bs 4k vs
// 8k"; rw, bs, bssplit, rwmixread, size, numjobs, ...), quadratic in
// their jobs.
Comparability CompareFacts(const ResultData& a, const ResultData& b);

// The facts of job `b` (a part of a run of several jobs) against those of
// job `a`: its target's (as CompareFacts, without the whole run's tool
// version and kernel) and the options that change what it measures, named
// without the "job 'r' " CompareFacts puts before them ("bs 4k vs 8k").
Comparability CompareJob(const ResultData& a, const ResultData& b);

// The names a run of several jobs (fio's) matches its jobs by: each job's
// name, the k-th of a name (numjobs without group_reporting) "name #k" from
// its second on. Empty for a run of one workload.
std::vector<std::string> JobKeys(const ResultData& r);

// "not comparable: engine io_uring vs sync, caching direct vs buffered", or
// "comparable"; values cut to 64 bytes.
std::string ComparabilityText(const Comparability& c);

// The noise verdict of a figure of two groups of runs, from each one's
// number of runs and the range (min to max) of the figure over them:
// "too few runs to call a difference" when either has fewer than
// kMinRunsForNoise runs, else "beyond spread" when the ranges do not
// overlap and "within spread" when they do.
std::string NoiseVerdict(int runs_a, double a_min, double a_max, int runs_b, double b_min,
                         double b_max);
inline constexpr const char* kTooFewRuns = "too few runs to call a difference";

// A result's own verdict as compare prints it: "valid", "valid with
// warnings (1): samples (warn)", "INVALID (1): cache (invalid), samples
// (warn)", or "not judged" (written with --verdict=off or before the
// verdict existed). Every check that did not pass is named, gravest first.
std::string ValidityText(const Validity& v);

// "A".."Z", then "AA", "AB", ...: the name of the i-th result or group of a
// comparison.
std::string GroupLabel(size_t i);

// The verdict of a comparison of groups of repeated runs (a single result
// is a group of one; the first group, A, is the baseline).
struct ComparisonVerdict {
  // Per group: its first run's facts against A's first run ([0]: none).
  std::vector<Comparability> against_a;
  // Per group: its other runs whose facts differ from its first run's, by
  // index in the group.
  std::vector<std::vector<std::pair<size_t, Comparability>>> within;
  // Per group: NoiseVerdict of events/s against A ([0]: "").
  std::vector<std::string> noise;
};

// `compare` judges two runs' facts (CompareJob for the groups of one job's
// runs). REQUIRES: groups[0] not empty; an empty later group (a result
// without the job) is judged as nothing: comparable, noise "". Linear in
// the runs and their targets.
ComparisonVerdict JudgeComparison(const std::vector<std::vector<ResultData>>& groups,
                                  Comparability (*compare)(const ResultData&,
                                                           const ResultData&) = &CompareFacts);

// The text block after the comparison's table: "Comparability", "Noise",
// "Validity" (every run's own verdict) and the "Overall:" line.
std::string ComparisonVerdictText(const std::vector<std::vector<ResultData>>& groups,
                                  const ComparisonVerdict& v);

// The CSV cells of group `i` (without a leading comma): comparable
// (yes/no, blank for A), differences ("engine sync vs mmap; ..."), noise,
// validity (the gravest of its runs': valid, valid_with_warnings, invalid,
// not_judged) and the checks of its runs that did not pass ("cache:invalid
// samples:warn").
std::string ComparisonVerdictCsv(const std::vector<ResultData>& group, size_t i,
                                 const ComparisonVerdict& v);
inline constexpr const char* kComparisonVerdictCsvColumns =
    "comparable,differences,noise,validity,checks_not_passed";

}  // namespace loadcell
