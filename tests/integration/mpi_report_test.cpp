// The commands that read and make results, on runs across MPI ranks:
// `loadcell sweep` under mpirun (every point across every rank, rank 0
// writes and prints), `loadcell compare` of their merged results, and the
// HTML report of an MPI run.

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "testing/mpirun.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::CountOf;
using testing::ProcessResult;
using testing::ReadFile;
using testing::RunLoadcell;
using testing::RunMpi;
using testing::Show;
using testing::TempDir;

TEST(MpiReportTest, SweepRunsEveryPointAcrossEveryRank) {
  TempDir dir;
  const ProcessResult r = RunMpi(2, {"sweep", "--threads=1,2", "--output-dir=" + (dir / "out"),
                                     "--", "cpu", "--cpu-max-prime=2000", "--events=100", "run"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  // One table: rank 0's. Its title says across whom the points ran.
  EXPECT_EQ(CountOf(r.out, "Sweep of cpu: 2 points, each across 2 ranks on 1 host ("), 1u)
      << Show(r);
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir / "out")) {
    files.push_back(e.path().filename().string());
  }
  EXPECT_EQ(files.size(), 2u) << Show(r);
  for (int threads : {1, 2}) {
    const std::string path = dir / ("out/cpu-threads=" + std::to_string(threads) + ".json");
    const nlohmann::json doc =
        nlohmann::json::parse(ReadFile(path), nullptr, /*allow_exceptions=*/false);
    ASSERT_FALSE(doc.is_discarded()) << path;
    // --events is each rank's: the merged result holds both ranks' events.
    EXPECT_EQ(doc["summary"]["events"], 200u) << path;
    EXPECT_EQ(doc["manifest"]["threads"], 2 * threads) << path;
    ASSERT_EQ(doc["cluster"]["ranks"].size(), 2u) << path;
    EXPECT_EQ(doc["cluster"]["ranks"][1]["events"], 100u) << path;
  }
  // compare of two merged results states who ran them and shows their ranks.
  const ProcessResult c =
      RunLoadcell({"compare", dir / "out/cpu-threads=1.json", dir / "out/cpu-threads=2.json"});
  ASSERT_EQ(c.exit_code, 0) << Show(c);
  EXPECT_EQ(CountOf(c.out, ", 2 ranks on 1 host ("), 2u) << c.out;
  EXPECT_EQ(CountOf(c.out, "\nRanks: 2\n"), 2u) << c.out;
  EXPECT_NE(c.err.find("B differs from A in --threads: 1 in A, 2 in B"), std::string::npos)
      << c.err;
}

TEST(MpiReportTest, HtmlReportShowsTheRanks) {
  TempDir dir;
  const ProcessResult r = RunMpi(
      3, {"cpu", "--cpu-max-prime=2000", "--events=50", "--report-html=" + (dir / "r.html")});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  const std::string html = ReadFile(dir / "r.html");
  EXPECT_NE(html.find("<section id=\"cluster\"><h2>Ranks</h2>"), std::string::npos);
  EXPECT_NE(html.find("data-chart=\"ranks\" data-points=\"3\""), std::string::npos);
  EXPECT_NE(html.find("Events per rank (mean 50, stddev 0)."), std::string::npos) << html;
}

// Two ranks with the same --events, one with ten times the work per event
// (--mpi-mixed=on): rank 0 is done long before rank 1, and the verdict
// says that for that tail only one rank ran, naming both; every rank's span
// is in the JSON.
TEST(MpiReportTest, RanksThatEndApartWarnInTheVerdict) {
  std::vector<std::string> command =
      testing::MpirunCommand(1,
                             {"cpu", "--cpu-max-prime=2000", "--events=1000", "--time=60",
                              "--format=json", "--mpi-mixed=on"},
                             /*timeout_s=*/90);
  testing::AddLoadcellRank(command, {"cpu", "--cpu-max-prime=20000", "--events=1000", "--time=60",
                                     "--format=json", "--mpi-mixed=on"});
  testing::ChildWatch watch;
  watch.timeout_s = 120;
  const ProcessResult r = testing::RunCommand(command, watch);
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  const nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << Show(r);
  const nlohmann::json& ranks = doc["cluster"]["ranks"];
  ASSERT_EQ(ranks.size(), 2u) << Show(r);
  EXPECT_LT(ranks[0]["end_s"].get<double>(), ranks[1]["end_s"].get<double>()) << Show(r);
  bool found = false;
  for (const nlohmann::json& check : doc["validity"]["checks"]) {
    if (check["id"] != "ranks") continue;
    found = true;
    EXPECT_EQ(check["level"], "warn") << check.dump();
    EXPECT_NE(check["seen"].get<std::string>().find("rank 1 ended "), std::string::npos)
        << check.dump();
    EXPECT_NE(check["seen"].get<std::string>().find(" after rank 0 "), std::string::npos)
        << check.dump();
    // Both ranks on this host: the verdict's host facts are its own.
    EXPECT_NE(check["seen"].get<std::string>().find("; host facts from rank 0's host ("),
              std::string::npos)
        << check.dump();
    EXPECT_NE(check["seen"].get<std::string>().find("), where every rank ran"), std::string::npos)
        << check.dump();
    EXPECT_EQ(check["figures"]["hosts"], 1) << check.dump();
  }
  EXPECT_TRUE(found) << Show(r);
}

}  // namespace
}  // namespace loadcell
