#pragma once
// What a run shares with other processes running the same test at the same
// time (the ranks of an MPI run): a common start and the merge of their
// results. The runner calls it at two points and knows nothing else about
// it; a run of one process uses the no-op default (SoloCoordinator()).
// The implementations live in cluster/, chosen in one place (cli/).

#include "core/status.h"
#include "runner/run_result.h"

namespace loadcell {

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

  // Called once, on the control thread, after the measured run ended and its
  // threads were joined (or abandoned), with this process' result: raw and
  // derived figures filled, metrics not yet (the runner derives them from
  // what this leaves). May replace `result` with every participant's figures
  // merged (the process that reports) or leave it (the others). The default
  // leaves it.
  virtual void Finish(RunResult& result) {}
};

// The no-op coordinator of a run in one process.
RunCoordinator& SoloCoordinator();

}  // namespace loadcell
