#include "workloads/builtin.h"

#include "workloads/fileio/fileio.h"
#include "workloads/micro/cpu.h"
#include "workloads/micro/memory.h"
#include "workloads/micro/mutex.h"
#include "workloads/micro/null.h"
#include "workloads/micro/threads.h"
#include "workloads/oltp/oltp.h"

namespace loadcell {
namespace {

template <typename T>
std::unique_ptr<Workload> Make() {
  return std::make_unique<T>();
}

template <OltpKind K>
std::unique_ptr<Workload> MakeOltp() {
  return std::make_unique<OltpWorkload>(K);
}

}  // namespace

const std::vector<WorkloadEntry>& BuiltinWorkloads() {
  // The one explicit list; `loadcell list` prints it in this order.
  static const std::vector<WorkloadEntry>* const kList = [] {
    auto* list = new std::vector<WorkloadEntry>;
    auto add = [list](std::unique_ptr<Workload> (*make)()) {
      const std::unique_ptr<Workload> w = make();
      const WorkloadInfo info = w->Info();
      list->push_back({info.name, info.summary, make});
    };
    add(&Make<CpuWorkload>);
    add(&Make<MemoryWorkload>);
    add(&Make<ThreadsWorkload>);
    add(&Make<MutexWorkload>);
    add(&Make<NullWorkload>);
    add(&Make<FileIoWorkload>);
    add(&MakeOltp<OltpKind::kReadOnly>);
    add(&MakeOltp<OltpKind::kReadWrite>);
    add(&MakeOltp<OltpKind::kWriteOnly>);
    add(&MakeOltp<OltpKind::kPointSelect>);
    add(&MakeOltp<OltpKind::kUpdateIndex>);
    add(&MakeOltp<OltpKind::kUpdateNonIndex>);
    add(&MakeOltp<OltpKind::kInsert>);
    add(&MakeOltp<OltpKind::kDelete>);
    add(&MakeOltp<OltpKind::kRandomPoints>);
    add(&MakeOltp<OltpKind::kRandomRanges>);
    add(&MakeOltp<OltpKind::kBulkInsert>);
    add(&MakeOltp<OltpKind::kLegacy>);
    return list;
  }();
  return *kList;
}

std::unique_ptr<Workload> MakeWorkload(const std::string& name) {
  for (const WorkloadEntry& e : BuiltinWorkloads()) {
    if (e.name == name) return e.make();
  }
  return nullptr;
}

}  // namespace loadcell
