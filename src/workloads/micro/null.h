#pragma once
// null: empty events, for measuring the tool's own per-event overhead.

#include <memory>
#include <string>

#include "runner/workload.h"

namespace loadcell {

class NullWorkload final : public Workload {
 public:
  WorkloadInfo Info() const override;
  void RegisterOptions(OptionSet& opts) override {}
  Result<std::unique_ptr<Worker>> NewWorker(const ThreadContext& ctx) override;
};

}  // namespace loadcell
