// Golden tests of the report formats: a fixed RunResult rendered as text,
// JSON and CSV must match the files under tests/golden/data/ byte for byte.
// After an intended format change, regenerate them with
//   LOADCELL_UPDATE_GOLDEN=1 golden_tests --gtest_filter='ReportGolden*'
// and review the diff.

#include <gtest/gtest.h>

#include <string>

#include "testing/golden.h"
#include "testing/report_fixture.h"

namespace loadcell {
namespace {

using testing::FakeWorkload;
using testing::FixtureFullResult;
using testing::FixtureResult;
using testing::FixtureSettings;
using testing::Format;
using testing::Render;

using testing::ExpectMatchesGolden;

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
