#include "runner/merge_results.h"

#include <algorithm>

#include "runner/schedule.h"
#include "stats/summary.h"

namespace loadcell {
namespace {

// The index of `kind` in `into`, added (empty) when it is not there yet.
size_t KindSlot(std::vector<LatencyStats>& into, const std::string& kind) {
  for (size_t k = 0; k < into.size(); ++k) {
    if (into[k].kind == kind) return k;
  }
  into.push_back(LatencyStats{kind, {}});
  return into.size() - 1;
}

void AddLatency(const std::vector<LatencyStats>& part, std::vector<LatencyStats>& out) {
  for (const LatencyStats& l : part) out[KindSlot(out, l.kind)].histogram.Merge(l.histogram);
}

// Adds `counters` (named `names`, or unnamed: by position) to out's.
void AddCounters(const std::vector<std::string>& names, const std::vector<uint64_t>& counters,
                 std::vector<std::string>& out_names, std::vector<uint64_t>& out) {
  if (names.empty() || names == out_names || out_names.empty()) {
    if (out_names.empty()) out_names = names;
    if (out.size() < counters.size()) out.resize(counters.size());
    for (size_t c = 0; c < counters.size(); ++c) out[c] += counters[c];
    return;
  }
  for (size_t c = 0; c < counters.size() && c < names.size(); ++c) {
    auto it = std::find(out_names.begin(), out_names.end(), names[c]);
    size_t slot = static_cast<size_t>(it - out_names.begin());
    if (it == out_names.end()) out_names.push_back(names[c]);
    if (out.size() < out_names.size()) out.resize(out_names.size());
    out[slot] += counters[c];
  }
}

}  // namespace

void AddResultFigures(const RunResult& part, RunResult& out, RateTargets rates) {
  out.events += part.events;
  out.errors += part.errors;
  AddLatency(part.latency, out.latency);
  if (part.service) {
    if (!out.service) out.service = LatencyStats{"service", {}};
    out.service->histogram.Merge(part.service->histogram);
  }
  AddCounters(part.counter_names, part.counters, out.counter_names, out.counters);
  const int first_thread = static_cast<int>(out.threads.size());
  out.threads.insert(out.threads.end(), part.threads.begin(), part.threads.end());
  for (int t : part.abandoned_threads) out.abandoned_threads.push_back(first_thread + t);
  out.interrupted = out.interrupted || part.interrupted;
  out.forced_shutdown = out.forced_shutdown || part.forced_shutdown;
  out.paused_s = std::max(out.paused_s, part.paused_s);
  out.pauses = std::max(out.pauses, part.pauses);
  if (part.rate) {
    // Late events add up, the lags are the worst part's; the target is the
    // one every part ran a share of, or the parts' own targets added.
    const bool first = !out.rate.has_value();
    RateFigures& rf = first ? out.rate.emplace() : *out.rate;
    rf.target = rates == RateTargets::kShared ? part.rate->target
                                              : (first ? 0 : rf.target) + part.rate->target;
    rf.late_events += part.rate->late_events;
    rf.max_lag_ms = std::max(rf.max_lag_ms, part.rate->max_lag_ms);
    rf.final_lag_ms = std::max(rf.final_lag_ms, part.rate->final_lag_ms);
  }
}

Result<RunResult> MergeResults(const std::vector<const RunResult*>& parts,
                               const std::vector<std::string>& names, RateTargets rates) {
  if (parts.empty()) return Status::InvalidArgument("no results to merge");
  const RunResult& first = *parts.front();
  RunResult out;
  out.manifest = first.manifest;
  out.window_start_ns = first.window_start_ns;
  out.window_end_ns = first.window_end_ns;
  for (size_t i = 0; i < parts.size(); ++i) {
    const RunResult& x = *parts[i];
    AddResultFigures(x, out, rates);
    out.window_start_ns = std::min(out.window_start_ns, x.window_start_ns);
    out.window_end_ns = std::max(out.window_end_ns, x.window_end_ns);
    if (!x.failure.ok() && out.failure.ok()) {
      const std::string prefix = i < names.size() && !names[i].empty() ? names[i] + ": " : "";
      out.failure = Status(x.failure.code(), prefix + x.failure.message(), x.failure.err());
    }
  }
  for (size_t t = 0;; ++t) {
    std::vector<const IntervalSnapshot*> tick;
    for (const RunResult* p : parts) {
      if (t < p->intervals.size()) tick.push_back(&p->intervals[t]);
    }
    if (tick.size() != parts.size()) break;
    LC_ASSIGN_OR_RETURN(IntervalSnapshot iv, MergeIntervalsByName(tick));
    out.intervals.push_back(std::move(iv));
  }
  out.total_time_s = NanosToSeconds(out.window_end_ns - out.window_start_ns);
  out.manifest.threads = static_cast<int>(out.threads.size());
  if (out.rate) out.rate->achieved = Rate(static_cast<double>(out.events), out.total_time_s);
  FillDerivedFigures(out);
  return out;
}

Result<IntervalSnapshot> MergeIntervalsByName(const std::vector<const IntervalSnapshot*>& parts) {
  if (parts.empty()) return Status::InvalidArgument("no intervals to merge");
  IntervalSnapshot out = *parts.front();
  std::vector<std::string> unnamed;
  for (size_t i = 1; i < parts.size(); ++i) {
    const IntervalSnapshot& p = *parts[i];
    out.duration_s = std::max(out.duration_s, p.duration_s);
    out.threads += p.threads;
    out.events += p.events;
    out.errors += p.errors;
    AddLatency(p.latency, out.latency);
    AddCounters({}, p.counters, unnamed, out.counters);
    out.queue += p.queue;
    out.concurrency += p.concurrency;
  }
  FillDerivedFigures(out);
  return out;
}

}  // namespace loadcell
