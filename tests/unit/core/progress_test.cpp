#include "core/progress.h"

#include <gtest/gtest.h>

#include <sstream>
#include <thread>
#include <vector>

namespace loadcell {
namespace {

int CountLines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

TEST(ProgressTest, NotATerminalPrintsOneLinePerTenPercent) {
  std::ostringstream out;
  {
    Progress p("prepare", 1000, "rows", &out, /*tty=*/false);
    for (int i = 0; i < 100; ++i) p.Advance(10);
    p.Done();
  }
  const std::string s = out.str();
  EXPECT_EQ(CountLines(s), 10) << s;
  EXPECT_NE(s.find("prepare: 10% (100 of 1000 rows"), std::string::npos) << s;
  EXPECT_NE(s.find("prepare: 100% (1000 of 1000 rows"), std::string::npos) << s;
  EXPECT_EQ(s.find('\r'), std::string::npos);
}

TEST(ProgressTest, ThreadSafeAdvanceCountsEveryUnitAndPrintsEachDecileOnce) {
  std::ostringstream out;
  Progress p("load", 40000, "rows", &out, false);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&p] {
      for (int i = 0; i < 10000; ++i) p.Advance(1);
    });
  }
  for (auto& t : threads) t.join();
  p.Done();
  EXPECT_EQ(p.done(), 40000u);
  EXPECT_EQ(CountLines(out.str()), 10) << out.str();
}

TEST(ProgressTest, TerminalRedrawsInPlaceAndErasesTheBar) {
  std::ostringstream out;
  Progress p("prepare", 4096, "bytes", &out, /*tty=*/true);
  p.Advance(1024);
  const std::string drawn = out.str();
  ASSERT_FALSE(drawn.empty());
  EXPECT_EQ(drawn[0], '\r');
  EXPECT_NE(drawn.find("25%"), std::string::npos) << drawn;
  EXPECT_NE(drawn.find("1.0KiB of 4.0KiB"), std::string::npos) << drawn;
  EXPECT_NE(drawn.find("iB/s"), std::string::npos) << drawn;  // binary prefixes, said so
  EXPECT_EQ(drawn.find('\n'), std::string::npos);
  p.Done();
  const std::string all = out.str();
  // Done() overwrites the bar with spaces and returns to the line start.
  EXPECT_EQ(all.back(), '\r');
  EXPECT_EQ(all.find('\n'), std::string::npos);
}

TEST(ProgressTest, BarShowsRateAndTimeLeft) {
  Progress p("sweep", 8, "runs", nullptr, true);
  const std::string bar = p.BarText(2, 10.0, 8);
  EXPECT_NE(bar.find("[##------]"), std::string::npos) << bar;
  EXPECT_NE(bar.find("25%"), std::string::npos) << bar;
  EXPECT_NE(bar.find("2 of 8 runs"), std::string::npos) << bar;
  EXPECT_NE(bar.find("0.2 runs/s"), std::string::npos) << bar;
  EXPECT_NE(bar.find("0:30 left"), std::string::npos) << bar;  // 6 runs at 5 s each
}

TEST(ProgressTest, FewUnitsPrintOneLineEach) {
  std::ostringstream out;
  Progress p("sweep", 8, "runs", &out, false);
  for (int i = 0; i < 8; ++i) p.Advance(1);
  p.Done();
  EXPECT_EQ(CountLines(out.str()), 8) << out.str();
}

TEST(ProgressTest, DisabledPrintsNothing) {
  SetProgressEnabled(false);
  std::ostringstream out;
  {
    Progress p("prepare", 10, "rows", &out, false);
    p.Advance(10);
  }
  SetProgressEnabled(true);
  EXPECT_TRUE(out.str().empty());
}

}  // namespace
}  // namespace loadcell
