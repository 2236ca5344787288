#pragma once
// The one explicit list of built-in tests.

#include <memory>
#include <string>
#include <vector>

#include "runner/workload.h"

namespace loadcell {

struct WorkloadEntry {
  std::string name;
  std::string summary;
  std::unique_ptr<Workload> (*make)();
};

// Every built-in test, in the order `loadcell list` prints them.
const std::vector<WorkloadEntry>& BuiltinWorkloads();
// nullptr when no test has that name.
std::unique_ptr<Workload> MakeWorkload(const std::string& name);

}  // namespace loadcell
