#include "report/sqlio_report.h"

#include <fmt/format.h>

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

std::array<double, 25> SqlioMsHistogram(const LatencyHistogram& h) {
  std::array<double, 25> pct{};
  if (h.Count() == 0) return pct;
  std::array<uint64_t, 25> n{};
  const std::vector<uint64_t>& b = h.buckets();
  for (size_t i = 0; i < b.size(); ++i) {
    if (b[i] == 0) continue;
    const uint64_t ms = HistogramBucketLow(i) / 1000000;
    n[ms >= 24 ? 24 : ms] += b[i];
  }
  for (size_t k = 0; k < n.size(); ++k) {
    pct[k] = 100.0 * static_cast<double>(n[k]) / static_cast<double>(h.Count());
  }
  return pct;
}

std::string FormatSqlioResults(const RunResult& r, const SqlioReportSettings& s) {
  const double secs = r.total_time_s > 0 ? r.total_time_s : 0;
  uint64_t bytes = 0;
  for (size_t i = 0; i < r.counter_names.size() && i < r.counters.size(); ++i) {
    if (r.counter_names[i] == "bytes_read" || r.counter_names[i] == "bytes_written") {
      bytes += r.counters[i];
    }
  }
  const double iops = secs > 0 ? static_cast<double>(r.events) / secs : 0;
  const double mbs = secs > 0 ? static_cast<double>(bytes) / (1 << 20) / secs : 0;
  std::string o;
  if (r.interrupted) {
    o += fmt::format("interrupted: the figures cover the {:.2f} secs actually run\n", secs);
  }
  o += "CUMULATIVE DATA:\n";
  o += "throughput metrics:\n";
  o += fmt::format("IOs/sec: {:8.2f}\n", iops);
  o += fmt::format("MBs/sec: {:8.2f}\n", mbs);
  if (s.cpu_percent.has_value()) {
    o += fmt::format("CPU utilization: {:.2f}% (user {:.2f} s, system {:.2f} s)\n", *s.cpu_percent,
                     s.cpu_user_s, s.cpu_system_s);
  }
  const LatencyHistogram* all = r.latency.empty() ? nullptr : &r.latency[0].histogram;
  if (s.latency && all != nullptr) {
    const double mean_ns = all->Count() ? all->moments().Mean() : 0;
    o += "latency metrics:\n";
    o += fmt::format("Min_Latency(ms): {}\n", all->Min() / 1000000);
    o += fmt::format("Avg_Latency(ms): {}\n", static_cast<uint64_t>(mean_ns / 1e6));
    o += fmt::format("Max_Latency(ms): {}\n", all->Max() / 1000000);
    o += "histogram:\n";
    std::string ms = "ms:", pc = "%: ";
    const std::array<double, 25> pct = SqlioMsHistogram(*all);
    for (int k = 0; k < 25; ++k) {
      ms += fmt::format(" {:>2}", k == 24 ? "24+" : std::to_string(k));
      pc += fmt::format(" {:>2}", static_cast<int>(std::lround(pct[static_cast<size_t>(k)])));
    }
    o += ms + "\n" + pc + "\n";
  }
  if (!s.classic) {
    o += "\nTotal IO\n";
    const std::string head =
        "thread |       bytes     |     I/Os     |    MiB/s   |  I/O per s |  AvgLat  | file\n";
    o += head;
    o += Rule(head.size() - 1);
    uint64_t tb = 0, te = 0;
    double lat_sum = 0;
    for (size_t i = 0; i < r.threads.size(); ++i) {
      const ThreadFigures& t = r.threads[i];
      const uint64_t b = t.events * s.block_size;
      tb += b;
      te += t.events;
      lat_sum += t.exec_time_s;  // the sum of latencies (not the busy time): AvgLat
      o += fmt::format("{:6} | {:15} | {:12} | {:10.2f} | {:10.2f} | {:8.3f} | {}\n", i, b,
                       t.events, secs > 0 ? static_cast<double>(b) / (1 << 20) / secs : 0,
                       secs > 0 ? static_cast<double>(t.events) / secs : 0,
                       t.events ? t.exec_time_s * 1e3 / static_cast<double>(t.events) : 0,
                       i < s.thread_files.size() ? s.thread_files[i] : "");
    }
    o += Rule(head.size() - 1);
    o += fmt::format("total:   {:15} | {:12} | {:10.2f} | {:10.2f} | {:8.3f}\n", tb, te,
                     secs > 0 ? static_cast<double>(tb) / (1 << 20) / secs : 0,
                     secs > 0 ? static_cast<double>(te) / secs : 0,
                     te ? lat_sum * 1e3 / static_cast<double>(te) : 0);
    o += "\n  %-ile |  Read (ms) | Write (ms) | Total (ms)\n";
    o += Rule(44);
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
      o += fmt::format("{:>7} | {:>10} | {:>10} | {:>10}\n", row.label, Ms(rd, row.p),
                       Ms(wr, row.p), Ms(all, row.p));
    }
  }
  for (const std::string& n : s.notes) o += "note: " + n + "\n";
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
