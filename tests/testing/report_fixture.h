#pragma once
// A deterministic RunResult built by hand and a fake workload, shared by the
// report unit tests and the golden tests (tests/golden/). Nothing here runs
// a workload or reads a clock: every figure is fixed.

#include <fmt/format.h>

#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "report/reporter.h"
#include "runner/run_result.h"
#include "runner/workload.h"
#include "stats/histogram.h"

namespace loadcell::testing {

// A workload with a sysbench-like text section, two counters and two
// metrics. Its Metrics() reads only the result it is given.
class FakeWorkload final : public Workload, public TextReportSections {
 public:
  // `own_output`: it prints its own interval and end output, as a script's
  // report hooks do.
  explicit FakeWorkload(bool custom_interval_line = false, bool own_output = false)
      : custom_interval_line_(custom_interval_line), own_output_(own_output) {}
  WorkloadInfo Info() const override {
    WorkloadInfo info;
    info.name = "fake";
    info.summary = "a fake workload for report tests";
    info.event_definition = "one fake operation";
    info.counter_names = {"ops", "bytes"};
    return info;
  }
  void RegisterOptions(OptionSet&) override {}
  Result<std::unique_ptr<Worker>> NewWorker(const ThreadContext&) override {
    return Status::Unimplemented("fake workload runs nothing");
  }
  std::vector<std::pair<std::string, std::string>> Describe() const override {
    return {{"Fake operations limit", "10000"}};
  }
  std::vector<Metric> Metrics(const RunResult& r) const override {
    const double t = r.total_time_s;
    const double ops = r.counters.empty() ? 0 : static_cast<double>(r.counters[0]);
    const double bytes = r.counters.size() < 2 ? 0 : static_cast<double>(r.counters[1]);
    return {{"operations_per_second", "operations per second", t > 0 ? ops / t : 0, "op/s"},
            {"mib_per_second", "MiB/sec", t > 0 ? bytes / 1048576.0 / t : 0, "MiB/s"}};
  }
  std::string TextSection(const RunResult& r) const override {
    const std::vector<Metric> m = Metrics(r);
    return fmt::format("Fake speed:\n    operations per second: {:8.2f}\n", m[0].value);
  }
  std::string IntervalLine(const IntervalSnapshot& s, double) const override {
    if (!custom_interval_line_) return "";
    return fmt::format("fake ops: {}", s.counters.empty() ? 0 : s.counters[0]);
  }
  std::optional<std::string> IntervalOutput(const IntervalSnapshot& s, double) const override {
    if (!own_output_) return std::nullopt;
    return fmt::format("own interval {}\n", s.t_end_s);
  }
  std::optional<std::string> OwnEndOutput(const RunResult&) const override {
    if (!own_output_) return std::nullopt;
    return std::string("own end\n");
  }

