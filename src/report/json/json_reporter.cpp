// The JSON reporter: one document written at OnEnd with everything the run
// recorded. The schema ("loadcell-result/1") is documented field by field in
// docs/json-schema.md; keep the two in step.

#include <functional>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/version.h"
#include "report/format.h"
#include "report/json/json_reader.h"
#include "report/json/json_writer.h"
#include "report/json/validity_json.h"
#include "report/reporter.h"

namespace loadcell {
namespace {

using report_internal::CounterName;
using report_internal::Finite;
using report_internal::MeanNs;
using report_internal::PercentileText;
using report_internal::ReportedPercentiles;
using report_internal::StdDevNs;

// An array of {name, value} objects.
void WriteNamedValues(JsonWriter& w,
                      const std::vector<std::pair<std::string, std::string>>& pairs) {
  w.BeginArray();
  for (const auto& [name, value] : pairs) {
    w.BeginObject();
    w.Key("name").String(name);
    w.Key("value").String(value);
    w.EndObject();
  }
  w.EndArray();
}

void WriteManifest(JsonWriter& w, const Manifest& m) {
  w.BeginObject();
  w.Key("tool").String(m.tool);
  w.Key("tool_version").String(m.tool_version.empty() ? kVersion : m.tool_version);
  w.Key("test").String(m.test);
  w.Key("command").String(m.command);
  w.Key("threads").Int(m.threads);
  w.Key("time_limit_s").Double(m.time_limit_s);
  w.Key("event_limit").Uint(m.event_limit);
  w.Key("warmup_s").Double(m.warmup_s);
  w.Key("rate").Double(m.rate);
  w.Key("rand_type").String(m.rand_type);
  w.Key("seed").Uint(m.seed);
  w.Key("seed_from_time").Bool(m.seed_from_time);
  w.Key("options");
  w.BeginArray();
  for (const ResolvedOption& o : m.options) {
    w.BeginObject();
    w.Key("group").String(o.group);
    w.Key("name").String(o.name);
    w.Key("value").String(o.value);
    w.Key("is_default").Bool(o.is_default);
    w.EndObject();
  }
  w.EndArray();
  w.Key("workload");
  WriteNamedValues(w, m.workload);
  w.Key("system");
  w.BeginObject();
  w.Key("cpu_model").String(m.system.cpu_model);
  w.Key("cpus_online").Int(m.system.cpus_online);
  w.Key("memory_bytes").Uint(m.system.memory_bytes);
  w.Key("kernel").String(m.system.kernel);
  w.Key("clock_source").String(m.system.clock_source);
  w.EndObject();
  w.Key("targets");
  w.BeginArray();
  for (const TargetManifest& t : m.targets) {
    w.BeginObject();
    w.Key("engine").String(t.engine);
    w.Key("caching").String(t.direct ? "direct" : "buffered");
    w.Key("block_bytes").Uint(t.block_bytes);
    w.Key("queue_depth_asked").Uint(t.queue_depth_asked);
    w.Key("queue_depth").Uint(t.queue_depth);
    w.Key("write_pattern").String(t.write_pattern);
    w.Key("file_set_bytes").Uint(t.file_set_bytes);
    w.Key("file_system").String(t.file_system);
    w.Key("mount_options").String(t.mount_options);
    w.EndObject();
  }
  w.EndArray();
  // Only a database test that read them has the server's settings.
  if (!m.database_settings.empty()) {
    w.Key("database_settings");
    WriteNamedValues(w, m.database_settings);
  }
  w.EndObject();
}

// {count, min, max, mean, stddev, sum, percentiles}; all in nanoseconds.
void WriteLatency(JsonWriter& w, const LatencyHistogram& h, double chosen) {
  w.BeginObject();
  w.Key("count").Uint(h.Count());
  w.Key("min").Uint(h.Min());
  w.Key("max").Uint(h.Count() == 0 ? 0 : h.Max());
  w.Key("mean").Double(MeanNs(h));
  w.Key("stddev").Double(StdDevNs(h));
  w.Key("sum").Double(h.Count() == 0 ? 0 : Finite(h.moments().sum));
  w.Key("percentiles");
  w.BeginObject();
  for (double p : ReportedPercentiles(chosen, /*with_extreme=*/true)) {
    w.Key(PercentileText(p)).Uint(h.Percentile(p));
  }
  w.EndObject();
  w.EndObject();
}

void WriteCounters(JsonWriter& w, const std::vector<std::string>& names,
                   const std::vector<uint64_t>& values) {
  w.BeginObject();
  for (size_t i = 0; i < values.size(); ++i) {
    w.Key(CounterName(names, i)).Uint(values[i]);
  }
  w.EndObject();
}

// "counters" and "counters_per_second" (the derived rates, as many as there
// are: a result whose figures were not derived has none).
void WriteCounterBlock(JsonWriter& w, const std::vector<std::string>& names,
                       const std::vector<uint64_t>& values, const std::vector<double>& rates) {
  w.Key("counters");
  WriteCounters(w, names, values);
  w.Key("counters_per_second");
  w.BeginObject();
  for (size_t i = 0; i < values.size() && i < rates.size(); ++i) {
    w.Key(CounterName(names, i)).Double(Finite(rates[i]));
  }
  w.EndObject();
}

// "latency_ns" (all events: latency[0]) and "latency_by_kind_ns" (the rest).
void WriteLatencyBlock(JsonWriter& w, const std::vector<LatencyStats>& latency, double chosen) {
  static const LatencyHistogram kEmpty;
  w.Key("latency_ns");
  WriteLatency(w, latency.empty() ? kEmpty : latency[0].histogram, chosen);
  w.Key("latency_by_kind_ns");
  w.BeginObject();
  for (size_t k = 1; k < latency.size(); ++k) {
    w.Key(latency[k].kind);
    WriteLatency(w, latency[k].histogram, chosen);
  }
  w.EndObject();
}

void WriteMeanStd(JsonWriter& w, const MeanStd& f, const Extremes* e = nullptr) {
  w.BeginObject();
  w.Key("mean").Double(Finite(f.mean));
  w.Key("stddev").Double(Finite(f.stddev));
  if (e != nullptr) {
    w.Key("min").Double(Finite(e->min));
    w.Key("max").Double(Finite(e->max));
    w.Key("min_from_mean_pct").Double(Finite(e->min_from_mean_pct));
    w.Key("max_from_mean_pct").Double(Finite(e->max_from_mean_pct));
  }
  w.EndObject();
}

class JsonReporter final : public Reporter {
 public:
  JsonReporter(std::ostream& out, const Workload& w, const ReportSettings& s,
               std::function<void(JsonWriter&)> extra)
      : out_(out), workload_(w), settings_(s), extra_(std::move(extra)) {}

