#include "cluster/run_plan.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace loadcell {
namespace {

// A plan of `test run` with --time=`time`, --events=`events` and one test
// option, --cpu-max-prime=`prime`.
RunPlan Plan(const std::string& test, const std::string& time, const std::string& events,
             const std::string& prime = "10000") {
  RunPlan p;
  p.test = test;
  p.command = "run";
  p.limits = {{"--time", time}, {"--events", events}, {"--rate", "none"}};
  p.options = {{"--rand-type", "special"}, {"--cpu-max-prime", prime}};
  return p;
}

TEST(ComparePlans, NamesTheFirstRankThatDiffersAndHow) {
  struct Case {
    const char* name;
    std::vector<RunPlan> plans;
    std::string says;  // "" when the plans agree
  };
  RunPlan prepare = Plan("cpu", "10", "none");
  prepare.command = "prepare";
  RunPlan mixed = Plan("cpu", "10", "none");
  mixed.mixed = true;
  mixed.limits.push_back({"--mpi-mixed", "on"});
  RunPlan mixed_prime = mixed;
  mixed_prime.options[1].value = "20000";
  RunPlan not_mixed = Plan("cpu", "10", "none");
  not_mixed.limits.push_back({"--mpi-mixed", "off"});
  RunPlan extra = Plan("cpu", "10", "none");
  extra.options.push_back({"--script-option", "5"});
  const std::vector<Case> cases = {
      {"one rank", {Plan("cpu", "10", "none")}, ""},
      {"alike", {Plan("cpu", "10", "none"), Plan("cpu", "10", "none")}, ""},
      {"another test",
       {Plan("cpu", "10", "none"), Plan("memory", "10", "none")},
       "rank 1 runs memory where rank 0 runs cpu"},
      {"another command",
       {Plan("cpu", "10", "none"), prepare},
       "rank 1 runs cpu prepare where rank 0 runs cpu run"},
      {"a rank without a limit",
       {Plan("cpu", "10", "none"), Plan("cpu", "none", "none")},
       "rank 1 has no time or event limit (--time=0, no --events) where rank 0 has --time=10: "
       "the run would never end; give every rank the same limit"},
      {"rank 0 without a limit",
       {Plan("cpu", "none", "none"), Plan("cpu", "none", "100")},
       "rank 0 has no time or event limit (--time=0, no --events) where rank 1 has "
       "--events=100: the run would never end; give every rank the same limit"},
      {"no rank has a limit", {Plan("cpu", "none", "none"), Plan("cpu", "none", "none")}, ""},
      {"another time",
       {Plan("cpu", "10", "none"), Plan("cpu", "20", "none")},
       "--time differs: rank 0 has 10, rank 1 has 20"},
      {"another kind of limit",
       {Plan("cpu", "10", "none"), Plan("cpu", "none", "100")},
       "--time differs: rank 0 has 10, rank 1 has none"},
      {"another option on the last rank",
       {Plan("cpu", "10", "none"), Plan("cpu", "10", "none"), Plan("cpu", "10", "none", "20000")},
       "--cpu-max-prime differs: rank 0 has 10000, rank 2 has 20000"},
      {"the lowest rank first",
       {Plan("cpu", "10", "none"), Plan("cpu", "10", "none", "3"), Plan("memory", "10", "none")},
       "--cpu-max-prime differs: rank 0 has 10000, rank 1 has 3"},
      {"mixed options", {mixed, mixed_prime}, ""},
      {"mixed on one rank only",
       {not_mixed, mixed},
       "--mpi-mixed differs: rank 0 has off, rank 1 has on"},
      {"an option only the other rank has",
       {Plan("cpu", "10", "none"), extra},
       "--script-option differs: rank 0 has none, rank 1 has 5"},
      {"an option only rank 0 has",
       {extra, Plan("cpu", "10", "none")},
       "--script-option differs: rank 0 has 5, rank 1 has none"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(ComparePlans(c.plans), c.says) << c.name;
  }
}

TEST(ComparePlans, LimitsAreComparedEvenWhenMixed) {
  RunPlan a = Plan("cpu", "10", "none");
  a.mixed = true;
  RunPlan b = a;
  b.limits[0].value = "5";
  b.options[1].value = "1";
  EXPECT_EQ(ComparePlans({a, b}), "--time differs: rank 0 has 10, rank 1 has 5");
}

TEST(RunPlanCodec, RoundTripsAndRefusesWhatIsNotAPlan) {
  RunPlan p = Plan("cpu", "10", "none", "77");
  p.mixed = true;
  p.options.push_back({"--with-nul", std::string("a\0b", 3)});
  const std::string bytes = EncodeRunPlan(p);
  Result<RunPlan> back = DecodeRunPlan(bytes);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->test, "cpu");
  EXPECT_EQ(back->command, "run");
  EXPECT_TRUE(back->mixed);
  ASSERT_EQ(back->limits.size(), p.limits.size());
  ASSERT_EQ(back->options.size(), p.options.size());
  EXPECT_EQ(back->options[1].value, "77");
  EXPECT_EQ(back->options[2].value, std::string("a\0b", 3));
  EXPECT_EQ(ComparePlans({p, *back}), "");
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    EXPECT_FALSE(DecodeRunPlan(bytes.substr(0, cut)).ok()) << "cut at " << cut;
  }
  EXPECT_FALSE(DecodeRunPlan(bytes + "x").ok());
  std::string other = bytes;
  other[0] = 'X';
  EXPECT_FALSE(DecodeRunPlan(other).ok());
}

TEST(PlanLimit, IsTheLimitsValueOrEmpty) {
  const RunPlan p = Plan("cpu", "10", "none");
  EXPECT_EQ(PlanLimit(p, "--time"), "10");
  EXPECT_EQ(PlanLimit(p, "--events"), "none");
  EXPECT_EQ(PlanLimit(p, "--warmup-time"), "");
}

}  // namespace
}  // namespace loadcell
