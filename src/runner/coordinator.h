#pragma once
// What a run shares with other processes running the same test at the same
// time (the ranks of an MPI run): a common start, a word while the run goes
// on (stop now; the merged interval lines) and the merge of their results.
// The runner calls it at these points and knows nothing else about it; a
// run of one process uses the no-op default (SoloCoordinator()).
// The implementations live in cluster/, chosen in one place (cli/).

#include <vector>

#include "core/clock.h"
#include "core/status.h"
#include "runner/run_result.h"

namespace loadcell {

// What the coordinator tells the run at a poll.
struct CoordinatorNews {
  // Stop every thread now, as a stop signal would (another participant
  // failed, was interrupted, or reached its budget first under a
  // stonewall); the run then ends as usual, with its result.
  bool stop = false;
  // Intervals to report now (merged across the participants), in order.
  std::vector<IntervalSnapshot> intervals;
};

class RunCoordinator {
 public:
  virtual ~RunCoordinator() = default;

  // Called once, on the control thread, when this process is ready to start
  // (`ready` Ok: every worker created, the threads waiting) or could not get
  // ready (`ready` its error: Configure or Spawn failed). Returns when every
  // participant has said the same and the common start has come: Ok to
  // release the threads now; otherwise the error the run ends with before
  // any event (`ready` itself when it failed, else one naming the
  // participant that did). The default returns `ready` at once.
  virtual Status Start(const Status& ready) { return ready; }

  // Called on the control thread at every turn of the control loop while
  // the threads run (at most the loop's poll period apart, 50 ms), never
  // per event. Adds to `news` what the run must do. The default says
  // nothing.
  virtual void Poll(Nanos now, CoordinatorNews& news) {}

  // Called on the control thread at each --report-interval end with this
  // process' own interval. True: the run reports it itself (the default);
  // false: the coordinator took it, and the intervals to report come back
  // through Poll (or Finish) instead.
  virtual bool ShareInterval(const IntervalSnapshot& interval) { return true; }

  // Called once, on the control thread, after the measured run ended and its
  // threads were joined (or abandoned), with this process' result: raw and
  // derived figures filled, metrics not yet (the runner derives them from
  // what this leaves). May replace `result` with every participant's figures
  // merged (the process that reports) or leave it (the others). The
  // intervals in result.intervals stay in front; the ones appended after
  // them (completed only at the end) are reported by the runner after
  // Finish. The default leaves it.
  virtual void Finish(RunResult& result) {}

  // Finish for several runs of this process that ended together and are
  // merged each with the same run of every other participant (the jobs of
  // a group, runner/jobs.h, started by one Start and polled through one
  // Poll): called once, on the thread that called Start, with every run's
  // result, in the same order on every participant; each may be replaced
  // by the merge of its run's figures across the participants (intervals
  // too, tick by tick). The default finishes each on its own.
  virtual void FinishRuns(const std::vector<RunResult*>& results) {
    for (RunResult* r : results) Finish(*r);
  }
};

// The no-op coordinator of a run in one process.
RunCoordinator& SoloCoordinator();

}  // namespace loadcell
