#include "runner/validity.h"

#include <gtest/gtest.h>

namespace loadcell {
namespace {

CheckOutcome At(const char* id, CheckLevel level) {
  CheckOutcome c;
  c.id = id;
  c.level = level;
  return c;
}

TEST(ValidityTest, NotPassedListsTheGravestFirst) {
  Validity v;
  v.checks = {At("a", CheckLevel::kNotChecked), At("b", CheckLevel::kWarn),
              At("c", CheckLevel::kPass), At("d", CheckLevel::kInvalid),
              At("e", CheckLevel::kWarn)};
  const std::vector<const CheckOutcome*> out = v.NotPassed();
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0]->id, "d");
  EXPECT_EQ(out[1]->id, "b");
  EXPECT_EQ(out[2]->id, "e");
  EXPECT_EQ(out[3]->id, "a");
}

TEST(ValidityTest, NotCheckedAloneLeavesTheResultValid) {
  Validity v;
  v.checks = {At("a", CheckLevel::kNotChecked), At("b", CheckLevel::kPass)};
  EXPECT_EQ(v.overall(), Overall::kValid);
  EXPECT_EQ(VerdictLine(v), "valid");
  EXPECT_STREQ(CheckLevelWord(CheckLevel::kNotChecked), "not checked");
  EXPECT_STREQ(CheckLevelName(CheckLevel::kNotChecked), "not_checked");
}

CheckOutcome Seen(const char* id, CheckLevel level, const char* seen, const char* advice = "") {
  CheckOutcome c = At(id, level);
  c.seen = seen;
  c.advice = advice;
  return c;
}

Validity Judged(std::vector<CheckOutcome> checks, double cost_ms = 1) {
  Validity v;
  v.judged = true;
  v.mode = VerdictMode::kStrict;
  v.checks = std::move(checks);
  v.cost_ms = cost_ms;
  return v;
}

TEST(ValidityTest, AMergedVerdictTakesEachChecksGravestLevelWithThePartsThatFoundIt) {
  const Validity a = Judged({Seen("samples", CheckLevel::kWarn, "few events", "run longer"),
                             Seen("cpu-frequency", CheckLevel::kNotChecked, "no cpufreq"),
                             Seen("errors", CheckLevel::kPass, "none")});
  Validity b = Judged({Seen("samples", CheckLevel::kInvalid, "no event was measured", "look"),
                       Seen("cpu-frequency", CheckLevel::kNotChecked, "no cpufreq"),
                       Seen("errors", CheckLevel::kPass, "none")},
                      2);
  b.checks[0].figures = {{"events", 0}};
  const Validity c = Judged({Seen("samples", CheckLevel::kInvalid, "no event was measured"),
                             Seen("cpu-frequency", CheckLevel::kNotChecked, "no cpufreq"),
                             Seen("cache", CheckLevel::kWarn, "in memory", "direct")});
  const Validity off;  // --verdict=off: left out
  const Validity m =
      MergeVerdicts({{"reader", &a}, {"log writer, cycle 1", &b}, {"audit", &c}, {"x", &off}});
  ASSERT_TRUE(m.judged);
  EXPECT_EQ(m.mode, VerdictMode::kStrict);
  EXPECT_DOUBLE_EQ(m.cost_ms, 4);
  ASSERT_EQ(m.checks.size(), 4u);  // in the order each first appears
  EXPECT_EQ(m.checks[0].id, "samples");
  EXPECT_EQ(m.checks[0].level, CheckLevel::kInvalid);
  // Only the findings at the gravest level, each after the parts that made it.
  EXPECT_EQ(m.checks[0].seen, "log writer, cycle 1; audit: no event was measured");
  EXPECT_EQ(m.checks[0].advice, "look");
  ASSERT_EQ(m.checks[0].figures.size(), 1u);
  EXPECT_EQ(m.checks[0].figures[0].name, "events");
  // Found alike by every part: the words alone.
  EXPECT_EQ(m.checks[1].id, "cpu-frequency");
  EXPECT_EQ(m.checks[1].level, CheckLevel::kNotChecked);
  EXPECT_EQ(m.checks[1].seen, "no cpufreq");
  EXPECT_EQ(m.checks[2].level, CheckLevel::kPass);
  EXPECT_EQ(m.checks[2].seen, "reader; log writer, cycle 1: none");  // audit did not make it
  EXPECT_EQ(m.checks[3].id, "cache");
  EXPECT_EQ(m.checks[3].seen, "audit: in memory");  // the others did not make it
  EXPECT_EQ(m.overall(), Overall::kInvalid);
  EXPECT_EQ(VerdictLine(m), "INVALID (1)");
}

TEST(ValidityTest, DifferentFindingsAtOneLevelAreEachNamed) {
  const Validity a = Judged({Seen("samples", CheckLevel::kWarn, "3 events beyond p99")});
  const Validity b = Judged({Seen("samples", CheckLevel::kWarn, "5 events beyond p99")});
  const Validity m = MergeVerdicts({{"thread 0", &a}, {"thread 1", &b}});
  EXPECT_EQ(m.checks[0].seen, "thread 0: 3 events beyond p99 | thread 1: 5 events beyond p99");
  EXPECT_FALSE(MergeVerdicts({{"x", nullptr}}).judged);
  EXPECT_FALSE(MergeVerdicts({}).judged);
}

TEST(ValidityTest, TheVerdictModeIsNamedOffOnOrStrict) {
  EXPECT_EQ(VerdictModeNamed("off"), VerdictMode::kOff);
  EXPECT_EQ(VerdictModeNamed("on"), VerdictMode::kOn);
  EXPECT_EQ(VerdictModeNamed("strict"), VerdictMode::kStrict);
  EXPECT_FALSE(VerdictModeNamed("Strict").has_value());
  EXPECT_FALSE(VerdictModeNamed("").has_value());
}

}  // namespace
}  // namespace loadcell
