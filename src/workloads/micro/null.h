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
  // The test measures the CPU it runs on: a busy client is its point.
  WorkloadFacts Facts(const RunResult& /*r*/) const override {
    WorkloadFacts f;
    f.measures_client_cpu = true;
    return f;
  }
};

}  // namespace loadcell
