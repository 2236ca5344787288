// client-cpu (docs/validity.md): one worker thread's own CPU time near all
// of its wall time, or loadcell's CPU time near all of the time its worker
// threads, or the CPUs it may use, had; or more worker threads than CPUs on
// a host whose CPUs were all but fully busy (the threads queued for a CPU,
// whoever else used it).

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

// The worker thread that wanted a CPU for the largest share of its wall
// time (RunResult::threads: its CPU time, plus its time ready to run but
// waiting for a CPU where the system tells it, over its wall time), and the
// largest share among the others; thread -1 when no thread's CPU time is
// known.
struct BusiestWorker {
  int thread = -1;
  double share = 0;   // CPU and waiting for one, over wall time
  double on_cpu = 0;  // CPU alone
  double others = 0;
  int known = 0;
};

BusiestWorker BusiestWorkerOf(const RunResult& r) {
  BusiestWorker b;
  for (size_t i = 0; i < r.threads.size(); ++i) {
    const ThreadFigures& t = r.threads[i];
    if (t.cpu_time_s < 0 || t.run_time_s <= 0) continue;
    // A thread cannot use more CPU than its wall time (past a clock tick):
    // such figures are not the threads' own (Wine's GetThreadTimes), and
    // none is used.
    if (t.cpu_time_s > t.run_time_s * kThreadCpuOverWallSlack + kThreadCpuTickS) return {};
    ++b.known;
    const double on_cpu = t.cpu_time_s / t.run_time_s;
    const double share = (t.cpu_time_s + std::max(0.0, t.cpu_wait_s)) / t.run_time_s;
    if (b.thread < 0 || share > b.share) {
      if (b.thread >= 0) b.others = std::max(b.others, b.share);
      b.thread = static_cast<int>(i);
      b.share = share;
      b.on_cpu = on_cpu;
    } else {
      b.others = std::max(b.others, share);
    }
  }
  return b;
}

// "used 99% of its wall time in CPU", or with the wait: "wanted a CPU 97%
// of its wall time"; `detail` gets "ran 60%, waited for one 37%" then.
std::string WorkerCpuText(const BusiestWorker& b, std::string* detail) {
  if (b.share - b.on_cpu < 0.005) {
    return fmt::format("used {:.0f}% of its wall time in CPU", b.share * 100);
  }
  *detail = fmt::format("ran {:.0f}%, waited for one {:.0f}%", b.on_cpu * 100,
                        (b.share - b.on_cpu) * 100);
  return fmt::format("wanted a CPU {:.0f}% of its wall time", b.share * 100);
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
  // Each worker thread's own CPU time: one saturated worker among idle
  // ones, which the process' average over its threads hides.
  const BusiestWorker busiest = BusiestWorkerOf(in.result);
  if (busiest.thread >= 0) {
    figures.push_back({"busiest_worker", static_cast<double>(busiest.thread)});
    figures.push_back({"busiest_worker_cpu", busiest.on_cpu});
    figures.push_back({"busiest_worker_wanting_cpu", busiest.share});
    if (busiest.known > 1) figures.push_back({"other_workers_cpu_max", busiest.others});
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
  const bool one_saturated = busiest.thread >= 0 && busiest.share >= kClientBusyFraction;
  if (per_thread < kClientBusyFraction && over_cpus < kClientBusyFraction && !crowded &&
      !one_saturated) {
    return Passed(kId, std::move(figures));
  }
  std::string seen;
  std::string detail;
  const std::string worker = one_saturated ? WorkerCpuText(busiest, &detail) : "";
  if (one_saturated && busiest.known > 1) {
    seen = fmt::format(
        "worker thread {} of {} {} ({}the others {:.0f}% at most): that thread, not the system "
        "under test, may set its pace",
        busiest.thread, in.result.threads.size(), worker, detail.empty() ? "" : detail + "; ",
        busiest.others * 100);
  } else if (one_saturated) {
    seen = fmt::format(
        "worker thread {} {}{}: the client, not the system under test, may set the pace",
        busiest.thread, worker, detail.empty() ? "" : " (" + detail + ")");
  } else if (per_thread >= kClientBusyFraction) {
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