  void OnInterval(const IntervalSnapshot& s) override { intervals_.push_back(s); }
  void OnCheckpoint(const RunResult& r) override { checkpoints_.push_back(r); }

  void OnEnd(const RunResult& r) override {
    JsonWriter w(out_);
    WriteDocument(w, r);
    out_.flush();
  }

  // The run's document as the next value of `w`.
  void WriteDocument(JsonWriter& w, const RunResult& r) const {
    w.BeginObject();
    w.Key("schema").String(kResultSchema);
    w.Key("manifest");
    WriteManifest(w, r.manifest);
    WriteRunFigures(w, r);
    w.Key("cluster");
    WriteCluster(w, r);
    w.Key("intervals");
    WriteIntervals(w, r.intervals.empty() ? intervals_ : r.intervals, r.counter_names);
    w.Key("histogram");
    WriteHistogram(w, r);
    w.Key("checkpoints");
    w.BeginArray();
    for (const RunResult& c : checkpoints_) {
      w.BeginObject();
      WriteRunFigures(w, c);
      w.EndObject();
    }
    w.EndArray();
    w.Key("interrupted").Bool(r.interrupted);
    w.Key("forced_shutdown").Bool(r.forced_shutdown);
    w.Key("paused_s").Double(r.paused_s);
    w.Key("pauses").Int(r.pauses);
    if (r.forced_shutdown) {
      w.Key("abandoned_threads");
      w.BeginArray();
      for (int t : r.abandoned_threads) w.Int(t);
      w.EndArray();
    }
    w.Key("failure");
    if (r.failure.ok()) {
      w.Null();
    } else {
      w.BeginObject();
      w.Key("code").String(StatusCodeName(r.failure.code()));
      w.Key("errno").Int(r.failure.err());
      w.Key("message").String(r.failure.ToString());
      w.EndObject();
    }
    if (r.validity.judged) {
      w.Key("validity");
      WriteValidityJson(w, r.validity);
    }
    if (extra_) extra_(w);
    w.EndObject();
  }

 private:
  // "summary", "threads" and "fairness": of the run, and of each checkpoint.
  void WriteRunFigures(JsonWriter& w, const RunResult& r) const {
    w.Key("summary");
    WriteSummary(w, r);
    w.Key("threads");
    WriteThreads(w, r);
    w.Key("fairness");
    WriteFairness(w, r);
  }

