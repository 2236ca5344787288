// The verdict in each form a run's result is written in, through the
// binary (docs/validity.md, "Where it is printed"): the CSV's verdict
// column, the HTML page's verdict panel at the top (each finding's words,
// escaped), and the JSON's validity.cost_ms, the verdict step's own time,
// for a fileio run and a fio run. Its bound (50 ms for a run without a
// database) is a figure of speed: measured, not asserted (tests never
// assert on speed).

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "testing/fio_run.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"
#include "testing/verdict_run.h"

namespace loadcell {
namespace {

using testing::BuildTree;
using testing::FileIoCommand;
using testing::ProcessResult;
using testing::RunLoadcell;
using testing::ShowVerdictRun;
using testing::TempDir;
using testing::VerdictCheckOf;

// The bound docs/validity.md states for the whole verdict step of a run
// without a database ("The cost of the verdict").

// The lines of `text`, without their line breaks.
std::vector<std::string> CsvLines(const std::string& text) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at < text.size()) {
    const size_t nl = text.find('\n', at);
    out.push_back(text.substr(at, nl == std::string::npos ? std::string::npos : nl - at));
    if (nl == std::string::npos) break;
    at = nl + 1;
  }
  return out;
}

// A buffered random read of the 4 MiB that prepare wrote: INVALID (cache)
// on any machine.
std::vector<std::string> FileioBufferedRead(const TempDir& dir, std::vector<std::string> extra) {
  std::vector<std::string> args = {"--file-test-mode=rndrd", "--events=400"};
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back("run");
  return FileIoCommand(dir, args);
}

TEST(VerdictOutputs, TheCsvHasAVerdictColumnFilledOnTheTotalRow) {
  TempDir dir(BuildTree());
  ASSERT_EQ(RunLoadcell(FileIoCommand(dir, {"prepare"})).exit_code, 0);
  const ProcessResult r = RunLoadcell(FileioBufferedRead(dir, {"--format=csv"}));
  ASSERT_EQ(r.exit_code, 0) << ShowVerdictRun(r);
  const std::vector<std::string> lines = CsvLines(r.out);
  ASSERT_GE(lines.size(), 2u) << r.out;
  EXPECT_EQ(lines.front().rfind("time_s,", 0), 0u) << r.out;
  EXPECT_EQ(lines.front().substr(lines.front().rfind(',')), ",verdict") << r.out;
  const std::string& total = lines.back();
  EXPECT_EQ(total.rfind("total,", 0), 0u) << r.out;
  EXPECT_EQ(total.substr(total.rfind(',')), ",invalid") << r.out;

  // --verdict=off: the column stays (one width for every CSV), empty.
  const ProcessResult off = RunLoadcell(FileioBufferedRead(dir, {"--format=csv", "--verdict=off"}));
  ASSERT_EQ(off.exit_code, 0) << ShowVerdictRun(off);
  const std::vector<std::string> off_lines = CsvLines(off.out);
  ASSERT_GE(off_lines.size(), 2u) << off.out;
  EXPECT_EQ(off_lines.front().substr(off_lines.front().rfind(',')), ",verdict") << off.out;
  EXPECT_EQ(off_lines.back().rfind("total,", 0), 0u) << off.out;
  EXPECT_EQ(off_lines.back().back(), ',') << off.out;

  // A clean cpu run: "valid" on the total row, or valid_with_warnings when
  // the host is noisy (never invalid).
  const ProcessResult cpu =
      RunLoadcell({"cpu", "--events=20000", "--cpu-max-prime=100", "--format=csv", "run"});
  ASSERT_EQ(cpu.exit_code, 0) << ShowVerdictRun(cpu);
  const std::string cpu_total = CsvLines(cpu.out).back();
  const std::string word = cpu_total.substr(cpu_total.rfind(',') + 1);
  EXPECT_TRUE(word == "valid" || word == "valid_with_warnings") << cpu.out;
}

