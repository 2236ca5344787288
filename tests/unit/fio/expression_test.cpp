#include "fio/expression.h"

#include <gtest/gtest.h>

#include "testing/status.h"

namespace loadcell::fio {
namespace {

int64_t ValueOf(std::string_view text) {
  Result<int64_t> r = EvaluateIntegerExpression(text);
  EXPECT_OK(r) << text;
  return r.ok() ? *r : -12345;
}

TEST(EvaluateIntegerExpression, PrecedenceAndGrouping) {
  EXPECT_EQ(ValueOf("8*1024"), 8192);
  EXPECT_EQ(ValueOf("1+2*3"), 7);
  EXPECT_EQ(ValueOf("(1+2)*3"), 9);
  EXPECT_EQ(ValueOf("2^3^2"), 512);  // right-grouping: 2^9
  EXPECT_EQ(ValueOf(" 10 - 4 - 3 "), 3);
  EXPECT_EQ(ValueOf("-4+10"), 6);
}

TEST(EvaluateIntegerExpression, DivisionTruncatesAsBcAtScaleZero) {
  EXPECT_EQ(ValueOf("7/2"), 3);
  EXPECT_EQ(ValueOf("-7/2"), -3);
  EXPECT_EQ(ValueOf("7%4"), 3);
}

TEST(EvaluateIntegerExpression, RefusesWhatIsNotAnIntegerExpression) {
  for (const char* bad :
       {"", "4k", "1/0", "(1+2", "2^-1", "99999999999999999999", "4611686018427387904*4", "1 2"}) {
    Result<int64_t> r = EvaluateIntegerExpression(bad);
    EXPECT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument) << bad;
  }
}

TEST(HasArithmetic, ALeadingSignIsNotArithmetic) {
  EXPECT_FALSE(HasArithmetic("4096"));
  EXPECT_FALSE(HasArithmetic("-8"));
  EXPECT_TRUE(HasArithmetic("8*4096"));
  EXPECT_TRUE(HasArithmetic("4096/2"));
}

}  // namespace
}  // namespace loadcell::fio
