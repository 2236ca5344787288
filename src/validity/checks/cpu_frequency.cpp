// cpu-frequency (docs/validity.md): a CPU whose frequency changed between
// the run's start and its end ran the run at more than one speed.

#include <fmt/format.h>

#include "validity/check.h"
#include "validity/thresholds.h"

namespace loadcell::validity {

std::optional<CheckOutcome> CheckCpuFrequency(const CheckInput& in) {
  constexpr const char* kId = "cpu-frequency";
  const HostWindow& w = in.host.window;
  if (!w.known) return NotChecked(kId, "the run's start was not seen");
  if (w.frequency_change < 0) {
    return NotChecked(kId, "the system does not state the CPUs' frequencies (no cpufreq)");
  }
  std::vector<CheckFigure> figures = {{"frequency_start_mhz", w.frequency_start_mhz},
                                      {"frequency_end_mhz", w.frequency_end_mhz},
                                      {"frequency_change", w.frequency_change}};
  const std::string governor = w.governor.empty() ? "" : ", governor " + w.governor;
  if (w.frequency_change <= kFrequencyMaxChange) {
    CheckOutcome ok = Passed(kId, std::move(figures));
    if (!w.governor.empty()) ok.seen = "governor " + w.governor;
    return ok;
  }
  // A test of the CPU itself measures the frequency it ran at; for others
  // it is the client's pace.
  return Found(
      kId, CheckLevel::kWarn,
      fmt::format("a CPU's frequency changed by {:.0f}% over the run (mean {:.0f} MHz at "
                  "the start, {:.0f} MHz at the end{}): {}",
                  w.frequency_change * 100, w.frequency_start_mhz, w.frequency_end_mhz, governor,
                  in.workload.measures_client_cpu ? "the result mixes speeds"
                                                  : "the client ran at more than one speed"),
      in.workload.option_names.warm_up.empty()
          ? std::string("set the performance governor (cpupower frequency-set -g performance)")
          : "set the performance governor (cpupower frequency-set -g performance), or warm up "
            "with " +
                in.workload.option_names.warm_up,
      std::move(figures));
}

}  // namespace loadcell::validity
