#pragma once
// Log-linear latency histogram (values are nanoseconds, uint64).
//
// Bucketing (kSubBucketBits = 7):
//   values 0 .. 255 each have an exact bucket;
//   above that, each power-of-two range [2^e, 2^(e+1)) is split into 128
//   equal-width linear sub-buckets, found with count-leading-zeros.
// A bucket [lo, hi] thus has width <= lo/128, so any value reported for it
// (its midpoint) is within 1/256 (0.39%) of every value it holds; with the
// clamp to [min, max] the error of a percentile stays below 1% from 1 ns to
// 2^64 ns (584 years). The exact bound and its proof sketch live in
// histogram.cpp beside the index function.
//
// LatencyHistogram is a plain value type (not thread-safe): merge, subtract,
// percentiles. ConcurrentHistogram is written by exactly one thread and read
// (snapshotted) by others; see its comment.

#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace loadcell {

inline constexpr int kSubBucketBits = 7;
// Number of buckets needed to cover every uint64 value.
size_t HistogramBucketCount();
// Inline: it is on every event's path. The error bound is explained beside
// HistogramBucketLow in histogram.cpp.
inline size_t HistogramBucketIndex(uint64_t value) {
  constexpr uint64_t kSub = uint64_t{1} << kSubBucketBits;
  if (value < kSub) return static_cast<size_t>(value);
  const int e = 63 - std::countl_zero(value);
  const int shift = e - kSubBucketBits;
  return static_cast<size_t>(shift) * kSub + static_cast<size_t>(value >> shift);
}
uint64_t HistogramBucketLow(size_t index);   // smallest value in the bucket
uint64_t HistogramBucketHigh(size_t index);  // largest value in the bucket

// Exact moments beside the buckets.
struct Moments {
  uint64_t count = 0;
  uint64_t min = std::numeric_limits<uint64_t>::max();  // valid when count > 0
  uint64_t max = 0;
  double sum = 0;     // of values
  double sum_sq = 0;  // of squared values

  double Mean() const;
  double StdDev() const;  // population standard deviation
};

class LatencyHistogram {
 public:
  LatencyHistogram();

  void Record(uint64_t value) { RecordN(value, 1); }
  void RecordN(uint64_t value, uint64_t n);
  void Merge(const LatencyHistogram& other);
  // this -= earlier, bucket by bucket and for count/sum/sum_sq. REQUIRES:
  // `earlier` is an older snapshot of the same recorder. min and max become
  // the bounds of the lowest and highest occupied buckets; callers that know
  // the exact ones overwrite them through mutable_moments().
  void Subtract(const LatencyHistogram& earlier);
  void Clear();

  const Moments& moments() const { return m_; }
  Moments& mutable_moments() { return m_; }
  uint64_t Count() const { return m_.count; }
  uint64_t Min() const { return m_.count ? m_.min : 0; }
  uint64_t Max() const { return m_.max; }

  // The value at percentile p (0 < p <= 100): the smallest recorded value v
  // such that at least p% of the samples are <= v, reported as the midpoint
  // of its bucket and clamped to [Min(), Max()]. 0 when empty.
  uint64_t Percentile(double p) const;

  const std::vector<uint64_t>& buckets() const { return buckets_; }
  std::vector<uint64_t>& mutable_buckets() { return buckets_; }

 private:
  std::vector<uint64_t> buckets_;
  Moments m_;
};

// Single-writer histogram that other threads may snapshot at any time.
// The owner calls Record(); others call SnapshotInto(). Buckets and moments
// are relaxed atomics written with load+store (no locked instructions), so
// the hot path costs a few plain memory operations. A snapshot taken while
// the owner records may be off by the event in flight; it is never torn
// within one counter.
class alignas(64) ConcurrentHistogram {
 public:
  ConcurrentHistogram();
  ~ConcurrentHistogram();
  ConcurrentHistogram(const ConcurrentHistogram&) = delete;
  ConcurrentHistogram& operator=(const ConcurrentHistogram&) = delete;

  void Record(uint64_t value) {  // owner thread only; inline, on every event's path
    constexpr auto kRelaxed = std::memory_order_relaxed;
    std::atomic_ref<uint64_t> bucket(buckets_[HistogramBucketIndex(value)]);
    bucket.store(bucket.load(kRelaxed) + 1, kRelaxed);
    // ResetMinMax may run between a load and the store below; the store then
    // writes this event's own value, which is a correct bound for the new span.
    if (value < min_.load(kRelaxed)) min_.store(value, kRelaxed);
    if (value > max_.load(kRelaxed)) max_.store(value, kRelaxed);
    const double v = static_cast<double>(value);
    sum_.store(sum_.load(kRelaxed) + v, kRelaxed);
    sum_sq_.store(sum_sq_.load(kRelaxed) + v * v, kRelaxed);
  }
  void SnapshotInto(LatencyHistogram& out) const;  // any thread
  // Resets the exact min/max (any thread) so that the next events start a
  // new span for them; buckets, counts and sums are never reset (readers
  // subtract snapshots instead).
  void ResetMinMax();

 private:
  // HistogramBucketCount() counters, accessed through std::atomic_ref.
  uint64_t* buckets_ = nullptr;
  bool mapped_ = false;
  std::atomic<uint64_t> min_{std::numeric_limits<uint64_t>::max()};
  std::atomic<uint64_t> max_{0};
  std::atomic<double> sum_{0};
  std::atomic<double> sum_sq_{0};
};

}  // namespace loadcell