  void WriteSummary(JsonWriter& w, const RunResult& r) const {
    w.BeginObject();
    w.Key("total_time_s").Double(Finite(r.total_time_s));
    w.Key("events").Uint(r.events);
    w.Key("events_per_second").Double(Finite(r.events_per_second));
    w.Key("errors").Uint(r.errors);
    w.Key("errors_per_second").Double(Finite(r.errors_per_second));
    WriteLatencyBlock(w, r.latency, settings_.percentile);
    w.Key("service_latency_ns");
    if (r.service.has_value()) {
      WriteLatency(w, r.service->histogram, settings_.percentile);
    } else {
      w.Null();
    }
    w.Key("rate");
    if (r.rate.has_value()) {
      w.BeginObject();
      w.Key("target").Double(r.rate->target);
      w.Key("achieved").Double(r.rate->achieved);
      w.Key("late_events").Uint(r.rate->late_events);
      w.Key("max_lag_ms").Double(r.rate->max_lag_ms);
      w.Key("final_lag_ms").Double(r.rate->final_lag_ms);
      w.EndObject();
    } else {
      w.Null();
    }
    WriteCounterBlock(w, r.counter_names, r.counters, r.counter_rates);
    w.Key("metrics");
    w.BeginObject();
    for (const Metric& m : r.metrics) {
      w.Key(m.key);
      w.BeginObject();
      w.Key("value").Double(m.value);
      w.Key("unit").String(m.unit);
      w.Key("label").String(m.label);
      w.EndObject();
    }
    w.EndObject();
    w.EndObject();
  }

  static void WriteThreads(JsonWriter& w, const RunResult& r) {
    w.BeginArray();
    for (const ThreadFigures& t : r.threads) {
      w.BeginObject();
      w.Key("events").Uint(t.events);
      w.Key("exec_time_s").Double(t.exec_time_s);
      w.Key("busy_time_s").Double(t.busy_time_s);
      w.EndObject();
    }
    w.EndArray();
  }

  static void WriteFairness(JsonWriter& w, const RunResult& r) {
    w.BeginObject();
    w.Key("events");
    WriteMeanStd(w, r.fairness.events, &r.fairness.events_extremes);
    w.Key("exec_time_s");
    WriteMeanStd(w, r.fairness.exec_time_s);
    w.Key("busy_time_s");
    WriteMeanStd(w, r.fairness.busy_time_s);
    w.EndObject();
  }

  // null for a run of one process; else the ranks, one object each.
  static void WriteCluster(JsonWriter& w, const RunResult& r) {
    if (!r.cluster) {
      w.Null();
      return;
    }
    const ClusterFigures& c = *r.cluster;
    w.BeginObject();
    w.Key("max_clock_offset_s");
    w.Double(Finite(c.max_clock_offset_s));
    w.Key("max_round_trip_s");
    w.Double(Finite(c.max_round_trip_s));
    w.Key("events_fairness");
    WriteMeanStd(w, c.events_fairness, &c.events_extremes);
    w.Key("ranks");
    w.BeginArray();
    for (const RankFigures& k : c.ranks) {
      w.BeginObject();
      w.Key("rank");
      w.Int(k.rank);
      w.Key("host");
      w.String(k.host);
      w.Key("threads");
      w.Int(k.threads);
      w.Key("first_thread");
      w.Int(k.first_thread);
      w.Key("events");
      w.Uint(k.events);
      w.Key("errors");
      w.Uint(k.errors);
      w.Key("total_time_s");
      w.Double(Finite(k.total_time_s));
      w.Key("events_per_second");
      w.Double(Finite(k.events_per_second));
      w.Key("latency_ns");
      w.BeginObject();
      for (const auto& [key, v] : {std::pair<const char*, uint64_t>{"min", k.min_ns},
                                   {"p50", k.p50_ns},
                                   {"p95", k.p95_ns},
                                   {"p99", k.p99_ns},
                                   {"p99.9", k.p999_ns},
                                   {"max", k.max_ns}}) {
        w.Key(key);
        w.Uint(v);
      }
      w.Key("mean");
      w.Double(Finite(k.mean_ns));
      w.EndObject();
      w.Key("clock_offset_s");
      w.Double(Finite(k.clock_offset_s));
      w.Key("start_s");
      w.Double(Finite(k.start_s));
      w.Key("end_s");
      w.Double(Finite(k.end_s));
      w.Key("failure");
      if (k.failure.empty()) {
        w.Null();
      } else {
        w.String(k.failure);
      }
      w.EndObject();
    }
    w.EndArray();
    w.Key("missing_ranks");
    w.BeginArray();
    for (int m : c.missing_ranks) w.Int(m);
    w.EndArray();
    w.Key("stonewall");
    WriteStonewall(w, c.stonewall);
    w.EndObject();
  }

