#include "report/fio/fio_report.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace loadcell {
namespace {

// A job's result as the fio workload leaves it: 2 s, 1000 reads of 4 KiB
// at 100 us, 500 writes at 2 ms, two 1 s intervals.
RunResult JobResult() {
  RunResult r;
  r.total_time_s = 2;
  r.counter_names = {"bytes_read", "bytes_written", "bytes_trimmed", "reads",    "writes",
                     "trims",      "syncs",         "iodepth_1",     "iodepth_2"};
  r.counters = {4096000, 2048000, 0, 1000, 500, 0, 3, 1200, 300};
  r.latency = {{"event", {}}, {"read", {}}, {"write", {}}, {"trim", {}}, {"sync", {}}};
  r.latency[1].histogram.RecordN(100'000, 1000);
  r.latency[2].histogram.RecordN(2'000'000, 500);
  r.latency[0].histogram.Merge(r.latency[1].histogram);
  r.latency[0].histogram.Merge(r.latency[2].histogram);
  for (int i = 0; i < 2; ++i) {
    IntervalSnapshot s;
    s.duration_s = 1;
    s.counters = {i == 0 ? 1024000u : 3072000u, 1024000, 0, i == 0 ? 250u : 750u, 250, 0, 0, 0, 0};
    r.intervals.push_back(s);
  }
  r.events = 1500;
  return r;
}

TEST(FioReportTest, FiguresAreFiosPerDirection) {
  const RunResult r = JobResult();
  const FioDirFigures rd = FioFigures(r, FioDir3::kRead);
  EXPECT_EQ(rd.io_bytes, 4096000u);
  EXPECT_EQ(rd.total_ios, 1000u);
  EXPECT_EQ(rd.runtime_ms, 2000u);
  EXPECT_DOUBLE_EQ(rd.iops, 500);
  EXPECT_EQ(rd.bw_bytes, 2048000u);
  ASSERT_NE(rd.latency, nullptr);
  EXPECT_EQ(rd.latency->Count(), 1000u);
  // Interval samples: 1000 KiB/s and 3000 KiB/s; 250 and 750 IOPS.
  EXPECT_EQ(rd.samples, 2u);
  EXPECT_DOUBLE_EQ(rd.bw_min, 1000);
  EXPECT_DOUBLE_EQ(rd.bw_max, 3000);
  EXPECT_DOUBLE_EQ(rd.bw_mean, 2000);
  EXPECT_NEAR(rd.bw_dev, 1414.21, 0.01);
  EXPECT_DOUBLE_EQ(rd.iops_mean, 500);
  const FioDirFigures tr = FioFigures(r, FioDir3::kTrim);
  EXPECT_EQ(tr.total_ios, 0u);
  EXPECT_EQ(tr.runtime_ms, 0u);
}

TEST(FioReportTest, LatencyTableSharesAddUpInFiosRows) {
  const RunResult r = JobResult();
  const FioLatencyTable t = FioLatencyTableOf(r.latency[0].histogram);
  // 100 us: the us row's "250" ([100, 250)); 2 ms: the ms row's "4".
  EXPECT_NEAR(t.us[6], 1000 * 100.0 / 1500, 1e-9);
  EXPECT_NEAR(t.ms[1], 500 * 100.0 / 1500, 1e-9);
  double sum = 0;
  for (double v : t.ns) sum += v;
  for (double v : t.us) sum += v;
  for (double v : t.ms) sum += v;
  EXPECT_NEAR(sum, 100, 1e-9);
}

TEST(FioReportTest, ALatencyRangeWithAnyIoShowsAtLeastAHundredthOfAPercent) {
  LatencyHistogram h;
  h.RecordN(100'000, 99'999);
  h.Record(15'000'000);  // one in 100000: 0.001%, shown as fio shows it
  const FioLatencyTable t = FioLatencyTableOf(h);
  EXPECT_DOUBLE_EQ(t.ms[3], 0.01);  // the ms row's "20" ([10, 20) ms)
  EXPECT_EQ(t.ms[2], 0);            // no I/O there: not shown
}

FioReport OneJob(const RunResult& r) {
  FioReport rep;
  rep.version = "loadcell-test";
  rep.timestamp_ms = 1'700'000'000'000;
  FioReportJob j;
  j.name = "job1";
  j.options = {{"rw", "randrw"}, {"bs", "4k"}};
  j.percentiles = {50, 99, 99.9};
  j.iodepth = 1;
  j.engine = "sync";
  j.result = &r;
  rep.jobs.push_back(j);
  rep.groups.emplace_back(0, &r);
  return rep;
}

// An asynchronous engine's job: each read's slat 10 us and clat 90 us
// (lat 100 us), the writes' 20 us and 1980 us. clat and the latency table
// come from the clat kinds, lat from the direction's own, slat beside them;
// without them (a synchronous engine) clat is lat and slat is absent.
TEST(FioReportTest, SlatAndClatComeFromTheirOwnKinds) {
  RunResult r = JobResult();
  r.latency.push_back({"slat_read", {}});
  r.latency.push_back({"slat_write", {}});
  r.latency.push_back({"clat_read", {}});
  r.latency.push_back({"clat_write", {}});
  r.latency[5].histogram.RecordN(10'000, 1000);
  r.latency[6].histogram.RecordN(20'000, 500);
  r.latency[7].histogram.RecordN(90'000, 1000);
  r.latency[8].histogram.RecordN(1'980'000, 500);
  const FioDirFigures rd = FioFigures(r, FioDir3::kRead);
  ASSERT_NE(rd.slat, nullptr);
  ASSERT_NE(rd.clat, nullptr);
  EXPECT_EQ(rd.slat->Max(), 10'000u);
  EXPECT_EQ(rd.clat->Max(), 90'000u);
  EXPECT_EQ(rd.latency->Max(), 100'000u);
  const FioDirFigures mixed = FioFigures(r, FioDir3::kMixed);
  ASSERT_NE(mixed.slat, nullptr);
  EXPECT_EQ(mixed.slat->Count(), 1500u);
  EXPECT_EQ(mixed.clat->Count(), 1500u);
  EXPECT_EQ(mixed.clat->Min(), 90'000u);
  // The latency table counts clat: the reads' 90 us in the 100 us column.
  EXPECT_NEAR(FioJobLatencyTable(r).us[5], 66.67, 0.01);
  EXPECT_NEAR(FioLatencyTableOf(r.latency[0].histogram).us[6], 66.67, 0.01);
  std::ostringstream text;
  WriteFioText(OneJob(r), text);
  EXPECT_NE(text.str().find("    slat (usec): min=10, max=10, avg=10.00, stdev= 0.00\n"
                            "    clat (usec): min=90, max=90, avg=90.00, stdev= 0.00\n"
                            "     lat (usec): min=100, max=100, avg=100.00, stdev= 0.00\n"),
            std::string::npos)
      << text.str();
  std::ostringstream json;
  WriteFioJson(OneJob(r), false, json);
  const nlohmann::json w = nlohmann::json::parse(json.str())["jobs"][0]["write"];
  EXPECT_EQ(w["slat_ns"]["N"], 500u);
  EXPECT_EQ(w["slat_ns"]["min"], 20'000u);
  EXPECT_FALSE(w["slat_ns"].contains("percentile"));
  EXPECT_EQ(w["clat_ns"]["min"], 1'980'000u);
  EXPECT_EQ(w["lat_ns"]["min"], 2'000'000u);

  // A synchronous engine's: no slat, clat is lat.
  const RunResult sync = JobResult();
  const FioDirFigures s = FioFigures(sync, FioDir3::kRead);
  EXPECT_EQ(s.slat, nullptr);
  EXPECT_EQ(s.clat, s.latency);
  std::ostringstream st;
  WriteFioText(OneJob(sync), st);
  EXPECT_EQ(st.str().find("slat"), std::string::npos) << st.str();
}

TEST(FioReportTest, JsonHasFiosFieldsAndBinsOnlyInJsonPlus) {
  const RunResult r = JobResult();
  const FioReport rep = OneJob(r);
  std::ostringstream plain, plus;
  WriteFioJson(rep, false, plain);
  WriteFioJson(rep, true, plus);
  const std::string p = plain.str();
  for (const char* key :
       {"\"fio version\": \"loadcell-test\"", "\"jobname\": \"job1\"", "\"job options\"",
        "\"io_bytes\": 4096000", "\"io_kbytes\": 4000", "\"bw_bytes\": 2048000", "\"bw\": 2000",
        "\"iops\": 500", "\"runtime\": 2000", "\"total_ios\": 1000", "\"clat_ns\"", "\"lat_ns\"",
        "\"slat_ns\"", "\"99.900000\"", "\"iodepth_level\"", "\"latency_us\"", "\"loadcell\"",
        "\"sync\"", "\">=64\": 0"}) {
    EXPECT_NE(p.find(key), std::string::npos) << key;
  }
  EXPECT_EQ(p.find("\"bins\""), std::string::npos);
  EXPECT_NE(plus.str().find("\"bins\""), std::string::npos);
  // No device under the job: fio leaves disk_util out.
  EXPECT_EQ(p.find("\"disk_util\""), std::string::npos);
  // iodepth 1 for 80% of the submissions, 2 for 20%.
  EXPECT_NE(p.find("\"1\": 80"), std::string::npos);
  EXPECT_NE(p.find("\"2\": 20"), std::string::npos);
}

TEST(FioReportTest, JsonSaysWhereLatencyCountsFromAndGivesTheServiceTimeUnderARate) {
  RunResult r = JobResult();
  std::ostringstream before;
  WriteFioJson(OneJob(r), false, before);
  EXPECT_NE(before.str().find("\"latency_from\": \"submission\""), std::string::npos);
  EXPECT_EQ(before.str().find("\"service_ns\""), std::string::npos);
  // Under a rate the job records each I/O's service time beside its latency.
  r.service = LatencyStats{"service", {}};
  r.service->histogram.RecordN(50'000, 1500);
  std::ostringstream rated;
  WriteFioJson(OneJob(r), false, rated);
  const std::string j = rated.str();
  EXPECT_NE(j.find("\"latency_from\": \"intended start\""), std::string::npos) << j;
  const size_t at = j.find("\"service_ns\"");
  ASSERT_NE(at, std::string::npos) << j;
  EXPECT_NE(j.find("\"N\": 1500", at), std::string::npos) << j;
}

TEST(FioReportTest, TextHasFiosLinesAndTheGroupStatus) {
  const RunResult r = JobResult();
  std::ostringstream out;
  WriteFioText(OneJob(r), out);
  const std::string t = out.str();
  for (const char* line :
       {"job1: (groupid=0, jobs=1): err= 0:", "  read: IOPS=500, BW=2000KiB/s (2048kB/s)",
        "(4000KiB/2000msec)", "  write: IOPS=250,",
        "clat percentiles (usec):", "  cpu          : usr=", "  IO depths    : 1=80.0%, 2=20.0%",
        "     issued rwts: total=1000,500,0,0", "Run status group 0 (all jobs):",
        "   READ: bw=2000KiB/s (2048kB/s)", "run=2000-2000msec"}) {
    EXPECT_NE(t.find(line), std::string::npos) << line << "\n" << t;
  }
}

// fio 3.33's number forms in a job's lines: a latency line's min and max
// in at most six characters ("16450k", "1234.6k"), avg and stdev at least
// five wide, and a write line ending in its zone resets.
TEST(FioReportTest, TextNumbersHaveFiosWidths) {
  RunResult r = JobResult();
  for (auto& l : r.latency) l.histogram = LatencyHistogram();
  r.latency[1].histogram.RecordN(50, 999);
  r.latency[1].histogram.Record(16'450'000);
  r.latency[2].histogram.RecordN(50, 499);
  r.latency[2].histogram.Record(1'234'567);
  r.latency[0].histogram.Merge(r.latency[1].histogram);
  r.latency[0].histogram.Merge(r.latency[2].histogram);
  std::ostringstream out;
  WriteFioText(OneJob(r), out);
  const std::string t = out.str();
  EXPECT_NE(t.find("    clat (nsec): min=50, max=16450k, avg="), std::string::npos) << t;
  EXPECT_NE(t.find("    clat (nsec): min=50, max=1234.6k, avg="), std::string::npos) << t;
  EXPECT_NE(t.find("(2000KiB/2000msec); 0 zone resets\n"), std::string::npos) << t;
  EXPECT_EQ(t.find("(4000KiB/2000msec); 0 zone resets"), std::string::npos) << t;
  // Two 1 s intervals of 250 writes: "min=  250" (five wide).
  EXPECT_NE(t.find("   iops        : min=  250, max=  250, avg=250.00, stdev= 0.00, samples=2"),
            std::string::npos)
      << t;
}

// unified_rw_reporting, as fio 3.33 writes it: mixed puts every I/O in one
// "mixed" direction (no read, write, trim or sync objects; issued rwts all
// in the first field; MIXED in the group status); both adds it after the
// three and sync.
TEST(FioReportTest, UnifiedReportingMixedAndBoth) {
  const RunResult r = JobResult();
  const FioDirFigures m = FioFigures(r, FioDir3::kMixed);
  EXPECT_EQ(m.total_ios, 1500u);
  EXPECT_EQ(m.io_bytes, 6144000u);
  EXPECT_DOUBLE_EQ(m.iops, 750);
  ASSERT_NE(m.latency, nullptr);
  EXPECT_EQ(m.latency->Count(), 1500u);
  EXPECT_EQ(m.latency->Max(), r.latency[2].histogram.Max());
  // Interval samples: 2000 and 4000 KiB/s, 500 and 1000 IOPS.
  EXPECT_DOUBLE_EQ(m.bw_min, 2000);
  EXPECT_DOUBLE_EQ(m.bw_max, 4000);
  EXPECT_DOUBLE_EQ(m.iops_mean, 750);

  for (const FioUnified u : {FioUnified::kMixed, FioUnified::kBoth}) {
    const bool both = u == FioUnified::kBoth;
    FioReport rep = OneJob(r);
    rep.jobs[0].unified = u;
    std::ostringstream json, text;
    WriteFioJson(rep, false, json);
    WriteFioText(rep, text);
    const nlohmann::ordered_json j = nlohmann::ordered_json::parse(json.str())["jobs"][0];
    EXPECT_EQ(j["mixed"]["total_ios"], 1500);
    EXPECT_EQ(j["mixed"]["io_bytes"], 6144000);
    EXPECT_EQ(j["mixed"]["clat_ns"]["N"], 1500);
    for (const char* key : {"read", "write", "trim", "sync"}) {
      EXPECT_EQ(j.contains(key), both) << key;
    }
    std::vector<std::string> order;
    for (const auto& [k, v] : j.items()) {
      if (v.is_object() && v.contains("total_ios")) order.push_back(k);
    }
    const std::vector<std::string> want =
        both ? std::vector<std::string>{"read", "write", "trim", "sync", "mixed"}
             : std::vector<std::string>{"mixed"};
    EXPECT_EQ(order, want);
    const std::string t = text.str();
    EXPECT_NE(t.find("  mixed: IOPS=750, BW=3000KiB/s"), std::string::npos) << t;
    EXPECT_NE(t.find("  MIXED: bw=3000KiB/s"), std::string::npos) << t;
    EXPECT_EQ(t.find("  read: IOPS=") != std::string::npos, both) << t;
    EXPECT_EQ(t.find("   READ: bw=") != std::string::npos, both) << t;
    EXPECT_NE(t.find(both ? "issued rwts: total=1000,500,0,0" : "issued rwts: total=1500,0,0,0"),
              std::string::npos)
        << t;
  }
}

// Short I/Os per direction, in the text's issued rwts (all in the first
// field when mixed) and each direction's JSON short_ios; dropped is 0.
TEST(FioReportTest, ShortIosArePrintedPerDirectionAndNoneDropped) {
  RunResult r = JobResult();
  r.counter_names.insert(r.counter_names.end(), {"short_reads", "short_writes", "short_trims"});
  r.counters.insert(r.counters.end(), {3, 2, 0});
  EXPECT_EQ(FioFigures(r, FioDir3::kRead).short_ios, 3u);
  EXPECT_EQ(FioFigures(r, FioDir3::kMixed).short_ios, 5u);
  for (const FioUnified u : {FioUnified::kNone, FioUnified::kMixed}) {
    FioReport rep = OneJob(r);
    rep.jobs[0].unified = u;
    std::ostringstream json, text;
    WriteFioJson(rep, false, json);
    WriteFioText(rep, text);
    const std::string t = text.str();
    const nlohmann::json j = nlohmann::json::parse(json.str())["jobs"][0];
    if (u == FioUnified::kMixed) {
      EXPECT_NE(t.find("issued rwts: total=1500,0,0,0 short=5,0,0,0 dropped=0,0,0,0\n"),
                std::string::npos)
          << t;
      EXPECT_EQ(j["mixed"]["short_ios"], 5);
      EXPECT_EQ(j["mixed"]["drop_ios"], 0);
    } else {
      EXPECT_NE(t.find("issued rwts: total=1000,500,0,0 short=3,2,0,0 dropped=0,0,0,0\n"),
                std::string::npos)
          << t;
      EXPECT_EQ(j["read"]["short_ios"], 3);
      EXPECT_EQ(j["write"]["short_ios"], 2);
      EXPECT_EQ(j["trim"]["short_ios"], 0);
      EXPECT_EQ(j["read"]["drop_ios"], 0);
    }
  }
}

// loadcell's objects: the run's at the top (always, not only under MPI)
// and each direction's latency percentiles in the job's, from loadcell's
// histogram: every one of them within 1% of the true value. An option given
// bare is left out of "job options", as fio does.
TEST(FioReportTest, LoadcellObjectsHoldTheRunAndEachDirectionsPercentiles) {
  RunResult r = JobResult();
  r.latency[1].histogram = LatencyHistogram();
  for (uint64_t i = 1; i <= 1000; ++i) r.latency[1].histogram.Record(i * 1000);  // 1..1000 us
  FioReport rep = OneJob(r);
  rep.jobs[0].options.emplace_back("time_based", "");
  std::ostringstream out;
  WriteFioJson(rep, false, out);
  nlohmann::json doc = nlohmann::json::parse(out.str(), nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << out.str();
  const nlohmann::json& top = doc["loadcell"];
  EXPECT_EQ(top["version"], "loadcell-test");
  EXPECT_EQ(top["jobs"], 1);
  EXPECT_EQ(top["failed_jobs"], 0);
  EXPECT_FALSE(top.contains("verdict")) << top;  // no job judged
  EXPECT_FALSE(top.contains("ranks")) << top;    // one process
  const nlohmann::json& job = doc["jobs"][0];
  EXPECT_EQ(job["job options"], nlohmann::json({{"rw", "randrw"}, {"bs", "4k"}}));
  const nlohmann::json& pct = job["loadcell"]["percentiles"];
  // fio's list (50, 99, 99.9) and loadcell's own (50, 95, 99, 99.9, 99.99).
  const nlohmann::json& rd = pct["read"];
  EXPECT_EQ(rd["count"], 1000);
  EXPECT_EQ(rd["min"], 1000);
  EXPECT_EQ(rd["max"], 1'000'000);
  for (const auto& [key, truth] : std::vector<std::pair<std::string, double>>{
           {"50", 500'000}, {"95", 950'000}, {"99", 990'000}, {"99.9", 999'000}}) {
    ASSERT_TRUE(rd.contains(key)) << rd;
    EXPECT_NEAR(rd[key].get<double>(), truth, truth / 100) << key;
  }
  EXPECT_EQ(rd["99.99"], 1'000'000);  // clamped to the exact max
  EXPECT_EQ(pct["write"]["count"], 500);
  EXPECT_EQ(pct["write"]["99"], 2'000'000);
  EXPECT_EQ(pct["trim"]["count"], 0);
  EXPECT_EQ(pct["trim"]["50"], 0);
  // A judged job and a failed one: the run's verdict is every job's merged.
  r.validity.judged = true;
  r.validity.checks = {{"cache", CheckLevel::kWarn, "buffered reads over 4 MiB", "direct=1", {}}};
  rep.jobs[0].failure = "short read";
  std::ostringstream judged;
  WriteFioJson(rep, false, judged);
  doc = nlohmann::json::parse(judged.str(), nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << judged.str();
  EXPECT_EQ(doc["loadcell"]["failed_jobs"], 1);
  EXPECT_EQ(doc["loadcell"]["verdict"], "valid_with_warnings");
  EXPECT_EQ(doc["loadcell"]["validity"]["overall"], "valid_with_warnings");
  EXPECT_EQ(doc["loadcell"]["validity"]["checks"][0]["id"], "cache");
}

// loadcell's verdict: the Verdict block at the end of the job's lines, and
// the whole validity object in the job's "loadcell" object (fio's own keys
// untouched); neither for a job not judged (--verdict=off).
TEST(FioReportTest, EachJobEndsWithItsVerdictInTextAndJson) {
  RunResult r = JobResult();
  std::ostringstream plain_text, plain_json;
  WriteFioText(OneJob(r), plain_text);
  WriteFioJson(OneJob(r), false, plain_json);
  EXPECT_EQ(plain_text.str().find("Verdict"), std::string::npos) << plain_text.str();
  EXPECT_EQ(plain_json.str().find("\"validity\""), std::string::npos) << plain_json.str();
  r.validity.judged = true;
  r.validity.checks = {{"cache",
                        CheckLevel::kWarn,
                        "buffered reads over 4 MiB",
                        "direct=1",
                        {{"file_set_bytes", 4194304}}},
                       {"errors", CheckLevel::kPass, "none", "", {}}};
  std::ostringstream text, json;
  WriteFioText(OneJob(r), text);
  WriteFioJson(OneJob(r), false, json);
  const std::string t = text.str();
  const size_t block = t.find(
      "\nValidity (2 checks: 1 passed, 1 warned):\n"
      "    WARN cache: buffered reads over 4 MiB; change: direct=1\n"
      "Verdict: valid with warnings (1)\n");
  ASSERT_NE(block, std::string::npos) << t;
  EXPECT_LT(t.find("     latency   : target=0"), block) << t;
  EXPECT_GT(t.find("Run status group 0"), block) << t;
  const std::string j = json.str();
  const size_t own = j.find("\"loadcell\": {");
  const size_t validity = j.find("\"validity\": {");
  ASSERT_NE(validity, std::string::npos) << j;
  EXPECT_LT(own, validity) << j;
  EXPECT_NE(j.find("\"verdict\": \"valid_with_warnings\"", own), std::string::npos) << j;
  for (const char* key :
       {"\"overall\": \"valid_with_warnings\"", "\"id\": \"cache\"", "\"level\": \"warn\"",
        "\"advice\": \"direct=1\"", "\"file_set_bytes\": 4194304", "\"cost_ms\""}) {
    EXPECT_NE(j.find(key, validity), std::string::npos) << key << "\n" << j;
  }
}

}  // namespace
}  // namespace loadcell

namespace loadcell {
namespace {

TEST(FioReportDiskTest, DiskStatsInFiosTextAndJson) {
  FioReport rep;
  FioDiskUtil d;
  d.name = "vdz";
  d.read_ios = 1024;
  d.write_ios = 3;
  d.read_merges = 1;
  d.write_merges = 2;
  d.read_ticks_ms = 66;
  d.write_ticks_ms = 4;
  d.in_queue_ms = 70;
  d.util_pct = 32.156;
  rep.disks.push_back(d);
  std::ostringstream text;
  WriteFioText(rep, text);
  EXPECT_EQ(text.str(),
            "\nDisk stats (read/write):\n"
            "  vdz: ios=1024/3, merge=1/2, ticks=66/4, in_queue=70, util=32.16%\n");
  std::ostringstream json;
  WriteFioJson(rep, false, json);
  const std::string j = json.str();
  for (const char* field : {"\"name\": \"vdz\"", "\"read_ios\": 1024", "\"write_ios\": 3",
                            "\"read_merges\": 1", "\"write_merges\": 2", "\"read_ticks\": 66",
                            "\"write_ticks\": 4", "\"in_queue\": 70", "\"util\": 32.156"}) {
    EXPECT_NE(j.find(field), std::string::npos) << field << "\n" << j;
  }
  // No device: no section.
  std::ostringstream none;
  WriteFioText(FioReport{}, none);
  EXPECT_EQ(none.str().find("Disk stats"), std::string::npos);
}

TEST(FioReportDiskTest, ADeviceOnOthersHasFiosAggregatesInTextAndJson) {
  FioReport rep;
  FioDiskUtil dm;
  dm.name = "dm-0";
  dm.read_ios = 100;
  dm.write_ios = 20;
  dm.util_pct = 40;
  dm.slaves = 2;
  dm.aggr_read_ios = 51;
  dm.aggr_write_ios = 11;
  dm.aggr_read_merges = 3;
  dm.aggr_write_merges = 4;
  dm.aggr_read_ticks_ms = 7;
  dm.aggr_write_ticks_ms = 8;
  dm.aggr_in_queue_ms = 15;
  dm.aggr_util_pct = 37.5;
  FioDiskUtil sda;
  sda.name = "sda";
  sda.read_ios = 52;
  rep.disks = {dm, sda};
  std::ostringstream text;
  WriteFioText(rep, text);
  // fio 3.33's line: two more spaces before a device on others, its
  // aggregates after its own figures; the device under it as any other.
  EXPECT_EQ(text.str(),
            "\nDisk stats (read/write):\n"
            "    dm-0: ios=100/20, merge=0/0, ticks=0/0, in_queue=0, util=40.00%, "
            "aggrios=51/11, aggrmerge=3/4, aggrticks=7/8, aggrin_queue=15, aggrutil=37.50%\n"
            "  sda: ios=52/0, merge=0/0, ticks=0/0, in_queue=0, util=0.00%\n");
  std::ostringstream json;
  WriteFioJson(rep, false, json);
  const nlohmann::json doc = nlohmann::json::parse(json.str());
  ASSERT_EQ(doc["disk_util"].size(), 2u);
  const nlohmann::json& d = doc["disk_util"][0];
  EXPECT_EQ(d["aggr_read_ios"], 51);
  EXPECT_EQ(d["aggr_write_ios"], 11);
  EXPECT_EQ(d["aggr_read_merges"], 3);
  EXPECT_EQ(d["aggr_write_merge"], 4);  // fio's name
  EXPECT_EQ(d["aggr_read_ticks"], 7);
  EXPECT_EQ(d["aggr_write_ticks"], 8);
  EXPECT_EQ(d["aggr_in_queue"], 15);
  EXPECT_DOUBLE_EQ(d["aggr_util"].get<double>(), 37.5);
  // A device on none has no aggr_* field.
  for (const auto& [key, value] : doc["disk_util"][1].items()) {
    EXPECT_NE(key.rfind("aggr_", 0), 0u) << key;
  }
}

}  // namespace
}  // namespace loadcell
