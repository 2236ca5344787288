#pragma once
// Pure summary functions over raw results. Reporters call none of these;
// FillDerivedFigures (runner/run_result.h) and the workloads' Metrics() fill
// RunResult with their outputs once, and reporters print those fields.

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "stats/histogram.h"

namespace loadcell {

struct MeanStd {
  double mean = 0;
  double stddev = 0;  // population standard deviation, as sysbench prints
};

// Mean and standard deviation of per-thread figures (events, execution
// time): sysbench's "Threads fairness". {0, 0} when `per_thread` is empty.
MeanStd Fairness(const std::vector<double>& per_thread);

// Events per second; 0 when seconds <= 0 (a run of no measured time has no
// rate, rather than an infinite one).
double Rate(double count, double seconds);

// `bytes` per second in MiB/s (2^20 bytes); 0 when seconds <= 0.
double MibPerSecond(double bytes, double seconds);

// `total` / `count`: the mean of `count` items summing to `total`; 0 when
// count is 0.
double MeanOf(double total, double count);

// The smallest and the largest of per-thread figures, and how far each lies
// from their mean, in % of the mean (HTML page: "slowest thread -12.0%").
struct Extremes {
  double min = 0;
  double max = 0;
  double min_from_mean_pct = 0;  // 0 when the mean is not above 0
  double max_from_mean_pct = 0;
};

// {0, 0, 0, 0} when `per_thread` is empty.
Extremes ExtremesOf(const std::vector<double>& per_thread);

// Half the range (max - min) of repeated runs' figures in % of their mean:
// sweep's "spread" column. nullopt when mean <= 0 (no spread to state).
std::optional<double> HalfRangePercent(double min, double max, double mean);

// `value`'s change from `base` in % of `base`; nullopt when base is 0 or the
// change is out of a double's range (never inf or nan).
std::optional<double> PercentChange(double base, double value);

// SQLIO's -L histogram: the percentages (0..100) of events whose latency lies
// in [k, k+1) ms for k = 0..23, and in >= 24 ms ([24]), by each bucket's
// lowest value. All 0 when `h` is empty.
constexpr size_t kWholeMsColumns = 25;
std::array<double, kWholeMsColumns> WholeMsPercentages(const LatencyHistogram& h);

}  // namespace loadcell
