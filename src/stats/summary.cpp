#include "stats/summary.h"

#include <algorithm>
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

Extremes ExtremesOf(const std::vector<double>& per_thread) {
  Extremes out;
  if (per_thread.empty()) return out;
  const double mean = Fairness(per_thread).mean;
  out.min = *std::min_element(per_thread.begin(), per_thread.end());
  out.max = *std::max_element(per_thread.begin(), per_thread.end());
  if (mean > 0) {
    out.min_from_mean_pct = (out.min - mean) / mean * 100;
    out.max_from_mean_pct = (out.max - mean) / mean * 100;
  }
  return out;
}

std::optional<double> HalfRangePercent(double min, double max, double mean) {
  if (!(mean > 0)) return std::nullopt;
  return (max - min) / 2 / mean * 100;
}

std::optional<double> PercentChange(double base, double value) {
  if (base == 0) return std::nullopt;
  const double change = (value - base) / base * 100;
  if (!std::isfinite(change)) return std::nullopt;  // out of range: never printed as inf
  return change;
}

std::array<double, kWholeMsColumns> WholeMsPercentages(const LatencyHistogram& h) {
  std::array<double, kWholeMsColumns> pct{};
  if (h.Count() == 0) return pct;
  std::array<uint64_t, kWholeMsColumns> n{};
  const std::vector<uint64_t>& b = h.buckets();
  for (size_t i = 0; i < b.size(); ++i) {
    if (b[i] == 0) continue;
    const uint64_t ms = HistogramBucketLow(i) / 1000000;
    n[std::min<uint64_t>(ms, kWholeMsColumns - 1)] += b[i];
  }
  for (size_t k = 0; k < n.size(); ++k) {
    pct[k] = 100.0 * static_cast<double>(n[k]) / static_cast<double>(h.Count());
  }
  return pct;
}

}  // namespace loadcell
