#include "report/json/json_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <limits>
#include <nlohmann/json.hpp>

#include "os/file_system.h"
#include "report/json/json_walker.h"

namespace loadcell {
namespace {

using json_internal::Json;
using json_internal::ParseJsonDom;
using json_internal::QuotedValue;
using json_internal::TypeName;
using json_internal::Walker;

constexpr std::string_view kSchemaPrefix = "loadcell-result/";

LatencyFigures ReadLatency(Walker& w, const Json& j, const std::string& path) {
  LatencyFigures f;
  if (!j.is_object()) {
    w.Fail(path + ": expected a latency object, found " + TypeName(j));
    return f;
  }
  f.count = w.Uint(j, path, "count");
  f.min = w.Uint(j, path, "min");
  f.max = w.Uint(j, path, "max");
  f.mean = w.Number(j, path, "mean");
  f.stddev = w.Number(j, path, "stddev");
  f.sum = w.Number(j, path, "sum", /*required=*/false);
  if (const Json* p = w.Object(j, path, "percentiles")) {
    for (auto it = p->begin(); it != p->end(); ++it) {
      f.percentiles.emplace_back(it.key(),
                                 w.Uint(it.value(), Walker::Join(path, "percentiles." + it.key())));
    }
  }
  return f;
}

std::vector<std::pair<std::string, LatencyFigures>> ReadLatencyMap(Walker& w, const Json* j,
                                                                   const std::string& path) {
  std::vector<std::pair<std::string, LatencyFigures>> out;
  if (j == nullptr) return out;
  for (auto it = j->begin(); it != j->end(); ++it) {
    out.emplace_back(it.key(), ReadLatency(w, it.value(), path + "." + it.key()));
  }
  return out;
}

std::vector<std::pair<std::string, uint64_t>> ReadCounters(Walker& w, const Json* j,
                                                           const std::string& path) {
  std::vector<std::pair<std::string, uint64_t>> out;
  if (j == nullptr) return out;
  for (auto it = j->begin(); it != j->end(); ++it) {
    out.emplace_back(it.key(), w.Uint(it.value(), path + "." + it.key()));
  }
  return out;
}

// "counters_per_second": null (a rate JsonWriter could not write) is NaN.
std::vector<std::pair<std::string, double>> ReadRates(Walker& w, const Json* j,
                                                      const std::string& path) {
  std::vector<std::pair<std::string, double>> out;
  if (j == nullptr) return out;
  for (auto it = j->begin(); it != j->end(); ++it) {
    out.emplace_back(it.key(), w.Number(it.value(), path + "." + it.key(), /*null_ok=*/true));
  }
  return out;
}

// The manifest's array `key` of {name, value} objects into `out`; none
// when it is absent.
void ReadNamedValues(Walker& w, const Json& m, const std::string& key,
                     std::vector<std::pair<std::string, std::string>>& out) {
  const Json* array = w.Array(m, "manifest", key.c_str(), false);
  if (array == nullptr) return;
  for (size_t i = 0; i < array->size() && w.ok(); ++i) {
    const std::string ip = "manifest." + key + "[" + std::to_string(i) + "]";
    const Json& o = (*array)[i];
    if (!o.is_object()) {
      w.Fail(ip + ": expected an object, found " + TypeName(o));
      break;
    }
    std::string name = w.String(o, ip, "name");
    out.emplace_back(std::move(name), w.String(o, ip, "value"));
  }
}

void ReadManifest(Walker& w, const Json& m, Manifest& out) {
  const std::string p = "manifest";
  out.tool = w.String(m, p, "tool");
  if (w.ok() && out.tool != "loadcell") {
    w.Fail("manifest.tool is " + QuotedValue(*m.find("tool")) + ", expected \"loadcell\"");
  }
  out.tool_version = w.String(m, p, "tool_version");
  out.test = w.String(m, p, "test");
  out.command = w.String(m, p, "command", false);
  out.threads = static_cast<int>(w.Uint(m, p, "threads"));
  out.time_limit_s = w.Number(m, p, "time_limit_s", false);
  out.event_limit = w.Uint(m, p, "event_limit", false);
  out.warmup_s = w.Number(m, p, "warmup_s", false);
  out.rate = w.Number(m, p, "rate", false);
  out.rand_type = w.String(m, p, "rand_type", false);
  out.seed = w.Uint(m, p, "seed", false);
  out.seed_from_time = w.Bool(m, p, "seed_from_time", false);
  if (const Json* opts = w.Array(m, p, "options")) {
    for (size_t i = 0; i < opts->size() && w.ok(); ++i) {
      const std::string ip = "manifest.options[" + std::to_string(i) + "]";
      const Json& o = (*opts)[i];
      if (!o.is_object()) {
        w.Fail(ip + ": expected an object, found " + TypeName(o));
        break;
      }
      ResolvedOption r;
      r.group = w.String(o, ip, "group");
      r.name = w.String(o, ip, "name");
      r.value = w.String(o, ip, "value");
      r.is_default = w.Bool(o, ip, "is_default", false);
      out.options.push_back(std::move(r));
    }
  }
  ReadNamedValues(w, m, "workload", out.workload);
  // "database_settings": a database test's, absent in other results and
  // in those written before it.
  ReadNamedValues(w, m, "database_settings", out.database_settings);
  if (const Json* s = w.Object(m, p, "system", false)) {
    const std::string sp = "manifest.system";
    out.system.cpu_model = w.String(*s, sp, "cpu_model", false);
    out.system.cpus_online = static_cast<int>(w.Uint(*s, sp, "cpus_online", false));
    out.system.memory_bytes = w.Uint(*s, sp, "memory_bytes", false);
    out.system.kernel = w.String(*s, sp, "kernel", false);
    out.system.clock_source = w.String(*s, sp, "clock_source", false);
  }
  // "targets": absent in results written before it.
  if (const Json* t = w.Array(m, p, "targets", false)) {
    out.targets_recorded = true;
    for (size_t i = 0; i < t->size() && w.ok(); ++i) {
      const std::string ip = "manifest.targets[" + std::to_string(i) + "]";
      const Json& o = (*t)[i];
      if (!o.is_object()) {
        w.Fail(ip + ": expected an object, found " + TypeName(o));
        break;
      }
      TargetManifest target;
      target.engine = w.String(o, ip, "engine");
      const std::string caching = w.String(o, ip, "caching");
      if (w.ok() && caching != "direct" && caching != "buffered") {
        w.Fail(ip + ".caching is " + QuotedValue(o["caching"]) +
               ", expected \"direct\" or \"buffered\"");
      }
      target.direct = caching == "direct";
      target.block_bytes = w.Uint(o, ip, "block_bytes", false);
      target.queue_depth_asked = static_cast<uint32_t>(w.Uint(o, ip, "queue_depth_asked", false));
      target.queue_depth = static_cast<uint32_t>(w.Uint(o, ip, "queue_depth", false));
      target.write_pattern = w.String(o, ip, "write_pattern", false);
      target.file_set_bytes = w.Uint(o, ip, "file_set_bytes", false);
      target.file_system = w.String(o, ip, "file_system", false);
      target.mount_options = w.String(o, ip, "mount_options", false);
      out.targets.push_back(std::move(target));
    }
  }
}

void ReadSummary(Walker& w, const Json& s, ResultData& out) {
  const std::string p = "summary";
  out.total_time_s = w.Number(s, p, "total_time_s");
  out.events = w.Uint(s, p, "events");
  out.events_per_second = w.Number(s, p, "events_per_second");
  out.errors = w.Uint(s, p, "errors", false);
  if (const Json* l = w.Member(s, p, "latency_ns", true))
    out.latency = ReadLatency(w, *l, p + ".latency_ns");
  out.latency_by_kind =
      ReadLatencyMap(w, w.Object(s, p, "latency_by_kind_ns", false), p + ".latency_by_kind_ns");
  if (const Json* l = w.Member(s, p, "service_latency_ns", false); l != nullptr && !l->is_null()) {
    out.service_latency = ReadLatency(w, *l, p + ".service_latency_ns");
  }
  out.counters = ReadCounters(w, w.Object(s, p, "counters", false), p + ".counters");
  out.counter_rates =
      ReadRates(w, w.Object(s, p, "counters_per_second", false), p + ".counters_per_second");
  if (const Json* m = w.Object(s, p, "metrics", false)) {
    for (auto it = m->begin(); it != m->end() && w.ok(); ++it) {
      const std::string mp = p + ".metrics." + it.key();
      if (!it.value().is_object()) {
        w.Fail(mp + ": expected an object, found " + TypeName(it.value()));
        break;
      }
      Metric metric;
      metric.key = it.key();
      const Json* v = w.Member(it.value(), mp, "value", true);
      metric.value = v == nullptr ? 0 : w.Number(*v, mp + ".value", /*null_ok=*/true);
      metric.unit = w.String(it.value(), mp, "unit", false);
      metric.label = w.String(it.value(), mp, "label", false);
      out.metrics.push_back(std::move(metric));
    }
  }
}

void ReadIntervals(Walker& w, const Json& a, ResultData& out) {
  for (size_t i = 0; i < a.size() && w.ok(); ++i) {
    const std::string p = "intervals[" + std::to_string(i) + "]";
    const Json& j = a[i];
    if (!j.is_object()) {
      w.Fail(p + ": expected an object, found " + TypeName(j));
      return;
    }
    IntervalFigures f;
    f.t_s = w.Number(j, p, "t");
    f.duration_s = w.Number(j, p, "duration", false);
    f.threads = static_cast<int>(w.Uint(j, p, "threads", false));
    f.events = w.Uint(j, p, "events");
    f.events_per_second = w.Number(j, p, "eps", false);
    f.errors = w.Uint(j, p, "errors", false);
    f.queue = w.Uint(j, p, "queue", false);
    if (const Json* l = w.Member(j, p, "latency_ns", true))
      f.latency = ReadLatency(w, *l, p + ".latency_ns");
    f.latency_by_kind =
        ReadLatencyMap(w, w.Object(j, p, "latency_by_kind_ns", false), p + ".latency_by_kind_ns");
    f.counters = ReadCounters(w, w.Object(j, p, "counters", false), p + ".counters");
    f.counter_rates =
        ReadRates(w, w.Object(j, p, "counters_per_second", false), p + ".counters_per_second");
    out.intervals.push_back(std::move(f));
  }
}

void ReadThreads(Walker& w, const Json& t, ResultData& out) {
  for (size_t i = 0; i < t.size() && w.ok(); ++i) {
    const std::string p = "threads[" + std::to_string(i) + "]";
    if (!t[i].is_object()) {
      w.Fail(p + ": expected an object, found " + TypeName(t[i]));
      break;
    }
    ThreadFigures f;
    f.events = w.Uint(t[i], p, "events");
    f.exec_time_s = w.Number(t[i], p, "exec_time_s", false);
    // Results written before busy_time_s existed: events ran one at a time.
    f.busy_time_s =
        t[i].contains("busy_time_s") ? w.Number(t[i], p, "busy_time_s", false) : f.exec_time_s;
    out.threads.push_back(f);
  }
}

// A fairness object at `path`: mean and stddev, and the extremes when the
// result has them (results written before they were derived have none).
void ReadMeanStd(Walker& w, const Json& e, const std::string& path, MeanStd& out,
                 std::optional<Extremes>& extremes) {
  out.mean = w.Number(e, path, "mean", false);
  out.stddev = w.Number(e, path, "stddev", false);
  if (e.contains("min_from_mean_pct")) {
    Extremes x;
    x.min = w.Number(e, path, "min", false);
    x.max = w.Number(e, path, "max", false);
    x.min_from_mean_pct = w.Number(e, path, "min_from_mean_pct");
    x.max_from_mean_pct = w.Number(e, path, "max_from_mean_pct", false);
    extremes = x;
  }
}

void ReadFairness(Walker& w, const Json& f, ResultData& out) {
  if (const Json* e = w.Object(f, "fairness", "events", false)) {
    ReadMeanStd(w, *e, "fairness.events", out.fairness_events, out.fairness_events_extremes);
  }
}

RankFigures ReadRank(Walker& w, const Json& k, const std::string& p) {
  RankFigures f;
  f.rank = static_cast<int>(w.Uint(k, p, "rank"));
  f.host = w.String(k, p, "host");
  f.threads = static_cast<int>(w.Uint(k, p, "threads"));
  f.first_thread = static_cast<int>(w.Uint(k, p, "first_thread", false));
  f.events = w.Uint(k, p, "events");
  f.errors = w.Uint(k, p, "errors", false);
  f.total_time_s = w.Number(k, p, "total_time_s", false);
  f.events_per_second = w.Number(k, p, "events_per_second", false);
  if (const Json* l = w.Object(k, p, "latency_ns", false)) {
    const std::string lp = p + ".latency_ns";
    f.min_ns = w.Uint(*l, lp, "min", false);
    f.p50_ns = w.Uint(*l, lp, "p50", false);
    f.p95_ns = w.Uint(*l, lp, "p95", false);
    f.p99_ns = w.Uint(*l, lp, "p99", false);
    f.p999_ns = w.Uint(*l, lp, "p99.9", false);
    f.max_ns = w.Uint(*l, lp, "max", false);
    f.mean_ns = w.Number(*l, lp, "mean", false);
  }
  f.clock_offset_s = w.Number(k, p, "clock_offset_s", false);
  f.start_s = w.Number(k, p, "start_s", false);
  f.end_s = w.Number(k, p, "end_s", false);
  if (const Json* e = w.Member(k, p, "failure", false); e != nullptr && !e->is_null()) {
    f.failure = w.String(k, p, "failure");
  }
  return f;
}

CheckLevel ReadCheckLevel(Walker& w, const std::string& text, const std::string& path) {
  for (CheckLevel l :
       {CheckLevel::kPass, CheckLevel::kWarn, CheckLevel::kInvalid, CheckLevel::kNotChecked}) {
    if (text == CheckLevelName(l)) return l;
  }
  w.Fail(path + ": " + QuotedValue(Json(text)) + " is not pass, warn, invalid or not_checked");
  return CheckLevel::kPass;
}

// "validity": absent in results written before it and with --verdict=off.
// The overall word is derived from the checks' levels again.
void ReadValidity(Walker& w, const Json& v, ResultData& out) {
  const std::string p = "validity";
  Validity& val = out.validity;
  val.judged = true;
  val.cost_ms = w.Number(v, p, "cost_ms", false);
  const Json* checks = w.Array(v, p, "checks");
  if (checks == nullptr) return;
  for (size_t i = 0; i < checks->size() && w.ok(); ++i) {
    const std::string cp = p + ".checks[" + std::to_string(i) + "]";
    const Json& c = (*checks)[i];
    if (!c.is_object()) {
      w.Fail(cp + ": expected an object, found " + TypeName(c));
      return;
    }
    CheckOutcome o;
    o.id = w.String(c, cp, "id");
    o.level = ReadCheckLevel(w, w.String(c, cp, "level"), cp + ".level");
    o.seen = w.String(c, cp, "seen", false);
    o.advice = w.String(c, cp, "advice", false);
    if (const Json* f = w.Object(c, cp, "figures", false)) {
      for (auto it = f->begin(); it != f->end(); ++it) {
        o.figures.push_back(
            {it.key(), w.Number(it.value(), Walker::Join(cp, "figures." + it.key()), true)});
      }
    }
    val.checks.push_back(std::move(o));
  }
}

// "cluster": null for a run of one process.
void ReadCluster(Walker& w, const Json& c, ResultData& out) {
  const std::string p = "cluster";
  ClusterFigures f;
  f.max_clock_offset_s = w.Number(c, p, "max_clock_offset_s", false);
  f.max_round_trip_s = w.Number(c, p, "max_round_trip_s", false);
  std::optional<Extremes> extremes;
  if (const Json* e = w.Object(c, p, "events_fairness", false)) {
    ReadMeanStd(w, *e, p + ".events_fairness", f.events_fairness, extremes);
  }
  f.events_extremes = extremes.value_or(Extremes{});
  if (const Json* ranks = w.Array(c, p, "ranks")) {
    for (size_t i = 0; i < ranks->size() && w.ok(); ++i) {
      const std::string kp = p + ".ranks[" + std::to_string(i) + "]";
      if (!(*ranks)[i].is_object()) {
        w.Fail(kp + ": expected an object, found " + TypeName((*ranks)[i]));
        return;
      }
      f.ranks.push_back(ReadRank(w, (*ranks)[i], kp));
    }
  }
  if (const Json* m = w.Array(c, p, "missing_ranks", false)) {
    for (size_t i = 0; i < m->size() && w.ok(); ++i) {
      f.missing_ranks.push_back(
          static_cast<int>(w.Uint((*m)[i], p + ".missing_ranks[" + std::to_string(i) + "]")));
    }
  }
  if (const Json* s = w.Member(c, p, "stonewall", false); s != nullptr && !s->is_null()) {
    const std::string sp = p + ".stonewall";
    StonewallFigures sw;
    sw.first_rank = static_cast<int>(w.Uint(*s, sp, "first_rank"));
    sw.at_s = w.Number(*s, sp, "at_s");
    sw.events = w.Number(*s, sp, "events", false);
    sw.events_per_second = w.Number(*s, sp, "events_per_second", false);
    f.stonewall = sw;
  }
  out.cluster = std::move(f);
}

void ReadHistogram(Walker& w, const Json& h, ResultData& out) {
  const Json* b = w.Array(h, "histogram", "buckets");
  if (b == nullptr) return;
  for (size_t i = 0; i < b->size() && w.ok(); ++i) {
    const std::string p = "histogram.buckets[" + std::to_string(i) + "]";
    const Json& row = (*b)[i];
    if (!row.is_array() || row.size() != 3) {
      w.Fail(p + ": expected [low, high, count], found " + TypeName(row));
      return;
    }
    HistogramRow r;
    r.low = w.Uint(row[0], p + "[0]");
    r.high = w.Uint(row[1], p + "[1]");
    r.count = w.Uint(row[2], p + "[2]");
    out.histogram.push_back(r);
  }
}

// The value named `name` in `named`, or nullopt.
template <typename V>
std::optional<V> FindNamed(const std::vector<std::pair<std::string, V>>& named,
                           std::string_view name) {
  for (const auto& [n, v] : named) {
    if (n == name) return v;
  }
  return std::nullopt;
}

// The members of one run's document (the top level, or a part of a run of
// several jobs) into `out`.
void ReadRun(Walker& w, const Json& root, ResultData& out) {
  if (const Json* m = w.Object(root, "", "manifest")) ReadManifest(w, *m, out.manifest);
  if (const Json* s = w.Object(root, "", "summary")) ReadSummary(w, *s, out);
  if (const Json* t = w.Array(root, "", "threads", false)) ReadThreads(w, *t, out);
  if (const Json* f = w.Object(root, "", "fairness", false)) ReadFairness(w, *f, out);
  if (const Json* iv = w.Array(root, "", "intervals", false)) ReadIntervals(w, *iv, out);
  if (const Json* h = w.Object(root, "", "histogram", false)) ReadHistogram(w, *h, out);
  if (const Json* c = w.Member(root, "", "cluster", false); c != nullptr && !c->is_null()) {
    if (const Json* obj = w.Object(root, "", "cluster")) ReadCluster(w, *obj, out);
  }
  out.interrupted = w.Bool(root, "", "interrupted", false);
  out.forced_shutdown = w.Bool(root, "", "forced_shutdown", false);
  out.paused_s = w.Number(root, "", "paused_s", false);
  out.pauses = static_cast<int>(w.Uint(root, "", "pauses", false));
  if (const Json* f = w.Member(root, "", "failure", false); f != nullptr && !f->is_null()) {
    if (f->is_object()) {
      out.failure = w.String(*f, "failure", "message", false);
      if (out.failure.empty()) out.failure = "failed";
    } else {
      w.Fail("failure: expected an object or null, found " + TypeName(*f));
    }
  }
  if (const Json* v = w.Object(root, "", "validity", false)) ReadValidity(w, *v, out);
}

// dbsim's own members (`users`, `files`) beside the schema's, read as far
// as they hold what a row shows: a member missing or of another type reads
// as 0 (they are figures to show, not the schema's).
uint64_t DbsimUint(const Json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number_unsigned() ? it->get<uint64_t>() : 0;
}

double DbsimDouble(const Json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : 0;
}

const Json& DbsimObject(const Json& j, const char* key) {
  static const Json kEmpty = Json::object();
  const auto it = j.find(key);
  return it != j.end() && it->is_object() ? *it : kEmpty;
}

uint64_t DbsimFailed(const Json& row) {
  uint64_t failed = 0;
  for (const auto& [kind, n] : DbsimObject(row, "failed_pages").items()) {
    if (n.is_number_unsigned()) failed += n.get<uint64_t>();
  }
  return failed;
}

std::vector<DbsimRowFigures> ReadDbsimRows(const Json& root, const char* key, bool users) {
  std::vector<DbsimRowFigures> rows;
  const auto it = root.find(key);
  if (it == root.end() || !it->is_array()) return rows;
  for (const Json& j : *it) {
    if (!j.is_object()) continue;
    DbsimRowFigures r;
    const auto name = j.find("name");
    if (name != j.end() && name->is_string()) r.name = name->get<std::string>();
    r.bytes_read = DbsimUint(j, "bytes_read");
    r.bytes_written = DbsimUint(j, "bytes_written");
    r.iops = DbsimDouble(j, "iops");
    r.failed_pages = DbsimFailed(j);
    if (users) {
      const Json& io = DbsimObject(j, "io");
      r.reads = DbsimUint(DbsimObject(io, "read"), "count");
      r.scatter_reads = DbsimUint(DbsimObject(io, "scatter_read"), "count");
      r.writes = DbsimUint(DbsimObject(io, "write"), "count");
      r.gather_writes = DbsimUint(DbsimObject(io, "gather_write"), "count");
      r.log_writes = DbsimUint(DbsimObject(io, "log_write"), "count");
      r.flushes = DbsimUint(DbsimObject(io, "flush"), "count");
      static constexpr std::pair<const char*, const char*> kKinds[] = {
          {"read", "reads"},           {"scatter_read", "scatter reads"},
          {"write", "writes"},         {"gather_write", "gather writes"},
          {"log_write", "log writes"}, {"flush", "flushes"},
          {"grow", "grows"},           {"shrink", "shrinks"}};
      for (const auto& [key, words] : kKinds) {
        const Json& figures = DbsimObject(io, key);
        const uint64_t count = DbsimUint(figures, "count");
        if (count == 0) continue;
        r.kinds.push_back({words, count, DbsimUint(figures, "p50_ns"), DbsimUint(figures, "p99_ns"),
                           DbsimUint(figures, "max_ns")});
      }
      for (const auto& [kind, figures] : io.items()) {
        if (figures.is_object()) r.max_ns = std::max(r.max_ns, DbsimUint(figures, "max_ns"));
      }
      r.throttled_ns = DbsimUint(j, "throttled_ns");
    } else {
      r.reads = DbsimUint(j, "reads");
      r.throttled_ns = DbsimUint(j, "throttled_ns");
      r.scatter_reads = DbsimUint(j, "scatter_reads");
      r.writes = DbsimUint(j, "writes");
      r.gather_writes = DbsimUint(j, "gather_writes");
      r.flushes = DbsimUint(j, "flushes");
      const Json& io = DbsimObject(j, "io");
      r.p50_ns = DbsimUint(io, "p50_ns");
      r.p99_ns = DbsimUint(io, "p99_ns");
      r.max_ns = DbsimUint(io, "max_ns");
    }
    rows.push_back(std::move(r));
  }
  return rows;
}

// A run of several jobs: the parts' own documents in `key` ("jobs",
// "groups"), each with its `job` object; none when the member is absent (a
// run of one workload).
void ReadParts(Walker& w, const Json& root, const char* key, std::vector<ResultData>& out,
               const std::string& source) {
  const Json* parts = w.Array(root, "", key, false);
  if (parts == nullptr) return;
  for (size_t i = 0; i < parts->size() && w.ok(); ++i) {
    const std::string path = fmt::format("{}[{}]", key, i);
    const Json& p = (*parts)[i];
    if (!p.is_object()) {
      w.Fail(path + ": expected an object, found " + TypeName(p));
      return;
    }
    Walker pw;
    ResultData part;
    part.source = source;
    part.source += " " + path;
    ReadRun(pw, p, part);
    if (const Json* job = pw.Object(p, "", "job")) {
      part.job_name = pw.String(*job, "job", "name");
      part.job_group = static_cast<int>(pw.Uint(*job, "job", "group"));
      if (pw.Member(*job, "job", "instances", false) != nullptr) {
        part.job_instances = static_cast<int>(pw.Uint(*job, "job", "instances"));
      }
    }
    if (!pw.ok()) w.Fail(path + "." + pw.error());
    out.push_back(std::move(part));
  }
}

}  // namespace

std::optional<uint64_t> LatencyFigures::Percentile(std::string_view name) const {
  return FindNamed(percentiles, name);
}

std::optional<double> IntervalFigures::CounterRate(std::string_view name) const {
  return FindNamed(counter_rates, name);
}

std::optional<uint64_t> ResultData::Counter(std::string_view name) const {
  return FindNamed(counters, name);
}

std::optional<double> ResultData::CounterRate(std::string_view name) const {
  return FindNamed(counter_rates, name);
}

std::optional<std::string> ResultData::Option(std::string_view name) const {
  for (const ResolvedOption& o : manifest.options) {
    if (o.name == name) return o.value;
  }
  return std::nullopt;
}

Result<ResultData> ParseResultJson(std::string_view text, const std::string& source) {
  const std::string prefix = source + ": not a loadcell result: ";
  Json root;
  if (const std::string problem = ParseJsonDom(text, root); !problem.empty()) {
    return Status::InvalidArgument(prefix + problem);
  }
  if (!root.is_object()) {
    return Status::InvalidArgument(prefix + "the document is " + TypeName(root) +
                                   ", expected an object with \"schema\": \"" +
                                   std::string(kResultSchema) + "\"");
  }
  auto schema = root.find("schema");
  if (schema == root.end()) {
    return Status::InvalidArgument(prefix + "no 'schema' field at the top level (expected \"" +
                                   std::string(kResultSchema) + "\")");
  }
  if (!schema->is_string() || schema->get<std::string>().rfind(kSchemaPrefix, 0) != 0) {
    return Status::InvalidArgument(prefix + "'schema' is " + QuotedValue(*schema) +
                                   ", expected \"" + std::string(kResultSchema) + "\"");
  }
  if (schema->get<std::string>() != kResultSchema) {
    return Status::InvalidArgument(source + ": schema " + QuotedValue(*schema) +
                                   " is not supported by this version (it reads \"" +
                                   std::string(kResultSchema) + "\")");
  }

  Walker w;
  ResultData out;
  out.source = source;
  ReadRun(w, root, out);
  ReadParts(w, root, "jobs", out.jobs, source);
  ReadParts(w, root, "groups", out.groups, source);
  if (out.manifest.test == "dbsim") {
    out.dbsim_users = ReadDbsimRows(root, "users", true);
    out.dbsim_files = ReadDbsimRows(root, "files", false);
  }
  if (!w.ok()) return Status::InvalidArgument(prefix + w.error());
  return out;
}

Result<ResultData> ReadResultFile(const std::string& path) {
  Result<std::string> text = ReadFileToString(DefaultFileSystem(), path);
  if (!text.ok()) return ReadFailureAsUsageError(path, text.status());
  return ParseResultJson(*text, path);
}

}  // namespace loadcell
