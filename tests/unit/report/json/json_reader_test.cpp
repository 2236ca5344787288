#include "report/json/json_reader.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cmath>
#include <nlohmann/json.hpp>

#include "testing/report_fixture.h"
#include "testing/status.h"

namespace loadcell {
namespace {

using testing::FakeWorkload;
using testing::FixtureClusterResult;
using testing::FixtureFullResult;
using testing::FixtureResult;
using testing::FixtureSettings;
using testing::Format;
using testing::Render;

std::string FixtureJson(const RunResult& r) {
  FakeWorkload w;
  return Render(Format::kJson, w, r, FixtureSettings());
}

TEST(JsonReaderTest, ReadsBackWhatTheJsonReporterWrote) {
  RunResult r = FixtureFullResult();
  Result<ResultData> d = ParseResultJson(FixtureJson(r), "full.json");
  ASSERT_OK(d);
  EXPECT_EQ(d->source, "full.json");
  EXPECT_EQ(d->manifest.test, "fake");
  EXPECT_EQ(d->manifest.threads, 2);
  EXPECT_EQ(d->manifest.seed, 42u);
  EXPECT_EQ(d->manifest.system.cpu_model, "Test CPU \"quoted\" \\ model");
  EXPECT_EQ(d->manifest.system.memory_bytes, 8ull << 30);
  ASSERT_EQ(d->manifest.options.size(), r.manifest.options.size());
  EXPECT_EQ(d->manifest.options[0].name, "threads");
  EXPECT_FALSE(d->manifest.options[0].is_default);
  EXPECT_EQ(d->Option("fake-limit").value_or(""), "10000");
  EXPECT_EQ(d->events, 1000u);
  EXPECT_DOUBLE_EQ(d->total_time_s, 2.0005);
  EXPECT_EQ(d->errors, 3u);
  const LatencyHistogram& h = r.latency[0].histogram;
  EXPECT_EQ(d->latency.count, h.Count());
  EXPECT_EQ(d->latency.max, h.Max());
  EXPECT_EQ(d->latency.Percentile("99").value_or(0), h.Percentile(99));
  EXPECT_EQ(d->latency.Percentile("99.9").value_or(0), h.Percentile(99.9));
  EXPECT_FALSE(d->latency.Percentile("12").has_value());
  ASSERT_EQ(d->latency_by_kind.size(), 3u);
  EXPECT_EQ(d->latency_by_kind[0].first, "read");
  EXPECT_EQ(d->latency_by_kind[1].second.count, 300u);
  EXPECT_EQ(d->latency_by_kind[2].first, "fsync");
  EXPECT_EQ(d->latency_by_kind[2].second.count, 0u);
  ASSERT_TRUE(d->service_latency.has_value());
  EXPECT_EQ(d->Counter("bytes").value_or(0), 4096000u);
  ASSERT_EQ(d->metrics.size(), 2u);
  EXPECT_EQ(d->metrics[1].key, "mib_per_second");
  EXPECT_EQ(d->metrics[1].unit, "MiB/s");
  ASSERT_EQ(d->threads.size(), 2u);
  EXPECT_EQ(d->threads[0].events, 600u);
  EXPECT_DOUBLE_EQ(d->threads[0].exec_time_s, 0.4);
  EXPECT_DOUBLE_EQ(d->threads[0].busy_time_s, 0.25);
  ASSERT_EQ(d->intervals.size(), 2u);
  EXPECT_DOUBLE_EQ(d->intervals[1].t_s, 2);
  EXPECT_EQ(d->intervals[1].events, 500u);
  EXPECT_EQ(d->intervals[1].queue, 5u);
  ASSERT_EQ(d->intervals[0].counters.size(), 2u);
  EXPECT_EQ(d->intervals[0].counters[0].second, 500u);
  uint64_t in_buckets = 0;
  for (const HistogramRow& row : d->histogram) {
    EXPECT_LE(row.low, row.high);
    in_buckets += row.count;
  }
  EXPECT_EQ(in_buckets, 1000u);
  EXPECT_TRUE(d->interrupted);
  EXPECT_NE(d->failure.find("write failed"), std::string::npos);
}

TEST(JsonReaderTest, ReadsBackTheRanksOfARunAcrossProcesses) {
  RunResult r = FixtureClusterResult();
  r.cluster->missing_ranks = {2};
  r.cluster->stonewall = StonewallFigures{1, 1.5, 900, 600};
  Result<ResultData> d = ParseResultJson(FixtureJson(r), "mpi.json");
  ASSERT_OK(d);
  ASSERT_TRUE(d->cluster.has_value());
  const ClusterFigures& c = *d->cluster;
  ASSERT_EQ(c.ranks.size(), 2u);
  EXPECT_EQ(c.ranks[1].rank, 1);
  EXPECT_EQ(c.ranks[1].host, "c2");
  EXPECT_EQ(c.ranks[1].first_thread, 1);
  EXPECT_EQ(c.ranks[1].events, 400u);
  EXPECT_EQ(c.ranks[1].errors, 2u);
  EXPECT_DOUBLE_EQ(c.ranks[1].events_per_second, 200);
  EXPECT_EQ(c.ranks[0].p95_ns, 250000u);
  EXPECT_DOUBLE_EQ(c.ranks[1].clock_offset_s, 0.00002);
  EXPECT_DOUBLE_EQ(c.events_fairness.mean, 500);
  EXPECT_DOUBLE_EQ(c.events_fairness.stddev, 100);
  EXPECT_DOUBLE_EQ(c.events_extremes.min_from_mean_pct, -20);
  EXPECT_DOUBLE_EQ(c.events_extremes.max_from_mean_pct, 20);
  EXPECT_EQ(c.missing_ranks, std::vector<int>{2});
  ASSERT_TRUE(c.stonewall.has_value());
  EXPECT_EQ(c.stonewall->first_rank, 1);
  EXPECT_DOUBLE_EQ(c.stonewall->events_per_second, 600);
  // A run of one process: "cluster": null.
  Result<ResultData> solo = ParseResultJson(FixtureJson(FixtureResult()), "solo.json");
  ASSERT_OK(solo);
  EXPECT_FALSE(solo->cluster.has_value());
}

TEST(JsonReaderTest, ResultsWithoutBusyTimeTakeTheLatencySum) {
  // Written before busy_time_s existed, when events ran one at a time.
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(FixtureJson(FixtureFullResult()));
  for (auto& t : j["threads"]) ASSERT_EQ(t.erase("busy_time_s"), 1u);
  ASSERT_EQ(j["fairness"].erase("busy_time_s"), 1u);
  const std::string json = j.dump(2);
  Result<ResultData> d = ParseResultJson(json, "old.json");
  ASSERT_OK(d);
  ASSERT_EQ(d->threads.size(), 2u);
  EXPECT_DOUBLE_EQ(d->threads[1].busy_time_s, 0.3);
}

TEST(JsonReaderTest, ReadsBackTheVerdict) {
  Result<ResultData> d = ParseResultJson(FixtureJson(FixtureFullResult()), "full.json");
  ASSERT_OK(d);
  const Validity& v = d->validity;
  ASSERT_TRUE(v.judged);
  EXPECT_DOUBLE_EQ(v.cost_ms, 0.25);
  ASSERT_EQ(v.checks.size(), 4u);
  EXPECT_EQ(v.checks[3].id, "errors");
  EXPECT_EQ(v.checks[3].level, CheckLevel::kInvalid);
  EXPECT_EQ(v.checks[3].advice, "fix the error above and run again");
  ASSERT_EQ(v.checks[2].figures.size(), 2u);
  EXPECT_EQ(v.checks[2].figures[1].name, "late_fraction");
  EXPECT_DOUBLE_EQ(v.checks[2].figures[1].value, 0.014);
  EXPECT_EQ(v.checks[1].level, CheckLevel::kNotChecked);
  EXPECT_EQ(v.overall(), Overall::kInvalid);
}

TEST(JsonReaderTest, ResultsWithoutVerdictReadAsNotJudged) {
  // Written before the verdict existed, or with --verdict=off.
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(FixtureJson(FixtureResult()));
  ASSERT_EQ(j.erase("validity"), 1u);
  Result<ResultData> d = ParseResultJson(j.dump(2), "old.json");
  ASSERT_OK(d);
  EXPECT_FALSE(d->validity.judged);
  EXPECT_TRUE(d->validity.checks.empty());
}

TEST(JsonReaderTest, AnUnknownCheckLevelIsRefused) {
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(FixtureJson(FixtureResult()));
  j["validity"]["checks"][0]["level"] = "maybe";
  Result<ResultData> d = ParseResultJson(j.dump(2), "bad.json");
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("validity.checks[0].level"), std::string::npos)
      << d.status().message();
}

TEST(JsonReaderTest, ReadsBackTheTargetsOfTheManifest) {
  RunResult r = FixtureResult();
  TargetManifest t;
  t.engine = "io_uring";
  t.direct = true;
  t.block_bytes = 4096;
  t.queue_depth_asked = 32;
  t.queue_depth = 16;
  t.write_pattern = "zero";
  t.file_set_bytes = 1 << 30;
  t.file_system = "xfs";
  t.mount_options = "rw,noatime";
  r.manifest.targets = {t};
  const std::string json = FixtureJson(r);
  EXPECT_NE(json.find("\"caching\": \"direct\""), std::string::npos) << json;
  Result<ResultData> d = ParseResultJson(json, "t.json");
  ASSERT_OK(d);
  ASSERT_TRUE(d->manifest.targets_recorded);
  ASSERT_EQ(d->manifest.targets.size(), 1u);
  const TargetManifest& back = d->manifest.targets[0];
  EXPECT_EQ(back.engine, "io_uring");
  EXPECT_TRUE(back.direct);
  EXPECT_EQ(back.block_bytes, 4096u);
  EXPECT_EQ(back.queue_depth_asked, 32u);
  EXPECT_EQ(back.queue_depth, 16u);
  EXPECT_EQ(back.write_pattern, "zero");
  EXPECT_EQ(back.file_set_bytes, uint64_t{1} << 30);
  EXPECT_EQ(back.file_system, "xfs");
  EXPECT_EQ(back.mount_options, "rw,noatime");
  // A test without files records that it has none.
  Result<ResultData> none = ParseResultJson(FixtureJson(FixtureResult()), "cpu.json");
  ASSERT_OK(none);
  EXPECT_TRUE(none->manifest.targets_recorded);
  EXPECT_TRUE(none->manifest.targets.empty());
}

TEST(JsonReaderTest, ResultsWithoutTargetsReadAsNotRecorded) {
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(FixtureJson(FixtureResult()));
  ASSERT_EQ(j["manifest"].erase("targets"), 1u);
  Result<ResultData> d = ParseResultJson(j.dump(2), "old.json");
  ASSERT_OK(d);
  EXPECT_FALSE(d->manifest.targets_recorded);
}

// The database server's settings: written only when there are some, read
// back in their order; an entry that is not an object is named.
TEST(JsonReaderTest, ReadsBackTheDatabaseSettings) {
  RunResult r = FixtureResult();
  EXPECT_EQ(FixtureJson(r).find("database_settings"), std::string::npos);
  r.manifest.database_settings = {{"server", "PostgreSQL 16.4"},
                                  {"synchronous_commit", "off"},
                                  {"default_transaction_isolation", "read committed"}};
  Result<ResultData> d = ParseResultJson(FixtureJson(r), "db.json");
  ASSERT_OK(d);
  EXPECT_EQ(d->manifest.database_settings, r.manifest.database_settings);
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(FixtureJson(r));
  j["manifest"]["database_settings"][1] = "off";
  Result<ResultData> bad = ParseResultJson(j.dump(2), "bad.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("manifest.database_settings[1]: expected an object"),
            std::string::npos)
      << bad.status().message();
}

TEST(JsonReaderTest, AnUnknownCachingIsRefused) {
  RunResult r = FixtureResult();
  r.manifest.targets.push_back(TargetManifest{});
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(FixtureJson(r));
  j["manifest"]["targets"][0]["caching"] = "maybe";
  Result<ResultData> d = ParseResultJson(j.dump(2), "bad.json");
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("manifest.targets[0].caching is \"maybe\""),
            std::string::npos)
      << d.status().message();
}

