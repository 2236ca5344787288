#include "cli/diskspd/diskspd_plan.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "diskspd/diskspd_profile.h"
#include "os/thread.h"
#include "testing/status.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using ::testing::HasSubstr;
using testing::TempDir;

DiskspdPlan PlanOf(const std::vector<std::string>& args) {
  Result<diskspd::DiskspdSwitches> sw = diskspd::ParseDiskspdCommandLine(args);
  EXPECT_OK(sw);
  if (!sw.ok()) return {};
  Result<DiskspdPlan> plan = PlanDiskspd(*sw, DefaultFileSystem());
  EXPECT_OK(plan);
  return plan.ok() ? *plan : DiskspdPlan{};
}

std::string PlanError(const std::vector<std::string>& args) {
  Result<diskspd::DiskspdSwitches> sw = diskspd::ParseDiskspdCommandLine(args);
  EXPECT_OK(sw);
  if (!sw.ok()) return "";
  Result<DiskspdPlan> plan = PlanDiskspd(*sw, DefaultFileSystem());
  EXPECT_FALSE(plan.ok());
  return plan.ok() ? "" : plan.status().message();
}

TEST(DiskspdPlan, ThreadsPinnedRoundRobinToTheCpusGiven) {
  TempDir dir;
  const std::string f = dir.Write("a.dat", std::string(1 << 20, 'x'));
  const std::vector<int> allowed = AllowedCpus();
  if (allowed.empty()) GTEST_SKIP() << "this system does not say which CPUs the process may use";
  const int cpu = allowed.back();
  // -a<cpu>: every thread on that CPU, each (thread, target) job too.
  DiskspdPlan one = PlanOf({"-a" + std::to_string(cpu), "-t3", f});
  ASSERT_EQ(one.jobs.size(), 3U);
  for (const DiskspdJob& j : one.jobs) EXPECT_EQ(j.settings.cpus, std::vector<int>{cpu});
  EXPECT_EQ(one.pinned_cpus, std::vector<int>{cpu});
  // DiskSpd's default: thread k on the k-th allowed CPU, round robin; -F's
  // thread k has a job per target, all on one CPU.
  DiskspdPlan def = PlanOf({"-F3", f, f});
  ASSERT_EQ(def.jobs.size(), 6U);
  for (const DiskspdJob& j : def.jobs) {
    EXPECT_EQ(j.settings.cpus,
              std::vector<int>{allowed[static_cast<size_t>(j.thread) % allowed.size()]});
  }
  EXPECT_EQ(def.pinned_cpus, allowed);
  // -n: nothing pinned.
  DiskspdPlan none = PlanOf({"-n", "-t2", f});
  EXPECT_TRUE(none.pinned_cpus.empty());
  for (const DiskspdJob& j : none.jobs) EXPECT_TRUE(j.settings.cpus.empty());
}

TEST(DiskspdPlan, RequestsPerThreadSharedOverTheTargets) {
  TempDir dir;
  const std::string a = dir.Write("a.dat", std::string(1 << 20, 'x'));
  const std::string b = dir.Write("b.dat", std::string(1 << 20, 'x'));
  // -O5 over two targets: 3 on the first, 2 on the second, every thread.
  DiskspdPlan plan = PlanOf({"-F2", "-O5", "-n", a, b});
  ASSERT_EQ(plan.jobs.size(), 4U);
  for (const DiskspdJob& j : plan.jobs) {
    if (plan.targets[j.target].engine == "sync") {
      GTEST_SKIP() << "no asynchronous engine here";
    }
    EXPECT_EQ(j.settings.iodepth, j.target == 0 ? 3U : 2U) << j.settings.name;
  }
  EXPECT_EQ(plan.targets[0].requests, 3U);
  // Without -O, -o per target.
  DiskspdPlan o = PlanOf({"-F2", "-o7", "-n", a, b});
  for (const DiskspdJob& j : o.jobs) {
    if (o.targets[j.target].engine != "sync") {
      EXPECT_EQ(j.settings.iodepth, 7U);
    }
  }
  EXPECT_THAT(PlanError({"-F2", "-O1", a, b}), HasSubstr("fewer requests than its 2 targets"));
}

