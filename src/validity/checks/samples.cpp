// samples (docs/validity.md): a percentile printed from too few events
// beyond it, and a run too short for its --report-interval or its
// --warmup-time.

#include <fmt/format.h>

#include <cmath>

#include "validity/check.h"
#include "validity/thresholds.h"

namespace loadcell::validity {

namespace {

// The front end's warm-up option, or what stands for it where it has none.
std::string WarmUpName(const CheckInput& in) {
  const std::string& name = in.workload.option_names.warm_up;
  return name.empty() ? std::string("warm-up") : name;
}

// More events, or (where the front end's option sets the printed
// percentile) a lower percentile.
std::string TailAdvice(const CheckInput& in, double needed) {
  const IoOptionNames& names = in.workload.option_names;
  std::string advice = fmt::format("run at least {:.0f} events ({})", needed, names.run_length);
  if (!names.percentile.empty()) advice += " or print a lower " + names.percentile;
  return advice;
}

}  // namespace

std::optional<CheckOutcome> CheckSamples(const CheckInput& in) {
  constexpr const char* kId = "samples";
  const RunResult& r = in.result;
  const double events = static_cast<double>(r.events);
  std::vector<CheckFigure> figures = {{"events", events}};
  if (r.events == 0) {
    return Found(
        kId, CheckLevel::kInvalid, "no event was measured",
        "run longer (" + in.workload.option_names.run_length + ") or look at the errors above",
        figures);
  }
  if (in.percentile > 0 && in.percentile < 100) {
    const double tail = events * (100 - in.percentile) / 100;
    figures.push_back({"percentile", in.percentile});
    figures.push_back({"events_beyond_percentile", tail});
    if (tail < kMinTailSamples) {
      const double needed = std::ceil(kMinTailSamples * 100 / (100 - in.percentile));
      return Found(kId, CheckLevel::kWarn,
                   fmt::format("the {}th percentile rests on {:.1f} events beyond it ({} events "
                               "in all; fewer than {:.0f})",
                               in.percentile, tail, r.events, kMinTailSamples),
                   TailAdvice(in, needed), figures);
    }
  }
  const double warmup_s = r.manifest.warmup_s;
  if (in.report_interval_s > 0 || warmup_s > 0) figures.push_back({"time_s", r.total_time_s});
  if (warmup_s > 0) figures.push_back({"warmup_s", warmup_s});
  if (in.report_interval_s > 0) {
    figures.push_back({"report_interval_s", in.report_interval_s});
    if (r.total_time_s < kMinIntervals * in.report_interval_s) {
      // A front end without the option (fio's 0.5 s samples) names none.
      const std::string& option = in.workload.option_names.report_interval;
      return Found(
          kId, CheckLevel::kWarn,
          option.empty() ? fmt::format("the run measured {:.2f}s, shorter than {} intervals of {}s",
                                       r.total_time_s, kMinIntervals, in.report_interval_s)
                         : fmt::format("the run measured {:.2f}s, shorter than {} intervals of "
                                       "{}={}",
                                       r.total_time_s, kMinIntervals, option, in.report_interval_s),
          option.empty()
              ? fmt::format("run at least {:.0f}s ({})", kMinIntervals * in.report_interval_s,
                            in.workload.option_names.run_length)
              : fmt::format("run at least {:.0f}s ({}) or use a shorter {}",
                            kMinIntervals * in.report_interval_s,
                            in.workload.option_names.run_length, option),
          figures);
    }
  }
  if (warmup_s > 0 && r.total_time_s < kMinMeasuredOverWarmUp * warmup_s) {
    return Found(
        kId, CheckLevel::kWarn,
        fmt::format("the run measured {:.2f}s, shorter than its {}={}: it "
                    "cannot show that the settled rate holds for as long as it took "
                    "to settle",
                    r.total_time_s, WarmUpName(in), warmup_s),
        fmt::format("measure at least {:g}s after the warm-up ({})",
                    kMinMeasuredOverWarmUp * warmup_s, in.workload.option_names.run_length),
        figures);
  }
  return Passed(kId, std::move(figures));
}

}  // namespace loadcell::validity