 private:
  bool custom_interval_line_;
  bool own_output_;
};

// `n` samples of `ns` each.
struct Samples {
  uint64_t ns;
  uint64_t n;
};

inline LatencyHistogram HistogramOf(const std::vector<Samples>& samples) {
  LatencyHistogram h;
  for (const Samples& s : samples) h.RecordN(s.ns, s.n);
  return h;
}

inline Manifest FixtureManifest() {
  Manifest m;
  m.tool_version = "0.0.0-golden";
  m.test = "fake";
  m.command = "run";
  m.threads = 2;
  m.time_limit_s = 2;
  m.rand_type = "special";
  m.seed = 42;
  m.options = {{"general", "threads", "2", false},
               {"general", "time", "2", false},
               {"general", "events", "0", true},
               {"general", "rand-type", "special", true},
               {"fake", "fake-limit", "10000", true}};
  m.workload = {{"Fake operations limit", "10000"}};
  m.system.cpu_model = "Test CPU \"quoted\" \\ model";
  m.system.cpus_online = 4;
  m.system.memory_bytes = 8ull << 30;
  m.system.kernel = "Linux 6.1.0";
  return m;
}

inline IntervalSnapshot FixtureInterval(double t, uint64_t fast, uint64_t slow) {
  IntervalSnapshot s;
  s.t_end_s = t;
  s.duration_s = 1;
  s.threads = 2;
  s.events = fast + slow;
  s.latency.push_back({"event", HistogramOf({{3000, fast}, {250000, slow}})});
  s.counters = {fast + slow, (fast + slow) * 4096};
  FillDerivedFigures(s);
  return s;
}

// `r` as the runner hands it to reporters: derived figures filled, and the
// workload's metrics when `r` has none.
inline RunResult Completed(const Workload& w, RunResult r) {
  FillDerivedFigures(r);
  if (r.metrics.empty()) r.metrics = w.Metrics(r);
  return r;
}

// The basic result: 1000 events over 2 s on two threads, latencies from
// 3 us to 15 ms, two intervals, two counters.
inline RunResult FixtureResult() {
  RunResult r;
  r.manifest = FixtureManifest();
  r.total_time_s = 2.0005;
  r.events = 1000;
  r.latency.push_back(
      {"event", HistogramOf({{3000, 500}, {250000, 400}, {1200000, 90}, {15000000, 10}})});
  r.threads = {{600, 0.4, 0.4}, {400, 0.3, 0.3}};  // one event at a time: busy = sum
  r.counter_names = {"ops", "bytes"};
  r.counters = {1000, 4096000};
  r.intervals = {FixtureInterval(1, 300, 200), FixtureInterval(2, 200, 300)};
  // The verdict as the verdict step leaves it (reporters only print it).
  r.validity.judged = true;
  r.validity.cost_ms = 0.25;
  r.validity.checks = {
      {"samples", CheckLevel::kPass, "", "", {{"events", 1000}, {"percentile", 95}}},
      {"steady-state",
       CheckLevel::kNotChecked,
       "2 intervals, fewer than the 6 it compares in thirds",
       "",
       {}}};
  FillDerivedFigures(r);
  return r;
}

// The basic result as a run across processes: two ranks of one thread each
// on hosts c1 (600 events) and c2 (400 events).
inline RunResult FixtureClusterResult() {
  RunResult r = FixtureResult();
  ClusterFigures c;
  c.max_clock_offset_s = 0.00002;
  c.max_round_trip_s = 0.0001;
  RankFigures k0;
  k0.host = "c1";
  k0.threads = 1;
  k0.events = 600;
  k0.total_time_s = 2.0;
  k0.p50_ns = 3000;
  k0.p95_ns = 250000;
  k0.p99_ns = 1200000;
  k0.max_ns = 15000000;
  RankFigures k1 = k0;
  k1.rank = 1;
  k1.host = "c2";
  k1.first_thread = 1;
  k1.events = 400;
  k1.errors = 2;
  k1.clock_offset_s = 0.00002;
  c.ranks = {k0, k1};
  r.cluster = c;
  FillDerivedFigures(r);
  return r;
}

// The full result: the basic one plus --rate figures, service time, per-kind
// latency (one kind without events), errors, an interruption and a failure.
inline RunResult FixtureFullResult() {
  RunResult r = FixtureResult();
  r.manifest.rate = 500;
  r.errors = 3;
  // Events that overlapped on each thread: busy less than the latency sum.
  r.threads = {{600, 0.4, 0.25}, {400, 0.3, 0.15}};
  r.latency.push_back({"read", HistogramOf({{3000, 500}, {250000, 200}})});
  r.latency.push_back({"write", HistogramOf({{250000, 200}, {1200000, 90}, {15000000, 10}})});
  r.latency.push_back({"fsync", LatencyHistogram()});  // a kind without events
  r.service = LatencyStats{"event", HistogramOf({{2000, 500}, {200000, 500}})};
  r.rate = RateFigures{500, 499.75, 7, 14.5, 0.25};
  r.intervals[1].queue = 5;
  r.intervals[1].concurrency = 2;
  r.interrupted = true;
  r.failure = Status::IoError("write failed on \"file\"", 28);
  r.validity.checks.push_back({"rate",
                               CheckLevel::kWarn,
                               "1.4% of the events started more than 1 ms late",
                               "give the rate more --threads, or ask a lower --rate",
                               {{"rate_asked", 500}, {"late_fraction", 0.014}}});
  r.validity.checks.push_back({"errors",
                               CheckLevel::kInvalid,
                               "the run failed: write failed on \"file\"",
                               "fix the error above and run again",
                               {{"errors", 3}}});
  FillDerivedFigures(r);
  return r;
}

// A run that recorded nothing at all.
inline RunResult EmptyResult() {
  RunResult r;
  r.manifest = FixtureManifest();
  r.latency.push_back({"event", LatencyHistogram()});
  r.threads = {{0, 0, 0}, {0, 0, 0}};
  FillDerivedFigures(r);
  return r;
}

inline ReportSettings FixtureSettings() {
  ReportSettings s;
  s.percentile = 95;
  s.histogram = true;
  s.report_interval_s = 1;
  return s;
}

enum class Format { kText, kJson, kCsv };

// Drives a reporter through a whole run: start, the result's intervals, the
// given checkpoints, end; each result Completed() first.
inline std::string Render(Format f, const Workload& w, const RunResult& raw, ReportSettings s,
                          const std::vector<RunResult>& checkpoints = {}) {
  const RunResult r = Completed(w, raw);
  std::ostringstream out;
  std::unique_ptr<Reporter> rep;
  switch (f) {
    case Format::kText:
      rep = MakeTextReporter(out, w, s);
      break;
    case Format::kJson:
      rep = MakeJsonReporter(out, w, s);
      break;
    case Format::kCsv:
      rep = MakeCsvReporter(out, w, s);
      break;
  }
  rep->OnStart(r.manifest);
  rep->OnThreadsStarted();
  for (const IntervalSnapshot& i : r.intervals) rep->OnInterval(i);
  for (const RunResult& c : checkpoints) rep->OnCheckpoint(Completed(w, c));
  rep->OnEnd(r);
  return out.str();
}

}  // namespace loadcell::testing
