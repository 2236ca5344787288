#include "stats/histogram.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>

#include "core/pages.h"

namespace loadcell {

namespace {

constexpr uint64_t kSubBuckets = uint64_t{1} << kSubBucketBits;  // 128
// 0..127 exact, then one group of 128 sub-buckets for each exponent 7..63.
constexpr size_t kBucketCount = kSubBuckets + (64 - kSubBucketBits) * kSubBuckets;  // 7424

// Number of samples that a percentile p of `count` samples must cover:
// ceil(p / 100 * count), with a tolerance so that e.g. 99.9% of 1000 is 999
// and not 1000 because of binary rounding. Always in [1, count].
uint64_t PercentileRank(double p, uint64_t count) {
  const double x = p / 100.0 * static_cast<double>(count);
  const double nearest = std::round(x);
  double rank = std::fabs(x - nearest) <= 1e-9 * std::max(1.0, x) ? nearest : std::ceil(x);
  if (!(rank >= 1)) rank = 1;
  if (rank >= static_cast<double>(count)) return count;
  return static_cast<uint64_t>(rank);
}

}  // namespace

size_t HistogramBucketCount() { return kBucketCount; }

// Index function and its error bound.
//
// Values below 128 get one bucket each (index == value). A value v >= 128
// has exponent e = floor(log2(v)) = 63 - clz(v), 7 <= e <= 63, so
// v lies in [2^e, 2^(e+1)). That range is cut into 128 sub-buckets of width
// w = 2^(e-7), and v >> (e-7) is in [128, 256): its top 8 bits. The index is
//   (e - 7) * 128 + (v >> (e - 7)),
// which gives index == v for 128 <= v < 256 (width 1: exact below 256) and
// continues without gap: the first bucket of exponent e+1 follows the last of
// exponent e. Indices run from 0 to 56 * 128 + 255 = 7423.
//
// Error bound: a bucket [lo, hi] with exponent e has lo >= 2^e and width
// w = 2^(e-7) <= lo / 128. The value reported for it is its midpoint
// m = lo + (hi - lo) / 2, and every value v in the bucket has
// |m - v| <= w / 2 <= lo / 256 <= v / 256, a relative error of at most 0.39%.
// A percentile is read from the bucket that holds the exact sample of that
// rank, so the reported value is within 0.39% of the exact percentile; the
// clamp to [min, max] only moves it towards the exact value (which lies in
// [min, max]). Hence <= 1% holds with margin from 1 ns up to 2^64 ns, and
// values below 256 ns are exact.

uint64_t HistogramBucketLow(size_t index) {
  if (index < 2 * kSubBuckets) return index;
  const uint64_t shift = index / kSubBuckets - 1;          // e - 7
  const uint64_t top = kSubBuckets + index % kSubBuckets;  // v >> (e - 7)
  return top << shift;
}

uint64_t HistogramBucketHigh(size_t index) {
  if (index < 2 * kSubBuckets) return index;
  const uint64_t shift = index / kSubBuckets - 1;
  return HistogramBucketLow(index) + ((uint64_t{1} << shift) - 1);
}

double Moments::Mean() const { return count ? sum / static_cast<double>(count) : 0.0; }

double Moments::StdDev() const {
  if (count == 0) return 0.0;
  const double n = static_cast<double>(count);
  const double mean = sum / n;
  const double variance = sum_sq / n - mean * mean;
  // Rounding can make a tiny variance negative; it is zero then.
  return variance > 0 ? std::sqrt(variance) : 0.0;
}

LatencyHistogram::LatencyHistogram() : buckets_(kBucketCount, 0) {}

void LatencyHistogram::RecordN(uint64_t value, uint64_t n) {
  if (n == 0) return;
  buckets_[HistogramBucketIndex(value)] += n;
  m_.count += n;
  m_.min = std::min(m_.min, value);
  m_.max = std::max(m_.max, value);
  const double v = static_cast<double>(value);
  const double dn = static_cast<double>(n);
  m_.sum += v * dn;
  m_.sum_sq += v * v * dn;
}

void LatencyHistogram::Merge(const LatencyHistogram& other) {
  for (size_t i = 0; i < kBucketCount; ++i) buckets_[i] += other.buckets_[i];
  m_.count += other.m_.count;
  if (other.m_.count) {
    m_.min = std::min(m_.min, other.m_.min);
    m_.max = std::max(m_.max, other.m_.max);
  }
  m_.sum += other.m_.sum;
  m_.sum_sq += other.m_.sum_sq;
}

void LatencyHistogram::Subtract(const LatencyHistogram& earlier) {
  size_t lowest = kBucketCount;
  size_t highest = 0;
  for (size_t i = 0; i < kBucketCount; ++i) {
    // Saturate: a violated REQUIRES must not wrap around to huge counts.
    buckets_[i] = buckets_[i] >= earlier.buckets_[i] ? buckets_[i] - earlier.buckets_[i] : 0;
    if (buckets_[i]) {
      lowest = std::min(lowest, i);
      highest = i;
    }
  }
  m_.count = m_.count >= earlier.m_.count ? m_.count - earlier.m_.count : 0;
  if (m_.count == 0 || lowest == kBucketCount) {
    m_ = Moments{};
    return;
  }
  m_.sum = std::max(0.0, m_.sum - earlier.m_.sum);
  m_.sum_sq = std::max(0.0, m_.sum_sq - earlier.m_.sum_sq);
  m_.min = HistogramBucketLow(lowest);
  m_.max = HistogramBucketHigh(highest);
}

void LatencyHistogram::Clear() {
  std::fill(buckets_.begin(), buckets_.end(), 0);
  m_ = Moments{};
}

uint64_t LatencyHistogram::Percentile(double p) const {
  if (m_.count == 0) return 0;
  const uint64_t lo = Min();
  const uint64_t hi = std::max(lo, Max());
  if (!(p > 0)) return lo;  // also NaN
  const uint64_t rank = PercentileRank(std::min(p, 100.0), m_.count);
  // The smallest and the largest samples are known exactly.
  if (rank == 1) return lo;
  if (rank == m_.count) return hi;
  uint64_t cumulative = 0;
  for (size_t i = 0; i < kBucketCount; ++i) {
    cumulative += buckets_[i];
    if (cumulative >= rank) {
      const uint64_t low = HistogramBucketLow(i);
      const uint64_t mid = low + (HistogramBucketHigh(i) - low) / 2;
      return std::clamp(mid, lo, hi);
    }
  }
  // Buckets hold fewer samples than count (a snapshot difference that caught
  // an event in flight): the largest value is the best answer.
  return hi;
}

// The buckets come straight from the system (core/pages.h): zero pages that cost no memory until
// an event lands in them, so 64 threads with several histograms each stay
// small (a run touches only the few pages its latencies fall in).
ConcurrentHistogram::ConcurrentHistogram() {
  const size_t bytes = kBucketCount * sizeof(uint64_t);
  int err = 0;
  void* p = MapZeroPages(bytes, /*huge=*/false, &err);
  if (p == nullptr) {
    // Out of address space: fall back to the heap (zeroed, pages touched).
    buckets_ = static_cast<uint64_t*>(std::calloc(kBucketCount, sizeof(uint64_t)));
    if (buckets_ == nullptr) std::abort();
    mapped_ = false;
  } else {
    buckets_ = static_cast<uint64_t*>(p);
    mapped_ = true;
  }
}

ConcurrentHistogram::~ConcurrentHistogram() {
  if (mapped_) {
    UnmapPages(buckets_, kBucketCount * sizeof(uint64_t));
  } else {
    std::free(buckets_);
  }
}

// Single writer: load+store instead of read-modify-write keeps the hot path
// free of locked instructions; no other thread ever stores to these counters
// (ResetMinMax aside, see below), so no update can be lost.

void ConcurrentHistogram::SnapshotInto(LatencyHistogram& out) const {
  constexpr auto kRelaxed = std::memory_order_relaxed;
  std::vector<uint64_t>& dst = out.mutable_buckets();
  dst.resize(kBucketCount);
  // The count is the sum of the buckets as read, so that it always agrees
  // with them (and so do differences of two snapshots); the writer's own
  // count_ may be one event ahead or behind.
  uint64_t count = 0;
  size_t lowest = kBucketCount;
  size_t highest = 0;
  for (size_t i = 0; i < kBucketCount; ++i) {
    dst[i] = std::atomic_ref<uint64_t>(buckets_[i]).load(kRelaxed);
    if (dst[i]) {
      count += dst[i];
      lowest = std::min(lowest, i);
      highest = i;
    }
  }
  Moments& m = out.mutable_moments();
  m = Moments{};
  if (count == 0) return;
  m.count = count;
  m.min = min_.load(kRelaxed);
  m.max = max_.load(kRelaxed);
  if (m.min > m.max) {
    // ResetMinMax ran and no event has completed since: fall back to the
    // bounds of the occupied buckets.
    m.min = HistogramBucketLow(lowest);
    m.max = HistogramBucketHigh(highest);
  }
  m.sum = sum_.load(kRelaxed);
  m.sum_sq = sum_sq_.load(kRelaxed);
}

void ConcurrentHistogram::ResetMinMax() {
  min_.store(std::numeric_limits<uint64_t>::max(), std::memory_order_relaxed);
  max_.store(0, std::memory_order_relaxed);
}

}  // namespace loadcell
