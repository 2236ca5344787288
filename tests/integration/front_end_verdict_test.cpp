// The validity verdict of the front ends that report in their tool's own
// forms (docs/validity.md): `loadcell fio`, `loadcell diskspd` and
// `loadcell dbsim`, through the binary. Each reads a small file set through
// the page cache, which the cache check finds INVALID on any machine: the
// verdict in the tool's text and JSON or XML with its evidence,
// --verdict=strict exiting 3 and --verdict=off printing none. Where the
// test's folder is on a block device, the device checks run on it and name
// it (what they find there depends on the machine's other traffic: not
// asserted; tests/integration/verdict_device_posix_test.cpp asserts it on a
// device of the test's own).

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "os/disk_stats.h"
#include "testing/diskspd_run.h"
#include "testing/fio_run.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"
#include "testing/verdict_run.h"

namespace loadcell::testing {
namespace {

// How many times `what` occurs in `text`.
size_t Occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// A buffered random read of one 4 MiB file (fio's direct=0, its default).
std::vector<std::string> FioSmallBufferedRead(std::vector<std::string> extra) {
  std::vector<std::string> args = {"--name=small", "--rw=randread", "--bs=4k", "--size=4m",
                                   "--ioengine=psync"};
  args.insert(args.begin(), extra.begin(), extra.end());
  return args;
}

TEST(FioVerdict, BufferedReadsOfASmallFileAreInvalidInTheTextAndTheJson) {
  TempDir dir;
  const ProcessResult text = RunFio(dir, FioSmallBufferedRead({}));
  ASSERT_EQ(text.exit_code, 0) << ShowVerdictRun(text);
  // The job's lines, then its verdict, then fio's group status.
  const size_t job = text.out.find("small: (groupid=0");
  const size_t cache = text.out.find("\n    INVALID cache: buffered reads over 4 MiB of files");
  const size_t last = text.out.find("\nVerdict: INVALID (");
  const size_t group = text.out.find("Run status group 0");
  ASSERT_NE(job, std::string::npos) << text.out;
  ASSERT_NE(cache, std::string::npos) << text.out;
  ASSERT_NE(last, std::string::npos) << text.out;
  EXPECT_LT(job, cache) << text.out;
  EXPECT_LT(cache, last) << text.out;
  EXPECT_LT(last, group) << text.out;

  const ProcessResult json = RunFio(dir, FioSmallBufferedRead({"--output-format=json"}));
  ASSERT_EQ(json.exit_code, 0) << ShowVerdictRun(json);
  const nlohmann::json jobs = FioJsonJobs(json);
  ASSERT_EQ(jobs.size(), 1u) << json.out;
  const nlohmann::json& own = jobs[0]["loadcell"];
  EXPECT_EQ(own["verdict"], "invalid") << own.dump();
  EXPECT_EQ(own["validity"]["overall"], "invalid") << own.dump();
  EXPECT_GE(own["validity"]["invalid"].get<int>(), 1) << own.dump();
  const nlohmann::json check = VerdictCheckOf(own, "cache");
  ASSERT_FALSE(check.is_null()) << own.dump();
  EXPECT_EQ(check["level"], "invalid") << check.dump();
  EXPECT_EQ(check["figures"]["file_set_bytes"].get<double>(), 4194304.0) << check.dump();
  EXPECT_GT(check["figures"]["memory_bytes"].get<double>(), 4194304.0) << check.dump();
  // In fio's words, not loadcell fileio's.
  EXPECT_EQ(check["advice"].get<std::string>().rfind("use direct=1, or a size of at least", 0), 0u)
      << check.dump();
  // fio's own keys stay where fio puts them.
  EXPECT_EQ(jobs[0]["read"]["total_ios"], 1024) << jobs[0].dump();
}

TEST(FioVerdict, StrictExitsThreeOffPrintsNoneAndABadModeIsRefused) {
  TempDir dir;
  const ProcessResult strict = RunFio(dir, FioSmallBufferedRead({"--verdict=strict"}));
  EXPECT_EQ(strict.exit_code, 3) << ShowVerdictRun(strict);
  EXPECT_NE(strict.out.find("INVALID cache:"), std::string::npos) << strict.out;
  EXPECT_NE(strict.err.find("--verdict=strict"), std::string::npos) << strict.err;

  const ProcessResult off = RunFio(dir, FioSmallBufferedRead({"--verdict=off"}));
  EXPECT_EQ(off.exit_code, 0) << ShowVerdictRun(off);
  EXPECT_EQ(off.out.find("Validity ("), std::string::npos) << off.out;
  EXPECT_EQ(off.out.find("Verdict:"), std::string::npos) << off.out;
  const ProcessResult off_json =
      RunFio(dir, FioSmallBufferedRead({"--verdict=off", "--output-format=json"}));
  ASSERT_EQ(off_json.exit_code, 0) << ShowVerdictRun(off_json);
  const nlohmann::json jobs = FioJsonJobs(off_json);
  ASSERT_EQ(jobs.size(), 1u) << off_json.out;
  EXPECT_FALSE(jobs[0]["loadcell"].contains("validity")) << jobs[0]["loadcell"].dump();
  EXPECT_FALSE(jobs[0]["loadcell"].contains("verdict")) << jobs[0]["loadcell"].dump();

  const ProcessResult bad = RunFio(dir, FioSmallBufferedRead({"--verdict=maybe"}));
  EXPECT_EQ(bad.exit_code, 2) << ShowVerdictRun(bad);
  EXPECT_NE(bad.err.find("--verdict=maybe: the verdict is off, on or strict"), std::string::npos)
      << bad.err;
  EXPECT_EQ(Occurrences(bad.err, "\n"), 1u) << bad.err;
}

// group_reporting: the group's jobs reported as one, and judged as one.
TEST(FioVerdict, AGroupReportedAsOneHasOneVerdictOfItsJobs) {
  TempDir dir;
  const ProcessResult r =
      RunFio(dir, FioSmallBufferedRead({"--numjobs=2", "--group_reporting", "--verdict=strict"}));
  EXPECT_EQ(r.exit_code, 3) << ShowVerdictRun(r);
  EXPECT_EQ(Occurrences(r.out, "\nVerdict: INVALID ("), 1u) << r.out;
  EXPECT_EQ(Occurrences(r.out, "\n    INVALID cache: "), 1u) << r.out;
  // Two jobs, both INVALID: one line says how many.
  EXPECT_NE(r.err.find("2 of 2 results are INVALID"), std::string::npos) << r.err;
}

// The device under `dir` as the device checks name it ("vda1", "dm-0"); ""
// where no block device stands behind it (tmpfs, overlay).
std::string FrontEndDiskOf(const TempDir& dir) { return DiskNameOf(dir.path()); }

// `check` (of a JSON verdict) was made, on `disk`.
void ExpectMadeOnTheDisk(const nlohmann::json& check, const std::string& disk) {
  ASSERT_FALSE(check.is_null());
  EXPECT_NE(check["level"], "not_checked") << check.dump();
  EXPECT_NE(check["seen"].get<std::string>().find("device (" + disk), std::string::npos)
      << check.dump();
}

TEST(FioVerdict, TheDeviceChecksRunOnTheDeviceUnderTheFilesAndNameIt) {
  TempDir dir(BuildTree());
  const std::string disk = FrontEndDiskOf(dir);
  if (disk.empty()) GTEST_SKIP() << "no block device under " << dir.path();
  const ProcessResult r = RunFio(dir, FioSmallBufferedRead({"--output-format=json"}));
  ASSERT_EQ(r.exit_code, 0) << ShowVerdictRun(r);
  const nlohmann::json jobs = FioJsonJobs(r);
  ASSERT_EQ(jobs.size(), 1u) << r.out;
  const nlohmann::json& own = jobs[0]["loadcell"];
  // Read through the page cache, just laid out: still INVALID on cache.
  EXPECT_EQ(VerdictCheckOf(own, "cache")["level"], "invalid") << own.dump();
  const nlohmann::json reads = VerdictCheckOf(own, "device-reads");
  ExpectMadeOnTheDisk(reads, disk);
  EXPECT_EQ(reads["figures"]["bytes_read"], 4 << 20) << reads.dump();
  ExpectMadeOnTheDisk(VerdictCheckOf(own, "other-io"), disk);
  // A buffered write job: the device's writes are counted too.
  const ProcessResult w = RunFio(dir, {"--output-format=json", "--name=w", "--rw=randwrite",
                                       "--bs=4k", "--size=1m", "--ioengine=psync"});
  ASSERT_EQ(w.exit_code, 0) << ShowVerdictRun(w);
  const nlohmann::json wjobs = FioJsonJobs(w);
  ASSERT_EQ(wjobs.size(), 1u) << w.out;
  const nlohmann::json writes = VerdictCheckOf(wjobs[0]["loadcell"], "device-writes");
  ExpectMadeOnTheDisk(writes, disk);
  EXPECT_EQ(writes["figures"]["bytes_written"], 1 << 20) << writes.dump();
}

// DiskSpd's default caching (no -S) reads through the page cache.
std::vector<std::string> DiskspdSmallBufferedRead(std::vector<std::string> extra) {
  std::vector<std::string> args = {"-d1", "-W0", "-b4K", "-r", "-c4M"};
  args.insert(args.end(), extra.begin(), extra.end());
  args.emplace_back("small.dat");
  return args;
}

TEST(DiskspdVerdict, ABufferedReadOfAFileInMemoryIsInvalidAfterTheTextAndInTheXml) {
  TempDir dir;
  const ProcessResult r = RunDiskspd(
      dir, DiskspdSmallBufferedRead({"-t2", "-Rtext", "-Rxml:res.xml", "--verdict=strict"}));
  EXPECT_EQ(r.exit_code, 3) << ShowVerdictRun(r);
  EXPECT_NE(r.err.find("--verdict=strict"), std::string::npos) << r.err;
  // One verdict for the target, its two threads judged as one, after
  // DiskSpd's own tables.
  EXPECT_EQ(Occurrences(r.out, "Verdict for target 'small.dat':\nValidity ("), 1u) << r.out;
  EXPECT_LT(r.out.find("\nWrite IO\n"), r.out.find("Verdict for target")) << r.out;
  EXPECT_NE(r.out.find("\n    INVALID cache: buffered reads over 4 MiB"), std::string::npos)
      << r.out;
  EXPECT_EQ(VerdictLastLine(r.out).rfind("Verdict: INVALID (", 0), 0u) << r.out;

  Result<diskspd::XmlElement> doc = diskspd::ReadXmlDocument(dir.Read("res.xml"));
  ASSERT_TRUE(doc.ok()) << doc.status().ToString();
  const diskspd::XmlElement* span = DiskspdXmlChild(&*doc, "TimeSpan");
  ASSERT_NE(span, nullptr);
  EXPECT_EQ(DiskspdXmlChildren(span, "Thread").size(), 2u);  // DiskSpd's, unchanged
  const std::vector<const diskspd::XmlElement*> verdicts =
      DiskspdXmlChildren(span, "LoadcellVerdict");
  ASSERT_EQ(verdicts.size(), 1u);
  ASSERT_NE(verdicts[0]->Attribute("Target"), nullptr);
  EXPECT_EQ(*verdicts[0]->Attribute("Target"), "small.dat");
  EXPECT_EQ(*verdicts[0]->Attribute("Overall"), "invalid");
  const diskspd::XmlElement* cache = nullptr;
  for (const diskspd::XmlElement* c : DiskspdXmlChildren(verdicts[0], "Check")) {
    if (*c->Attribute("Id") == "cache") cache = c;
  }
  ASSERT_NE(cache, nullptr);
  EXPECT_EQ(*cache->Attribute("Level"), "invalid");
  // In DiskSpd's words, not loadcell fileio's.
  EXPECT_EQ(cache->Attribute("Advice")->rfind("use -Sh (or -Su), or a -c<size> of at least", 0), 0u)
      << *cache->Attribute("Advice");
  bool file_set = false;
  for (const diskspd::XmlElement* f : DiskspdXmlChildren(cache, "Figure")) {
    file_set = file_set || (*f->Attribute("Name") == "file_set_bytes" &&
                            *f->Attribute("Value") == std::to_string(4 << 20));
  }
  EXPECT_TRUE(file_set) << dir.Read("res.xml");
}

TEST(DiskspdVerdict, TheDeviceChecksRunOnTheDeviceUnderTheTargetAndNameIt) {
  TempDir dir(BuildTree());
  const std::string disk = FrontEndDiskOf(dir);
  if (disk.empty()) GTEST_SKIP() << "no block device under " << dir.path();
  const ProcessResult r = RunDiskspd(dir, DiskspdSmallBufferedRead({"-Rxml:res.xml"}));
  ASSERT_EQ(r.exit_code, 0) << ShowVerdictRun(r);
  Result<diskspd::XmlElement> doc = diskspd::ReadXmlDocument(dir.Read("res.xml"));
  ASSERT_TRUE(doc.ok()) << doc.status().ToString();
  const diskspd::XmlElement* span = DiskspdXmlChild(&*doc, "TimeSpan");
  ASSERT_NE(span, nullptr);
  const std::vector<const diskspd::XmlElement*> verdicts =
      DiskspdXmlChildren(span, "LoadcellVerdict");
  ASSERT_EQ(verdicts.size(), 1u);
  std::vector<std::string> made;
  for (const diskspd::XmlElement* c : DiskspdXmlChildren(verdicts[0], "Check")) {
    const std::string id = *c->Attribute("Id");
    if (id != "device-reads" && id != "other-io") continue;
    made.push_back(id);
    EXPECT_NE(*c->Attribute("Level"), "not_checked") << id << ": " << *c->Attribute("Seen");
    EXPECT_NE(c->Attribute("Seen")->find("device (" + disk), std::string::npos)
        << id << ": " << *c->Attribute("Seen");
  }
  EXPECT_EQ(made, (std::vector<std::string>{"device-reads", "other-io"})) << dir.Read("res.xml");
}

TEST(DiskspdVerdict, OffPrintsNoneAndABadModeIsRefused) {
  TempDir dir;
  const ProcessResult off =
      RunDiskspd(dir, DiskspdSmallBufferedRead({"-Rtext", "-Rxml:res.xml", "--verdict=off"}));
  EXPECT_EQ(off.exit_code, 0) << ShowVerdictRun(off);
  EXPECT_EQ(off.out.find("Verdict"), std::string::npos) << off.out;
  EXPECT_EQ(dir.Read("res.xml").find("LoadcellVerdict"), std::string::npos);
  // on (the default): INVALID reported, the run itself done.
  const ProcessResult on = RunDiskspd(dir, DiskspdSmallBufferedRead({}));
  EXPECT_EQ(on.exit_code, 0) << ShowVerdictRun(on);
  EXPECT_NE(on.out.find("INVALID cache:"), std::string::npos) << on.out;
  const ProcessResult bad = RunDiskspd(dir, DiskspdSmallBufferedRead({"--verdict=maybe"}));
  EXPECT_EQ(bad.exit_code, 2) << ShowVerdictRun(bad);
  EXPECT_NE(bad.err.find("diskspd: --verdict=maybe: the verdict is off, on or strict"),
            std::string::npos)
      << bad.err;
}

// A small dbsim run: one random and one audit user over 4 MiB of data and
// a 2 MiB log, one cycle of a second; NoBuffering as given.
std::string FrontEndDbsimConfig(bool no_buffering) {
  return std::string("[CONFIG]\nTestCycles=1\nTestCycleDuration=1\nNoBuffering=") +
         (no_buffering ? "TRUE" : "FALSE") +
         "\nWriteThrough=FALSE\n[RandomUser]\nUserCount=1\nSleepAfter=0\n"
         "[AuditUser]\nUserCount=1\nAuditDelay=0\n[ReadAheadUser]\nUserCount=0\n"
         "[BulkUpdateUser]\nUserCount=0\n[File1]\nFileName=data.mdx\nInitialSize=4\n"
         "[File2]\nFileName=log.ldx\nInitialSize=2\nLogFile=TRUE\n";
}

ProcessResult RunFrontEndDbsim(const TempDir& dir, std::vector<std::string> args) {
  args.insert(args.begin(), {"dbsim", "-cfg", "small.ini", "-dir", "."});
  ChildWatch w;
  w.cwd = dir.path();
  w.timeout_s = 120;
  return RunLoadcell(args, w);
}

TEST(DbsimVerdict, ABufferedRunOfSmallFilesIsInvalidOnCacheAndStrictExitsThree) {
  TempDir dir;
  dir.Write("small.ini", FrontEndDbsimConfig(/*no_buffering=*/false));
  const ProcessResult text = RunFrontEndDbsim(dir, {});
  ASSERT_EQ(text.exit_code, 0) << ShowVerdictRun(text);
  // The users that read (the random user, the audit user, the end-of-cycle
  // audit) found it; the log writer and the checkpoint do not read.
  const size_t cache = text.out.find("\n    INVALID cache: ");
  ASSERT_NE(cache, std::string::npos) << text.out;
  const std::string line = text.out.substr(cache + 1, text.out.find('\n', cache + 1) - cache - 1);
  EXPECT_NE(line.find("buffered reads over 4 MiB of files"), std::string::npos) << line;
  EXPECT_NE(line.find("random user"), std::string::npos) << line;
  EXPECT_NE(text.out.find("change: use NoBuffering=TRUE, or a data file size"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("\nVerdict: INVALID ("), std::string::npos) << text.out;

  const ProcessResult json = RunFrontEndDbsim(dir, {"--format=json"});
  ASSERT_EQ(json.exit_code, 0) << ShowVerdictRun(json);
  const nlohmann::json doc = nlohmann::json::parse(json.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << json.out;
  EXPECT_EQ(doc["validity"]["overall"], "invalid") << doc["validity"].dump();
  const nlohmann::json merged = VerdictCheckOf(doc, "cache");
  ASSERT_FALSE(merged.is_null()) << doc["validity"].dump();
  EXPECT_EQ(merged["level"], "invalid") << merged.dump();
  EXPECT_EQ(merged["figures"]["file_set_bytes"], 4 << 20) << merged.dump();
  // Each user's own: the random user's reads, the log writer's none.
  for (const nlohmann::json& u : doc["users"]) {
    const nlohmann::json own = VerdictCheckOf(u, "cache");
    if (u["name"] == "random user") {
      EXPECT_EQ(own["level"], "invalid") << u.dump();
    } else if (u["name"] == "log writer") {
      EXPECT_TRUE(own.is_null()) << u.dump();
    }
  }

  const ProcessResult strict = RunFrontEndDbsim(dir, {"--verdict=strict"});
  EXPECT_EQ(strict.exit_code, 3) << ShowVerdictRun(strict);
  EXPECT_NE(strict.err.find("--verdict=strict"), std::string::npos) << strict.err;
}

TEST(DbsimVerdict, AnUnbufferedRunIsNotInvalidOnCache) {
  TempDir dir(BuildTree());  // O_DIRECT: a real file system, not a tmpfs
  dir.Write("small.ini", FrontEndDbsimConfig(/*no_buffering=*/true));
  const ProcessResult r = RunFrontEndDbsim(dir, {"--format=json"});
  ASSERT_EQ(r.exit_code, 0) << ShowVerdictRun(r);
  const nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << r.out;
  const nlohmann::json cache = VerdictCheckOf(doc, "cache");
  ASSERT_FALSE(cache.is_null()) << doc["validity"].dump();
  EXPECT_EQ(cache["level"], "pass") << cache.dump();
  EXPECT_NE(cache["seen"].get<std::string>().find("direct I/O"), std::string::npos) << cache.dump();
  // Direct reads and writes: the page cache's checks do not concern it.
  EXPECT_TRUE(VerdictCheckOf(doc, "device-reads").is_null()) << doc["validity"].dump();
}

}  // namespace
}  // namespace loadcell::testing
