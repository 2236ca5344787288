// The text reporter: sysbench 1.0's report layout, so that scripts that
// parse sysbench output keep working, with a few additions (more
// percentiles, the options in force, rate and per-kind blocks) placed on
// lines of their own.

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/status.h"
#include "core/version.h"
#include "report/format.h"
#include "report/reporter.h"

namespace loadcell {
namespace {

using report_internal::Finite;
using report_internal::FormatMs;
using report_internal::IntervalStamp;
using report_internal::kNanosPerMs;
using report_internal::MeanNs;
using report_internal::PausedNote;
using report_internal::PercentileText;
using report_internal::ReportedPercentiles;

// Column layout of sysbench's end report.
constexpr size_t kGeneralValueColumn = 41;  // "    total time:" values start here
constexpr size_t kLatencyLabelWidth = 43;   // "         min:" padded to this
constexpr size_t kLatencyValueWidth = 10;   // then the value right-aligned
constexpr size_t kFairnessValueColumn = 35;
constexpr size_t kHistogramBarWidth = 40;
constexpr size_t kHistogramMaxRows = 100;

std::string PadTo(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

// "    total time:" + value at column 41.
std::string GeneralLine(const std::string& label, const std::string& value) {
  return PadTo("    " + label, kGeneralValueColumn) + value + "\n";
}

// "         min:" + value right-aligned so the line ends at column 53.
std::string LatencyLine(const std::string& label, const std::string& value) {
  return fmt::format("{}{:>{}}\n", PadTo("         " + label, kLatencyLabelWidth), value,
                     kLatencyValueWidth);
}

std::string MsOf(double ns) { return FormatMs(Finite(ns) / kNanosPerMs); }

// One "Latency (ms):" block: min, avg, max, percentiles, sum. `chosen` 0
// (--percentile=0): sysbench's "percentile stats: disabled" line instead of
// the percentiles.
std::string LatencyBlock(const std::string& title, const LatencyHistogram& h, double chosen) {
  std::string out = title + "\n";
  out += LatencyLine("min:", MsOf(static_cast<double>(h.Min())));
  out += LatencyLine("avg:", MsOf(MeanNs(h)));
  out += LatencyLine("max:", MsOf(static_cast<double>(h.Max())));
  if (chosen <= 0) {
    out += PadTo("         percentile stats:", kGeneralValueColumn) + "disabled\n";
  }
  for (double p :
       chosen <= 0 ? std::vector<double>{} : ReportedPercentiles(chosen, /*with_extreme=*/false)) {
    out += LatencyLine(PercentileText(p) + "th percentile:",
                       MsOf(static_cast<double>(h.Percentile(p))));
  }
  out += LatencyLine("sum:", MsOf(h.Count() == 0 ? 0 : h.moments().sum));
  return out;
}

// The --histogram table. Non-empty buckets are listed in order; when there
// are more than kHistogramMaxRows of them, runs of 2^k adjacent buckets are
// merged (k as small as fits) so that the table stays readable.
std::string HistogramTable(const LatencyHistogram& h) {
  struct Row {
    uint64_t low = 0, high = 0, count = 0;
  };
  const std::vector<uint64_t>& buckets = h.buckets();
  std::vector<size_t> used;
  for (size_t i = 0; i < buckets.size(); ++i) {
    if (buckets[i] != 0) used.push_back(i);
  }
  size_t group = 1;
  const auto groups_needed = [&](size_t g) {
    size_t n = 0;
    size_t last = static_cast<size_t>(-1);
    for (size_t i : used) {
      if (i / g != last) ++n;
      last = i / g;
    }
    return n;
  };
  while (groups_needed(group) > kHistogramMaxRows) group *= 2;

  std::vector<Row> rows;
  size_t last = static_cast<size_t>(-1);
  for (size_t i : used) {
    if (rows.empty() || i / group != last) {
      rows.push_back({HistogramBucketLow(i), HistogramBucketHigh(i), 0});
      last = i / group;
    }
    rows.back().high = HistogramBucketHigh(i);
    rows.back().count += buckets[i];
  }
  uint64_t max_count = 0;
  for (const Row& r : rows) max_count = std::max(max_count, r.count);

  std::string out = "Latency histogram (values are in milliseconds)\n";
  out += "       value  ------------- distribution ------------- count\n";
  for (const Row& r : rows) {
    // The row's value is the middle of its range, as the histogram reports.
    const double mid_ns = static_cast<double>(r.low) + (static_cast<double>(r.high - r.low)) / 2;
    const size_t stars =
        max_count == 0
            ? 0
            : static_cast<size_t>(std::llround(static_cast<double>(r.count) * kHistogramBarWidth /
                                               static_cast<double>(max_count)));
    out += fmt::format("{:>12} |{:<{}} {}\n", FormatMs(mid_ns / kNanosPerMs, 3),
                       std::string(stars, '*'), kHistogramBarWidth, r.count);
  }
  out += " \n";
  return out;
}

std::string FairnessLine(const std::string& label, const MeanStd& f) {
  return PadTo("    " + label, kFairnessValueColumn) +
         fmt::format("{:.4f}/{:3.2f}\n", Finite(f.mean), Finite(f.stddev));
}

// "write", "write or fsync", "read, write or fsync".
std::string JoinWithOr(const std::vector<std::string>& words) {
  std::string out;
  for (size_t i = 0; i < words.size(); ++i) {
    if (i > 0) out += i + 1 == words.size() ? " or " : ", ";
    out += words[i];
  }
  return out;
}

// "10s", "none", or, for --events without --time (where sysbench keeps its
// 10 s default), "none" and what sysbench would do.
std::string TimeLimitText(const Manifest& m) {
  if (m.time_limit_s > 0) return fmt::format("{}s", m.time_limit_s);
  const auto time = std::find_if(m.options.begin(), m.options.end(),
                                 [](const ResolvedOption& o) { return o.name == "time"; });
  if (m.event_limit > 0 && time != m.options.end() && time->is_default) {
    return "none (--events alone; sysbench would stop after 10 s)";
  }
  return "none";
}

class TextReporter final : public Reporter {
 public:
  TextReporter(std::ostream& out, const Workload& w, const ReportSettings& s)
      : out_(out),
        workload_(w),
        sections_(dynamic_cast<const TextReportSections*>(&w)),
        settings_(s) {}

  void OnStart(const Manifest& m) override {
    rate_mode_ = m.rate > 0;
    if (Silent()) return;
    const bool exact = settings_.sysbench_exact;
    // sysbench mode: the front end printed sysbench's banner already.
    std::string o = exact ? std::string()
                          : fmt::format("{} {}\n\n", m.tool.empty() ? "loadcell" : m.tool,
                                        m.tool_version.empty() ? kVersion : m.tool_version);
    o += "Running the test with following options:\n";
    o += fmt::format("Number of threads: {}\n", m.threads);
    if (m.rate > 0) o += fmt::format("Target transaction rate: {}/sec\n", m.rate);
    if (settings_.report_interval_s > 0) {
      o += fmt::format("Report intermediate results every {} second(s)\n",
                       settings_.report_interval_s);
    }
    if (!settings_.checkpoints_s.empty()) {
      o += fmt::format("Report checkpoint(s) at {} seconds\n",
                       fmt::join(settings_.checkpoints_s, ", "));
    }
    if (exact) {
      o += SysbenchSeedLines(m);
    } else {
      if (m.seed_from_time) {
        o += fmt::format("Initializing random number generator from current time (seed {})\n",
                         m.seed);
      } else {
        o += fmt::format("Initializing random number generator from seed ({}).\n", m.seed);
      }
      if (!m.seed_scope.empty()) o += fmt::format("  ({})\n", m.seed_scope);
      o += OptionsBlock(m);
    }
    o += "\n";
    std::optional<std::string> sysbench_lines;
    if (exact) sysbench_lines = workload_.SysbenchHeader();
    if (sysbench_lines) {
      o += *sysbench_lines;
    } else {
      std::vector<std::pair<std::string, std::string>> described = m.workload;
      if (described.empty()) described = workload_.Describe();
      size_t printed = 0;
      for (const auto& [name, value] : described) {
        if (exact && !IsSysbenchDescription(name)) continue;
        // A description may quote text from outside (a file name, a
        // server's version): never a raw control byte to the terminal.
        o += EscapeControlBytes(name);
        if (!value.empty()) o.append(": ").append(EscapeControlBytes(value));
        o += "\n";
        ++printed;
      }
      if (printed > 0) o += "\n";
    }
    // "Threads started!" once the threads' start ran (OnThreadsStarted):
    // what a script's thread_init() prints comes between, as in sysbench.
    o += "Initializing worker threads...\n\n";
    out_ << o << std::flush;
  }

  void OnThreadsStarted() override {
    if (Silent()) return;
    out_ << "Threads started!\n\n" << std::flush;
  }

  void OnInterval(const IntervalSnapshot& s) override {
    // A workload's own interval output (a script's report hook) is printed
    // at any verbosity, as sysbench runs the hook.
    if (Silent() && sections_ == nullptr) return;
    if (sections_ != nullptr) {
      if (std::optional<std::string> own = sections_->IntervalOutput(s, settings_.percentile)) {
        out_ << *own << std::flush;
        return;
      }
    }
    if (Silent()) return;
    const std::string stamp = IntervalStamp(s.t_end_s, settings_.report_interval_s);
    std::string line = sections_ ? sections_->IntervalLine(s, settings_.percentile) : "";
    if (!line.empty()) {
      if (line.rfind("[ ", 0) != 0) line = stamp + line;
      if (line.back() != '\n') line += '\n';
      out_ << line << std::flush;
      return;
    }
    line = stamp + fmt::format("thds: {} eps: {:4.2f}", s.threads, Finite(s.events_per_second));
    // --percentile=0 keeps the field, as 0.00, as sysbench does.
    const uint64_t ns = s.latency.empty() || settings_.percentile <= 0
                            ? 0
                            : s.latency[0].histogram.Percentile(settings_.percentile);
    line += fmt::format(" lat (ms,{}%): {}", PercentileText(settings_.percentile),
                        settings_.sysbench_exact
                            ? fmt::format("{:4.2f}", static_cast<double>(ns) / kNanosPerMs)
                            : MsOf(static_cast<double>(ns)));
    if (s.errors > 0) {
      line += fmt::format(" err/s: {:4.2f}", Finite(s.errors_per_second));
    }
    line += "\n";
    if (rate_mode_)
      line += stamp + fmt::format("queue length: {} concurrency: {}\n", s.queue, s.concurrency);
    out_ << line << std::flush;
  }

  // Checkpoints cover the time since the previous one (counters are reset
  // at each, as in sysbench); the stamp is the checkpoint's time as given
  // ("[ 2s ]", "[ 0.3s ]"), or the time since the start when the settings
  // list fewer checkpoints.
  void OnCheckpoint(const RunResult& r) override {
    checkpoint_elapsed_s_ += Finite(r.total_time_s);
    const std::string stamp = checkpoints_seen_ < settings_.checkpoints_s.size()
                                  ? IntervalStamp(settings_.checkpoints_s[checkpoints_seen_],
                                                  settings_.checkpoints_s[checkpoints_seen_])
                                  : IntervalStamp(checkpoint_elapsed_s_, 1);
    ++checkpoints_seen_;
    if (Silent()) return;
    out_ << stamp << "Checkpoint report:\n" << EndReport(r) << std::flush;
  }

  void OnEnd(const RunResult& r) override {
    if (Silent()) {
      // Below verbosity 3: only what a script's own report hook prints.
      if (sections_ != nullptr) {
        if (std::optional<std::string> own = sections_->OwnEndOutput(r)) out_ << *own << std::flush;
      }
      return;
    }
    out_ << EndReport(r);
    // --verdict=off (and sysbench mode) prints none.
    if (settings_.verdict != VerdictMode::kOff) out_ << report_internal::VerdictBlock(r.validity);
    out_ << std::flush;
  }

 private:
  // Below verbosity 3 the report is not printed (sysbench's notices).
  bool Silent() const { return settings_.verbosity < 3; }

  // sysbench's seed line, then the blank line of its header.
  static std::string SysbenchSeedLines(const Manifest& m) {
    std::string o;
    const auto validate = std::find_if(m.options.begin(), m.options.end(), [](const auto& opt) {
      return opt.name == "validate" && opt.value == "on";
    });
    if (validate != m.options.end()) o += "Validation checks: on.\n\n";
    o += m.seed_from_time
             ? "Initializing random number generator from current time\n"
             : fmt::format("Initializing random number generator from seed ({}).\n", m.seed);
    return o + "\n";
  }

  // Whether a line of the workload's description is one sysbench prints
  // (loadcell's additions, the I/O buffers and engine lines, are not).
  static bool IsSysbenchDescription(const std::string& name) {
    return name.rfind("Database", 0) != 0 && name.rfind("Script", 0) != 0;
  }

  static std::string OptionsBlock(const Manifest& m) {
    std::string o = "Options:\n";
    bool any = false;
    for (const ResolvedOption& opt : m.options) {
      if (opt.is_default) continue;
      o += fmt::format("  {}={}\n", EscapeControlBytes(opt.name), EscapeControlBytes(opt.value));
      any = true;
    }
    o += any ? "  (all other options at their defaults)\n" : "  (all at their defaults)\n";
    o += fmt::format(
        "  random numbers: {}, seed {}; clock: {}; time limit: {}; event limit: {}; "
        "warm-up: {}s; rate: {}\n",
        m.rand_type.empty() ? "-" : m.rand_type, m.seed,
        m.system.clock_source.empty() ? "CLOCK_MONOTONIC" : m.system.clock_source, TimeLimitText(m),
        m.event_limit > 0 ? fmt::format("{}", m.event_limit) : "none", m.warmup_s,
        m.rate > 0 ? fmt::format("{}/s", m.rate) : "unlimited");
    return o;
  }

  std::string EndReport(const RunResult& r) const {
    std::string o;
    const bool have_latency = !r.latency.empty();
    static const LatencyHistogram kEmpty;
    const LatencyHistogram& all = have_latency ? r.latency[0].histogram : kEmpty;
    if (settings_.histogram) o += HistogramTable(all);

    std::string section = sections_ == nullptr       ? ""
                          : settings_.sysbench_exact ? sections_->SysbenchSection(r)
                                                     : sections_->TextSection(r);
    if (section.empty()) {
      const std::vector<Metric>& metrics = r.metrics;
      if (!metrics.empty()) {
        section = "Results:\n";
        for (const Metric& mt : metrics) {
          section += fmt::format("    {}: {:.2f}{}{}\n", mt.label.empty() ? mt.key : mt.label,
                                 Finite(mt.value), mt.unit.empty() ? "" : " ", mt.unit);
        }
      }
    }
    if (!section.empty() && section.back() != '\n') section += '\n';
    o += section + "\n";

    if (settings_.sysbench_exact) return o + SysbenchEnd(r, all);
    if (r.interrupted) o += "(interrupted: figures cover the time actually run)\n\n";
    if (r.forced_shutdown) o += "(forced shutdown: events still running were abandoned)\n\n";
    if (r.pauses > 0) o += PausedNote(r.paused_s, r.pauses) + "\n\n";
    if (!r.failure.ok()) o += fmt::format("Run failed: {}\n\n", r.failure.ToString());

    o += "General statistics:\n";
    o += GeneralLine("total time:", fmt::format("{:.4f}s", Finite(r.total_time_s)));
    o += GeneralLine("total number of events:", fmt::format("{}", r.events));
    if (r.errors > 0) o += GeneralLine("total number of errors:", fmt::format("{}", r.errors));
    o += "\n";

    o += LatencyBlock("Latency (ms):", all, settings_.percentile) + "\n";
    // Per kind: a block for each kind that had events; the kinds without
    // any (writes in a read-only test) on one line.
    std::vector<std::string> idle;
    for (size_t k = 1; k < r.latency.size(); ++k) {
      if (r.latency[k].histogram.Count() == 0) {
        idle.push_back(r.latency[k].kind);
        continue;
      }
      o += LatencyBlock(fmt::format("Latency of {} (ms):", r.latency[k].kind),
                        r.latency[k].histogram, settings_.percentile) +
           "\n";
    }
    if (!idle.empty()) o += fmt::format("No {} events.\n\n", JoinWithOr(idle));
    if (r.service.has_value()) {
      o += LatencyBlock("Service time (ms):", r.service->histogram, settings_.percentile) + "\n";
    }
    if (r.rate.has_value()) {
      const RateFigures& rf = *r.rate;
      o += "Rate:\n";
      o += GeneralLine("target:", fmt::format("{:.2f} events/s", Finite(rf.target)));
      o += GeneralLine("achieved:", fmt::format("{:.2f} events/s", Finite(rf.achieved)));
      o += GeneralLine("late events (>1 ms):", fmt::format("{}", rf.late_events));
      o += GeneralLine("max lag:", FormatMs(rf.max_lag_ms) + " ms");
      o += GeneralLine("final lag:", FormatMs(rf.final_lag_ms) + " ms");
      o += "    Latency above is measured from each event's intended start (it includes\n"
           "    time spent waiting behind late events); service time is measured from\n"
           "    the actual start.\n\n";
    }

    return o + FairnessAndRanks(r);
  }

  // The report's last blocks, the same in both forms.
  static std::string FairnessAndRanks(const RunResult& r) {
    std::string o = "Threads fairness:\n";
    o += FairnessLine("events (avg/stddev):", r.fairness.events);
    // Wall time: overlapping events count once.
    o += FairnessLine("execution time (avg/stddev):", r.fairness.busy_time_s);
    o += "\n";
    if (r.cluster) o += report_internal::RanksBlock(*r.cluster);
    return o;
  }

  // sysbench's end report from "General statistics:" on: its latency lines
  // with two decimals and the one chosen percentile, no loadcell blocks.
  std::string SysbenchEnd(const RunResult& r, const LatencyHistogram& all) const {
    std::string o = "General statistics:\n";
    o += GeneralLine("total time:", fmt::format("{:.4f}s", Finite(r.total_time_s)));
    o += GeneralLine("total number of events:", fmt::format("{}", r.events));
    o += "\nLatency (ms):\n";
    const auto ms = [](double ns) { return Finite(ns) / kNanosPerMs; };
    o += fmt::format("         min: {:39.2f}\n", ms(static_cast<double>(all.Min())));
    o += fmt::format("         avg: {:39.2f}\n", ms(MeanNs(all)));
    o += fmt::format("         max: {:39.2f}\n", ms(static_cast<double>(all.Max())));
    if (settings_.percentile > 0) {
      o += fmt::format("        {:>3}th percentile: {:27.2f}\n",
                       PercentileText(settings_.percentile),
                       ms(static_cast<double>(all.Percentile(settings_.percentile))));
    } else {
      o += "         percentile stats:               disabled\n";
    }
    o += fmt::format("         sum: {:39.2f}\n\n", ms(all.Count() == 0 ? 0 : all.moments().sum));
    return o + FairnessAndRanks(r);
  }

  std::ostream& out_;
  const Workload& workload_;
  const TextReportSections* sections_;  // nullptr: the generic forms
  ReportSettings settings_;
  bool rate_mode_ = false;
  double checkpoint_elapsed_s_ = 0;
  size_t checkpoints_seen_ = 0;
};

}  // namespace

std::unique_ptr<Reporter> MakeTextReporter(std::ostream& out, const Workload& w,
                                           const ReportSettings& s) {
  return std::make_unique<TextReporter>(out, w, s);
}

// Defined here, beside the report whose helpers it shares.
std::string report_internal::RanksBlock(const ClusterFigures& c) {
  std::string o = fmt::format("Ranks: {}\n", c.ranks.size());
  o += fmt::format("    {:>5}  {:<20} {:>7} {:>12} {:>14} {:>10} {:>8}\n", "rank", "host",
                   "threads", "events", "events/s", "p95 (ms)", "errors");
  for (const RankFigures& k : c.ranks) {
    o += fmt::format("    {:>5}  {:<20} {:>7} {:>12} {:>14.2f} {:>10} {:>8}\n", k.rank, k.host,
                     k.threads, k.events, Finite(k.events_per_second),
                     MsOf(static_cast<double>(k.p95_ns)), k.errors);
  }
  o += FairnessLine("events per rank (avg/stddev):", c.events_fairness);
  o += GeneralLine(
      "max clock offset from rank 0:",
      fmt::format("{} ms (measured to within {} ms)", FormatMs(c.max_clock_offset_s * 1e3),
                  FormatMs(c.max_round_trip_s * 1e3 / 2)));
  if (!c.missing_ranks.empty()) {
    std::string list;
    for (int m : c.missing_ranks) list += fmt::format("{}{}", list.empty() ? "" : ", ", m);
    o += GeneralLine("missing ranks (did not answer):", list);
  }
  if (c.stonewall) {
    const StonewallFigures& sw = *c.stonewall;
    o += GeneralLine("stonewall:", fmt::format("rank {} reached its budget first, at {:.4f}s",
                                               sw.first_rank, Finite(sw.at_s)));
    o += GeneralLine(
        "    events by then:",
        fmt::format("{:.0f} ({:.2f} per sec.)", Finite(sw.events), Finite(sw.events_per_second)));
  }
  o += "\n";
  return o;
}

}  // namespace loadcell
