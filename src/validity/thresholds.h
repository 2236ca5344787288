#pragma once
// The thresholds of the validity checks, in one place; docs/validity.md
// says where each number comes from.

#include <cstdint>

namespace loadcell::validity {

// cache: buffered reads over a file set below this multiple of the memory
// the page cache may use warn; at or below 1x (the whole set fits) the
// result is invalid as a device figure.
inline constexpr double kCacheWarnMultiple = 2.0;
inline constexpr double kCacheInvalidMultiple = 1.0;

// device-reads: buffered reads of which the device read less than this
// fraction were served from the page cache.
inline constexpr double kDeviceReadFraction = 0.5;

// device-writes: buffered writes of which the device wrote less than this
// fraction by the run's end were not on the device when counted.
inline constexpr double kDeviceWriteFraction = 0.5;

// write-data: writes of which compressing or deduplicating storage would
// not store this share or more (as the workload estimated it from its own
// write buffers) warn.
inline constexpr double kWriteDataRepeatedFraction = 0.10;

// samples: a printed percentile needs this many events beyond it.
inline constexpr double kMinTailSamples = 10;
// samples: a run with --report-interval should cover this many intervals.
inline constexpr int kMinIntervals = 2;
// samples: a run with --warmup-time should measure at least this multiple
// of its warm-up (the user's own word for how long the system takes to
// settle; a shorter measure cannot show the settled rate holds as long).
inline constexpr double kMinMeasuredOverWarmUp = 1.0;

// steady-state: intervals needed to compare thirds, and the largest change
// of the mean rate from the first third to the last, as a fraction of the
// larger of the two.
inline constexpr int kSteadyMinIntervals = 6;
inline constexpr double kSteadyMaxDrift = 0.20;
// steady-state, the SNIA Performance Test Specification's rule over its
// measurement window of 5 rounds (here: 5 intervals, the window moved over
// the series): the rates' range (largest less smallest) within 20% of the
// window's average, and the excursion of their least-squares line across
// the window within 10%. The run ended steady when a window ending at the
// last interval, or at most kSteadyWindowEndSlack intervals before it,
// meets the rule (loadcell's choice: one interval of slack lets a last
// interval disturbed by the threads stopping pass, not a run still moving).
inline constexpr int kSteadyWindowIntervals = 5;
inline constexpr double kSteadyWindowMaxRange = 0.20;
inline constexpr double kSteadyWindowMaxSlope = 0.10;
inline constexpr int kSteadyWindowEndSlack = 1;
static_assert(kSteadyWindowIntervals <= kSteadyMinIntervals,
              "the window lies within the intervals the check needs");

// unwritten-data: sampled pages of the files read that hold only zeros,
// above this many, warn (none: data that loadcell, fio's layout or DiskSpd
// write is random, so a zero page is one never written, or zeros written on
// purpose, both of which storage can return without the device's work).
inline constexpr uint64_t kMaxZeroPages = 0;

// warm-up: intervals needed, and how far the first interval's rate may lie
// from the median of the others (as a ratio either way).
inline constexpr int kWarmUpMinIntervals = 4;
inline constexpr double kWarmUpMaxRatio = 1.5;

// client-cpu: one worker thread's own CPU time over its wall time, or
// loadcell's CPU time per worker thread (or over the CPUs it may use) as a
// fraction of wall time, above which the client limits; also
// the host's busy share above which more worker threads than CPUs wait for
// a CPU.
inline constexpr double kClientBusyFraction = 0.90;
// client-cpu: a worker thread's CPU time read above its wall time times
// this, plus one tick of Windows' thread clock (15.6 ms), is not the
// thread's own (Wine's GetThreadTimes gives other threads' time): no
// thread's own figure is then used.
inline constexpr double kThreadCpuOverWallSlack = 1.05;
inline constexpr double kThreadCpuTickS = 0.016;

// queue-depth: the mean in-flight count (Little's law) below this fraction
// of the asked depth warns.
inline constexpr double kDepthReachedFraction = 0.50;

// rate: the achieved rate below this fraction of the asked one is invalid;
// more than this fraction of events started late (past 1 ms) with the
// worst lag above the latency median warns.
inline constexpr double kRateKeptFraction = 0.95;
inline constexpr double kLateEventsFraction = 0.01;

// fairness: the thread with the fewest events this fraction or more below
// the threads' mean.
inline constexpr double kFairnessMaxShortfall = 0.25;

// ranks: the ranks of an MPI run that started, or ended, further apart than
// this fraction of the run (and than kRankSpreadFloorS, below which a poll
// period and a clock offset's error hide).
inline constexpr double kRankStartSpreadFraction = 0.01;
inline constexpr double kRankTailFraction = 0.05;
inline constexpr double kRankSpreadFloorS = 0.05;

// database: a p95 transaction latency above this is an overloaded server;
// more than this fraction of transactions rolled back warns.
inline constexpr double kDbOverloadedP95Ms = 100;
inline constexpr double kDbMaxRollbackFraction = 0.01;
// database: more than this fraction of transactions met a deadlock (or a
// serialization failure) warns, a tenth of the rollbacks' bound: two
// transactions that lock the same rows in opposite orders, which the
// uniform access of a table set far larger than the threads makes rare.
inline constexpr double kDbMaxDeadlockFraction = 0.001;

// other-io: other processes' device bytes (reads and writes, past what the
// page cache flushed) above this fraction of the run's own device bytes,
// and above a floor that a file system's own journal and metadata writes,
// an editor's save or a log do not reach in a run.
inline constexpr double kOtherIoFraction = 0.25;
inline constexpr uint64_t kOtherIoFloorBytes = 128ULL << 20;

// noisy-host: the host's steal time above this fraction of its CPU time,
// judged over a run of at least kStealMinWallS seconds: /proc/stat counts
// in ticks of 10 ms, so a shorter run holds too few of them for a share
// (a 3 ms run once read 85.7% steal from a handful of ticks).
inline constexpr double kStealMaxFraction = 0.05;
inline constexpr double kStealMinWallS = 1.0;

// cpu-frequency: one CPU's frequency at the end differing from its
// frequency at the start by more than this fraction of the larger.
inline constexpr double kFrequencyMaxChange = 0.10;

}  // namespace loadcell::validity