TEST(VerdictOutputs, TheHtmlPageOpensWithTheVerdictPanel) {
  TempDir dir(BuildTree());
  ASSERT_EQ(RunLoadcell(FileIoCommand(dir, {"prepare"})).exit_code, 0);
  const ProcessResult r =
      RunLoadcell(FileioBufferedRead(dir, {"--format=json", "--output-file=" + (dir / "r.json"),
                                           "--report-html=" + (dir / "r.html")}));
  ASSERT_EQ(r.exit_code, 0) << ShowVerdictRun(r);
  const std::string page = testing::ReadFile(dir / "r.html");
  const size_t panel =
      page.find("<section id=\"verdict\" class=\"verdict bad\"><h2>Verdict: INVALID (");
  const size_t summary = page.find("<section id=\"summary\">");
  ASSERT_NE(panel, std::string::npos) << page;
  ASSERT_NE(summary, std::string::npos) << page;
  EXPECT_LT(panel, summary);
  // No other section before it: the panel is the page's first.
  EXPECT_EQ(page.find("<section"), panel);
  // Each check that did not pass is a row with its level, id and words.
  const nlohmann::json j = nlohmann::json::parse(testing::ReadFile(dir / "r.json"));
  const nlohmann::json cache = VerdictCheckOf(j, "cache");
  ASSERT_FALSE(cache.is_null()) << j.dump();
  const std::string panel_html = page.substr(panel, summary - panel);
  EXPECT_NE(panel_html.find("<td>INVALID</td><td>cache</td>"), std::string::npos) << panel_html;
  EXPECT_NE(panel_html.find(cache["advice"].get<std::string>()), std::string::npos) << panel_html;
  for (const nlohmann::json& c : j["validity"]["checks"]) {
    if (c["level"] == "pass") {
      EXPECT_EQ(panel_html.find("<td>" + c["id"].get<std::string>() + "</td>"), std::string::npos)
          << c.dump();
    } else {
      EXPECT_NE(panel_html.find("<td>" + c["id"].get<std::string>() + "</td>"), std::string::npos)
          << c.dump();
    }
  }

  // A finding's words are escaped: a saved result whose check says
  // "<b>&'\"" renders it as text, never as markup.
  nlohmann::json edited = j;
  for (nlohmann::json& c : edited["validity"]["checks"]) {
    if (c["id"] == "cache") {
      c["seen"] = "files <b>bold</b> & \"quoted\"";
      c["advice"] = "use <i>this</i>";
    }
  }
  dir.Write("edited.json", edited.dump());
  const ProcessResult html = RunLoadcell({"report", dir / "edited.json"});
  ASSERT_EQ(html.exit_code, 0) << ShowVerdictRun(html);
  EXPECT_NE(html.out.find("files &lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot;"),
            std::string::npos)
      << html.out;
  EXPECT_NE(html.out.find("use &lt;i&gt;this&lt;/i&gt;"), std::string::npos) << html.out;
  EXPECT_EQ(html.out.find("<b>bold"), std::string::npos) << html.out;
  EXPECT_EQ(html.out.find("<i>this"), std::string::npos) << html.out;
}

TEST(VerdictOutputs, AFileioRunRecordsItsVerdictsCost) {
  TempDir dir(BuildTree());
  ASSERT_EQ(RunLoadcell(FileIoCommand(dir, {"prepare"})).exit_code, 0);
  const ProcessResult r = RunLoadcell(FileioBufferedRead(dir, {"--format=json"}));
  ASSERT_EQ(r.exit_code, 0) << ShowVerdictRun(r);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j["validity"].contains("cost_ms")) << r.out;
  const double cost = j["validity"]["cost_ms"].get<double>();
  EXPECT_GT(cost, 0.0) << r.out;
}

TEST(VerdictOutputs, AFioJobRecordsItsVerdictsCost) {
  TempDir dir;
  const ProcessResult r =
      testing::RunFio(dir, {"--name=small", "--rw=randread", "--bs=4k", "--size=4m",
                            "--ioengine=psync", "--output-format=json"});
  ASSERT_EQ(r.exit_code, 0) << ShowVerdictRun(r);
  const nlohmann::json jobs = testing::FioJsonJobs(r);
  ASSERT_EQ(jobs.size(), 1u) << r.out;
  const nlohmann::json& validity = jobs[0]["loadcell"]["validity"];
  ASSERT_TRUE(validity.contains("cost_ms")) << r.out;
  const double cost = validity["cost_ms"].get<double>();
  EXPECT_GT(cost, 0.0) << validity.dump();
}

}  // namespace
}  // namespace loadcell
