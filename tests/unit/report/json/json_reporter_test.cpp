// Pattern tests of the JSON reporter: it parses, it carries every
// documented key, figures match the result, and no NaN ever appears.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "testing/report_fixture.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::EmptyResult;
using testing::FakeWorkload;
using testing::FixtureFullResult;
using testing::FixtureResult;
using testing::FixtureSettings;
using testing::Format;
using testing::Render;

using nlohmann::json;

json RenderJson(const RunResult& r, ReportSettings s = FixtureSettings(),
                const std::vector<RunResult>& checkpoints = {}) {
  FakeWorkload w;
  return json::parse(Render(Format::kJson, w, r, s, checkpoints));
}

// Objects whose keys are names chosen at run time (counters, metrics,
// kinds, percentiles, a check's figures): the schema documents them as "<name>".
bool IsMap(const std::string& key) {
  return key == "counters" || key == "counters_per_second" || key == "metrics" ||
         key == "latency_by_kind_ns" || key == "percentiles" || key == "figures";
}

// The key paths of `j` as docs/json-schema.md spells them:
// "summary.rate.target", "threads[].events", "summary.metrics.<name>.value".
// Latency objects are documented once, as "latency.count" and so on, and a
// checkpoint's members have the shape of the top-level ones, so only their
// names are collected ("checkpoints[].summary").
void CollectPaths(const json& j, const std::string& path, const std::string& key,
                  std::set<std::string>& out) {
  if (j.is_array()) {
    for (const json& e : j) {
      if (e.is_object()) CollectPaths(e, path + "[]", key, out);
    }
    return;
  }
  if (!j.is_object()) return;
  const bool map = IsMap(key);
  for (const auto& [k, v] : j.items()) {
    const std::string name = map ? "<name>" : k;
    const std::string child = (path.empty() ? "" : path + ".") + name;
    out.insert(child);
    if (path == "checkpoints[]") continue;
    const bool latency =
        k == "latency_ns" || k == "service_latency_ns" || (map && key == "latency_by_kind_ns");
    if (latency) {
      CollectPaths(v, "latency", "", out);
    } else {
      CollectPaths(v, child, map ? "" : k, out);
    }
  }
}

std::string ReadSchemaDoc() {
  return testing::ReadFile(std::string(LOADCELL_SOURCE_DIR) + "/docs/json-schema.md");
}

