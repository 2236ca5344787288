#include "cli/diskspd/diskspd_plan.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "diskspd/diskspd_profile.h"
#include "os/open_flags.h"
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

// The zones of -rd as the first job's pattern holds them: (access %, size %,
// bytes) per zone.
struct Zone {
  double access_pct;
  double size_pct;
  uint64_t bytes;
};
std::vector<Zone> ZonesOf(const DiskspdPlan& plan) {
  std::vector<Zone> out;
  if (plan.jobs.empty()) return out;
  for (const FioZoneShare& z : plan.jobs.front().settings.pattern.distribution.zones[0]) {
    out.push_back({z.access_pct, z.size_pct, z.size_bytes});
  }
  return out;
}

TEST(DiskspdPlan, PercentDistributionIsZonesOfTheTarget) {
  TempDir dir;
  const std::string f = dir.Write("a.dat", std::string(1 << 20, 'x'));
  EXPECT_EQ(PlanOf({"-r", f}).jobs.front().settings.pattern.distribution.law,
            FioOffsetLaw::kUniform);
  DiskspdPlan plan = PlanOf({"-b4K", "-r", "-rdpct90/10:10/90", f});
  const FioOffsetDistribution& od = plan.jobs.front().settings.pattern.distribution;
  EXPECT_EQ(od.law, FioOffsetLaw::kZoned);
  EXPECT_FALSE(od.absolute);
  const std::vector<Zone> z = ZonesOf(plan);
  ASSERT_EQ(z.size(), 2U);
  EXPECT_DOUBLE_EQ(z[0].access_pct, 90);
  EXPECT_DOUBLE_EQ(z[0].size_pct, 10);
  EXPECT_DOUBLE_EQ(z[1].access_pct, 10);
  EXPECT_DOUBLE_EQ(z[1].size_pct, 90);
  // Reads and writes: the same zones.
  EXPECT_EQ(od.zones[1].size(), 2U);
}

TEST(DiskspdPlan, AbsoluteDistributionIsCutToTheTargetWithTheRestAfter) {
  TempDir dir;
  const std::string f = dir.Write("a.dat", std::string(1 << 20, 'x'));
  // 50% in 256K, 30% in the next 512K: the remaining 20% of the I/O over
  // what is left of the target (256K).
  std::vector<Zone> z = ZonesOf(PlanOf({"-b4K", "-r", "-rdabs50/256K:30/512K", f}));
  ASSERT_EQ(z.size(), 3U);
  EXPECT_DOUBLE_EQ(z[0].access_pct, 50);
  EXPECT_EQ(z[0].bytes, 256U << 10);
  EXPECT_DOUBLE_EQ(z[1].access_pct, 30);
  EXPECT_EQ(z[1].bytes, 512U << 10);
  EXPECT_DOUBLE_EQ(z[2].access_pct, 20);
  EXPECT_EQ(z[2].bytes, 256U << 10);
  EXPECT_TRUE(PlanOf({"-b4K", "-r", "-rdabs50/256K", f})
                  .jobs.front()
                  .settings.pattern.distribution.absolute);
  // A range past the end is cut to it; nothing left for the rest.
  z = ZonesOf(PlanOf({"-b4K", "-r", "-rdabs10/512K:90/1G", f}));
  ASSERT_EQ(z.size(), 2U);
  EXPECT_EQ(z[1].bytes, 512U << 10);
  EXPECT_DOUBLE_EQ(z[0].access_pct + z[1].access_pct, 100);
  // A range that starts past the end is dropped, and the I/O of what is
  // kept is the whole (DiskSpd's rule): 10% of the I/O is all of it.
  z = ZonesOf(PlanOf({"-b4K", "-r", "-rdabs10/1M:40/1M", f}));
  ASSERT_EQ(z.size(), 1U);
  EXPECT_DOUBLE_EQ(z[0].access_pct, 100);
  EXPECT_EQ(z[0].bytes, 1U << 20);
  // Only a hole fits: refused.
  EXPECT_THAT(PlanError({"-b4K", "-r", "-rdabs0/1M:100/1M", f}),
              HasSubstr("-rd: no range that fits the target carries any I/O"));
}

TEST(DiskspdPlan, UnbufferedBlockSizeMustBeWholeSectors) {
  TempDir dir;
  const std::string f = dir.Write("a.dat", std::string(1 << 20, 'x'));
  for (const char* cache : {"-Su", "-Sh", "-h", "-S"}) {
    EXPECT_THAT(PlanError({"-b1000", cache, f}),
                HasSubstr("-b1000: unbuffered I/O (-S, -Su, -Sh or -h) needs a block size that is "
                          "a multiple of the sector size"))
        << cache;
  }
  // Cached I/O takes any block size; whole sectors plan.
  EXPECT_EQ(PlanOf({"-b1000", f}).jobs.size(), 1U);
  EXPECT_EQ(PlanOf({"-b64K", "-Sh", f}).jobs.size(), 1U);
}

TEST(DiskspdPlan, CachingFlagsAreNamedAsThisPlatformOpensThem) {
#ifdef _WIN32
  EXPECT_EQ(DiskspdOpenFlagsText(O_DIRECT | O_DSYNC),
            "FILE_FLAG_NO_BUFFERING|FILE_FLAG_WRITE_THROUGH");
  EXPECT_EQ(DiskspdOpenFlagsText(O_DSYNC), "FILE_FLAG_WRITE_THROUGH");
#else
  EXPECT_EQ(DiskspdOpenFlagsText(O_DIRECT | O_DSYNC), "O_DIRECT|O_DSYNC");
  EXPECT_EQ(DiskspdOpenFlagsText(O_DSYNC), "O_DSYNC");
#endif
  EXPECT_EQ(DiskspdOpenFlagsText(0), "");
  // -Sh's plan, as the report states it.
  TempDir dir;
  const std::string f = dir.Write("a.dat", std::string(1 << 20, 'x'));
  EXPECT_EQ(DiskspdOpenFlagsText(PlanOf({"-Sh", f}).open_flags),
            DiskspdOpenFlagsText(O_DIRECT | O_DSYNC));
}

}  // namespace
}  // namespace loadcell
