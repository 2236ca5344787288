#include "report/sqlio_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/plural.h"
#include "report/format.h"

namespace loadcell {
namespace {

const LatencyHistogram* Kind(const RunResult& r, const std::string& kind) {
  for (const LatencyStats& l : r.latency) {
    if (l.kind == kind) return &l.histogram;
  }
  return nullptr;
}

std::string Ms(const LatencyHistogram* h, double p) {
  if (h == nullptr || h->Count() == 0) return "N/A";
  uint64_t ns = p <= 0 ? h->Min() : p >= 100 ? h->Max() : h->Percentile(p);
  return report_internal::TableMs(static_cast<double>(ns));
}

std::string Rule(size_t n) { return std::string(n, '-') + "\n"; }

}  // namespace

std::string FormatSqlioHeader(const SqlioHeaderInfo& h) {
  std::string o = fmt::format("sqlio v1.5 compatible (loadcell {})\n", h.version);
  if (h.latency != 0) {
    o +=
        fmt::format("using {} for latency timings: CLOCK_MONOTONIC, 1000000000 counts per second\n",
                    h.latency == 'P' ? "the processor counter (-LP)" : "the system counter (-LS)");
  }
  if (!h.param_file.empty()) {
    o += "parameter file used: " + h.param_file + "\n";
    for (const SqlioHeaderFile& f : h.files) {
      o += fmt::format("\tfile {} with {} ({}-{}) using mask 0x{:x} ({})\n", f.shown,
                       CountOf(f.threads, "thread", "threads"), f.first_thread,
                       f.first_thread + f.threads - 1, f.mask, f.mask);
    }
  }
  for (const std::string& d : h.drives) o += d + "\n";
  for (const SqlioHeaderFile& f : h.files) {
    o += fmt::format("{} {} for {} secs {} file {}\n", CountOf(f.threads, "thread", "threads"),
                     h.write ? "writing" : "reading", h.seconds, h.write ? "to" : "from", f.shown);
  }
  o += fmt::format("\tusing {}KB {} IOs\n", h.block_kb, h.access);
  if (h.stripe != 0) {
    o += fmt::format(
        "\tstripe factor {}: runs of {} I/Os {} blocks ({}KB) apart; {}\n", h.stripe, h.ios_per_run,
        h.stripe, h.stripe * h.block_kb,
        h.same_runs ? "every run on the same blocks (-v1.1.1)" : "each run one block over");
  }
  if (h.start_block != 0) {
    o += fmt::format("\tI/Os based {} blocks ({}KB) into the file{}\n", h.start_block,
                     h.start_block * h.block_kb,
                     h.access == "random" ? ": random blocks from there to the end" : "");
  }
  if (h.outstanding > 1) {
    o += fmt::format("\tenabling multiple I/Os per thread with {} outstanding\n", h.outstanding);
  }
  o += fmt::format("\tbuffering set to use: {} ({})\n", h.buffering, h.open_flags);
  o += fmt::format("\tI/O engine: {}\n", h.engine);
  for (const SqlioHeaderFile& f : h.files) {
    if (f.created) {
      o += fmt::format("creating file {} ({}) at the specified size: {} MB\n", f.shown, f.path,
                       f.size_mb);
    } else if (f.size_given) {
      o += fmt::format("using specified size: {} MB for file: {}\n", f.size_mb, f.shown);
    } else {
      o += fmt::format("using current size: {} MB for file: {}\n", f.size_mb, f.shown);
    }
  }
  for (const std::string& n : h.notes) o += "note: " + n + "\n";
  o += "initialization done\n";
  return o;
}

namespace {

// SQLIO's I/Os are all one block: a rate of I/Os in MiB/s (unit conversion).
double IosToMib(double ios, uint64_t block_size) {
  return ios * static_cast<double>(block_size) / (1 << 20);
}

// "IOs/sec" and "MBs/sec" (SqlioWorkload::Metrics), and -U's CPU line.
std::string ThroughputBlock(const RunResult& r, const SqlioReportSettings& s) {
  std::string o = "throughput metrics:\n";
  o += fmt::format("IOs/sec: {:8.2f}\n", MetricValue(r.metrics, "ios_per_second"));
  o += fmt::format("MBs/sec: {:8.2f}\n", MetricValue(r.metrics, "mbs_per_second"));
  if (s.cpu_percent.has_value()) {
    o += fmt::format("CPU utilization: {:.2f}% (user {:.2f} s, system {:.2f} s)\n", *s.cpu_percent,
                     s.cpu_user_s, s.cpu_system_s);
  }
  return o;
}

// -L: whole-millisecond min/avg/max and the 0..24+ ms histogram.
std::string LatencyBlock(const RunResult& r) {
  const LatencyHistogram& all = r.latency[0].histogram;
  const double mean_ns = all.Count() ? all.moments().Mean() : 0;
  std::string o = "latency metrics:\n";
  o += fmt::format("Min_Latency(ms): {}\n", all.Min() / 1000000);
  o += fmt::format("Avg_Latency(ms): {}\n", static_cast<uint64_t>(mean_ns / 1e6));
  o += fmt::format("Max_Latency(ms): {}\n", all.Max() / 1000000);
  o += "histogram:\n";
  std::string ms = "ms:", pc = "%: ";
  for (size_t k = 0; k < kWholeMsColumns; ++k) {
    ms += fmt::format(" {:>2}", k + 1 == kWholeMsColumns ? "24+" : std::to_string(k));
    pc += fmt::format(" {:>2}", static_cast<int>(std::lround(r.latency_whole_ms_pct[k])));
  }
  return o + ms + "\n" + pc + "\n";
}

// DiskSpd's "Total IO" table: one row per thread, then the total.
std::string ThreadTable(const RunResult& r, const SqlioReportSettings& s) {
  std::string o = "\nTotal IO\n";
  const std::string head =
      "thread |       bytes     |     I/Os     |    MiB/s   |  I/O per s |  AvgLat  | file\n";
  o += head;
  o += Rule(head.size() - 1);
  // AvgLat is the latency sum over the I/O count (not the busy time).
  for (size_t i = 0; i < r.threads.size(); ++i) {
    const ThreadFigures& t = r.threads[i];
    o += fmt::format("{:6} | {:15} | {:12} | {:10.2f} | {:10.2f} | {:8.3f} | {}\n", i,
                     t.events * s.block_size, t.events, IosToMib(t.events_per_second, s.block_size),
                     t.events_per_second, t.mean_latency_s * 1e3,
                     i < s.thread_files.size() ? s.thread_files[i] : "");
  }
  o += Rule(head.size() - 1);
  const ThreadFigures& total = r.thread_total;
  o += fmt::format("total:   {:15} | {:12} | {:10.2f} | {:10.2f} | {:8.3f}\n",
                   total.events * s.block_size, total.events,
                   IosToMib(total.events_per_second, s.block_size), total.events_per_second,
                   total.mean_latency_s * 1e3);
  return o;
}

// Under -g: the schedule kept, and the service time beside the latency
// (which counts from each I/O's intended start).
std::string RateBlock(const RunResult& r) {
  const RateFigures& rf = *r.rate;
  std::string o = fmt::format(
      "throttle (-g): target {:.2f} IOs/sec, achieved {:.2f}, late I/Os (>1 ms) {}, max lag "
      "{:.3f} ms\n",
      rf.target, rf.achieved, rf.late_events, rf.max_lag_ms);
  if (r.service.has_value()) {
    const LatencyHistogram& h = r.service->histogram;
    o += fmt::format(
        "service time (ms, from submission): min {:.3f} avg {:.3f} p99 {:.3f} max {:.3f}\n",
        static_cast<double>(h.Min()) / 1e6, h.moments().Mean() / 1e6,
        static_cast<double>(h.Percentile(99)) / 1e6, static_cast<double>(h.Max()) / 1e6);
  }
  return o +
         "latency figures (Min/Avg/Max_Latency, the percentiles) count from each I/O's "
         "intended start; the threads' AvgLat is the service time\n";
}

// DiskSpd's percentile table: read, write and all I/Os.
std::string PercentileTable(const RunResult& r) {
  std::string o = "\n  %-ile |  Read (ms) | Write (ms) | Total (ms)\n";
  o += Rule(44);
  const LatencyHistogram* all = r.latency.empty() ? nullptr : &r.latency[0].histogram;
  const LatencyHistogram* rd = Kind(r, "read");
  const LatencyHistogram* wr = Kind(r, "write");
  struct Row {
    const char* label;
    double p;
  };
  constexpr Row kRows[] = {{"min", 0},          {"25th", 25},         {"50th", 50},
                           {"75th", 75},        {"90th", 90},         {"95th", 95},
                           {"99th", 99},        {"3-nines", 99.9},    {"4-nines", 99.99},
                           {"5-nines", 99.999}, {"6-nines", 99.9999}, {"max", 100}};
  for (const Row& row : kRows) {
    o += fmt::format("{:>7} | {:>10} | {:>10} | {:>10}\n", row.label, Ms(rd, row.p), Ms(wr, row.p),
                     Ms(all, row.p));
  }
  return o;
}

}  // namespace

std::string FormatSqlioResults(const RunResult& r, const SqlioReportSettings& s) {
  std::string o;
  if (r.interrupted) {
    o += fmt::format("interrupted: the figures cover the {:.2f} secs actually run\n",
                     std::max(r.total_time_s, 0.0));
  }
  o += "CUMULATIVE DATA:\n";
  o += ThroughputBlock(r, s);
  if (s.latency && !r.latency.empty()) o += LatencyBlock(r);
  if (!s.classic && r.rate.has_value()) o += RateBlock(r);
  if (!s.classic) o += ThreadTable(r, s) + PercentileTable(r);
  for (const std::string& n : s.notes) o += "note: " + n + "\n";
  // The verdict after SQLIO's own output, a blank line between (none when
  // not judged).
  if (r.validity.judged) {
    o += '\n';
    o += report_internal::VerdictBlock(r.validity);
  }
  return o;
}

namespace {

class SqlioReporter final : public Reporter {
 public:
  SqlioReporter(std::ostream& out, SqlioReportSettings s) : out_(out), s_(std::move(s)) {}
  void OnEnd(const RunResult& r) override { out_ << FormatSqlioResults(r, s_) << std::flush; }

 private:
  std::ostream& out_;
  SqlioReportSettings s_;
};

}  // namespace

std::unique_ptr<Reporter> MakeSqlioReporter(std::ostream& out, SqlioReportSettings s) {
  return std::make_unique<SqlioReporter>(out, std::move(s));
}

}  // namespace loadcell
