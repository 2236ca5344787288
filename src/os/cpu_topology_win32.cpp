// os/cpu_topology.h on Windows: GetLogicalProcessorInformationEx's groups,
// NUMA nodes, packages and cores, as DiskSpd reads them.

#include <windows.h>

#include <vector>

#include "os/cpu_topology.h"

namespace loadcell {
namespace {

std::vector<int> ProcessorsOfMask(KAFFINITY mask) {
  std::vector<int> out;
  for (int i = 0; i < 64; ++i) {
    if ((mask >> i & 1) != 0) out.push_back(i);
  }
  return out;
}

CpuTopologyUnit UnitOfAffinity(int number, const GROUP_AFFINITY* masks, WORD count) {
  CpuTopologyUnit u;
  u.number = number;
  for (WORD i = 0; i < count; ++i) {
    u.members.push_back(CpuGroupMembers{masks[i].Group, ProcessorsOfMask(masks[i].Mask)});
  }
  return u;
}

CpuTopology UniformFromSystemInfo() {
  SYSTEM_INFO si{};
  GetSystemInfo(&si);
  return UniformCpuTopology(static_cast<int>(si.dwNumberOfProcessors));
}

}  // namespace

CpuTopology ReadCpuTopology() {
  DWORD bytes = 0;
  GetLogicalProcessorInformationEx(RelationAll, nullptr, &bytes);
  if (GetLastError() != ERROR_INSUFFICIENT_BUFFER || bytes == 0) return UniformFromSystemInfo();
  std::vector<char> buf(bytes);
  auto* first = reinterpret_cast<SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX*>(buf.data());
  if (!GetLogicalProcessorInformationEx(RelationAll, first, &bytes)) {
    return UniformFromSystemInfo();
  }
  CpuTopology t;
  int socket_number = 0;
  for (DWORD at = 0; at + sizeof(LOGICAL_PROCESSOR_RELATIONSHIP) + sizeof(DWORD) <= bytes;) {
    const auto* r =
        reinterpret_cast<const SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX*>(buf.data() + at);
    if (r->Size == 0 || at + r->Size > bytes) break;
    switch (r->Relationship) {
      case RelationGroup:
        for (WORD g = 0; g < r->Group.ActiveGroupCount; ++g) {
          const PROCESSOR_GROUP_INFO& info = r->Group.GroupInfo[g];
          t.groups.push_back(CpuTopologyGroup{g, info.MaximumProcessorCount,
                                              ProcessorsOfMask(info.ActiveProcessorMask)});
        }
        break;
      case RelationNumaNode:
        // One group's mask per node (the record before Windows 10's
        // GroupCount; a node spanning groups is seen in its first).
        t.nodes.push_back(
            UnitOfAffinity(static_cast<int>(r->NumaNode.NodeNumber), &r->NumaNode.GroupMask, 1));
        break;
      case RelationProcessorPackage:
        t.sockets.push_back(
            UnitOfAffinity(socket_number++, r->Processor.GroupMask, r->Processor.GroupCount));
        break;
      case RelationProcessorCore: {
        CpuTopologyUnit u = UnitOfAffinity(0, r->Processor.GroupMask, 1);
        // EfficiencyClass: the byte after Flags (Windows 10 on; 0 before),
        // read by its place whatever the headers call it.
        u.efficiency_class = reinterpret_cast<const BYTE*>(&r->Processor)[1];
        t.cores.push_back(std::move(u));
        break;
      }
      default:
        break;
    }
    at += r->Size;
  }
  if (t.groups.empty()) return UniformFromSystemInfo();
  NumberCpuCores(t);
  return t;
}

}  // namespace loadcell
