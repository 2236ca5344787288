// noisy-host (docs/validity.md): a host that took CPU time from the run
// (steal) or slowed its CPUs (thermal throttling); a virtual machine is
// stated, not judged.

#include <fmt/format.h>

#include <string>

#include "validity/check.h"
#include "validity/thresholds.h"

namespace loadcell::validity {

std::optional<CheckOutcome> CheckNoisyHost(const CheckInput& in) {
  constexpr const char* kId = "noisy-host";
  const HostWindow& w = in.host.window;
  if (!w.known) return NotChecked(kId, "the run's start was not seen");
  const std::string& vm = in.host.virtual_machine;
  const double vm_figure = vm.empty() ? 0.0 : 1.0;
  if (w.steal_fraction < 0) {
    // Windows: no steal time, and no throttle events; a virtual machine is
    // still stated, on the line that says what could not be checked.
    std::string why = "the system does not state its CPUs' steal time";
    if (!vm.empty()) {
      why += "; a virtual machine (" + vm +
             "): its figures are the guest's, and other guests may share its CPUs";
    }
    CheckOutcome out = NotChecked(kId, std::move(why));
    out.figures = {{"virtual_machine", vm_figure}};
    return out;
  }
  if (w.wall_s < kStealMinWallS) {
    std::string why = fmt::format(
        "the run's {:.3f} s are too short to tell the hypervisor's share of the CPUs (steal is "
        "counted in 10 ms ticks; at least {:.0f} s)",
        w.wall_s, kStealMinWallS);
    if (!vm.empty()) why += "; a virtual machine (" + vm + "): its figures are the guest's";
    CheckOutcome out = NotChecked(kId, std::move(why));
    out.figures = {{"virtual_machine", vm_figure}};
    return out;
  }
  std::vector<CheckFigure> figures = {{"steal_fraction", w.steal_fraction},
                                      {"virtual_machine", vm_figure}};
  if (w.throttle_known) {
    figures.push_back({"throttle_events", static_cast<double>(w.throttle_events)});
  }
  if (w.steal_fraction > kStealMaxFraction) {
    return Found(kId, CheckLevel::kWarn,
                 fmt::format("the hypervisor took {:.1f}% of the host's CPU time over the run "
                             "(steal): other guests ran on its CPUs",
                             w.steal_fraction * 100),
                 "run on a host whose CPUs are not shared, or repeat the run and compare",
                 std::move(figures));
  }
  if (w.throttle_known && w.throttle_events > 0) {
    return Found(
        kId, CheckLevel::kWarn,
        fmt::format("the CPUs were throttled for heat {} times over the run", w.throttle_events),
        "cool the host, or let it idle between runs", std::move(figures));
  }
  CheckOutcome ok = Passed(kId, std::move(figures));
  if (!vm.empty()) ok.seen = "a virtual machine (" + vm + "): its figures are the guest's";
  return ok;
}

}  // namespace loadcell::validity
