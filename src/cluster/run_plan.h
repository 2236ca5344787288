#pragma once
// What a rank of an MPI run is about to run, as the ranks compare it when
// they join: the test, the command, the limits and the options that change
// what an event is. Every rank must run the same plan (its own --threads
// aside); a rank that runs another test, another command or other limits
// would be merged into one report of events that are not alike, or make
// the others wait for an end that never comes. Pure: no MPI here.

#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace loadcell {

// One setting of the plan. `name` is the option as the user spells it
// ("--time", "--cpu-max-prime"); `value` its resolved value as text, "none"
// for a limit that is off (--time=0, --events=0).
struct PlanItem {
  std::string name;
  std::string value;
};

struct RunPlan {
  std::string test;     // "cpu", "fileio", a script's name
  std::string command;  // "run", "prepare", "cleanup", a script's command
  // The limits and the settings of the run across ranks (--time, --events,
  // --rate, --warmup-time, --stonewall, --mpi-files, --mpi-mixed): always
  // compared.
  std::vector<PlanItem> limits;
  // The test's own options and the random-number options: compared unless
  // rank 0 has --mpi-mixed=on.
  std::vector<PlanItem> options;
  bool mixed = false;  // --mpi-mixed=on: the ranks may differ in `options`
};

// The value of the limit `name` in `plan.limits`; "" when it has none.
std::string_view PlanLimit(const RunPlan& plan, std::string_view name);

// The first way a rank's plan differs from rank 0's (`plans` by rank), in
// one line naming both ranks and what differs; "" when every rank runs
// rank 0's plan. Looked at in this order, the lowest rank that differs
// first: the test ("rank 1 runs memory where rank 0 runs cpu"), the
// command, a rank without a time or event limit beside one with a limit
// ("rank 1 has no time or event limit (--time=0, --events=0) where rank 0
// has one..."), then each limit and, unless rank 0's plan is mixed, each
// option ("--time differs: rank 0 has 10, rank 1 has 20"; an option only
// one of them has: "none" for the other).
std::string ComparePlans(const std::vector<RunPlan>& plans);

// The plan as bytes, for the message to rank 0, and back. Decode:
// InvalidArgument for bytes that are not a whole plan.
std::string EncodeRunPlan(const RunPlan& plan);
Result<RunPlan> DecodeRunPlan(std::string_view bytes);

}  // namespace loadcell
