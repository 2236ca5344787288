#include "stats/summary.h"

#include <cmath>

namespace loadcell {

MeanStd Fairness(const std::vector<double>& per_thread) {
  MeanStd out;
  if (per_thread.empty()) return out;
  const double n = static_cast<double>(per_thread.size());
  double sum = 0;
  for (double v : per_thread) sum += v;
  out.mean = sum / n;
  // Two passes: the sum of squared deviations cannot go negative.
  double sq = 0;
  for (double v : per_thread) sq += (v - out.mean) * (v - out.mean);
  out.stddev = std::sqrt(sq / n);
  return out;
}

double Rate(double count, double seconds) { return seconds > 0 ? count / seconds : 0.0; }

double MibPerSecond(double bytes, double seconds) { return Rate(bytes / (1 << 20), seconds); }

double MeanOf(double total, double count) { return count != 0 ? total / count : 0.0; }

}  // namespace loadcell
