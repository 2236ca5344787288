#include "workloads/oltp/oltp_report.h"

#include <fmt/format.h>

#include "stats/summary.h"
#include "workloads/oltp/oltp_txn.h"

namespace loadcell {
namespace {

uint64_t Counter(const std::vector<uint64_t>& c, OltpCounter i) {
  const size_t k = static_cast<size_t>(i);
  return k < c.size() ? c[k] : 0;
}

// The derived rate of counter `i` (FillDerivedFigures), 0 when absent.
double RateOf(const std::vector<double>& rates, OltpCounter i) {
  const size_t k = static_cast<size_t>(i);
  return k < rates.size() ? rates[k] : 0;
}

// "    label:" padded so that the value starts at column 41 (sysbench).
std::string Line(const std::string& label, const std::string& value) {
  std::string s = label;
  if (s.size() < 41) s.append(41 - s.size(), ' ');
  return s + value + "\n";
}

std::string CountAndRate(uint64_t n, double per_second) {
  return fmt::format("{:<6} ({:.2f} per sec.)", n, per_second);
}

}  // namespace

std::string OltpSysbenchSection(const RunResult& r) {
  const auto& c = r.counters;
  const std::vector<double>& rate = r.counter_rates;
  const uint64_t reads = Counter(c, kOltpReads);
  const uint64_t writes = Counter(c, kOltpWrites);
  const uint64_t others = Counter(c, kOltpOthers);
  const uint64_t queries = reads + writes + others;
  std::string o = "SQL statistics:\n    queries performed:\n";
  o += Line("        read:", fmt::format("{}", reads));
  o += Line("        write:", fmt::format("{}", writes));
  o += Line("        other:", fmt::format("{}", others));
  o += Line("        total:", fmt::format("{}", queries));
  o += Line("    transactions:", CountAndRate(r.events, r.events_per_second));
  o += Line("    queries:", CountAndRate(queries, MetricValue(r.metrics, "queries_per_second")));
  o += Line("    ignored errors:",
            CountAndRate(Counter(c, kOltpIgnoredErrors), RateOf(rate, kOltpIgnoredErrors)));
  o += Line("    reconnects:",
            CountAndRate(Counter(c, kOltpReconnects), RateOf(rate, kOltpReconnects)));
  return o;
}

std::string OltpTextSection(const RunResult& r) {
  const auto& c = r.counters;
  const std::vector<double>& rate = r.counter_rates;
  std::string o = OltpSysbenchSection(r);
  // loadcell's additions, on lines of their own.
  o += "\nClient (loadcell):\n";
  o += Line("    CPU time per transaction:",
            fmt::format("{:.4f} ms", MetricValue(r.metrics, "client_cpu_ms_per_transaction")));
  o += Line("    CPU time:", fmt::format("{:.4f}s ({:.1f}% of one CPU)",
                                         static_cast<double>(Counter(c, kOltpClientCpuNs)) / 1e9,
                                         MetricValue(r.metrics, "client_cpu_percent")));
  o += Line("    deadlocks:",
            CountAndRate(Counter(c, kOltpDeadlocks), RateOf(rate, kOltpDeadlocks)));
  o += Line("    lock wait timeouts:",
            CountAndRate(Counter(c, kOltpLockWaits), RateOf(rate, kOltpLockWaits)));
  const uint64_t think = Counter(c, kOltpThinkTimeNs);
  if (think > 0) {
    o += Line("    think time:",
              fmt::format("{:.4f}s (not in the latency)", static_cast<double>(think) / 1e9));
  }
  return o;
}

std::string OltpIntervalLine(const IntervalSnapshot& s, double percentile) {
  const std::vector<double>& rate = s.counter_rates;
  const double reads = RateOf(rate, kOltpReads);
  const double writes = RateOf(rate, kOltpWrites);
  const double others = RateOf(rate, kOltpOthers);
  const double lat_ms =
      s.latency.empty() || percentile <= 0
          ? 0
          : static_cast<double>(s.latency[0].histogram.Percentile(percentile)) / 1e6;
  std::string pct = fmt::format("{}", percentile);
  return fmt::format(
      "thds: {} tps: {:4.2f} qps: {:4.2f} (r/w/o: {:4.2f}/{:4.2f}/{:4.2f}) lat (ms,{}%): {:4.2f} "
      "err/s: {:4.2f} reconn/s: {:4.2f}",
      s.threads, s.events_per_second, reads + writes + others, reads, writes, others, pct, lat_ms,
      RateOf(rate, kOltpIgnoredErrors), RateOf(rate, kOltpReconnects));
}

WorkloadFacts OltpFacts(const RunResult& r, const std::string& driver, bool reconnects_asked) {
  const auto& c = r.counters;
  WorkloadFacts f;
  // The option that lets errors pass, where the driver has one (SQLite's
  // are ignored only by a script's sysbench.hooks.sql_error_ignorable).
  const std::string ignore =
      driver == "pgsql" || driver == "mysql" ? "--" + driver + "-ignore-errors" : "";
  f.incidents.push_back({"ignored_errors", Counter(c, kOltpIgnoredErrors), ignore});
  f.incidents.push_back({"deadlocks", Counter(c, kOltpDeadlocks), ignore});
  if (!reconnects_asked) {
    f.incidents.push_back({"reconnects", Counter(c, kOltpReconnects), "--reconnect-timeout"});
  }
  return f;
}

void AddDataSetFacts(WorkloadFacts& f, const DatabaseFacts& data_set, const RunResult& r) {
  f.has_database = true;
  f.database = data_set;
  f.database.transactions = r.events;
  f.database.rollbacks = Counter(r.counters, kOltpIgnoredErrors);
  f.database.deadlocks = Counter(r.counters, kOltpDeadlocks);
  f.database.lock_waits = Counter(r.counters, kOltpLockWaits);
}

std::vector<Metric> OltpMetrics(const RunResult& r) {
  const auto& c = r.counters;
  const double secs = r.total_time_s;
  const double reads = static_cast<double>(Counter(c, kOltpReads));
  const double writes = static_cast<double>(Counter(c, kOltpWrites));
  const double others = static_cast<double>(Counter(c, kOltpOthers));
  const double events = static_cast<double>(r.events);
  const double cpu_ns = static_cast<double>(Counter(c, kOltpClientCpuNs));
  return {
      {"transactions_per_second", "transactions/s", Rate(events, secs), "tps"},
      {"queries_per_second", "queries/s", Rate(reads + writes + others, secs), "qps"},
      {"reads_per_second", "reads/s", Rate(reads, secs), "qps"},
      {"writes_per_second", "writes/s", Rate(writes, secs), "qps"},
      {"others_per_second", "others/s", Rate(others, secs), "qps"},
      {"ignored_errors_per_second", "ignored errors/s",
       Rate(static_cast<double>(Counter(c, kOltpIgnoredErrors)), secs), "1/s"},
      {"reconnects_per_second", "reconnects/s",
       Rate(static_cast<double>(Counter(c, kOltpReconnects)), secs), "1/s"},
      {"client_cpu_ms_per_transaction", "client CPU time per transaction",
       events > 0 ? cpu_ns / events / 1e6 : 0, "ms"},
      {"client_cpu_percent", "client CPU time, % of one CPU", 100 * Rate(cpu_ns / 1e9, secs), "%"},
      {"think_time_seconds", "think time (not in the latency)",
       static_cast<double>(Counter(c, kOltpThinkTimeNs)) / 1e9, "s"},
  };
}

}  // namespace loadcell
