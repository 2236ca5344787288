#include "runner/run_config.h"

#include <algorithm>
#include <cmath>

#include "core/random.h"

namespace loadcell {

namespace {

// --rand-type and the parameters of the distributions, bound to `rand`.
void RegisterDistributionOptions(OptionSet& opts, DistributionConfig& rand) {
  opts.Enum("rand-type", &rand.type, "special", DistributionNames(), "random numbers distribution")
      .Alias("oltp-dist-type");
  opts.Int("rand-spec-iter", &rand.spec_iter, 12,
           "number of iterations for the gaussian and special distributions")
      .Alias("oltp-dist-iter")
      .Min(1);
  opts.Double("rand-spec-pct", &rand.spec_pct, 1,
              "percentage of values treated as 'special' (special distribution)")
      .Alias("oltp-dist-pct")
      .Min(0)
      .Max(100);
  opts.Double("rand-spec-res", &rand.spec_res, 75,
              "percentage of 'special' values to use (special distribution)")
      .Alias("oltp-dist-res")
      .Min(0)
      .Max(100);
  opts.Double("rand-pareto-h", &rand.pareto_h, 0.2, "parameter h of the pareto distribution")
      .Min(0)
      .Max(1)
      .Check([&rand]() -> std::string {
        return rand.pareto_h > 0 && rand.pareto_h < 1 ? "" : "must be between 0 and 1 (exclusive)";
      });
  opts.Double("rand-zipfian-exp", &rand.zipfian_exp, 0.8, "exponent of the zipfian distribution")
      .Min(0)
      .Check([&rand]() -> std::string { return rand.zipfian_exp > 0 ? "" : "must be above 0"; });
}

}  // namespace

void RunConfig::RegisterOptions(OptionSet& opts) {
  opts.Int("threads", &threads, 1, "number of threads to use")
      .Alias("num-threads")
      .Min(1)
      .Max(100000);
  opts.Int("events", &events, 0, "limit for the total number of events (0: no limit)")
      .Alias("max-requests")
      .Min(0);
  opts.Seconds("time", &time_s, 10, "limit for the total execution time in seconds (0: no limit)")
      .Alias("max-time")
      .Min(0);
  opts.Rate("rate", &rate, 0,
            "target event rate over all threads, events/s (0: as fast as possible); "
            "latency is then measured from each event's intended start")
      .Alias("tx-rate");
  opts.Seconds("report-interval", &report_interval_s, 0,
               "report intermediate statistics every N seconds (0: off)")
      .Min(0);
  opts.List("report-checkpoints", &report_checkpoints, "",
            "print the full report and reset the statistics at these times (seconds since "
            "the start, comma-separated)")
      .Check([this]() -> std::string {
        for (const auto& c : report_checkpoints) {
          auto s = ParseSeconds(c);
          if (!s.ok() || *s <= 0 || *s > kMaxOptionSeconds) {
            return "each item must be a number of seconds above 0 and at most 1000000000";
          }
        }
        return "";
      });
  opts.Seconds("warmup-time", &warmup_s, 0,
               "run events for this many seconds before measuring; excluded from every figure")
      .Min(0);
  opts.Double("percentile", &percentile, 95,
              "percentile to report in latency statistics (e.g. 99.9; 0: off)")
      .Min(0)
      .Max(100);
  opts.Bool("histogram", &histogram, false, "print the latency histogram in the report");
  opts.Int("rand-seed", &seed, 0, "seed for the random number generators (0: from the clock)")
      .Alias("seed-rng")
      .Min(0);
  RegisterDistributionOptions(opts, rand);
  opts.String("forced-shutdown", &forced_shutdown, "auto",
              "seconds to wait after the --time limit or a stop signal for events still "
              "running, then abandon them and report (exit 1), N% of --time, 'off' (wait "
              "for them at the time limit, as sysbench), or 'auto': 5 s, and after the time "
              "limit twice the longest event seen if that is longer")
      .Check([this]() -> std::string {
        std::string v = forced_shutdown;
        if (v == "off" || v == "auto") return "";
        if (!v.empty() && v.back() == '%') v.pop_back();
        auto d = ParseDouble(v);
        if (!d.ok() || *d < 0 || *d > kMaxOptionSeconds) {
          return "use 'auto', 'off', a number of seconds (0 to 1000000000) or a percentage like "
                 "10%";
        }
        return "";
      });
  opts.Int("verbosity", &verbosity, 3, "verbosity level (0: only critical messages, 5: debug)")
      .Min(0)
      .Max(5);
  opts.String("config-file", &config_file, "", "file with options, one name=value per line");
  opts.Enum("format", &format, "text", {"text", "json", "csv"}, "report format");
  opts.String("output-file", &output_file, "",
              "write the report in --format to this file (the text report still goes to stdout)");
  opts.Enum("clock", &clock, "auto", {"auto", "monotonic"},
            "how events are timed: auto uses the invariant TSC where the kernel trusts it "
            "(calibrated against CLOCK_MONOTONIC), monotonic always reads CLOCK_MONOTONIC");
  opts.Enum("verdict", &verdict, "on", {"off", "on", "strict"},
            "the validity verdict at the end of the report (docs/validity.md): off, on, or "
            "strict (as on, and exit 3 when the result is INVALID)");
  opts.Size("thread-stack-size", &thread_stack_size, 0,
            "stack size per worker thread (0: the system default)");
}

VerdictMode RunConfig::verdict_mode() const {
  return VerdictModeNamed(verdict).value_or(VerdictMode::kOn);
}

Status RunConfig::Finalize(const OptionSet& opts) {
  const OptionSpec* t = opts.Find("time");
  time_given = t != nullptr && !t->is_default();
  // sysbench 1.0: --events alone is not cut off by the default --time.
  if (!time_given && events > 0) time_s = 0;
  return Status::Ok();
}

std::vector<double> RunConfig::CheckpointTimes() const {
  std::vector<double> out;
  for (const auto& c : report_checkpoints) {
    auto s = ParseSeconds(c);
    if (s.ok() && *s > 0) out.push_back(*s);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

double RunConfig::ForcedShutdownAfter() const {
  if (forced_shutdown == "off" || forced_shutdown.empty()) return -1;
  if (forced_shutdown == "auto") return kDefaultStopGrace;
  std::string v = forced_shutdown;
  bool pct = !v.empty() && v.back() == '%';
  if (pct) v.pop_back();
  auto d = ParseDouble(v);
  if (!d.ok() || *d < 0) return -1;
  return std::min(pct ? time_s * *d / 100.0 : *d, kMaxOptionSeconds);
}

double RunConfig::StopGrace() const {
  const double grace = ForcedShutdownAfter();
  // A percentage of no time limit says nothing about the grace.
  const bool percent_of_nothing =
      time_s <= 0 && !forced_shutdown.empty() && forced_shutdown.back() == '%';
  return grace >= 0 && !percent_of_nothing ? grace : kDefaultStopGrace;
}

}  // namespace loadcell
