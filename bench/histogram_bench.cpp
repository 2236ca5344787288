// Micro-benchmarks of the latency recording hot path and of percentile reads.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "core/random.h"
#include "stats/histogram.h"

namespace loadcell {
namespace {

// Latencies spread over several powers of two, as real ones are.
std::vector<uint64_t> SampleLatencies(size_t n) {
  Random rng(42);
  std::vector<uint64_t> v(n);
  for (auto& x : v) x = rng.Uniform(100, 1000) << rng.Uniform(0, 20);
  return v;
}

void BM_ConcurrentHistogramRecord(benchmark::State& state) {
  const std::vector<uint64_t> values = SampleLatencies(4096);
  ConcurrentHistogram h;
  size_t i = 0;
  for (auto _ : state) {
    h.Record(values[i++ & 4095]);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ConcurrentHistogramRecord);

void BM_LatencyHistogramRecord(benchmark::State& state) {
  const std::vector<uint64_t> values = SampleLatencies(4096);
  LatencyHistogram h;
  size_t i = 0;
  for (auto _ : state) {
    h.Record(values[i++ & 4095]);
  }
  benchmark::DoNotOptimize(h.Count());
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_LatencyHistogramRecord);

void BM_LatencyHistogramPercentile(benchmark::State& state) {
  LatencyHistogram h;
  for (uint64_t v : SampleLatencies(100000)) h.Record(v);
  const double p = static_cast<double>(state.range(0)) / 100.0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(h.Percentile(p));
  }
}
BENCHMARK(BM_LatencyHistogramPercentile)->Arg(5000)->Arg(9900)->Arg(9999);

void BM_ConcurrentHistogramSnapshot(benchmark::State& state) {
  ConcurrentHistogram h;
  for (uint64_t v : SampleLatencies(100000)) h.Record(v);
  LatencyHistogram out;
  for (auto _ : state) {
    h.SnapshotInto(out);
    benchmark::DoNotOptimize(out.Count());
  }
}
BENCHMARK(BM_ConcurrentHistogramSnapshot);

}  // namespace
}  // namespace loadcell
