// client-cpu (docs/validity.md): loadcell's own CPU time near all of the
// time its worker threads, or the CPUs it may use, had; or more worker
// threads than CPUs on a host whose CPUs were all but fully busy (the
// threads queued for a CPU, whoever else used it).

#include <fmt/format.h>

#include <algorithm>

#include "validity/check.h"
#include "validity/thresholds.h"

namespace loadcell::validity {
namespace {

// In the words of the workload's front end: a file workload can also
// deepen its queue instead of adding threads.
std::string ClientCpuAdvice(const WorkloadFacts& w) {
  const IoOptionNames& names = w.option_names;
  if (w.io.empty()) return "use fewer --threads than CPUs, or more CPUs for the client";
  return fmt::format(
      "use fewer {} than CPUs, a deeper queue with an asynchronous engine ({}), or more CPUs "
      "for the client",
      names.threads, names.deeper_queue);
}

}  // namespace

std::optional<CheckOutcome> CheckClientCpu(const CheckInput& in) {
  constexpr const char* kId = "client-cpu";
  if (in.workload.measures_client_cpu) return std::nullopt;
  const HostWindow& w = in.host.window;
  if (!w.known || w.wall_s <= 0) return NotChecked(kId, "the run's start was not seen");
  // The process' CPU time is that of every job that ran at once (fio's
  // jobs of a group, DiskSpd's threads, dbsim's users): over their threads.
  const int threads = std::max({1, in.result.manifest.threads, in.result.concurrent_threads});
  const int usable = in.host.cpus > 0 ? std::min(threads, in.host.cpus) : threads;
  const double per_thread = w.process_cpu_s / w.wall_s / threads;
  const double over_cpus = w.process_cpu_s / w.wall_s / usable;
  std::vector<CheckFigure> figures = {{"process_cpu_s", w.process_cpu_s},
                                      {"wall_s", w.wall_s},
                                      {"cpu_per_thread", per_thread},
                                      {"cpu_over_usable_cpus", over_cpus}};
  if (in.result.concurrent_threads > in.result.manifest.threads) {
    figures.push_back({"concurrent_threads", static_cast<double>(threads)});
  }
  if (w.host_busy_fraction >= 0) figures.push_back({"host_busy", w.host_busy_fraction});
  // The busy share is of the workers' CPUs alone when they are some of the
  // host's.
  if (w.host_busy_fraction >= 0 && w.host_busy_cpus > 0) {
    figures.push_back({"host_busy_cpus", static_cast<double>(w.host_busy_cpus)});
  }
  // More threads than CPUs on a host with no CPU to spare: the threads
  // waited for one, though loadcell's own share may be small when other
  // processes took the rest.
  const bool crowded =
      in.host.cpus > 0 && threads > in.host.cpus && w.host_busy_fraction >= kClientBusyFraction;
  if (per_thread < kClientBusyFraction && over_cpus < kClientBusyFraction && !crowded) {
    return Passed(kId, std::move(figures));
  }
  std::string seen;
  if (per_thread >= kClientBusyFraction) {
    seen = fmt::format(
        "loadcell used {:.0f}% of each worker thread's wall time in CPU: the client, not the "
        "system under test, may set the pace",
        per_thread * 100);
  } else if (over_cpus >= kClientBusyFraction) {
    seen = fmt::format(
        "loadcell used {:.0f}% of the {} CPUs it may run on ({} threads): the client, not the "
        "system under test, may set the pace",
        over_cpus * 100, usable, threads);
  } else {
    seen = fmt::format(
        "{} worker threads shared {} CPUs{} that were {:.0f}% busy (loadcell's own share "
        "{:.0f}%): the threads waited for a CPU, and the client, not the system under test, "
        "may set the pace",
        threads, in.host.cpus, w.host_busy_cpus > 0 ? " (theirs, not the whole host's)" : "",
        w.host_busy_fraction * 100, over_cpus * 100);
  }
  return Found(kId, CheckLevel::kWarn, seen, ClientCpuAdvice(in.workload), std::move(figures));
}

}  // namespace loadcell::validity
