// fio 3.33's JSON and json+ (report/fio/fio_report.h).

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/fio/fio_report.h"
#include "report/format.h"
#include "report/json/json_writer.h"
#include "report/json/validity_json.h"

namespace loadcell {
namespace {

using report_internal::MeanNs;
using report_internal::PercentileText;
using report_internal::ReportedPercentiles;

constexpr std::array<const char*, 7> kDepthKeys = {"1", "2", "4", "8", "16", "32", ">=64"};
constexpr std::array<const char*, 7> kBatchKeys = {"0", "4", "8", "16", "32", "64", ">=64"};
constexpr std::array<const char*, 7> kLevelNames = {"1", "2", "4", "8", "16", "32", "ge64"};
constexpr std::array<const char*, 10> kRowKeys = {"2",   "4",   "10",  "20",  "50",
                                                  "100", "250", "500", "750", "1000"};

void Stats(JsonWriter& w, const LatencyHistogram* h) {
  const bool any = h != nullptr && h->Count() > 0;
  w.Key("min").Uint(any ? h->Min() : 0);
  w.Key("max").Uint(any ? h->Max() : 0);
  w.Key("mean").Double(any ? h->moments().Mean() : 0);
  w.Key("stddev").Double(any ? h->moments().StdDev() : 0);
  w.Key("N").Uint(any ? h->Count() : 0);
}

void Percentiles(JsonWriter& w, const LatencyHistogram& h, const std::vector<double>& list) {
  w.Key("percentile");
  w.BeginObject();
  for (double p : list) w.Key(fmt::format("{:f}", p)).Uint(h.Percentile(p));
  w.EndObject();
}

void Bins(JsonWriter& w, const LatencyHistogram& h) {
  w.Key("bins");
  w.BeginObject();
  const std::vector<uint64_t>& b = h.buckets();
  for (size_t i = 0; i < b.size(); ++i) {
    if (b[i] == 0) continue;
    const uint64_t lo = HistogramBucketLow(i);
    w.Key(std::to_string(lo + (HistogramBucketHigh(i) - lo) / 2)).Uint(b[i]);
  }
  w.EndObject();
}

void Latency(JsonWriter& w, const char* key, const LatencyHistogram* h, bool percentiles,
             const FioReportJob& job, bool plus) {
  w.Key(key);
  w.BeginObject();
  Stats(w, h);
  if (percentiles && h != nullptr && h->Count() > 0) {
    Percentiles(w, *h, job.percentiles);
    if (plus) Bins(w, *h);
  }
  w.EndObject();
}

void JsonDirection(JsonWriter& w, const char* key, const FioDirFigures& f, const FioReportJob& job,
                   uint64_t group_bw, bool plus) {
  w.Key(key);
  w.BeginObject();
  w.Key("io_bytes").Uint(f.io_bytes);
  w.Key("io_kbytes").Uint(f.io_bytes / 1024);
  w.Key("bw_bytes").Uint(f.bw_bytes);
  w.Key("bw").Uint(f.bw_bytes / 1024);
  w.Key("iops").Double(f.iops);
  w.Key("runtime").Uint(f.runtime_ms);
  w.Key("total_ios").Uint(f.total_ios);
  w.Key("short_ios").Uint(f.short_ios);
  w.Key("drop_ios").Uint(0);  // never: see the text's "dropped=" (fio_text.cpp)
  // slat: N 0 for the synchronous engines, as fio's; never percentiles
  // (fio's slat_percentiles is off unless set).
  w.Key("slat_ns");
  w.BeginObject();
  Stats(w, f.slat);
  w.EndObject();
  Latency(w, "clat_ns", f.clat, job.clat_percentiles, job, plus);
  Latency(w, "lat_ns", f.latency, job.lat_percentiles, job, plus);
  w.Key("bw_min").Uint(static_cast<uint64_t>(f.bw_min));
  w.Key("bw_max").Uint(static_cast<uint64_t>(f.bw_max));
  w.Key("bw_agg").Double(group_bw > 0 ? f.bw_mean * 1024 * 100 / static_cast<double>(group_bw) : 0);
  w.Key("bw_mean").Double(f.bw_mean);
  w.Key("bw_dev").Double(f.bw_dev);
  w.Key("bw_samples").Uint(f.samples);
  w.Key("iops_min").Uint(static_cast<uint64_t>(f.iops_min));
  w.Key("iops_max").Uint(static_cast<uint64_t>(f.iops_max));
  w.Key("iops_mean").Double(f.iops_mean);
  w.Key("iops_stddev").Double(f.iops_dev);
  w.Key("iops_samples").Uint(f.samples);
  w.EndObject();
}

void JsonTable(JsonWriter& w, const char* key, const RunResult& r, const char* prefix,
               const std::array<const char*, 7>& keys) {
  std::array<uint64_t, 7> n{};
  uint64_t total = 0;
  for (size_t i = 0; i < n.size(); ++i) {
    n[i] = FioCounter(r, std::string(prefix) + kLevelNames[i]);
    total += n[i];
  }
  w.Key(key);
  w.BeginObject();
  for (size_t i = 0; i < n.size(); ++i) {
    w.Key(keys[i]).Double(total > 0 ? static_cast<double>(n[i]) * 100 / static_cast<double>(total)
                                    : 0);
  }
  w.EndObject();
}

template <size_t N>
void Row(JsonWriter& w, const char* key, const std::array<double, N>& row, bool ms) {
  w.Key(key);
  w.BeginObject();
  for (size_t i = 0; i < kRowKeys.size(); ++i) w.Key(kRowKeys[i]).Double(row[i]);
  if (ms) {
    w.Key("2000").Double(row[10]);
    w.Key(">=2000").Double(row[11]);
  }
  w.EndObject();
}

// Under MPI: each rank's own figures of the job (loadcell's, never in fio's
// fields): its I/Os, its rate over its own time, its latency.
void RankRows(JsonWriter& w, const ClusterFigures& c) {
  w.Key("ranks");
  w.BeginArray();
  for (const RankFigures& f : c.ranks) {
    w.BeginObject();
    w.Key("rank").Int(f.rank);
    w.Key("host").String(f.host);
    w.Key("total_ios").Uint(f.events);
    w.Key("iops").Double(f.events_per_second);
    w.Key("runtime").Uint(static_cast<uint64_t>(std::llround(f.total_time_s * 1000)));
    w.Key("lat_ns");
    w.BeginObject();
    w.Key("min").Uint(f.min_ns);
    w.Key("mean").Double(f.mean_ns);
    w.Key("p50").Uint(f.p50_ns);
    w.Key("p99").Uint(f.p99_ns);
    w.Key("max").Uint(f.max_ns);
    w.EndObject();
    w.Key("clock_offset_s").Double(f.clock_offset_s);
    if (!f.failure.empty()) w.Key("failure").String(f.failure);
    w.EndObject();
  }
  w.EndArray();
  if (!c.missing_ranks.empty()) {
    w.Key("missing_ranks");
    w.BeginArray();
    for (int r : c.missing_ranks) w.Int(r);
    w.EndArray();
  }
}

void JsonSync(JsonWriter& w, const RunResult& r, const FioReportJob& job, bool plus) {
  const LatencyHistogram* sync = nullptr;
  for (const LatencyStats& l : r.latency) {
    if (l.kind == "sync") sync = &l.histogram;
  }
  w.Key("sync");
  w.BeginObject();
  w.Key("total_ios").Uint(FioCounter(r, "syncs"));
  Latency(w, "lat_ns", sync, sync != nullptr && sync->Count() > 0 && job.clat_percentiles, job,
          plus);
  w.EndObject();
}

// Each direction's latency (clat) as loadcell's histogram gives it: the
// count, the exact min, mean and max, and the percentiles fio lists
// (percentile_list) with loadcell's own (50, 95, 99, 99.9, 99.99), keyed as
// loadcell's JSON keys them ("99.9"). docs/fio.md states their bound.
void ExactPercentiles(JsonWriter& w, const FioReportJob& job) {
  std::vector<double> ps = ReportedPercentiles(0, /*with_extreme=*/true);
  for (double p : job.percentiles) {
    if (std::find(ps.begin(), ps.end(), p) == ps.end()) ps.push_back(p);
  }
  std::sort(ps.begin(), ps.end());
  w.Key("percentiles");
  w.BeginObject();
  for (const auto& [key, d] : FioReportDirs(job.unified)) {
    const FioDirFigures f = FioFigures(*job.result, d);
    const bool any = f.latency != nullptr && f.latency->Count() > 0;
    w.Key(key);
    w.BeginObject();
    w.Key("count").Uint(any ? f.latency->Count() : 0);
    w.Key("min").Uint(any ? f.latency->Min() : 0);
    w.Key("mean").Double(any ? MeanNs(*f.latency) : 0);
    w.Key("max").Uint(any ? f.latency->Max() : 0);
    for (double p : ps) w.Key(PercentileText(p)).Uint(any ? f.latency->Percentile(p) : 0);
    w.EndObject();
  }
  w.EndObject();
}

// fio's "job options" and "global options": each option as given, those
// given bare (their value empty: "time_based") left out as fio does.
void Options(JsonWriter& w, const char* key,
             const std::vector<std::pair<std::string, std::string>>& options) {
  w.Key(key);
  w.BeginObject();
  for (const auto& [k, v] : options) {
    if (!v.empty()) w.Key(k).String(v);
  }
  w.EndObject();
}

void JsonJob(JsonWriter& w, const FioReport& report, const FioReportJob& job, bool plus) {
  const RunResult& r = *job.result;
  w.BeginObject();
  w.Key("jobname").String(job.name);
  w.Key("groupid").Int(job.groupid);
  w.Key("error").Int(job.error);
  w.Key("eta").Uint(0);
  w.Key("elapsed").Uint(static_cast<uint64_t>(std::ceil(r.total_time_s)));
  Options(w, "job options", job.options);
  if (!job.description.empty()) w.Key("desc").String(job.description);
  // fio's order: read, write, trim, sync, then mixed (mixed alone: no sync).
  for (const auto& [key, d] : FioReportDirs(job.unified)) {
    if (d == FioDir3::kMixed && job.unified == FioUnified::kBoth) JsonSync(w, r, job, plus);
    JsonDirection(w, key, FioFigures(r, d), job, FioGroupBw(report, job.groupid, d), plus);
  }
  if (job.unified == FioUnified::kNone) JsonSync(w, r, job, plus);
  const double runtime_ns = r.total_time_s * 1e9;
  w.Key("job_runtime").Uint(static_cast<uint64_t>(std::llround(r.total_time_s * 1000)));
  const auto cpu = [&](const char* c) {
    return runtime_ns > 0 ? static_cast<double>(FioCounter(r, c)) * 100 / runtime_ns : 0;
  };
  w.Key("usr_cpu").Double(cpu("cpu_user_ns"));
  w.Key("sys_cpu").Double(cpu("cpu_sys_ns"));
  w.Key("ctx").Uint(FioCounter(r, "context_switches"));
  w.Key("majf").Uint(FioCounter(r, "major_faults"));
  w.Key("minf").Uint(FioCounter(r, "minor_faults"));
  JsonTable(w, "iodepth_level", r, "iodepth_", kDepthKeys);
  JsonTable(w, "iodepth_submit", r, "submit_", kBatchKeys);
  JsonTable(w, "iodepth_complete", r, "complete_", kBatchKeys);
  const FioLatencyTable t = FioJobLatencyTable(r);
  Row(w, "latency_ns", t.ns, false);
  Row(w, "latency_us", t.us, false);
  Row(w, "latency_ms", t.ms, true);
  w.Key("latency_depth").Uint(job.iodepth);
  w.Key("latency_target").Uint(0);
  w.Key("latency_percentile").Double(100.0);
  w.Key("latency_window").Uint(0);
  // loadcell's own figures: never in fio's fields.
  w.Key("loadcell");
  w.BeginObject();
  w.Key("engine").String(job.engine);
  // Always a thread here (its usr_cpu, sys_cpu, ctx, majf and minf are its
  // thread's own); what fio would have made of it, by thread=.
  w.Key("runs_as").String("thread");
  w.Key("fio_runs_as").String(job.thread ? "thread" : "process");
  const uint64_t qd_time = FioCounter(r, "queue_depth_time_ns");
  w.Key("mean_queue_depth")
      .Double(qd_time > 0 ? static_cast<double>(FioCounter(r, "queue_depth_ns")) /
                                static_cast<double>(qd_time)
                          : 0);
  w.Key("jobs").Int(job.jobs);
  w.Key("short_ios").Uint(FioCounter(r, "short_ios"));
  // Every sync issued (fsync=N, fdatasync=N, end_fsync, fsync_on_close);
  // fio's sync.total_ios counts only fsync=N's.
  w.Key("syncs").Uint(FioCounter(r, "all_syncs"));
  // Under a rate: clat and lat count from each I/O's intended start; the
  // service time (submission to completion) is here.
  w.Key("latency_from").String(r.service ? "intended start" : "submission");
  if (r.service) Latency(w, "service_ns", &r.service->histogram, true, job, false);
  ExactPercentiles(w, job);
  if (!job.failure.empty()) w.Key("failure").String(job.failure);
  if (!job.cpus.empty()) {
    w.Key("cpus");
    w.BeginArray();
    for (int cpu : job.cpus) w.Int(cpu);
    w.EndArray();
  }
  if (!job.logs.empty()) {
    w.Key("logs");
    w.BeginArray();
    for (const std::string& path : job.logs) w.String(path);
    w.EndArray();
  }
  if (r.validity.judged) {
    w.Key("verdict").String(OverallName(r.validity.overall()));
    w.Key("validity");
    WriteValidityJson(w, r.validity);
  }
  if (r.cluster) RankRows(w, *r.cluster);
  w.EndObject();
  w.EndObject();
}

// loadcell's own, after fio's fields: the run as a whole. The tool and
// its version, the jobs reported and how many failed, the verdict of every
// job merged (each check at its gravest) when any was judged, and under MPI
// the ranks and their files' layout.
void RunObject(JsonWriter& w, const FioReport& report) {
  w.Key("loadcell");
  w.BeginObject();
  w.Key("version").String(report.version);
  int reported = 0;
  int failed = 0;
  std::vector<NamedValidity> verdicts;
  for (const FioReportJob& job : report.jobs) {
    if (job.result == nullptr) continue;
    ++reported;
    failed += job.failure.empty() ? 0 : 1;
    verdicts.push_back({"job " + job.name, &job.result->validity});
  }
  w.Key("jobs").Int(reported);
  w.Key("failed_jobs").Int(failed);
  const Validity merged = MergeVerdicts(verdicts);
  if (merged.judged) {
    w.Key("verdict").String(OverallName(merged.overall()));
    w.Key("validity");
    WriteValidityJson(w, merged);
  }
  if (report.ranks > 0) {
    w.Key("ranks").Int(report.ranks);
    w.Key("mpi_files").String(report.mpi_files);
  }
  w.EndObject();
}

}  // namespace

void WriteFioJson(const FioReport& report, bool plus, std::ostream& out) {
  JsonWriter w(out);
  w.BeginObject();
  w.Key("fio version").String(report.version);
  w.Key("timestamp").Int(report.timestamp_ms / 1000);
  w.Key("timestamp_ms").Int(report.timestamp_ms);
  w.Key("time").String(FioTimeText(report.timestamp_ms));
  if (report.has_global_options) Options(w, "global options", report.global_options);
  w.Key("jobs");
  w.BeginArray();
  for (const FioReportJob& job : report.jobs) {
    if (job.result != nullptr) JsonJob(w, report, job, plus);
  }
  w.EndArray();
  // fio leaves disk_util out when no job's file is on a block device (the
  // null engine).
  if (!report.disks.empty()) {
    w.Key("disk_util");
    w.BeginArray();
    for (const FioDiskUtil& d : report.disks) {
      w.BeginObject();
      w.Key("name").String(d.name);
      w.Key("read_ios").Uint(d.read_ios);
      w.Key("write_ios").Uint(d.write_ios);
      w.Key("read_merges").Uint(d.read_merges);
      w.Key("write_merges").Uint(d.write_merges);
      w.Key("read_ticks").Uint(d.read_ticks_ms);
      w.Key("write_ticks").Uint(d.write_ticks_ms);
      w.Key("in_queue").Uint(d.in_queue_ms);
      w.Key("util").Double(d.util_pct);
      if (d.slaves > 0) {
        // fio's names, "aggr_write_merge" without its s included.
        w.Key("aggr_read_ios").Uint(d.aggr_read_ios);
        w.Key("aggr_write_ios").Uint(d.aggr_write_ios);
        w.Key("aggr_read_merges").Uint(d.aggr_read_merges);
        w.Key("aggr_write_merge").Uint(d.aggr_write_merges);
        w.Key("aggr_read_ticks").Uint(d.aggr_read_ticks_ms);
        w.Key("aggr_write_ticks").Uint(d.aggr_write_ticks_ms);
        w.Key("aggr_in_queue").Uint(d.aggr_in_queue_ms);
        w.Key("aggr_util").Double(d.aggr_util_pct);
      }
      w.EndObject();
    }
    w.EndArray();
  }
  RunObject(w, report);
  w.EndObject();
}

}  // namespace loadcell
