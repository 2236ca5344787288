// loadcell's own reports of `loadcell fio` runs through the binary:
// --format=json (loadcell's run schema with each job and group),
// --report-html, and `loadcell report` and `loadcell compare` reading them.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "testing/csv_rows.h"
#include "testing/fio_run.h"
#include "testing/html_chart.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell::testing {
namespace {

// Two jobs of 256 I/Os each on 1 MiB files; `reader_bs` the reader's block
// size, `more` further lines at the end (another job).
void WriteTwoJobs(const TempDir& dir, const std::string& name, const std::string& reader_bs = "4k",
                  const std::string& more = "") {
  dir.Write(name,
            "[global]\n"
            "size=1m\n"
            "ioengine=psync\n"
            "bs=4k\n"
            "[reader]\n"
            "rw=randread\n"
            "bs=" +
                reader_bs +
                "\n"
                "[writer]\n"
                "rw=write\n" +
                more);
}

nlohmann::json ReadJson(const TempDir& dir, const std::string& name) {
  return nlohmann::json::parse(dir.Read(name), nullptr, /*allow_exceptions=*/false);
}

// The histogram's buckets of a run document as low -> count.
std::map<uint64_t, uint64_t> Buckets(const nlohmann::json& doc) {
  std::map<uint64_t, uint64_t> out;
  for (const auto& b : doc["histogram"]["buckets"])
    out[b[0].get<uint64_t>()] += b[2].get<uint64_t>();
  return out;
}

TEST(FioResultsTest, TheSavedResultHoldsEveryJobAndGroupMergedExactly) {
  TempDir dir;
  WriteTwoJobs(dir, "two.fio");
  ProcessResult r =
      RunFio(dir, {"--format=json", "--output-file=res.json", "--report-html=run.html", "two.fio"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // fio's own report still on stdout.
  EXPECT_NE(r.out.find("Run status group 0 (all jobs):"), std::string::npos) << r.out;
  const nlohmann::json doc = ReadJson(dir, "res.json");
  ASSERT_FALSE(doc.is_discarded());
  EXPECT_EQ(doc["schema"], "loadcell-result/1");
  EXPECT_EQ(doc["manifest"]["test"], "fio");
  EXPECT_EQ(doc["manifest"]["targets"].size(), 2u);
  ASSERT_EQ(doc["jobs"].size(), 2u);
  ASSERT_EQ(doc["groups"].size(), 1u);
  EXPECT_EQ(doc["jobs"][0]["job"]["name"], "reader");
  EXPECT_EQ(doc["jobs"][1]["job"]["name"], "writer");
  EXPECT_EQ(doc["groups"][0]["job"]["instances"], 2);
  // 256 reads and 256 writes, the total their sum, histograms bucket by bucket.
  EXPECT_EQ(doc["jobs"][0]["summary"]["counters"]["reads"], 256);
  EXPECT_EQ(doc["jobs"][1]["summary"]["counters"]["writes"], 256);
  EXPECT_EQ(doc["summary"]["events"], 512);
  std::map<uint64_t, uint64_t> sum = Buckets(doc["jobs"][0]);
  for (const auto& [low, n] : Buckets(doc["jobs"][1])) sum[low] += n;
  EXPECT_EQ(Buckets(doc), sum);
  EXPECT_EQ(Buckets(doc["groups"][0]), sum);
  // Each job's options and verdict, and the verdict of all of them.
  bool bs_recorded = false;
  for (const auto& o : doc["jobs"][0]["manifest"]["options"]) {
    bs_recorded = bs_recorded || (o["name"] == "bs" && o["value"] == "4k");
  }
  EXPECT_TRUE(bs_recorded) << doc["jobs"][0]["manifest"]["options"].dump();
  EXPECT_TRUE(doc["jobs"][0].contains("validity"));
  EXPECT_TRUE(doc.contains("validity"));

  // The live page: every job's figures, charts and verdict.
  const std::string live = dir.Read("run.html");
  EXPECT_NE(live.find("id=\"jobs\""), std::string::npos);
  EXPECT_NE(live.find("job reader"), std::string::npos);
  EXPECT_NE(live.find("id=\"verdict-job-2\""), std::string::npos);
  EXPECT_GT(ChartPoints(live, "histogram-job-1"), 0);
  EXPECT_GT(ChartPoints(live, "histogram-job-2"), 0);

  // `loadcell report` reads the saved result and draws the same jobs.
  ProcessResult page = RunLoadcell({"report", (dir / "res.json")});
  ASSERT_EQ(page.exit_code, 0) << page.err;
  EXPECT_NE(page.out.find("job writer"), std::string::npos);
  EXPECT_GT(ChartPoints(page.out, "histogram-job-2"), 0);
}

TEST(FioResultsTest, JsonOnStdoutReplacesFiosReport) {
  TempDir dir;
  ProcessResult r = RunFio(dir, {"--format=json", "--output=fio.txt", "--name=a", "--rw=read",
                                 "--size=1m", "--ioengine=null"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << r.out;
  EXPECT_EQ(doc["jobs"][0]["summary"]["events"], 256);
  // fio's report (and its header lines) went to --output.
  EXPECT_NE(dir.Read("fio.txt").find("Run status group 0"), std::string::npos);
}

TEST(FioResultsTest, CompareMatchesJobsByNameAndNamesWhatDiffers) {
  TempDir dir;
  WriteTwoJobs(dir, "a.fio");
  WriteTwoJobs(dir, "b.fio", "8k");
  WriteTwoJobs(dir, "c.fio", "4k", "[extra]\nrw=read\n");
  for (const char* run : {"a", "a2", "b", "c"}) {
    const std::string file = std::string(run) == "a2" ? "a.fio" : std::string(run) + ".fio";
    ProcessResult r = RunFio(dir, {"--format=json", "--output-file=" + std::string(run) + ".json",
                                   "--output=" + std::string(run) + ".txt", file});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  ProcessResult same = RunLoadcell({"compare", (dir / "a.json"), (dir / "a2.json")});
  ASSERT_EQ(same.exit_code, 0) << same.err;
  EXPECT_NE(same.out.find("Jobs, matched by name"), std::string::npos) << same.out;
  // A row per job and result; B's with its ratios to A's.
  EXPECT_TRUE(std::regex_search(same.out, std::regex("\nreader +B +[0-9.]+ +[0-9.]+ +[0-9.]+ +"
                                                     "[0-9.]+x +[0-9.]+x +[0-9.]+x\n")))
      << same.out;
  EXPECT_TRUE(std::regex_search(same.out, std::regex("\nwriter +B .*x\n"))) << same.out;
  EXPECT_NE(same.out.find("Overall: comparable"), std::string::npos) << same.out;

  ProcessResult bs = RunLoadcell({"compare", (dir / "a.json"), (dir / "b.json")});
  ASSERT_EQ(bs.exit_code, 0) << bs.err;
  // The totals' block size, the job's target and its option, each named.
  EXPECT_NE(bs.out.find("not comparable: block size"), std::string::npos) << bs.out;
  EXPECT_NE(bs.out.find("job reader bs 4k vs 8k"), std::string::npos) << bs.out;
  EXPECT_EQ(bs.out.find("job writer bs"), std::string::npos) << bs.out;

  ProcessResult set = RunLoadcell({"compare", (dir / "a.json"), (dir / "c.json")});
  ASSERT_EQ(set.exit_code, 0) << set.err;
  EXPECT_NE(set.out.find("job set none vs extra"), std::string::npos) << set.out;
  EXPECT_TRUE(std::regex_search(set.out, std::regex("\nextra +A +\\(no such job\\)"))) << set.out;
}

using CsvByRow = std::map<std::pair<std::string, std::string>, std::vector<std::string>>;

// The cell in column `column` of the row of `result` and `job`; "(no row)"
// when there is none.
std::string Cell(const CsvByRow& by, const std::string& result, const std::string& job,
                 size_t column) {
  const auto it = by.find({result, job});
  if (it == by.end() || column >= it->second.size()) return "(no row)";
  return it->second[column];
}

TEST(FioResultsTest, CompareCsvHasEachJobsRowPerResult) {
  TempDir dir;
  WriteTwoJobs(dir, "a.fio");
  WriteTwoJobs(dir, "c.fio", "4k", "[extra]\nrw=read\n");
  for (const char* run : {"a", "a2", "c"}) {
    const std::string file = std::string(run) == "a2" ? "a.fio" : std::string(run) + ".fio";
    ProcessResult r = RunFio(dir, {"--format=json", "--output-file=" + std::string(run) + ".json",
                                   "--output=" + std::string(run) + ".txt", file});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  ProcessResult csv = RunLoadcell(
      {"compare", "--format=csv", (dir / "a.json"), (dir / "a2.json"), (dir / "c.json")});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  const std::vector<std::vector<std::string>> rows = CsvRows(csv.out);
  ASSERT_FALSE(rows.empty());
  const std::vector<std::string>& header = rows[0];
  ASSERT_GE(header.size(), 2u);
  EXPECT_EQ(header[0], "result");
  EXPECT_EQ(header[1], "job");
  auto column = [&header](const std::string& name) {
    const auto it = std::find(header.begin(), header.end(), name);
    EXPECT_NE(it, header.end()) << name;
    return static_cast<size_t>(it - header.begin());
  };
  // (result, job) -> its cells, each line as many as the header.
  CsvByRow by;
  for (size_t i = 1; i < rows.size(); ++i) {
    ASSERT_EQ(rows[i].size(), header.size()) << csv.out;
    EXPECT_TRUE(by.emplace(std::make_pair(rows[i][0], rows[i][1]), rows[i]).second) << csv.out;
  }
  // The totals, then 3 jobs of 3 results.
  EXPECT_EQ(by.size(), 3u + 3u * 3u) << csv.out;
  const size_t events = column("events");
  const size_t runs = column("runs");
  const size_t change = column("change_events_per_second_pct");
  const size_t comparable = column("comparable");
  const size_t differences = column("differences");
  for (const char* result : {"A", "B"}) {
    SCOPED_TRACE(result);
    // reader: 256 reads, writer: 256 writes; together the totals.
    EXPECT_EQ(Cell(by, result, "reader", events), "256") << csv.out;
    EXPECT_EQ(Cell(by, result, "writer", events), "256") << csv.out;
    EXPECT_EQ(Cell(by, result, "", events), "512") << csv.out;
    EXPECT_EQ(Cell(by, result, "extra", runs), "0") << csv.out;
    EXPECT_EQ(Cell(by, result, "extra", events), "") << csv.out;
    EXPECT_EQ(Cell(by, result, "extra", differences), "no such job") << csv.out;
  }
  // B's jobs against A's: a change, the same job comparable.
  for (const char* job : {"reader", "writer"}) {
    EXPECT_FALSE(Cell(by, "B", job, change).empty()) << csv.out;
    EXPECT_TRUE(Cell(by, "A", job, change).empty()) << csv.out;
    EXPECT_EQ(Cell(by, "B", job, comparable), "yes") << csv.out;
    EXPECT_EQ(Cell(by, "C", job, comparable), "yes") << csv.out;
    EXPECT_EQ(Cell(by, "C", job, runs), "1") << csv.out;
  }
  // The job only C has: its figures, no change (A has none), the job set named.
  EXPECT_EQ(Cell(by, "C", "extra", events), "256") << csv.out;
  EXPECT_TRUE(Cell(by, "C", "extra", change).empty()) << csv.out;
  EXPECT_EQ(Cell(by, "C", "extra", comparable), "no") << csv.out;
  EXPECT_EQ(Cell(by, "C", "extra", differences), "job set none vs extra") << csv.out;
  EXPECT_EQ(Cell(by, "C", "", comparable), "no") << csv.out;
}

TEST(FioResultsTest, TheOptionsAreRefusedWhereTheyMakeNoSense) {
  TempDir dir;
  WriteTwoJobs(dir, "two.fio");
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--parse-only", "--report-html=p.html"}, "--report-html: --parse-only runs nothing"},
      {{"--parse-only", "--format=json"}, "--format=json: --parse-only runs nothing"},
      {{"--output-file=x.json"}, "--output-file=x.json: needs --format=json"},
      {{"--format=csv"}, "--format=csv: loadcell fio takes --format=json"},
      {{"--report-html="}, "--report-html: needs PATH"},
      {{"--format=json", "--output-format=json"},
       "--format=json and --output-format both write to standard output"},
      {{"--report-html=same.out", "--output=same.out"},
       "--report-html=same.out: the same file as --output"},
      {{"--format=json", "--output-file=writer.0.0"},
       "--output-file=writer.0.0: a data file of job writer"},
  };
  for (const auto& [args, message] : cases) {
    std::vector<std::string> all = args;
    all.push_back("two.fio");
    ProcessResult r = RunFio(dir, all);
    EXPECT_EQ(r.exit_code, 2) << args[0] << ": " << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    EXPECT_EQ(OutputLines(r.err), 1) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "reader.0.0")) << args[0];
  }
}

}  // namespace
}  // namespace loadcell::testing
