#include "workloads/micro/null.h"

namespace loadcell {
namespace {

class NullWorker final : public Worker {
 public:
  Status RunEvent() override { return Status::Ok(); }
};

}  // namespace

WorkloadInfo NullWorkload::Info() const {
  WorkloadInfo info;
  info.name = "null";
  info.runs_per_process = true;
  info.summary = "empty events: the tool's own overhead per event";
  info.event_definition =
      "one event does nothing and returns at once, so the figures measure the tool itself "
      "(event dispatch, timing and recording)";
  return info;
}

Result<std::unique_ptr<Worker>> NullWorkload::NewWorker(const ThreadContext& /*ctx*/) {
  return std::unique_ptr<Worker>(std::make_unique<NullWorker>());
}

}  // namespace loadcell
