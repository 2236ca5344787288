#include "workloads/micro/null.h"

namespace loadcell {
namespace {

class NullWorker final : public Worker {
 public:
  Status RunEvent() override { return Status::Ok(); }
};

}  // namespace

std::string NullWorkload::Summary() const {
  return "empty events: the tool's own overhead per event";
}

std::string NullWorkload::EventDefinition() const {
  return "one event does nothing and returns at once, so the figures measure the tool itself "
         "(event dispatch, timing and recording)";
}

Result<std::unique_ptr<Worker>> NullWorkload::NewWorker(const ThreadContext& /*ctx*/) {
  return std::unique_ptr<Worker>(std::make_unique<NullWorker>());
}

}  // namespace loadcell
