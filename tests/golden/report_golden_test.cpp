// Golden tests of the report formats: a fixed RunResult rendered as text,
// JSON and CSV must match the files under tests/golden/data/ byte for byte.
// After an intended format change, regenerate them with
//   LOADCELL_UPDATE_GOLDEN=1 golden_tests --gtest_filter='ReportGolden*'
// and review the diff.

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "testing/report_fixture.h"

namespace loadcell {
namespace {

using testing::FakeWorkload;
using testing::FixtureFullResult;
using testing::FixtureResult;
using testing::FixtureSettings;
using testing::Format;
using testing::Render;

std::string GoldenPath(const std::string& name) {
  return std::string(LOADCELL_SOURCE_DIR) + "/tests/golden/data/" + name;
}

bool UpdateRequested() {
  const char* v = std::getenv("LOADCELL_UPDATE_GOLDEN");
  return v != nullptr && std::string(v) == "1";
}

// First differing line, for a readable failure message.
std::string FirstDifference(const std::string& want, const std::string& got) {
  std::istringstream a(want), b(got);
  std::string la, lb;
  for (int line = 1;; ++line) {
    const bool ha = static_cast<bool>(std::getline(a, la));
    const bool hb = static_cast<bool>(std::getline(b, lb));
    if (!ha && !hb) return "only line endings differ";
    if (ha != hb || la != lb) {
      return "line " + std::to_string(line) + ":\n  golden: " + (ha ? la : "<end>") +
             "\n  actual: " + (hb ? lb : "<end>");
    }
  }
}

void ExpectMatchesGolden(const std::string& name, const std::string& actual) {
  const std::string path = GoldenPath(name);
  if (UpdateRequested()) {
    std::ofstream out(path, std::ios::binary);
    out << actual;
    ASSERT_TRUE(out.good()) << "cannot write " << path;
    return;
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in.good()) << "missing golden file " << path
                         << " (run with LOADCELL_UPDATE_GOLDEN=1 to create it)";
  std::ostringstream want;
  want << in.rdbuf();
  EXPECT_TRUE(want.str() == actual)
      << name << " differs from the golden file, " << FirstDifference(want.str(), actual);
}

TEST(ReportGolden, BasicText) {
  FakeWorkload w;
  ExpectMatchesGolden("basic.txt", Render(Format::kText, w, FixtureResult(), FixtureSettings()));
}

TEST(ReportGolden, BasicJson) {
  FakeWorkload w;
  ExpectMatchesGolden("basic.json", Render(Format::kJson, w, FixtureResult(), FixtureSettings()));
}

TEST(ReportGolden, BasicCsv) {
  FakeWorkload w;
  ExpectMatchesGolden("basic.csv", Render(Format::kCsv, w, FixtureResult(), FixtureSettings()));
}

TEST(ReportGolden, FullText) {
  FakeWorkload w;
  ReportSettings s = FixtureSettings();
  s.percentile = 90;
  s.histogram = false;
  RunResult checkpoint = FixtureResult();
  checkpoint.checkpoint = true;
  checkpoint.total_time_s = 1;
  ExpectMatchesGolden("full.txt", Render(Format::kText, w, FixtureFullResult(), s, {checkpoint}));
}

TEST(ReportGolden, FullJson) {
  FakeWorkload w;
  ReportSettings s = FixtureSettings();
  s.percentile = 90;
  RunResult checkpoint = FixtureResult();
  checkpoint.checkpoint = true;
  checkpoint.total_time_s = 1;
  ExpectMatchesGolden("full.json", Render(Format::kJson, w, FixtureFullResult(), s, {checkpoint}));
}

TEST(ReportGolden, FullCsv) {
  FakeWorkload w;
  ExpectMatchesGolden("full.csv", Render(Format::kCsv, w, FixtureFullResult(), FixtureSettings()));
}

}  // namespace
}  // namespace loadcell
