#include "runner/snapshot.h"

namespace loadcell {
namespace {

LatencyHistogram Minus(const LatencyHistogram& now, const LatencyHistogram& base, bool exact) {
  LatencyHistogram d = now;
  d.Subtract(base);
  if (exact && d.Count() > 0) {
    d.mutable_moments().min = now.moments().min;
    d.mutable_moments().max = now.moments().max;
  }
  return d;
}

}  // namespace

Snapshot TakeSnapshot(const std::vector<std::unique_ptr<ThreadRecorder>>& recorders, int kinds) {
  Snapshot s;
  s.kinds.resize(kinds);
  s.counters.assign(kMaxCounters, 0);
  LatencyHistogram tmp;
  for (const auto& rec : recorders) {
    double latency_sum = 0;
    uint64_t events = 0;
    for (int k = 0; k < kinds; ++k) {
      rec->histogram(k).SnapshotInto(tmp);
      s.kinds[k].Merge(tmp);
      if (k == 0) {
        events = tmp.Count();
        latency_sum = tmp.moments().sum;
      }
    }
    rec->service().SnapshotInto(tmp);
    if (tmp.Count() > 0) {
      s.service.Merge(tmp);
      latency_sum = tmp.moments().sum;  // under --rate, the sum of service times
    }
    s.thread_events.push_back(events);
    s.thread_latency_ns.push_back(latency_sum);
    // Events that overlap (asynchronous I/O) are busy once, not once each.
    s.thread_busy_ns.push_back(rec->own_busy_time() ? static_cast<double>(rec->busy_ns())
                                                    : latency_sum);
    for (int c = 0; c < kMaxCounters; ++c) s.counters[c] += rec->counter(c);
    s.errors += rec->errors();
  }
  return s;
}

void Diff(const Snapshot& now, const Snapshot& base, bool exact_min_max,
          const std::vector<std::string>& kind_names, RunResult& out) {
  out.latency.clear();
  for (size_t k = 0; k < now.kinds.size(); ++k) {
    LatencyStats ls;
    ls.kind = k < kind_names.size() ? kind_names[k] : "kind" + std::to_string(k);
    ls.histogram =
        k < base.kinds.size() ? Minus(now.kinds[k], base.kinds[k], exact_min_max) : now.kinds[k];
    out.latency.push_back(std::move(ls));
  }
  out.events = out.latency.empty() ? 0 : out.latency[0].histogram.Count();
  LatencyHistogram svc = Minus(now.service, base.service, exact_min_max);
  if (svc.Count() > 0) {
    LatencyStats ls;
    ls.kind = "service";
    ls.histogram = std::move(svc);
    out.service = std::move(ls);
  } else {
    out.service.reset();
  }
  out.threads.clear();
  for (size_t t = 0; t < now.thread_events.size(); ++t) {
    ThreadFigures f;
    uint64_t be = t < base.thread_events.size() ? base.thread_events[t] : 0;
    double bl = t < base.thread_latency_ns.size() ? base.thread_latency_ns[t] : 0;
    double bb = t < base.thread_busy_ns.size() ? base.thread_busy_ns[t] : 0;
    f.events = now.thread_events[t] - be;
    f.exec_time_s = (now.thread_latency_ns[t] - bl) / 1e9;
    f.busy_time_s = (now.thread_busy_ns[t] - bb) / 1e9;
    out.threads.push_back(f);
  }
  out.counters.assign(now.counters.size(), 0);
  for (size_t c = 0; c < now.counters.size(); ++c) {
    out.counters[c] = now.counters[c] - (c < base.counters.size() ? base.counters[c] : 0);
  }
  out.errors = now.errors - base.errors;
}

}  // namespace loadcell
