#include "workloads/oltp/oltp_report.h"

#include <fmt/format.h>

#include <cmath>

#include "workloads/oltp/oltp_txn.h"

namespace loadcell {
namespace {

uint64_t Counter(const std::vector<uint64_t>& c, OltpCounter i) {
  const size_t k = static_cast<size_t>(i);
  return k < c.size() ? c[k] : 0;
}

double PerSec(double n, double secs) { return secs > 0 && std::isfinite(secs) ? n / secs : 0; }

// "    label:" padded so that the value starts at column 41 (sysbench).
std::string Line(const std::string& label, const std::string& value) {
  std::string s = label;
  if (s.size() < 41) s.append(41 - s.size(), ' ');
  return s + value + "\n";
}

std::string CountAndRate(uint64_t n, double secs) {
  return fmt::format("{:<6} ({:.2f} per sec.)", n, PerSec(static_cast<double>(n), secs));
}

}  // namespace

std::string OltpTextSection(const RunResult& r) {
  const auto& c = r.counters;
  const double secs = r.total_time_s;
  const uint64_t reads = Counter(c, kOltpReads);
  const uint64_t writes = Counter(c, kOltpWrites);
  const uint64_t others = Counter(c, kOltpOthers);
  const uint64_t queries = reads + writes + others;
  std::string o = "SQL statistics:\n    queries performed:\n";
  o += Line("        read:", fmt::format("{}", reads));
  o += Line("        write:", fmt::format("{}", writes));
  o += Line("        other:", fmt::format("{}", others));
  o += Line("        total:", fmt::format("{}", queries));
  o += Line("    transactions:", CountAndRate(r.events, secs));
  o += Line("    queries:", CountAndRate(queries, secs));
  o += Line("    ignored errors:", CountAndRate(Counter(c, kOltpIgnoredErrors), secs));
  o += Line("    reconnects:", CountAndRate(Counter(c, kOltpReconnects), secs));
  // loadcell's additions, on lines of their own.
  o += "\nClient (loadcell):\n";
  const double cpu_ns = static_cast<double>(Counter(c, kOltpClientCpuNs));
  const double per_trx_ms = r.events > 0 ? cpu_ns / static_cast<double>(r.events) / 1e6 : 0;
  o += Line("    CPU time per transaction:", fmt::format("{:.4f} ms", per_trx_ms));
  o += Line("    CPU time:", fmt::format("{:.4f}s ({:.1f}% of one CPU)", cpu_ns / 1e9,
                                         100 * PerSec(cpu_ns / 1e9, secs)));
  o += Line("    deadlocks:", CountAndRate(Counter(c, kOltpDeadlocks), secs));
  const uint64_t think = Counter(c, kOltpThinkTimeNs);
  if (think > 0) {
    o += Line("    think time:",
              fmt::format("{:.4f}s (not in the latency)", static_cast<double>(think) / 1e9));
  }
  return o;
}

std::string OltpIntervalLine(const IntervalSnapshot& s, double percentile) {
  const auto& c = s.counters;
  const double d = s.duration_s;
  const double reads = static_cast<double>(Counter(c, kOltpReads));
  const double writes = static_cast<double>(Counter(c, kOltpWrites));
  const double others = static_cast<double>(Counter(c, kOltpOthers));
  const double lat_ms =
      s.latency.empty() || percentile <= 0
          ? 0
          : static_cast<double>(s.latency[0].histogram.Percentile(percentile)) / 1e6;
  std::string pct = fmt::format("{}", percentile);
  return fmt::format(
      "thds: {} tps: {:4.2f} qps: {:4.2f} (r/w/o: {:4.2f}/{:4.2f}/{:4.2f}) lat (ms,{}%): {:4.2f} "
      "err/s: {:4.2f} reconn/s: {:4.2f}",
      s.threads, PerSec(static_cast<double>(s.events), d), PerSec(reads + writes + others, d),
      PerSec(reads, d), PerSec(writes, d), PerSec(others, d), pct, lat_ms,
      PerSec(static_cast<double>(Counter(c, kOltpIgnoredErrors)), d),
      PerSec(static_cast<double>(Counter(c, kOltpReconnects)), d));
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
      {"transactions_per_second", "transactions/s", PerSec(events, secs), "tps"},
      {"queries_per_second", "queries/s", PerSec(reads + writes + others, secs), "qps"},
      {"reads_per_second", "reads/s", PerSec(reads, secs), "qps"},
      {"writes_per_second", "writes/s", PerSec(writes, secs), "qps"},
      {"others_per_second", "others/s", PerSec(others, secs), "qps"},
      {"ignored_errors_per_second", "ignored errors/s",
       PerSec(static_cast<double>(Counter(c, kOltpIgnoredErrors)), secs), "1/s"},
      {"reconnects_per_second", "reconnects/s",
       PerSec(static_cast<double>(Counter(c, kOltpReconnects)), secs), "1/s"},
      {"client_cpu_ms_per_transaction", "client CPU time per transaction",
       events > 0 ? cpu_ns / events / 1e6 : 0, "ms"},
      {"client_cpu_percent", "client CPU time, % of one CPU", 100 * PerSec(cpu_ns / 1e9, secs),
       "%"},
      {"think_time_seconds", "think time (not in the latency)",
       static_cast<double>(Counter(c, kOltpThinkTimeNs)) / 1e9, "s"},
  };
}

}  // namespace loadcell
