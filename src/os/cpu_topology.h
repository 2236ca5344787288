#pragma once
// The machine's processors as DiskSpd's "System information" counts them:
// processor groups (Windows' groups of up to 64 logical processors; Linux
// has none: one group of every CPU), NUMA nodes, sockets (packages) and
// cores, each with the logical processors it holds. One reader per
// platform (cpu_topology_posix.cpp: /sys/devices/system; cpu_topology_win32
// .cpp: GetLogicalProcessorInformationEx); the sysfs parse is pure and
// shared (cpu_topology.cpp) so it is tested on fixture text anywhere.

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace loadcell {

// Some processors of one group: their numbers within the group (Linux: the
// CPU numbers), ascending.
struct CpuGroupMembers {
  int group = 0;
  std::vector<int> processors;
};

// A NUMA node, a socket or a core: its number and its processors. A core
// also has its efficiency class (Windows' EfficiencyClass; Linux: the rank
// of its cpu_capacity among the machine's, 0 when all are alike), higher
// for faster cores.
struct CpuTopologyUnit {
  int number = 0;
  std::vector<CpuGroupMembers> members;
  int efficiency_class = 0;
};

struct CpuTopologyGroup {
  int number = 0;
  int maximum_processors = 0;  // the group's capacity (Linux: the possible CPUs)
  std::vector<int> active;     // the processors online, ascending
};

struct CpuTopology {
  std::vector<CpuTopologyGroup> groups;
  std::vector<CpuTopologyUnit> nodes;
  std::vector<CpuTopologyUnit> sockets;
  // Numbered within their group from 0, in the order of their first
  // processor (DiskSpd's group core number).
  std::vector<CpuTopologyUnit> cores;
  bool heterogeneous = false;  // cores of more than one efficiency class

  // The active processors of every group.
  int ProcessorCount() const;
  // A core with more than one processor (simultaneous multithreading).
  bool Smt() const;
  // Where the index-th active processor is, counting group by group (the
  // order of the per-CPU times): its group, its number in the group, and
  // the node, socket and core (their numbers) holding it. Unknown parts
  // are 0.
  struct Place {
    int group = 0;
    int processor = 0;
    int node = 0;
    int socket = 0;
    int core = 0;
    int efficiency_class = 0;
  };
  Place PlaceOf(size_t index) const;
};

// The topology of this machine; never fails: what the system does not say
// is one group, node and socket of every online CPU, a core per CPU.
CpuTopology ReadCpuTopology();

// Linux's topology from the text of the files under /sys/devices/system/
// that `read` returns by their path relative to it ("cpu/online",
// "cpu/possible", "cpu/cpu3/topology/physical_package_id",
// "cpu/cpu3/topology/core_id", "cpu/cpu3/cpu_capacity", "node/online",
// "node/node0/cpulist"); "" for a file that is not there. One group (0) of
// the online CPUs; a socket per physical package id; a core per (package,
// core id); the nodes named by node/online (one node 0 of every CPU when
// there is none).
CpuTopology CpuTopologyOfSysfs(const std::function<std::string(const std::string&)>& read);

// One group, node and socket of `processors` processors, a core each:
// what a system that says nothing of its topology is taken to have.
CpuTopology UniformCpuTopology(int processors);

// Orders the cores by group and first processor and numbers them within
// their group from 0; sets `heterogeneous` (a core of a class above 0, as
// DiskSpd counts it). Each platform's reader ends with it.
void NumberCpuCores(CpuTopology& t);

// A kernel CPU list ("0-3,8,10-11\n") as its numbers, ascending; empty for
// text that is not one.
std::vector<int> ParseCpuList(const std::string& text);

}  // namespace loadcell
