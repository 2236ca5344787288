#pragma once
// Pure summary functions over raw results. Reporters call none of these;
// FillDerivedFigures (runner/run_result.h) and the workloads' Metrics() fill
// RunResult with their outputs once, and reporters print those fields.

#include <cstdint>
#include <vector>

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

}  // namespace loadcell