TEST(JsonReporterTest, HasEveryTopLevelKey) {
  const json j = RenderJson(FixtureResult());
  for (const char* key :
       {"schema", "manifest", "summary", "threads", "fairness", "cluster", "intervals", "histogram",
        "checkpoints", "interrupted", "forced_shutdown", "failure", "validity"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j["schema"], "loadcell-result/1");
}

TEST(JsonReporterTest, EveryFieldIsDocumented) {
  const std::string doc = ReadSchemaDoc();
  ASSERT_FALSE(doc.empty()) << "docs/json-schema.md not found";
  std::set<std::string> paths;
  RunResult c = FixtureResult();
  CollectPaths(RenderJson(FixtureFullResult(), FixtureSettings(), {c}), "", "", paths);
  ASSERT_GT(paths.size(), 50u);
  for (const std::string& p : paths) {
    EXPECT_NE(doc.find("`" + p + "`"), std::string::npos) << p << " is not in docs/json-schema.md";
  }
}

TEST(JsonReporterTest, FiguresComeFromTheResult) {
  const RunResult r = FixtureResult();
  const json j = RenderJson(r);
  const json& s = j["summary"];
  EXPECT_EQ(s["events"], 1000);
  EXPECT_DOUBLE_EQ(s["total_time_s"].get<double>(), 2.0005);
  EXPECT_DOUBLE_EQ(s["events_per_second"].get<double>(), 1000 / 2.0005);
  const LatencyHistogram& h = r.latency[0].histogram;
  EXPECT_EQ(s["latency_ns"]["min"], 3000);
  EXPECT_EQ(s["latency_ns"]["max"], 15000000);
  EXPECT_DOUBLE_EQ(s["latency_ns"]["mean"].get<double>(), h.moments().Mean());
  for (const char* p : {"50", "95", "99", "99.9", "99.99"}) {
    EXPECT_EQ(s["latency_ns"]["percentiles"][p].get<uint64_t>(), h.Percentile(std::stod(p))) << p;
  }
  EXPECT_EQ(s["counters"]["ops"], 1000);
  EXPECT_EQ(s["counters"]["bytes"], 4096000);
  EXPECT_DOUBLE_EQ(s["metrics"]["operations_per_second"]["value"].get<double>(), 1000 / 2.0005);
  EXPECT_EQ(s["metrics"]["mib_per_second"]["unit"], "MiB/s");
  EXPECT_TRUE(s["service_latency_ns"].is_null());
  EXPECT_TRUE(s["rate"].is_null());
  EXPECT_EQ(j["threads"].size(), 2u);
  EXPECT_EQ(j["threads"][0]["events"], 600);
  EXPECT_DOUBLE_EQ(j["fairness"]["events"]["mean"].get<double>(), 500);
  EXPECT_DOUBLE_EQ(j["fairness"]["events"]["stddev"].get<double>(), 100);
  EXPECT_DOUBLE_EQ(j["threads"][1]["exec_time_s"].get<double>(), 0.3);
  EXPECT_DOUBLE_EQ(j["threads"][1]["busy_time_s"].get<double>(), 0.3);
  EXPECT_EQ(j["intervals"].size(), 2u);
  EXPECT_EQ(j["intervals"][1]["t"], 2);
  EXPECT_EQ(j["intervals"][1]["counters"]["ops"], 500);
  EXPECT_TRUE(j["failure"].is_null());
  EXPECT_FALSE(j["interrupted"].get<bool>());
  EXPECT_EQ(j["manifest"]["seed"], 42);
  EXPECT_EQ(j["manifest"]["options"].size(), r.manifest.options.size());
  EXPECT_EQ(j["manifest"]["system"]["cpu_model"], r.manifest.system.cpu_model);
}

TEST(JsonReporterTest, HistogramBucketsCoverEveryEvent) {
  const json j = RenderJson(FixtureResult());
  EXPECT_EQ(j["histogram"]["unit"], "ns");
  uint64_t total = 0;
  uint64_t previous_high = 0;
  for (const json& b : j["histogram"]["buckets"]) {
    ASSERT_EQ(b.size(), 3u);
    const uint64_t lo = b[0], hi = b[1], n = b[2];
    EXPECT_LE(lo, hi);
    EXPECT_GT(lo, previous_high);
    EXPECT_GT(n, 0u);
    previous_high = hi;
    total += n;
  }
  EXPECT_EQ(total, 1000u);
}

TEST(JsonReporterTest, FullResultBlocks) {
  RunResult c = FixtureResult();
  c.total_time_s = 1;
  ReportSettings s = FixtureSettings();
  s.percentile = 90;
  const json j = RenderJson(FixtureFullResult(), s, {c});
  const json& sum = j["summary"];
  EXPECT_TRUE(sum["latency_ns"]["percentiles"].contains("90"));
  EXPECT_EQ(sum["latency_by_kind_ns"]["read"]["count"], 700);
  EXPECT_EQ(sum["latency_by_kind_ns"]["write"]["count"], 300);
  EXPECT_EQ(sum["service_latency_ns"]["min"], 2000);
  EXPECT_DOUBLE_EQ(sum["rate"]["achieved"].get<double>(), 499.75);
  EXPECT_EQ(sum["rate"]["late_events"], 7);
  EXPECT_EQ(sum["errors"], 3);
  EXPECT_EQ(j["intervals"][1]["queue"], 5);
  EXPECT_EQ(j["intervals"][1]["concurrency"], 2);
  EXPECT_TRUE(j["interrupted"].get<bool>());
  EXPECT_EQ(j["failure"]["errno"], 28);
  EXPECT_NE(j["failure"]["message"].get<std::string>().find("write failed on \"file\""),
            std::string::npos);
  ASSERT_EQ(j["checkpoints"].size(), 1u);
  EXPECT_DOUBLE_EQ(j["checkpoints"][0]["summary"]["total_time_s"].get<double>(), 1);
}

// True if any number anywhere in `j` is not finite (nlohmann would have
// refused NaN text anyway; this also guards against huge sentinels).
bool HasSentinel(const json& j) {
  if (j.is_number_float()) return !std::isfinite(j.get<double>());
  if (j.is_number_unsigned()) return j.get<uint64_t>() == std::numeric_limits<uint64_t>::max();
  if (j.is_structured()) {
    for (const json& e : j) {
      if (HasSentinel(e)) return true;
    }
  }
  return false;
}

TEST(JsonReporterTest, ZeroEventsHaveNoNanAndNoSentinels) {
  FakeWorkload w;
  const std::string text = Render(Format::kJson, w, EmptyResult(), FixtureSettings());
  EXPECT_EQ(text.find("nan"), std::string::npos);
  EXPECT_EQ(text.find("inf"), std::string::npos);
  const json j = json::parse(text);
  EXPECT_FALSE(HasSentinel(j));
  EXPECT_EQ(j["summary"]["latency_ns"]["min"], 0);
  EXPECT_EQ(j["summary"]["latency_ns"]["mean"], 0);
  EXPECT_EQ(j["summary"]["events_per_second"], 0);
  // A bare result (no latency entry, no thread) too.
  EXPECT_FALSE(HasSentinel(json::parse(Render(Format::kJson, w, RunResult(), FixtureSettings()))));
}

TEST(JsonReporterTest, NonFiniteMetricBecomesNull) {
  RunResult r = FixtureResult();
  r.metrics = {{"ratio", "ratio", std::numeric_limits<double>::quiet_NaN(), ""},
               {"odd \"key\"\n", "odd", std::numeric_limits<double>::infinity(), ""}};
  const json j = RenderJson(r);
  EXPECT_TRUE(j["summary"]["metrics"]["ratio"]["value"].is_null());
  EXPECT_TRUE(j["summary"]["metrics"]["odd \"key\"\n"]["value"].is_null());
}

TEST(JsonReporterTest, IntervalsFromObserverWhenResultHasNone) {
  FakeWorkload w;
  RunResult r = FixtureResult();
  std::ostringstream out;
  auto rep = MakeJsonReporter(out, w, FixtureSettings());
  rep->OnStart(r.manifest);
  for (const IntervalSnapshot& s : r.intervals) rep->OnInterval(s);
  r.intervals.clear();
  rep->OnEnd(r);
  EXPECT_EQ(json::parse(out.str())["intervals"].size(), 2u);
}

}  // namespace
}  // namespace loadcell
