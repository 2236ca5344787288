// `loadcell diskspd`: the machine as DiskSpd reports it ("System
// information", the XML's <System>, the per-CPU table of each timespan) and
// -p (parallel async I/O), through the binary on small files in a
// temporary folder. Runs on Linux and, in integration_tests.exe, under
// Wine (the Windows topology and per-processor times).

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "diskspd/diskspd_xml_reader.h"
#include "testing/diskspd_run.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell::testing {
namespace {

using diskspd::XmlElement;

// The number after `label` (a "System information" line); -1 when absent.
int SystemCount(const std::string& out, const std::string& label) {
  const size_t at = out.find("\t" + label + ":");
  if (at == std::string::npos) return -1;
  const size_t digits = out.find_first_of("0123456789", at);
  return digits == std::string::npos ? -1 : std::atoi(out.c_str() + digits);
}

// The rows of the first per-CPU table: their Usage and Idle percents.
struct SystemCpuRow {
  double usage = 0;
  double idle = 0;
};
std::vector<SystemCpuRow> SystemCpuRows(const std::string& out) {
  std::vector<SystemCpuRow> rows;
  const size_t head = out.find("CPU |  Usage |  User  | Kernel |  Idle\n");
  if (head == std::string::npos) return rows;
  std::istringstream in(out.substr(out.find('\n', head) + 1));
  std::string line;
  std::getline(in, line);  // the rule
  while (std::getline(in, line) && line.find("---") == std::string::npos) {
    // ...| CPU| usage%| user%| kernel%| idle%
    std::vector<std::string> cells;
    std::istringstream split(line);
    for (std::string cell; std::getline(split, cell, '|');) cells.push_back(cell);
    if (cells.size() < 5) break;
    SystemCpuRow r;
    r.usage = std::atof(cells[cells.size() - 4].c_str());
    r.idle = std::atof(cells[cells.size() - 1].c_str());
    rows.push_back(r);
  }
  return rows;
}

// The processors a mask ("0x..." hex) holds.
std::set<int> SystemMaskCpus(const std::string& mask) {
  std::set<int> cpus;
  if (mask.rfind("0x", 0) != 0) return cpus;
  int bit = 0;
  for (size_t i = mask.size(); i-- > 2;) {
    const int digit = std::stoi(mask.substr(i, 1), nullptr, 16);
    for (int b = 0; b < 4; ++b) {
      if ((digit >> b & 1) != 0) cpus.insert(bit + b);
    }
    bit += 4;
  }
  return cpus;
}

TEST(DiskspdSystemTest, SystemInformationCountsTheMachinesTopologyInTextAndXml) {
  TempDir dir;
  ProcessResult r = RunDiskspd(
      dir, {"-d1", "-W0", "-b4K", "-r", "-t2", "-c1M", "-Rtext", "-Rxml:sys.xml", "s.dat"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const int cpus = SystemCount(r.out, "cpu count");
  const int cores = SystemCount(r.out, "core count");
  const int groups = SystemCount(r.out, "group count");
  const int nodes = SystemCount(r.out, "node count");
  const int sockets = SystemCount(r.out, "socket count");
  // The processors the system says are online (hardware_concurrency: the
  // online CPUs on Linux, the processors on Windows).
  EXPECT_EQ(cpus, static_cast<int>(std::thread::hardware_concurrency())) << r.out;
  EXPECT_GE(cores, 1);
  EXPECT_LE(cores, cpus);
  if (cpus <= 64) {
    EXPECT_EQ(groups, 1);  // Linux: always one
  }
  EXPECT_GE(nodes, 1);
  EXPECT_GE(sockets, 1);
  EXPECT_LE(sockets, cores);

  // The XML's <ProcessorTopology>: as many groups, nodes, sockets and cores,
  // every active processor in exactly one core.
  Result<XmlElement> doc = diskspd::ReadXmlDocument(dir.Read("sys.xml"));
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  const XmlElement* topo = DiskspdXmlChild(DiskspdXmlChild(&*doc, "System"), "ProcessorTopology");
  ASSERT_NE(topo, nullptr);
  const std::vector<const XmlElement*> xml_groups = DiskspdXmlChildren(topo, "Group");
  ASSERT_EQ(static_cast<int>(xml_groups.size()), groups);
  EXPECT_EQ(static_cast<int>(DiskspdXmlChildren(topo, "Node").size()), nodes);
  EXPECT_EQ(static_cast<int>(DiskspdXmlChildren(topo, "Socket").size()), sockets);
  const std::vector<const XmlElement*> xml_cores = DiskspdXmlChildren(topo, "Core");
  ASSERT_EQ(static_cast<int>(xml_cores.size()), cores);
  const std::string* active = xml_groups[0]->Attribute("ActiveProcessorMask");
  ASSERT_NE(active, nullptr);
  const std::set<int> group_cpus = SystemMaskCpus(*active);
  if (groups == 1) {
    EXPECT_EQ(static_cast<int>(group_cpus.size()), cpus) << *active;
  }
  std::multiset<int> in_cores;
  for (const XmlElement* c : xml_cores) {
    const std::string* group = c->Attribute("Group");
    const std::string* mask = c->Attribute("Mask");
    ASSERT_TRUE(group != nullptr && mask != nullptr);
    if (*group != "0") continue;
    for (int cpu : SystemMaskCpus(*mask)) in_cores.insert(cpu);
  }
  EXPECT_EQ(std::set<int>(in_cores.begin(), in_cores.end()), group_cpus);
  EXPECT_EQ(in_cores.size(), group_cpus.size());  // no processor in two cores

  // The per-CPU table and <CpuUtilization>: a row per processor, real
  // times: each row's usage and idle make 100%, and the run used some CPU.
  const std::vector<SystemCpuRow> rows = SystemCpuRows(r.out);
  ASSERT_EQ(static_cast<int>(rows.size()), cpus) << r.out;
  double used = 0;
  for (const SystemCpuRow& row : rows) {
    EXPECT_NEAR(row.usage + row.idle, 100.0, 0.02) << r.out;
    used += row.usage;
  }
  EXPECT_GT(used, 0.0) << r.out;
  const XmlElement* span = DiskspdXmlChild(&*doc, "TimeSpan");
  const XmlElement* cpu_xml = DiskspdXmlChild(span, "CpuUtilization");
  ASSERT_NE(cpu_xml, nullptr);
  const std::vector<const XmlElement*> xml_cpus = DiskspdXmlChildren(cpu_xml, "CPU");
  ASSERT_EQ(static_cast<int>(xml_cpus.size()), cpus);
  std::set<std::string> ids;
  for (const XmlElement* c : xml_cpus) {
    for (const char* e : {"Socket", "Node", "Group", "Core", "EfficiencyClass", "Id"}) {
      EXPECT_NE(DiskspdXmlChild(c, e), nullptr) << e;
    }
    ids.insert(DiskspdXmlChild(c, "Group")->text + "/" + DiskspdXmlChild(c, "Id")->text);
  }
  EXPECT_EQ(static_cast<int>(ids.size()), cpus);  // each processor once
}

TEST(DiskspdSystemTest, ParallelAsyncIoRunsSequentiallyAndIsStated) {
  TempDir dir;
  ProcessResult r = RunDiskspd(
      dir, {"-d1", "-W0", "-b4K", "-o4", "-p", "-c1M", "-Rtext", "-Rxml:p.xml", "p.dat"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\t\tusing parallel async I/O\n\t\tperforming read test\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\t\tusing sequential I/O (stride: 4KiB)\n"), std::string::npos);
  EXPECT_EQ(r.err.find("-p has no effect"), std::string::npos) << r.err;
  const auto [bytes, ios] = DiskspdSectionTotal(r.out, "Total IO");
  EXPECT_GT(ios, 0u);
  EXPECT_EQ(bytes, ios * 4096);
  Result<XmlElement> doc = diskspd::ReadXmlDocument(dir.Read("p.xml"));
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  const XmlElement* target = DiskspdXmlChild(
      DiskspdXmlChild(
          DiskspdXmlChild(DiskspdXmlChild(DiskspdXmlChild(&*doc, "Profile"), "TimeSpans"),
                          "TimeSpan"),
          "Targets"),
      "Target");
  ASSERT_NE(DiskspdXmlChild(target, "ParallelAsyncIO"), nullptr);
  EXPECT_EQ(DiskspdXmlChild(target, "ParallelAsyncIO")->text, "true");

  // -Rp prints the profile with it, and that profile runs again with -X.
  ProcessResult printed = RunDiskspd(dir, {"-d1", "-W0", "-b4K", "-o4", "-p", "-Rp", "p.dat"});
  ASSERT_EQ(printed.exit_code, 0) << printed.err;
  EXPECT_NE(printed.out.find("<ParallelAsyncIO>true</ParallelAsyncIO>"), std::string::npos)
      << printed.out;
  dir.Write("p_profile.xml", printed.out);
  ProcessResult again = RunDiskspd(dir, {"-Xp_profile.xml"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("\t\tusing parallel async I/O\n"), std::string::npos) << again.out;

  // One request per thread: DiskSpd's warning, and the run goes on.
  ProcessResult one = RunDiskspd(dir, {"-d1", "-W0", "-b4K", "-p", "-o1", "p.dat"});
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_NE(one.err.find("-p has no effect on target 'p.dat'"), std::string::npos) << one.err;
}

}  // namespace
}  // namespace loadcell::testing
