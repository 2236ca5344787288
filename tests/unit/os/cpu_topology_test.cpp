// os/cpu_topology.h: Linux's sysfs text read into DiskSpd's groups, NUMA
// nodes, sockets and cores, on fixture text; the uniform fallback.

#include "os/cpu_topology.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <string>

namespace loadcell {
namespace {

using ::testing::ElementsAre;

// The files of a fixture machine, by their path under /sys/devices/system/.
CpuTopology TopologyOfFixture(const std::map<std::string, std::string>& files) {
  return CpuTopologyOfSysfs([&](const std::string& relative) {
    const auto it = files.find(relative);
    return it == files.end() ? std::string() : it->second;
  });
}

TEST(CpuTopologyTest, CpuListsAsTheKernelWritesThem) {
  EXPECT_THAT(ParseCpuList("0-3,8,10-11\n"), ElementsAre(0, 1, 2, 3, 8, 10, 11));
  EXPECT_THAT(ParseCpuList("5"), ElementsAre(5));
  EXPECT_TRUE(ParseCpuList("").empty());
  EXPECT_TRUE(ParseCpuList("\n").empty());
  EXPECT_TRUE(ParseCpuList("3-1").empty());
  EXPECT_TRUE(ParseCpuList("0-x").empty());
  EXPECT_TRUE(ParseCpuList("0,,2").empty());
}

TEST(CpuTopologyTest, TwoSocketsTwoNodesAndSmtPairsWithOneCpuOffline) {
  // 8 possible CPUs, 7 online (cpu7 is off). Package 0: cpus 0-3, package
  // 1: 4-7; SMT siblings share a core id: 0+2, 1+3, 4+6, 5(+7).
  std::map<std::string, std::string> files = {{"cpu/online", "0-6\n"},
                                              {"cpu/possible", "0-7\n"},
                                              {"node/online", "0-1\n"},
                                              {"node/node0/cpulist", "0-3\n"},
                                              {"node/node1/cpulist", "4-7\n"}};
  const int core_id[] = {0, 1, 0, 1, 0, 1, 0};
  for (int cpu = 0; cpu < 7; ++cpu) {
    const std::string dir = "cpu/cpu" + std::to_string(cpu) + "/topology/";
    files[dir + "physical_package_id"] = cpu < 4 ? "0\n" : "1\n";
    files[dir + "core_id"] = std::to_string(core_id[cpu]) + "\n";
  }
  const CpuTopology t = TopologyOfFixture(files);
  ASSERT_EQ(t.groups.size(), 1U);
  EXPECT_EQ(t.groups[0].number, 0);
  EXPECT_EQ(t.groups[0].maximum_processors, 8);
  EXPECT_THAT(t.groups[0].active, ElementsAre(0, 1, 2, 3, 4, 5, 6));
  EXPECT_EQ(t.ProcessorCount(), 7);
  ASSERT_EQ(t.sockets.size(), 2U);
  EXPECT_THAT(t.sockets[0].members[0].processors, ElementsAre(0, 1, 2, 3));
  EXPECT_EQ(t.sockets[1].number, 1);
  EXPECT_THAT(t.sockets[1].members[0].processors, ElementsAre(4, 5, 6));
  ASSERT_EQ(t.nodes.size(), 2U);
  EXPECT_EQ(t.nodes[1].number, 1);
  EXPECT_THAT(t.nodes[1].members[0].processors, ElementsAre(4, 5, 6));  // 7 is off
  // Cores in the order of their first CPU, numbered from 0 in the group.
  ASSERT_EQ(t.cores.size(), 4U);
  EXPECT_THAT(t.cores[0].members[0].processors, ElementsAre(0, 2));
  EXPECT_THAT(t.cores[1].members[0].processors, ElementsAre(1, 3));
  EXPECT_THAT(t.cores[2].members[0].processors, ElementsAre(4, 6));
  EXPECT_THAT(t.cores[3].members[0].processors, ElementsAre(5));
  for (int i = 0; i < 4; ++i) EXPECT_EQ(t.cores[static_cast<size_t>(i)].number, i);
  EXPECT_TRUE(t.Smt());
  EXPECT_FALSE(t.heterogeneous);
  // The 6th CPU of the per-CPU rows (cpu5): socket 1, node 1, core 3.
  const CpuTopology::Place p = t.PlaceOf(5);
  EXPECT_EQ(p.processor, 5);
  EXPECT_EQ(p.group, 0);
  EXPECT_EQ(p.socket, 1);
  EXPECT_EQ(p.node, 1);
  EXPECT_EQ(p.core, 3);
  EXPECT_EQ(t.PlaceOf(2).core, 0);
}

TEST(CpuTopologyTest, CapacitiesMakeEfficiencyClassesAndNoNodesIsOneNode) {
  // A hybrid machine: two big cores (1024) and two little ones (512); no
  // package or core files, no NUMA directory.
  const CpuTopology t = TopologyOfFixture({{"cpu/online", "0-3"},
                                           {"cpu/cpu0/cpu_capacity", "1024"},
                                           {"cpu/cpu1/cpu_capacity", "1024"},
                                           {"cpu/cpu2/cpu_capacity", "512"},
                                           {"cpu/cpu3/cpu_capacity", "512"}});
  EXPECT_EQ(t.groups.at(0).maximum_processors, 4);
  ASSERT_EQ(t.cores.size(), 4U);
  EXPECT_EQ(t.cores[0].efficiency_class, 1);
  EXPECT_EQ(t.cores[3].efficiency_class, 0);
  EXPECT_TRUE(t.heterogeneous);
  EXPECT_FALSE(t.Smt());
  ASSERT_EQ(t.nodes.size(), 1U);
  EXPECT_THAT(t.nodes[0].members[0].processors, ElementsAre(0, 1, 2, 3));
  ASSERT_EQ(t.sockets.size(), 1U);
  EXPECT_EQ(t.PlaceOf(2).efficiency_class, 0);
  EXPECT_EQ(t.PlaceOf(1).efficiency_class, 1);
  // Capacities all alike: one class, not heterogeneous.
  EXPECT_FALSE(TopologyOfFixture({{"cpu/online", "0-1"},
                                  {"cpu/cpu0/cpu_capacity", "1024"},
                                  {"cpu/cpu1/cpu_capacity", "1024\n"}})
                   .heterogeneous);
}

TEST(CpuTopologyTest, NothingSaidIsOneGroupNodeAndSocketAndACorePerCpu) {
  const CpuTopology none = TopologyOfFixture({});
  EXPECT_EQ(none.ProcessorCount(), 0);
  EXPECT_EQ(none.groups.size(), 1U);
  const CpuTopology u = UniformCpuTopology(3);
  EXPECT_EQ(u.ProcessorCount(), 3);
  EXPECT_EQ(u.groups.size(), 1U);
  EXPECT_EQ(u.nodes.size(), 1U);
  EXPECT_EQ(u.sockets.size(), 1U);
  ASSERT_EQ(u.cores.size(), 3U);
  EXPECT_EQ(u.cores[2].number, 2);
  EXPECT_EQ(u.PlaceOf(2).core, 2);
  // Past the processors: the index itself, nothing else known.
  EXPECT_EQ(u.PlaceOf(7).processor, 7);
  EXPECT_EQ(u.PlaceOf(7).socket, 0);
}

TEST(CpuTopologyTest, ThisMachineHasItsOnlineCpus) {
  // Whatever the machine, every online processor is in one group's active
  // list and in exactly one core, node and socket.
  const CpuTopology t = ReadCpuTopology();
  ASSERT_GT(t.ProcessorCount(), 0);
  auto count = [](const std::vector<CpuTopologyUnit>& units) {
    size_t n = 0;
    for (const CpuTopologyUnit& u : units) {
      for (const CpuGroupMembers& m : u.members) n += m.processors.size();
    }
    return n;
  };
  const auto processors = static_cast<size_t>(t.ProcessorCount());
  EXPECT_EQ(count(t.cores), processors);
  EXPECT_EQ(count(t.sockets), processors);
  EXPECT_EQ(count(t.nodes), processors);
}

}  // namespace
}  // namespace loadcell
