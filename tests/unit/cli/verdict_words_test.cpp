// The verdict's advice in each front end's own words (IoOptionNames): the
// samples check's percentile and the ranks check's run limits name an
// option the front end has, or none, never loadcell's --percentile,
// --time, --events or --stonewall in a fio, DiskSpd, dbsim or SQLIO run.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "cli/diskspd/diskspd_plan.h"
#include "diskspd/diskspd_switches.h"
#include "testing/status.h"
#include "testing/temp_dir.h"
#include "validity/check.h"
#include "workloads/dbsim/dbsim_users.h"
#include "workloads/fio/fio_job.h"
#include "workloads/sqlio/sqlio.h"

namespace loadcell::validity {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// 2,000 events judged at the 99.99th percentile: 0.2 of an event beyond.
std::optional<CheckOutcome> SamplesAdvice(const IoOptionNames& names) {
  RunResult r;
  r.total_time_s = 10;
  r.events = 2000;
  WorkloadFacts f;
  f.option_names = names;
  CheckInput in{r, f, HostFacts{}, {}, 99.99, 0};
  return CheckSamples(in);
}

// Two ranks, the second ending 3 s after the first in a 10 s run.
std::optional<CheckOutcome> RanksAdvice(const IoOptionNames& names) {
  RunResult r;
  r.total_time_s = 10;
  r.events = 2000;
  ClusterFigures& c = r.cluster.emplace();
  c.ranks.resize(2);
  c.ranks[1].rank = 1;
  c.ranks[0].end_s = 7;
  c.ranks[1].end_s = 10;
  WorkloadFacts f;
  f.option_names = names;
  CheckInput in{r, f, HostFacts{}, {}, 95, 0};
  return CheckRanks(in);
}

// DiskSpd's names, as its plan gives each of its jobs.
IoOptionNames DiskspdNames() {
  testing::TempDir dir;
  Result<diskspd::DiskspdSwitches> sw =
      diskspd::ParseDiskspdCommandLine({"-c1M", "-d1", dir / "t.dat"});
  EXPECT_OK(sw);
  if (!sw.ok()) return {};
  Result<DiskspdPlan> plan = PlanDiskspd(*sw, DefaultFileSystem());
  EXPECT_OK(plan);
  if (!plan.ok() || plan->jobs.empty()) return {};
  return plan->jobs[0].settings.option_names;
}

TEST(VerdictWords, LoadcellsOwnTestsNameItsOptions) {
  const std::optional<CheckOutcome> samples = SamplesAdvice(IoOptionNames{});
  ASSERT_TRUE(samples.has_value());
  EXPECT_EQ(samples->level, CheckLevel::kWarn);
  EXPECT_EQ(samples->advice,
            "run at least 100000 events (--time, --events) or print a lower --percentile");
  const std::optional<CheckOutcome> ranks = RanksAdvice(IoOptionNames{});
  ASSERT_TRUE(ranks.has_value());
  EXPECT_EQ(ranks->level, CheckLevel::kWarn);
  EXPECT_EQ(ranks->advice,
            "limit the run by --time rather than --events, or add --stonewall=on to stop every "
            "rank when the first one is done");
}

TEST(VerdictWords, FioNamesRuntimeAndSizeAndNoPercentileOption) {
  const IoOptionNames fio = FioOptionNames();
  const std::optional<CheckOutcome> samples = SamplesAdvice(fio);
  ASSERT_TRUE(samples.has_value());
  EXPECT_EQ(samples->level, CheckLevel::kWarn);
  EXPECT_EQ(samples->advice, "run at least 100000 events (runtime with time_based, or size)");
  const std::optional<CheckOutcome> ranks = RanksAdvice(fio);
  ASSERT_TRUE(ranks.has_value());
  EXPECT_EQ(ranks->level, CheckLevel::kWarn);
  EXPECT_EQ(ranks->advice,
            "limit the run by runtime with time_based rather than size or number_ios");
}

TEST(VerdictWords, DiskspdNamesItsDurationAlone) {
  const IoOptionNames ds = DiskspdNames();
  EXPECT_EQ(ds.run_length, "-d");  // the plan's jobs carry DiskSpd's names
  const std::optional<CheckOutcome> samples = SamplesAdvice(ds);
  ASSERT_TRUE(samples.has_value());
  EXPECT_EQ(samples->advice, "run at least 100000 events (-d)");
  const std::optional<CheckOutcome> ranks = RanksAdvice(ds);
  ASSERT_TRUE(ranks.has_value());
  EXPECT_EQ(ranks->level, CheckLevel::kWarn);
  EXPECT_EQ(ranks->advice,
            "look for a rank whose host was busy or slow to stop (each rank's -d is the same)");
}

TEST(VerdictWords, DbsimAndSqlioNameNoPercentileOrLoadcellLimit) {
  for (const IoOptionNames& names : {DbsimOptionNames(), SqlioOptionNames()}) {
    const std::optional<CheckOutcome> samples = SamplesAdvice(names);
    ASSERT_TRUE(samples.has_value());
    EXPECT_EQ(samples->level, CheckLevel::kWarn);
    EXPECT_THAT(samples->advice, Not(HasSubstr("--percentile")));
    EXPECT_THAT(samples->advice, HasSubstr("run at least 100000 events"));
  }
  const std::optional<CheckOutcome> ranks = RanksAdvice(DbsimOptionNames());
  ASSERT_TRUE(ranks.has_value());
  EXPECT_THAT(ranks->advice, Not(HasSubstr("--")));
  EXPECT_THAT(ranks->advice, HasSubstr("-d"));
}

}  // namespace
}  // namespace loadcell::validity
