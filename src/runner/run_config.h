#pragma once
// The runner's own (general) options, in sysbench 1.0's names.

#include <cstdint>
#include <string>
#include <vector>

#include "core/options.h"
#include "core/random.h"
#include "runner/validity.h"

namespace loadcell {

struct RunConfig {
  int64_t threads = 1;
  double time_s = 10;  // 0: no limit
  int64_t events = 0;  // 0: no limit
  double rate = 0;     // events/s over all threads, 0: closed loop
  double report_interval_s = 0;
  std::vector<std::string> report_checkpoints;  // seconds, as text
  double warmup_s = 0;
  double percentile = 95;  // 0 turns it off
  bool histogram = false;
  int64_t seed = 0;  // 0: from the clock (recorded in the manifest)
  DistributionConfig rand;
  std::string forced_shutdown = "auto";  // auto | off | seconds | N% of --time
  int64_t verbosity = 3;
  std::string config_file;
  std::string format = "text";  // text|json|csv
  std::string output_file;
  uint64_t thread_stack_size = 0;  // 0: system default
  std::string clock = "auto";      // auto|monotonic: how events are timed
  std::string verdict = "on";      // off|on|strict (runner/validity.h)
  // --verdict as a mode.
  VerdictMode verdict_mode() const;
  bool time_given = false;  // --time set by the user (events alone: no time cut)
  // Not an option: under --rate, the run fails once the schedule is this
  // many events ahead of the threads (0: never). sysbench mode sets
  // sysbench's event queue (kSysbenchEventQueue), which the scheduled events
  // fill while no thread takes them.
  uint64_t rate_backlog_limit = 0;
  static constexpr uint64_t kSysbenchEventQueue = 131072;
  // Not an option: set by a front end whose jobs start late (fio's
  // startdelay). Seconds from the moment the run (its job group) is
  // released to the moment its threads start; the run's time limit and
  // warm-up count from then. A stop request during the wait ends it.
  double start_delay_s = 0;
  // Not an option: set by a front end with a cool-down (DiskSpd's -C).
  // Seconds the threads go on after the time limit, their events not
  // measured; the measured span still ends at the time limit. Needs a time
  // limit and the closed loop (a run under --rate or with its own loop
  // refuses it).
  double cooldown_s = 0;
  // Not an option: set by a front end whose warm-up is cut short by the end
  // of the work (fio's ramp_time on a job done before it ends). A run whose
  // threads all end inside the warm-up is then measured from their release,
  // with what the workload recorded (its worker turns its recorder on);
  // otherwise such a run measured nothing, in no time.
  bool warmup_cut_short_measured = false;
  // Not an option: set by the front end for live status and charts. Period
  // of RunObserver::OnStatus in seconds; 0: no status ticks.
  double status_interval_s = 0;
  // Not an option: set by the front end when this process is one of several
  // running the test together (the ranks of an MPI run).
  struct ProcessShare {
    int first_thread = 0;   // this process' first thread among every process' threads
    int total_threads = 0;  // every process' threads; 0: this process runs alone
    // The seed every process uses when --rand-seed is not given (0: none):
    // each thread's seed then comes from it and the thread's place among all.
    uint64_t seed = 0;
  } share;

  // Registers every general option (and its legacy alias) bound to this.
  void RegisterOptions(OptionSet& opts);
  // Cross-option rules after parsing (e.g. --events alone clears the default
  // --time). `opts` is the set this was registered with.
  Status Finalize(const OptionSet& opts);
  // Parsed --report-checkpoints in seconds, ascending.
  std::vector<double> CheckpointTimes() const;
  // Seconds to wait after the time limit before forcing shutdown; <0: off.
  double ForcedShutdownAfter() const;
  // Seconds to wait after a stop signal before forcing shutdown: the
  // --forced-shutdown grace, or kDefaultStopGrace when that is off (a stop
  // signal always ends the run).
  double StopGrace() const;
  static constexpr double kDefaultStopGrace = 5;
  // --forced-shutdown=auto (the default): after the time limit, the grace
  // (kDefaultStopGrace) grows to kGraceEventFactor times the longest event
  // completed so far, so that events merely slower than 5 s are waited for;
  // after a stop signal it stays kDefaultStopGrace.
  bool GraceGrowsWithEvents() const { return forced_shutdown == "auto"; }
  static constexpr double kGraceEventFactor = 2;
};

}  // namespace loadcell
