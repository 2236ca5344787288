// The validity verdict of the front ends that report in their tool's own
// forms (docs/validity.md): `loadcell fio`, `loadcell diskspd` and
// `loadcell dbsim`, through the binary. Each reads a small file set through
// the page cache, which the cache check finds INVALID on any machine: the
// verdict in the tool's text and JSON or XML with its evidence,
// --verdict=strict exiting 3 and --verdict=off printing none.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

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

}  // namespace
}  // namespace loadcell::testing
