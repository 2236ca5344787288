#pragma once
// What one OLTP event runs (the plan) and how many statements of each kind
// that makes, as sysbench 1.0 counts them.

#include <cstdint>
#include <string>
#include <vector>

#include "workloads/oltp/oltp_options.h"
#include "workloads/oltp/oltp_sql.h"

namespace loadcell {

// One group of statements on one randomly chosen table (sysbench picks a
// table per group). A kDelete step is the DELETE + INSERT pair.
struct OltpStep {
  OltpStmt stmt;
  int64_t repeat = 1;
};

struct OltpPlan {
  OltpKind kind = OltpKind::kReadWrite;  // resolved (never kLegacy)
  bool transaction = false;              // BEGIN ... COMMIT around the steps
  std::vector<OltpStep> steps;
};

// The plan of workload `kind` (kLegacy is resolved with ResolveLegacyMix).
OltpPlan MakeOltpPlan(OltpKind kind, const OltpOptions& o);

// Statements per event when every write changes a row.
struct QueryMix {
  uint64_t reads = 0;
  uint64_t writes = 0;
  uint64_t others = 0;
  uint64_t total() const { return reads + writes + others; }
};
QueryMix ExpectedMix(const OltpPlan& plan);

// "BEGIN, 10 point selects, ..., COMMIT": for the report header.
std::string DescribePlan(const OltpPlan& plan);

}  // namespace loadcell