TEST(DiskspdPlan, AffinityToACpuNotHereOrAnotherGroupIsRefused) {
  TempDir dir;
  const std::string f = dir.Write("a.dat", std::string(1 << 20, 'x'));
  if (AllowedCpus().empty()) GTEST_SKIP() << "the allowed CPUs are not known here";
  EXPECT_THAT(PlanError({"-a255", f}), HasSubstr("CPU 255 is not one this process may use"));
  EXPECT_THAT(PlanError({"-ag1,0", f}), HasSubstr("processor group 1"));
}

// Two processor groups of 4 and 2 active CPUs (a fake topology): -ag's
// group,CPU pairs become SetCurrentThreadCpus' numbers (group 1's CPU 0 is
// 4), and with no -a CPUs every CPU of both groups is used round robin when
// the process' own mask is not known (Windows gives none over groups).
TEST(DiskspdPlan, AffinityOverTwoProcessorGroups) {
  CpuTopology two;
  two.groups = {{0, 4, {0, 1, 2, 3}}, {1, 4, {0, 1}}};
  const auto pinned = [&](const std::vector<std::string>& args, const std::vector<int>& allowed) {
    Result<diskspd::DiskspdSwitches> sw = diskspd::ParseDiskspdCommandLine(args);
    EXPECT_OK(sw);
    return DiskspdPinnedCpus(*sw, two, allowed);
  };
  Result<std::vector<int>> cpus = pinned({"-ag0,1,g1,0,1", "t"}, {});
  ASSERT_OK(cpus);
  EXPECT_EQ(*cpus, (std::vector<int>{1, 4, 5}));
  cpus = pinned({"-ag1,1,g0,3", "t"}, {});
  ASSERT_OK(cpus);
  EXPECT_EQ(*cpus, (std::vector<int>{5, 3}));
  cpus = pinned({"-ag", "t"}, {});
  ASSERT_OK(cpus);
  EXPECT_EQ(*cpus, (std::vector<int>{0, 1, 2, 3, 4, 5}));
  // The process' own CPUs, when known, are the default and the limit.
  cpus = pinned({"-a", "t"}, {0, 1});
  ASSERT_OK(cpus);
  EXPECT_EQ(*cpus, (std::vector<int>{0, 1}));
  EXPECT_THAT(pinned({"-ag1,0", "t"}, {0, 1}).status().message(),
              HasSubstr("CPU 4 is not one this process may use"));
  // A group not there, a CPU not active in its group.
  Result<std::vector<int>> bad = pinned({"-ag2,0", "t"}, {});
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(),
              HasSubstr("processor group 2 (CPU 0) is not on this machine"));
  EXPECT_THAT(bad.status().message(), HasSubstr("2 processor groups"));
  bad = pinned({"-ag1,2", "t"}, {});
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("CPU 2 of processor group 1 is not active"));
  // -n: none.
  cpus = pinned({"-n", "t"}, {});
  ASSERT_OK(cpus);
  EXPECT_TRUE(cpus->empty());
}

TEST(DiskspdPlan, ATargetAnEarlierTimespanCreatesIsPlannedAtThatSize) {
  TempDir dir;
  diskspd::DiskspdSwitches cmd;
  cmd.targets = {dir / "new.dat"};
  const std::string xml =
      "<Profile><TimeSpans>"
      "<TimeSpan><Targets><Target><Path>*1</Path><FileSize>1048576</FileSize></Target>"
      "</Targets></TimeSpan>"
      "<TimeSpan><Targets><Target><Path>*1</Path><WriteRatio>10</WriteRatio></Target>"
      "</Targets></TimeSpan></TimeSpans></Profile>";
  Result<diskspd::DiskspdProfile> p = diskspd::ParseDiskspdProfile(xml, "p.xml", cmd);
  ASSERT_OK(p);
  Result<DiskspdPlan> first = PlanDiskspd(p->timespans[0], DefaultFileSystem(), {});
  ASSERT_OK(first);
  EXPECT_TRUE(first->targets[0].missing);
  // Alone, the second timespan's target does not exist.
  EXPECT_FALSE(PlanDiskspd(p->timespans[1], DefaultFileSystem(), {}).ok());
  Result<DiskspdPlan> second =
      PlanDiskspd(p->timespans[1], DefaultFileSystem(), {{dir / "new.dat", 1048576}});
  ASSERT_OK(second);
  EXPECT_FALSE(second->targets[0].missing);
  EXPECT_TRUE(second->targets[0].created_earlier);
  EXPECT_EQ(second->targets[0].size, 1048576U);
}

}  // namespace
}  // namespace loadcell
