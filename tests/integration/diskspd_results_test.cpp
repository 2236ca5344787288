// loadcell's own results of `loadcell diskspd` runs through the binary:
// --format=json (loadcell's schema of runs of several jobs: each thread's
// job on each target, each timespan, the whole run, with their verdicts)
// beside DiskSpd's text or XML, --report-html, and `loadcell report` and
// `loadcell compare` reading the saved results.

#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "testing/diskspd_run.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell::testing {
namespace {

using diskspd::XmlElement;

struct XmlCounts {
  uint64_t ios = 0;
  uint64_t reads = 0;
  uint64_t writes = 0;
  uint64_t bytes = 0;
  std::vector<uint64_t> per_thread;  // IOCount of each <Thread>, every target's added
};

uint64_t ElementCount(const XmlElement* e) { return e == nullptr ? 0 : std::stoull(e->text); }

// The counts of the first <TimeSpan> of a DiskSpd XML result.
XmlCounts CountsOf(const std::string& xml) {
  XmlCounts c;
  Result<XmlElement> doc = diskspd::ReadXmlDocument(xml);
  EXPECT_TRUE(doc.ok()) << xml;
  if (!doc.ok()) return c;
  for (const XmlElement* t : DiskspdXmlChildren(DiskspdXmlChild(&*doc, "TimeSpan"), "Thread")) {
    uint64_t thread_ios = 0;
    for (const XmlElement* target : DiskspdXmlChildren(t, "Target")) {
      thread_ios += ElementCount(DiskspdXmlChild(target, "IOCount"));
      c.reads += ElementCount(DiskspdXmlChild(target, "ReadCount"));
      c.writes += ElementCount(DiskspdXmlChild(target, "WriteCount"));
      c.bytes += ElementCount(DiskspdXmlChild(target, "BytesCount"));
    }
    c.ios += thread_ios;
    c.per_thread.push_back(thread_ios);
  }
  return c;
}

nlohmann::json ParseJson(const std::string& text) {
  return nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
}

TEST(DiskspdResultsTest, JsonAndHtmlHoldTheRunsFiguresBesideDiskspdsXml) {
  TempDir dir;
  ProcessResult r =
      RunDiskspd(dir, {"--format=json", "--output-file=res.json", "--report-html=run.html", "-b4K",
                       "-d1", "-W0", "-t2", "-r", "-w30", "-L", "-c1M", "-Rxml", "j.dat"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // DiskSpd's XML still on stdout, the same run's figures as the JSON's.
  const XmlCounts xml = CountsOf(r.out);
  ASSERT_EQ(xml.per_thread.size(), 2u);
  ASSERT_GT(xml.ios, 0u);
  const nlohmann::json doc = ParseJson(dir.Read("res.json"));
  ASSERT_FALSE(doc.is_discarded()) << dir.Read("res.json");
  EXPECT_EQ(doc["schema"], "loadcell-result/1");
  EXPECT_EQ(doc["manifest"]["test"], "diskspd");
  EXPECT_EQ(doc["summary"]["events"].get<uint64_t>(), xml.ios);
  EXPECT_EQ(doc["summary"]["counters"]["reads"].get<uint64_t>(), xml.reads);
  EXPECT_EQ(doc["summary"]["counters"]["writes"].get<uint64_t>(), xml.writes);
  // A job per thread (and target), the timespan as the group of them.
  ASSERT_EQ(doc["jobs"].size(), 2u);
  EXPECT_EQ(doc["jobs"][0]["job"]["name"], "thread 0 target 0");
  EXPECT_EQ(doc["jobs"][1]["job"]["name"], "thread 1 target 0");
  for (size_t t = 0; t < 2; ++t) {
    EXPECT_EQ(doc["jobs"][t]["summary"]["events"].get<uint64_t>(), xml.per_thread[t]) << t;
  }
  ASSERT_EQ(doc["groups"].size(), 1u);
  EXPECT_EQ(doc["groups"][0]["job"]["name"], "timespan 1");
  EXPECT_EQ(doc["groups"][0]["summary"]["events"].get<uint64_t>(), xml.ios);
  // The switches as given, for compare to name.
  bool block_recorded = false;
  for (const auto& o : doc["manifest"]["options"]) {
    block_recorded =
        block_recorded || (o["group"] == "diskspd" && o["name"] == "-b" && o["value"] == "4K");
  }
  EXPECT_TRUE(block_recorded) << doc["manifest"]["options"].dump();
  // The verdict: the run's, the timespan's and each job's.
  ASSERT_TRUE(doc.contains("validity"));
  EXPECT_TRUE(doc["validity"].contains("overall")) << doc["validity"].dump();
  EXPECT_TRUE(doc["groups"][0].contains("validity"));
  EXPECT_TRUE(doc["jobs"][0].contains("validity"));

  // The page of the run: every job.
  const std::string page = dir.Read("run.html");
  EXPECT_NE(page.find("id=\"jobs\""), std::string::npos);
  EXPECT_NE(page.find("job thread 1 target 0"), std::string::npos);
  // `loadcell report` draws the same from the saved result.
  ProcessResult drawn = RunLoadcell({"report", (dir / "res.json")});
  ASSERT_EQ(drawn.exit_code, 0) << drawn.err;
  EXPECT_NE(drawn.out.find("job thread 0 target 0"), std::string::npos);
}

TEST(DiskspdResultsTest, JsonOnStdoutReplacesTheTextAndXmlFileStaysDiskspds) {
  TempDir dir;
  ProcessResult r = RunDiskspd(
      dir, {"--format=json", "-b4K", "-d1", "-W0", "-r", "-c256K", "-Rxml:res.xml", "s.dat"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json doc = ParseJson(r.out);
  ASSERT_FALSE(doc.is_discarded()) << r.out;
  EXPECT_EQ(r.out.find("Command Line:"), std::string::npos);
  const XmlCounts xml = CountsOf(dir.Read("res.xml"));
  ASSERT_GT(xml.ios, 0u);
  EXPECT_EQ(doc["summary"]["events"].get<uint64_t>(), xml.ios);
  EXPECT_EQ(doc["summary"]["counters"]["reads"].get<uint64_t>(), xml.reads);
}

TEST(DiskspdResultsTest, SeveralTimespansAreGroupsOfTheirThreads) {
  TempDir dir;
  dir.Write("two.xml",
            "<Profile><TimeSpans>"
            "<TimeSpan><Duration>1</Duration><Warmup>0</Warmup><Targets><Target>"
            "<Path>*1</Path><BlockSize>4096</BlockSize><FileSize>262144</FileSize>"
            "</Target></Targets></TimeSpan>"
            "<TimeSpan><Duration>1</Duration><Warmup>0</Warmup><Targets><Target>"
            "<Path>*1</Path><BlockSize>4096</BlockSize><ThreadsPerFile>2</ThreadsPerFile>"
            "</Target></Targets></TimeSpan>"
            "</TimeSpans></Profile>");
  ProcessResult r =
      RunDiskspd(dir, {"--format=json", "--output-file=res.json", "-Rxml", "-Xtwo.xml", "t.dat"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json doc = ParseJson(dir.Read("res.json"));
  ASSERT_FALSE(doc.is_discarded());
  ASSERT_EQ(doc["groups"].size(), 2u);
  ASSERT_EQ(doc["jobs"].size(), 3u);
  EXPECT_EQ(doc["jobs"][0]["job"]["name"], "timespan 1: thread 0 target 0");
  EXPECT_EQ(doc["jobs"][2]["job"]["name"], "timespan 2: thread 1 target 0");
  EXPECT_EQ(doc["groups"][1]["job"]["instances"], 2);
  const uint64_t total = doc["summary"]["events"].get<uint64_t>();
  EXPECT_EQ(total, doc["groups"][0]["summary"]["events"].get<uint64_t>() +
                       doc["groups"][1]["summary"]["events"].get<uint64_t>());
  // The XML's two timespans: the same counts.
  Result<XmlElement> xml = diskspd::ReadXmlDocument(r.out);
  ASSERT_TRUE(xml.ok()) << r.out;
  uint64_t ios = 0;
  for (const XmlElement* span : DiskspdXmlChildren(&*xml, "TimeSpan")) {
    for (const XmlElement* t : DiskspdXmlChildren(span, "Thread")) {
      for (const XmlElement* target : DiskspdXmlChildren(t, "Target")) {
        ios += ElementCount(DiskspdXmlChild(target, "IOCount"));
      }
    }
  }
  EXPECT_EQ(total, ios);
}

TEST(DiskspdResultsTest, CompareReadsTwoSavedRunsAndNamesWhatDiffers) {
  TempDir dir;
  ASSERT_EQ(RunDiskspd(dir, {"-d1", "-W0", "-b4K", "-c1M", "c.dat"}).exit_code, 0);
  for (const auto& [name, block] : std::vector<std::pair<std::string, std::string>>{
           {"a", "-b4K"}, {"a2", "-b4K"}, {"b", "-b8K"}}) {
    ProcessResult r = RunDiskspd(dir, {"--format=json", "--output-file=" + name + ".json", block,
                                       "-d1", "-W0", "-t2", "-r", "c.dat"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  ProcessResult same = RunLoadcell({"compare", (dir / "a.json"), (dir / "a2.json")});
  ASSERT_EQ(same.exit_code, 0) << same.err;
  EXPECT_NE(same.out.find("Jobs, matched by name"), std::string::npos) << same.out;
  EXPECT_TRUE(std::regex_search(same.out, std::regex("\nthread 1 target 0 +B .*x\n"))) << same.out;
  EXPECT_NE(same.out.find("Overall: comparable"), std::string::npos) << same.out;
  ProcessResult block = RunLoadcell({"compare", (dir / "a.json"), (dir / "b.json")});
  ASSERT_EQ(block.exit_code, 0) << block.err;
  EXPECT_NE(block.out.find("not comparable: block size"), std::string::npos) << block.out;
  // The switch the two command lines differ in, as written.
  const std::string both = block.out + block.err;
  EXPECT_NE(both.find("B differs from A in -b: 4K in A, 8K in B"), std::string::npos) << both;
}

}  // namespace
}  // namespace loadcell::testing
