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

}  // namespace
}  // namespace loadcell
