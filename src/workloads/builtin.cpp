#include "workloads/builtin.h"

#include "workloads/cpu.h"
#include "workloads/memory.h"
#include "workloads/mutex.h"
#include "workloads/null.h"
#include "workloads/threads.h"

namespace loadcell {
namespace {

template <typename T>
std::unique_ptr<Workload> Make() {
  return std::make_unique<T>();
}

}  // namespace

const std::vector<WorkloadEntry>& BuiltinWorkloads() {
  // The one explicit list; `loadcell list` prints it in this order.
  static const std::vector<WorkloadEntry>* const kList = [] {
    auto* list = new std::vector<WorkloadEntry>;
    auto add = [list](std::unique_ptr<Workload> (*make)()) {
      const std::unique_ptr<Workload> w = make();
      list->push_back({w->Name(), w->Summary(), make});
    };
    add(&Make<CpuWorkload>);
    add(&Make<MemoryWorkload>);
    add(&Make<ThreadsWorkload>);
    add(&Make<MutexWorkload>);
    add(&Make<NullWorkload>);
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
