// The platform-free part of os/cpu_topology.h: Linux's sysfs text read
// into a topology, the uniform fallback, the numbering of cores and the
// lookups.

#include "os/cpu_topology.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <utility>

namespace loadcell {
namespace {

// A non-negative decimal number alone (blanks around it allowed); -1 when
// the text is not one.
int SysfsNumber(const std::string& text) {
  size_t b = 0;
  while (b < text.size() && std::isspace(static_cast<unsigned char>(text[b])) != 0) ++b;
  size_t e = b;
  long long v = 0;
  while (e < text.size() && std::isdigit(static_cast<unsigned char>(text[e])) != 0) {
    v = v * 10 + (text[e] - '0');
    if (v > 1'000'000) return -1;
    ++e;
  }
  if (e == b) return -1;
  for (size_t i = e; i < text.size(); ++i) {
    if (std::isspace(static_cast<unsigned char>(text[i])) == 0) return -1;
  }
  return static_cast<int>(v);
}

CpuTopologyUnit UnitOfGroupZero(int number, std::vector<int> processors) {
  CpuTopologyUnit u;
  u.number = number;
  u.members.push_back(CpuGroupMembers{0, std::move(processors)});
  return u;
}

}  // namespace

std::vector<int> ParseCpuList(const std::string& text) {
  std::set<int> cpus;
  std::string list = text;
  while (!list.empty() && std::isspace(static_cast<unsigned char>(list.back())) != 0) {
    list.pop_back();
  }
  if (list.empty()) return {};
  size_t at = 0;
  while (at <= list.size()) {
    const size_t comma = std::min(list.find(',', at), list.size());
    const std::string item = list.substr(at, comma - at);
    const size_t dash = item.find('-');
    const int first = SysfsNumber(item.substr(0, dash));
    const int last = dash == std::string::npos ? first : SysfsNumber(item.substr(dash + 1));
    if (first < 0 || last < first) return {};
    for (int c = first; c <= last; ++c) cpus.insert(c);
    at = comma + 1;
  }
  return {cpus.begin(), cpus.end()};
}

CpuTopology UniformCpuTopology(int processors) {
  CpuTopology t;
  std::vector<int> all(static_cast<size_t>(std::max(processors, 0)));
  for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int>(i);
  t.groups.push_back(CpuTopologyGroup{0, processors, all});
  t.nodes.push_back(UnitOfGroupZero(0, all));
  t.sockets.push_back(UnitOfGroupZero(0, all));
  for (int i = 0; i < processors; ++i) t.cores.push_back(UnitOfGroupZero(0, {i}));
  NumberCpuCores(t);
  return t;
}

void NumberCpuCores(CpuTopology& t) {
  auto first = [](const CpuTopologyUnit& u) {
    const CpuGroupMembers& m = u.members.front();
    return std::make_pair(m.group, m.processors.empty() ? 0 : m.processors.front());
  };
  std::erase_if(t.cores, [](const CpuTopologyUnit& u) { return u.members.empty(); });
  std::sort(
      t.cores.begin(), t.cores.end(),
      [&](const CpuTopologyUnit& a, const CpuTopologyUnit& b) { return first(a) < first(b); });
  int group = -1;
  int number = 0;
  t.heterogeneous = false;
  for (CpuTopologyUnit& c : t.cores) {
    if (c.members.front().group != group) {
      group = c.members.front().group;
      number = 0;
    }
    c.number = number++;
    t.heterogeneous = t.heterogeneous || c.efficiency_class > 0;
  }
}

CpuTopology CpuTopologyOfSysfs(const std::function<std::string(const std::string&)>& read) {
  const std::vector<int> online = ParseCpuList(read("cpu/online"));
  if (online.empty()) return UniformCpuTopology(0);
  CpuTopology t;
  const std::vector<int> possible = ParseCpuList(read("cpu/possible"));
  t.groups.push_back(
      CpuTopologyGroup{0, static_cast<int>(std::max(possible.size(), online.size())), online});
  // Sockets by package id, cores by (package, core id), in CPU order.
  std::map<int, std::vector<int>> packages;
  std::map<std::pair<int, int>, std::vector<int>> cores;
  std::map<int, int> capacity;  // CPU -> cpu_capacity, when the kernel says
  for (int cpu : online) {
    const std::string dir = "cpu/cpu" + std::to_string(cpu) + "/";
    int package = SysfsNumber(read(dir + "topology/physical_package_id"));
    int core = SysfsNumber(read(dir + "topology/core_id"));
    if (package < 0) package = 0;
    if (core < 0) core = cpu;  // nothing said: a core of its own
    packages[package].push_back(cpu);
    cores[{package, core}].push_back(cpu);
    if (const int c = SysfsNumber(read(dir + "cpu_capacity")); c >= 0) capacity[cpu] = c;
  }
  int socket_number = 0;
  for (auto& [package, cpus] : packages) {
    t.sockets.push_back(UnitOfGroupZero(socket_number++, std::move(cpus)));
  }
  // Efficiency classes: the rank of a core's capacity among the distinct
  // capacities (0 the lowest); all alike (or none said) is class 0.
  std::set<int> capacities;
  for (const auto& [cpu, c] : capacity) capacities.insert(c);
  for (auto& [key, cpus] : cores) {
    CpuTopologyUnit u = UnitOfGroupZero(0, std::move(cpus));
    if (const auto c = capacity.find(u.members.front().processors.front()); c != capacity.end()) {
      u.efficiency_class =
          static_cast<int>(std::distance(capacities.begin(), capacities.find(c->second)));
    }
    t.cores.push_back(std::move(u));
  }
  for (int node : ParseCpuList(read("node/online"))) {
    std::vector<int> cpus;
    for (int cpu : ParseCpuList(read("node/node" + std::to_string(node) + "/cpulist"))) {
      if (std::binary_search(online.begin(), online.end(), cpu)) cpus.push_back(cpu);
    }
    if (!cpus.empty()) t.nodes.push_back(UnitOfGroupZero(node, std::move(cpus)));
  }
  if (t.nodes.empty()) t.nodes.push_back(UnitOfGroupZero(0, online));
  NumberCpuCores(t);
  return t;
}

int CpuTopology::ProcessorCount() const {
  size_t n = 0;
  for (const CpuTopologyGroup& g : groups) n += g.active.size();
  return static_cast<int>(n);
}

bool CpuTopology::Smt() const {
  return std::any_of(cores.begin(), cores.end(), [](const CpuTopologyUnit& c) {
    size_t n = 0;
    for (const CpuGroupMembers& m : c.members) n += m.processors.size();
    return n > 1;
  });
}

CpuTopology::Place CpuTopology::PlaceOf(size_t index) const {
  Place p;
  size_t base = 0;
  bool found = false;
  for (const CpuTopologyGroup& g : groups) {
    if (index < base + g.active.size()) {
      p.group = g.number;
      p.processor = g.active[index - base];
      found = true;
      break;
    }
    base += g.active.size();
  }
  if (!found) {
    p.processor = static_cast<int>(index);
    return p;
  }
  auto holds = [&](const CpuTopologyUnit& u) {
    for (const CpuGroupMembers& m : u.members) {
      if (m.group == p.group &&
          std::find(m.processors.begin(), m.processors.end(), p.processor) != m.processors.end()) {
        return true;
      }
    }
    return false;
  };
  for (const CpuTopologyUnit& u : nodes) {
    if (holds(u)) p.node = u.number;
  }
  for (const CpuTopologyUnit& u : sockets) {
    if (holds(u)) p.socket = u.number;
  }
  for (const CpuTopologyUnit& u : cores) {
    if (holds(u)) {
      p.core = u.number;
      p.efficiency_class = u.efficiency_class;
    }
  }
  return p;
}

}  // namespace loadcell
