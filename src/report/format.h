#pragma once
// Formatting helpers shared by the reporters: unit conversion and number
// layout only, no statistics.

#include <cstdint>
#include <string>
#include <vector>

#include "runner/run_result.h"
#include "stats/histogram.h"

namespace loadcell::report_internal {

inline constexpr double kNanosPerMs = 1e6;

// A latency in milliseconds for humans: two decimals from 0.1 ms up (as
// sysbench prints), otherwise enough decimals for two significant digits
// (0.0031), at most six (1 ns). Never "0.00" for a nonzero value; 0 and
// non-finite values print as 0.00 (with `min_decimals` decimals).
std::string FormatMs(double ms, int min_decimals = 2);

// A latency of `ns` nanoseconds in milliseconds for the compare and sweep
// tables: FormatMs with three decimals (a difference between runs needs one
// more than a report).
std::string TableMs(double ns);
// A latency of `ns` nanoseconds in milliseconds for CSV: six decimals (1 ns
// resolution); non-finite values print as 0.
std::string CsvMs(double ns);
// RFC 4180 quoting: a field with a comma, quote or line break is quoted, its
// quotes doubled; any other field is itself.
std::string CsvField(const std::string& s);

// "95", "99.9": the shortest text of a percentile.
std::string PercentileText(double p);

// The percentiles a report lists: 50, 95, 99, 99.9 (and 99.99 when
// `with_extreme`), plus `chosen` when it is in (0, 100] and not already
// listed; ascending.
std::vector<double> ReportedPercentiles(double chosen, bool with_extreme);

// The histogram's mean in ns, 0 when it is empty or not finite.
double MeanNs(const LatencyHistogram& h);
// The histogram's standard deviation in ns, 0 when empty or not finite.
double StdDevNs(const LatencyHistogram& h);

// `v` when finite, else 0.
double Finite(double v);

// Name of counter `i`: names[i], or "counter_<i>" when there is no name.
std::string CounterName(const std::vector<std::string>& names, size_t i);

// The "Ranks:" block of the text report (text_reporter.cpp): one line per
// rank (host, threads, events, events/s, p95, errors), the fairness across
// ranks, the clock offsets, missing ranks and the stonewall figures.
std::string RanksBlock(const ClusterFigures& c);

// The text report's verdict block (docs/validity.md): a "Validity" line
// that counts the checks, one line per check that did not pass (WARN,
// INVALID, not checked: what was seen and what to change), and the last
// line "Verdict: valid", "... valid with warnings (N)" or "... INVALID (N)".
// Empty when the result was not judged (--verdict=off).
std::string VerdictBlock(const Validity& v);

// Who took part in a run across processes, for a line of text: "4 ranks on
// 2 hosts (c1, c2)", the hosts in the order of their first rank.
std::string RanksAndHosts(const ClusterFigures& c);

// sysbench's "[ 1s ] " prefix: integer seconds when the report interval is
// whole, otherwise up to three decimals.
std::string IntervalStamp(double t_s, double report_interval_s);
// What every report says of a run whose process was stopped `pauses` times
// for `paused_s` in all (SIGSTOP, a suspended VM): "(paused 1 time for
// 3.02s: the process was stopped; total time and latencies include it)".
std::string PausedNote(double paused_s, int pauses);

}  // namespace loadcell::report_internal
