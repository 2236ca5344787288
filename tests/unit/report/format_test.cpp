#include "report/format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace loadcell::report_internal {
namespace {

TEST(FormatMsTest, TwoDecimalsFromATenthOfAMillisecond) {
  EXPECT_EQ(FormatMs(0.24), "0.24");
  EXPECT_EQ(FormatMs(1.5), "1.50");
  EXPECT_EQ(FormatMs(1992.554), "1992.55");
  EXPECT_EQ(FormatMs(0.1), "0.10");
}

TEST(FormatMsTest, SmallValuesKeepTwoSignificantDigits) {
  EXPECT_EQ(FormatMs(0.0031), "0.0031");
  EXPECT_EQ(FormatMs(0.003), "0.0030");
  EXPECT_EQ(FormatMs(0.031), "0.031");
  EXPECT_EQ(FormatMs(0.000001), "0.000001");  // 1 ns
}

TEST(FormatMsTest, NeverPrintsZeroForANonzeroNanosecondValue) {
  for (double ns = 1; ns < 1e7; ns *= 1.37) {
    const std::string s = FormatMs(ns / 1e6);
    EXPECT_GT(std::stod(s), 0) << ns << " ns printed as " << s;
  }
}

TEST(FormatMsTest, ZeroAndNonFiniteAreZero) {
  EXPECT_EQ(FormatMs(0), "0.00");
  EXPECT_EQ(FormatMs(std::nan("")), "0.00");
  EXPECT_EQ(FormatMs(std::numeric_limits<double>::infinity()), "0.00");
  EXPECT_EQ(FormatMs(0, 3), "0.000");
}

TEST(FormatMsTest, MinimumDecimalsAreKept) {
  EXPECT_EQ(FormatMs(0.218, 3), "0.218");
  EXPECT_EQ(FormatMs(0.0031, 3), "0.0031");
}

TEST(PercentileTest, TextAndList) {
  EXPECT_EQ(PercentileText(95), "95");
  EXPECT_EQ(PercentileText(99.9), "99.9");
  EXPECT_EQ(ReportedPercentiles(95, false), (std::vector<double>{50, 95, 99, 99.9}));
  EXPECT_EQ(ReportedPercentiles(90, false), (std::vector<double>{50, 90, 95, 99, 99.9}));
  EXPECT_EQ(ReportedPercentiles(0, true), (std::vector<double>{50, 95, 99, 99.9, 99.99}));
  EXPECT_EQ(ReportedPercentiles(99.999, true),
            (std::vector<double>{50, 95, 99, 99.9, 99.99, 99.999}));
}

TEST(IntervalStampTest, WholeSecondsLikeSysbench) {
  EXPECT_EQ(IntervalStamp(1.0002, 1), "[ 1s ] ");
  EXPECT_EQ(IntervalStamp(9.9999, 1), "[ 10s ] ");
  EXPECT_EQ(IntervalStamp(2, 0), "[ 2s ] ");
  EXPECT_EQ(IntervalStamp(0.5, 0.5), "[ 0.5s ] ");
  EXPECT_EQ(IntervalStamp(1.25, 0.25), "[ 1.25s ] ");
}

TEST(CounterNameTest, FallsBackToIndex) {
  EXPECT_EQ(CounterName({"ops"}, 0), "ops");
  EXPECT_EQ(CounterName({"ops"}, 1), "counter_1");
  EXPECT_EQ(CounterName({""}, 0), "counter_0");
}

TEST(TableMsTest, ThreeDecimalsFromATenthOfAMillisecondTwoDigitsBelow) {
  EXPECT_EQ(TableMs(362e3), "0.362");
  EXPECT_EQ(TableMs(1225e3), "1.225");
  EXPECT_EQ(TableMs(3e3), "0.0030");
  EXPECT_EQ(TableMs(45.6e3), "0.046");
  EXPECT_EQ(TableMs(0), "0.000");
  EXPECT_EQ(TableMs(std::numeric_limits<double>::quiet_NaN()), "0.000");
}

TEST(CsvMsTest, SixDecimalsAndNeverNan) {
  EXPECT_EQ(CsvMs(1), "0.000001");
  EXPECT_EQ(CsvMs(1234567), "1.234567");
  EXPECT_EQ(CsvMs(std::numeric_limits<double>::infinity()), "0.000000");
}

TEST(CsvFieldTest, QuotesOnlyWhatNeedsIt) {
  EXPECT_EQ(CsvField("plain"), "plain");
  EXPECT_EQ(CsvField("a,b"), "\"a,b\"");
  EXPECT_EQ(CsvField("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(CsvField("two\nlines"), "\"two\nlines\"");
}

}  // namespace
}  // namespace loadcell::report_internal
