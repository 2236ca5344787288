// The CSV reporter: a header, one row per interval (written as each interval
// arrives), then a final row whose time_s is "total". Columns are listed in
// docs/report.md; the last, "verdict", is filled on the final row only.
// Every row has the same number of fields.

#include <fmt/format.h>

#include <ostream>
#include <string>
#include <vector>

#include "report/format.h"
#include "report/reporter.h"

namespace loadcell {
namespace {

using report_internal::CounterName;
using report_internal::CsvField;
using report_internal::CsvMs;
using report_internal::Finite;
using report_internal::kNanosPerMs;
using report_internal::MeanNs;

class CsvReporter final : public Reporter {
 public:
  CsvReporter(std::ostream& out, const Workload& w, const ReportSettings& s)
      : out_(out), counter_names_(w.Info().counter_names) {}

  void OnStart(const Manifest& m) override {
    threads_ = m.threads;
    WriteHeader();
  }

  void OnInterval(const IntervalSnapshot& s) override {
    static const LatencyHistogram kEmpty;
    WriteHeader();
    WriteRow(fmt::format("{:.4f}", Finite(s.t_end_s)), s.duration_s, s.threads, s.events,
             s.events_per_second, s.errors, s.latency.empty() ? kEmpty : s.latency[0].histogram,
             s.counters, "");
  }

  void OnEnd(const RunResult& r) override {
    static const LatencyHistogram kEmpty;
    WriteHeader();
    WriteRow("total", r.total_time_s, r.manifest.threads > 0 ? r.manifest.threads : threads_,
             r.events, r.events_per_second, r.errors,
             r.latency.empty() ? kEmpty : r.latency[0].histogram, r.counters,
             r.validity.judged ? OverallName(r.validity.overall()) : "");
    if (r.cluster) WriteRankRows(*r.cluster);
    out_.flush();
  }

 private:
  void WriteHeader() {
    if (header_written_) return;
    header_written_ = true;
    std::string h =
        "time_s,duration_s,threads,events,events_per_second,errors,lat_min_ms,lat_avg_ms,"
        "lat_p50_ms,lat_p95_ms,lat_p99_ms,lat_p999_ms,lat_max_ms";
    for (size_t i = 0; i < counter_names_.size(); ++i) {
      h += ',';
      h += CsvField(CounterName(counter_names_, i));
    }
    h += ",verdict";
    out_ << h << "\n";
  }

  // Counters beyond the names known at the header are dropped and missing
  // ones are written as 0, so that every row has the header's width.
  void WriteRow(const std::string& time, double duration_s, int threads, uint64_t events,
                double events_per_second, uint64_t errors, const LatencyHistogram& h,
                const std::vector<uint64_t>& counters, const std::string& verdict) {
    std::string row = fmt::format(
        "{},{:.4f},{},{},{:.3f},{},{},{},{},{},{},{},{}", time, Finite(duration_s), threads, events,
        Finite(events_per_second), errors, CsvMs(static_cast<double>(h.Min())), CsvMs(MeanNs(h)),
        CsvMs(static_cast<double>(h.Percentile(50))), CsvMs(static_cast<double>(h.Percentile(95))),
        CsvMs(static_cast<double>(h.Percentile(99))),
        CsvMs(static_cast<double>(h.Percentile(99.9))),
        CsvMs(static_cast<double>(h.Count() == 0 ? 0 : h.Max())));
    for (size_t i = 0; i < counter_names_.size(); ++i) {
      row += fmt::format(",{}", i < counters.size() ? counters[i] : 0);
    }
    row += "," + verdict;
    out_ << row << "\n" << std::flush;
  }

  // A run across processes: after "total", one row per rank ("rank0",
  // "rank1"...) with its own figures; its counters are not kept (empty).
  void WriteRankRows(const ClusterFigures& c) {
    for (const RankFigures& k : c.ranks) {
      std::string row =
          fmt::format("rank{},{:.4f},{},{},{:.3f},{},{},{},{},{},{},{},{}", k.rank,
                      Finite(k.total_time_s), k.threads, k.events, Finite(k.events_per_second),
                      k.errors, CsvMs(static_cast<double>(k.min_ns)), CsvMs(k.mean_ns),
                      CsvMs(static_cast<double>(k.p50_ns)), CsvMs(static_cast<double>(k.p95_ns)),
                      CsvMs(static_cast<double>(k.p99_ns)), CsvMs(static_cast<double>(k.p999_ns)),
                      CsvMs(static_cast<double>(k.max_ns)));
      row.append(counter_names_.size() + 1, ',');  // no counters, no verdict
      out_ << row << "\n";
    }
  }

  std::ostream& out_;
  std::vector<std::string> counter_names_;
  int threads_ = 0;
  bool header_written_ = false;
};

}  // namespace

std::unique_ptr<Reporter> MakeCsvReporter(std::ostream& out, const Workload& w,
                                          const ReportSettings& s) {
  return std::make_unique<CsvReporter>(out, w, s);
}

}  // namespace loadcell
