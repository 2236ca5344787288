#include "runner/run_result.h"

#include "stats/summary.h"

namespace loadcell {

namespace {

std::vector<double> CounterRates(const std::vector<uint64_t>& counters, double seconds) {
  std::vector<double> rates;
  rates.reserve(counters.size());
  for (uint64_t c : counters) rates.push_back(Rate(static_cast<double>(c), seconds));
  return rates;
}

}  // namespace

double MetricValue(const std::vector<Metric>& metrics, std::string_view key) {
  for (const Metric& m : metrics) {
    if (m.key == key) return m.value;
  }
  return 0;
}

void FillDerivedFigures(IntervalSnapshot& s) {
  s.events_per_second = Rate(static_cast<double>(s.events), s.duration_s);
  s.errors_per_second = Rate(static_cast<double>(s.errors), s.duration_s);
  s.counter_rates = CounterRates(s.counters, s.duration_s);
}

void FillDerivedFigures(RunResult& r) {
  r.events_per_second = Rate(static_cast<double>(r.events), r.total_time_s);
  r.errors_per_second = Rate(static_cast<double>(r.errors), r.total_time_s);

  std::vector<double> events, exec, busy;
  ThreadFigures total;
  for (ThreadFigures& t : r.threads) {
    t.events_per_second = Rate(static_cast<double>(t.events), r.total_time_s);
    t.mean_latency_s = MeanOf(t.exec_time_s, static_cast<double>(t.events));
    events.push_back(static_cast<double>(t.events));
    exec.push_back(t.exec_time_s);
    busy.push_back(t.busy_time_s);
    total.events += t.events;
    total.exec_time_s += t.exec_time_s;
    total.busy_time_s += t.busy_time_s;
  }
  total.events_per_second = Rate(static_cast<double>(total.events), r.total_time_s);
  total.mean_latency_s = MeanOf(total.exec_time_s, static_cast<double>(total.events));
  r.thread_total = total;
  r.fairness = {Fairness(events), Fairness(exec), Fairness(busy), ExtremesOf(events)};
  r.counter_rates = CounterRates(r.counters, r.total_time_s);
  r.latency_whole_ms_pct = r.latency.empty() ? std::array<double, kWholeMsColumns>{}
                                             : WholeMsPercentages(r.latency[0].histogram);

  for (IntervalSnapshot& s : r.intervals) FillDerivedFigures(s);
  if (r.cluster) {
    std::vector<double> rank_events;
    for (RankFigures& k : r.cluster->ranks) {
      k.events_per_second = Rate(static_cast<double>(k.events), k.total_time_s);
      rank_events.push_back(static_cast<double>(k.events));
    }
    r.cluster->events_fairness = Fairness(rank_events);
    r.cluster->events_extremes = ExtremesOf(rank_events);
  }
}

}  // namespace loadcell
