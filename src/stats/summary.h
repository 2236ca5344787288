#pragma once
// Pure summary functions over raw results. Reporters call none of these on
// raw data themselves; the runner fills RunResult with their outputs.

#include <cstdint>
#include <vector>

namespace loadcell {

struct MeanStd {
  double mean = 0;
  double stddev = 0;  // population standard deviation, as sysbench prints
};

// Mean and standard deviation of per-thread figures (events, execution
// time): sysbench's "Threads fairness".
MeanStd Fairness(const std::vector<double>& per_thread);

// Events per second; 0 when seconds <= 0.
double Rate(double count, double seconds);

}  // namespace loadcell