TEST(JsonReaderTest, SyntaxErrorSaysWhere) {
  Result<ResultData> d =
      ParseResultJson("{\n  \"schema\": \"loadcell-result/1\",\n  oops\n}", "x.json");
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().code(), StatusCode::kInvalidArgument);
  const std::string& m = d.status().message();
  EXPECT_EQ(m.rfind("x.json: not a loadcell result: line 3, column 3", 0), 0u) << m;
  EXPECT_EQ(m.find('\n'), std::string::npos);
}

TEST(JsonReaderTest, RejectsDocumentsThatAreNotResults) {
  struct Case {
    const char* text;
    const char* says;
  } cases[] = {
      {"[1, 2]", "the document is an array"},
      {"{\"name\": \"x\"}", "no 'schema' field"},
      {"{\"schema\": \"other/2\"}", "'schema' is \"other/2\""},
      {"{\"schema\": \"loadcell-result/9\"}", "is not supported"},
      {"{\"schema\": \"loadcell-result/1\"}", "missing field 'manifest'"},
      {"", "line 1, column 1"},
  };
  for (const Case& c : cases) {
    Result<ResultData> d = ParseResultJson(c.text, "f.json");
    ASSERT_FALSE(d.ok()) << c.text;
    EXPECT_NE(d.status().message().find(c.says), std::string::npos)
        << c.text << " -> " << d.status().message();
  }
}

TEST(JsonReaderTest, MistypedFieldIsNamedWithItsPath) {
  std::string json = FixtureJson(FixtureResult());
  const std::string from = "\"events\": 1000";
  size_t at = json.find(from);
  ASSERT_NE(at, std::string::npos) << json.substr(0, 400);
  json.replace(at, from.size(), "\"events\": \"many\"");
  Result<ResultData> d = ParseResultJson(json, "r.json");
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().message(),
            "r.json: not a loadcell result: summary.events: expected a non-negative integer, "
            "found a string");
}

TEST(JsonReaderTest, MissingFileIsNamed) {
  Result<ResultData> d = ReadResultFile("/nonexistent/dir/result.json");
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().ToString().rfind("/nonexistent/dir/result.json: cannot open:", 0), 0u);
  EXPECT_EQ(d.status().err(), ENOENT);
  EXPECT_EQ(ExitCodeFor(d.status()), 2);
}

}  // namespace
}  // namespace loadcell