  // null without --stonewall=on (or when no rank ended on its own).
  static void WriteStonewall(JsonWriter& w, const std::optional<StonewallFigures>& sw) {
    if (!sw) {
      w.Null();
      return;
    }
    w.BeginObject();
    w.Key("first_rank");
    w.Int(sw->first_rank);
    w.Key("at_s");
    w.Double(Finite(sw->at_s));
    w.Key("events");
    w.Double(Finite(sw->events));
    w.Key("events_per_second");
    w.Double(Finite(sw->events_per_second));
    w.EndObject();
  }

  void WriteIntervals(JsonWriter& w, const std::vector<IntervalSnapshot>& intervals,
                      const std::vector<std::string>& result_names) const {
    const std::vector<std::string> names =
        result_names.empty() ? workload_.Info().counter_names : result_names;
    w.BeginArray();
    for (const IntervalSnapshot& s : intervals) {
      w.BeginObject();
      w.Key("t").Double(s.t_end_s);
      w.Key("duration").Double(s.duration_s);
      w.Key("threads").Int(s.threads);
      w.Key("events").Uint(s.events);
      w.Key("eps").Double(Finite(s.events_per_second));
      w.Key("errors").Uint(s.errors);
      w.Key("queue").Uint(s.queue);
      w.Key("concurrency").Uint(s.concurrency);
      WriteLatencyBlock(w, s.latency, settings_.percentile);
      WriteCounterBlock(w, names, s.counters, s.counter_rates);
      w.EndObject();
    }
    w.EndArray();
  }

  static void WriteHistogram(JsonWriter& w, const RunResult& r) {
    w.BeginObject();
    w.Key("unit").String("ns");
    w.Key("buckets");
    w.BeginArray();
    if (!r.latency.empty()) {
      const std::vector<uint64_t>& b = r.latency[0].histogram.buckets();
      for (size_t i = 0; i < b.size(); ++i) {
        if (b[i] == 0) continue;
        w.BeginInlineArray();
        w.Uint(HistogramBucketLow(i));
        w.Uint(HistogramBucketHigh(i));
        w.Uint(b[i]);
        w.EndInlineArray();
      }
    }
    w.EndArray();
    w.EndObject();
  }

  std::ostream& out_;
  const Workload& workload_;
  ReportSettings settings_;
  std::function<void(JsonWriter&)> extra_;  // may be empty
  std::vector<IntervalSnapshot> intervals_;
  std::vector<RunResult> checkpoints_;
};

// One part's document: the run's, with its `job` object (name, group,
// instances).
void WriteJobPart(JsonWriter& w, const JobPart& part, const Workload& workload,
                  const ReportSettings& s) {
  std::ostringstream unused;
  JsonReporter(unused, workload, s, [&part](JsonWriter& jw) {
    jw.Key("job").BeginObject();
    jw.Key("name").String(part.name);
    jw.Key("group").Int(part.group);
    jw.Key("instances").Int(part.instances);
    jw.EndObject();
  }).WriteDocument(w, *part.result);
}

}  // namespace

void WriteJobsDocument(std::ostream& out, const RunResult& total, const std::vector<JobPart>& jobs,
                       const std::vector<JobPart>& groups, const Workload& workload,
                       const ReportSettings& s) {
  JsonWriter w(out);
  std::ostringstream unused;
  JsonReporter(unused, workload, s, [&](JsonWriter& jw) {
    for (const auto& [key, parts] : {std::pair{"jobs", &jobs}, std::pair{"groups", &groups}}) {
      jw.Key(key).BeginArray();
      for (const JobPart& part : *parts) WriteJobPart(jw, part, workload, s);
      jw.EndArray();
    }
  }).WriteDocument(w, total);
  out.flush();
}

std::unique_ptr<Reporter> MakeJsonReporter(std::ostream& out, const Workload& w,
                                           const ReportSettings& s) {
  return std::make_unique<JsonReporter>(out, w, s, nullptr);
}

std::unique_ptr<Reporter> MakeJsonReporter(std::ostream& out, const Workload& w,
                                           const ReportSettings& s,
                                           std::function<void(JsonWriter&)> extra) {
  return std::make_unique<JsonReporter>(out, w, s, std::move(extra));
}

}  // namespace loadcell
