// `loadcell diskspd -X profile.xml`: DiskSpd's XML profiles through the
// binary (1 s timespans on small files in a temporary folder): several
// timespans run one after another, each reported; -Rp prints the profile
// without running, and what it prints runs again with -X. The bad
// profiles: tests/data/diskspd_bad_profiles.tsv
// (scripts/test-diskspd-bad-input).

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "diskspd/diskspd_xml_reader.h"
#include "testing/diskspd_run.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell::testing {
namespace {

using diskspd::XmlElement;

ProcessResult RunDiskspdProfile(const TempDir& dir, std::vector<std::string> args) {
  return RunDiskspd(dir, std::move(args));
}

// Timespan 1: 4 KiB random reads of *1 (created, 1 MiB), one thread.
// Timespan 2: 8 KiB sequential 50% writes, two threads on *1 and one on *2
// (created, 512 KiB).
constexpr const char* kTwoSpans = R"(<?xml version="1.0" encoding="utf-8"?>
<Profile>
  <TimeSpans>
    <TimeSpan>
      <Duration>1</Duration>
      <Warmup>0</Warmup>
      <MeasureLatency>true</MeasureLatency>
      <Targets>
        <Target>
          <Path>*1</Path>
          <BlockSize>4096</BlockSize>
          <Random>4096</Random>
          <FileSize>1048576</FileSize>
        </Target>
      </Targets>
    </TimeSpan>
    <TimeSpan>
      <Duration>1</Duration>
      <Warmup>0</Warmup>
      <Targets>
        <Target>
          <Path>*1</Path>
          <BlockSize>8192</BlockSize>
          <WriteRatio>50</WriteRatio>
          <ThreadsPerFile>2</ThreadsPerFile>
        </Target>
        <Target>
          <Path>*2</Path>
          <BlockSize>8192</BlockSize>
          <FileSize>524288</FileSize>
          <WriteBufferContent>
            <Pattern>zero</Pattern>
          </WriteBufferContent>
        </Target>
      </Targets>
    </TimeSpan>
  </TimeSpans>
</Profile>
)";

// The total row of `section` ("Total IO") at or after `from` in a text
// report: bytes and I/Os.
std::pair<uint64_t, uint64_t> ProfileSectionTotal(const std::string& out, size_t from,
                                                  const std::string& section) {
  return DiskspdSectionTotal(out, section, from);
}

uint64_t ProfileU64(const XmlElement* e) {
  return e == nullptr ? 0 : std::stoull(e->text.empty() ? "0" : e->text);
}
const XmlElement* ChildOf(const XmlElement* e, const std::string& name) {
  return DiskspdXmlChild(e, name);
}
std::vector<const XmlElement*> AllOf(const XmlElement* e, const std::string& name) {
  return DiskspdXmlChildren(e, name);
}

TEST(DiskspdProfileTest, TwoTimespansRunOneAfterAnotherEachReported) {
  TempDir dir;
  dir.Write("two.xml", kTwoSpans);
  ProcessResult r = RunDiskspdProfile(dir, {"-Xtwo.xml", "a.dat", "b.dat"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(std::filesystem::file_size(dir / "a.dat"), 1u << 20);
  EXPECT_EQ(std::filesystem::file_size(dir / "b.dat"), 512u << 10);
  const size_t one = r.out.find("Results for timespan 1:");
  const size_t two = r.out.find("Results for timespan 2:");
  ASSERT_NE(one, std::string::npos) << r.out;
  ASSERT_NE(two, std::string::npos) << r.out;
  EXPECT_LT(one, two);
  // Both timespans' input parameters, each target's own settings.
  const size_t in_one = r.out.find("\ttimespan:   1");
  const size_t in_two = r.out.find("\ttimespan:   2");
  ASSERT_NE(in_one, std::string::npos);
  ASSERT_NE(in_two, std::string::npos);
  EXPECT_LT(in_two, one);
  EXPECT_NE(r.out.find("block size: 4KiB", in_one), std::string::npos);
  EXPECT_NE(r.out.find("using random I/O (alignment: 4KiB)", in_one), std::string::npos);
  EXPECT_NE(r.out.find("block size: 8KiB", in_two), std::string::npos);
  EXPECT_NE(r.out.find("performing mix test (read/write ratio: 50/50)", in_two), std::string::npos);
  EXPECT_NE(r.out.find("zeroing write buffers", in_two), std::string::npos);
  // Timespan 1: one thread of 4 KiB reads, the latency table (-L).
  EXPECT_NE(r.out.find("thread count:\t\t1", one), std::string::npos);
  const auto [b1, n1] = ProfileSectionTotal(r.out, one, "Total IO");
  EXPECT_GT(n1, 0u);
  EXPECT_EQ(b1, n1 * 4096);
  EXPECT_EQ(ProfileSectionTotal(r.out, one, "Write IO").second, 0u);
  const size_t latency = r.out.find("Total latency distribution:", one);
  EXPECT_LT(latency, two);
  // Timespan 2: three threads (two on a.dat, one on b.dat) of 8 KiB, writes
  // to a.dat only; no latency table (no MeasureLatency).
  EXPECT_NE(r.out.find("thread count:\t\t3", two), std::string::npos);
  const auto [b2, n2] = ProfileSectionTotal(r.out, two, "Total IO");
  EXPECT_GT(n2, 0u);
  EXPECT_EQ(b2, n2 * 8192);
  EXPECT_GT(ProfileSectionTotal(r.out, two, "Write IO").second, 0u);
  EXPECT_NE(r.out.find("\n     2 | ", two), std::string::npos);
  EXPECT_EQ(r.out.find("Total latency distribution:", two), std::string::npos);
}

TEST(DiskspdProfileTest, XmlHoldsEveryTimespansProfileAndResults) {
  TempDir dir;
  dir.Write("two.xml", kTwoSpans);
  ProcessResult r = RunDiskspdProfile(dir, {"-Rxml", "-Xtwo.xml", "a.dat", "b.dat"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Result<XmlElement> doc = diskspd::ReadXmlDocument(r.out);
  ASSERT_TRUE(doc.ok()) << doc.status().message() << "\n" << r.out;
  EXPECT_EQ(doc->name, "Results");
  const XmlElement* spans = ChildOf(ChildOf(&*doc, "Profile"), "TimeSpans");
  ASSERT_EQ(AllOf(spans, "TimeSpan").size(), 2u);
  const XmlElement* second = AllOf(spans, "TimeSpan")[1];
  const std::vector<const XmlElement*> targets = AllOf(ChildOf(second, "Targets"), "Target");
  ASSERT_EQ(targets.size(), 2u);
  EXPECT_EQ(ChildOf(targets[0], "Path")->text, "a.dat");
  EXPECT_EQ(ProfileU64(ChildOf(targets[0], "ThreadsPerFile")), 2u);
  EXPECT_EQ(ProfileU64(ChildOf(targets[0], "WriteRatio")), 50u);
  EXPECT_EQ(ChildOf(targets[1], "Path")->text, "b.dat");
  const std::vector<const XmlElement*> results = AllOf(&*doc, "TimeSpan");
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(ProfileU64(ChildOf(results[0], "ThreadCount")), 1u);
  EXPECT_NE(ChildOf(results[0], "Latency"), nullptr);
  EXPECT_EQ(ProfileU64(ChildOf(results[1], "ThreadCount")), 3u);
  EXPECT_EQ(ChildOf(results[1], "Latency"), nullptr);
  const std::vector<const XmlElement*> threads = AllOf(results[1], "Thread");
  ASSERT_EQ(threads.size(), 3u);
  uint64_t b_dat_ios = 0, a_dat_writes = 0;
  for (const XmlElement* t : threads) {
    for (const XmlElement* target : AllOf(t, "Target")) {
      if (ChildOf(target, "Path")->text == "b.dat") {
        b_dat_ios += ProfileU64(ChildOf(target, "IOCount"));
        EXPECT_EQ(ProfileU64(ChildOf(target, "WriteCount")), 0u);
      } else {
        a_dat_writes += ProfileU64(ChildOf(target, "WriteCount"));
      }
      EXPECT_EQ(ProfileU64(ChildOf(target, "BytesCount")),
                ProfileU64(ChildOf(target, "IOCount")) * 8192);
    }
  }
  EXPECT_GT(b_dat_ios, 0u);
  EXPECT_GT(a_dat_writes, 0u);
}

TEST(DiskspdProfileTest, RpPrintsTheProfileWithoutRunningAndItRunsAgain) {
  TempDir dir;
  ProcessResult p =
      RunDiskspdProfile(dir, {"-Rp", "-b8K", "-d1", "-W0", "-r", "-w20", "-c1M", "t.dat"});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "t.dat"));  // nothing run or created
  Result<XmlElement> doc = diskspd::ReadXmlDocument(p.out);
  ASSERT_TRUE(doc.ok()) << doc.status().message() << "\n" << p.out;
  EXPECT_EQ(doc->name, "Profile");
  const XmlElement* target = ChildOf(
      ChildOf(ChildOf(ChildOf(ChildOf(&*doc, "TimeSpans"), "TimeSpan"), "Targets"), "Target"),
      "BlockSize");
  ASSERT_NE(target, nullptr) << p.out;
  EXPECT_EQ(target->text, "8192");
  // The printed profile is DiskSpd's schema: it runs as it is.
  dir.Write("printed.xml", p.out);
  ProcessResult r = RunDiskspdProfile(dir, {"-Xprinted.xml"});
  ASSERT_EQ(r.exit_code, 0) << r.err << "\n" << p.out;
  EXPECT_EQ(std::filesystem::file_size(dir / "t.dat"), 1u << 20);
  EXPECT_NE(r.out.find("block size: 8KiB"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("performing mix test (read/write ratio: 80/20)"), std::string::npos);
  EXPECT_NE(r.out.find("Results for timespan 1:"), std::string::npos);
  // -Rptext: the input parameters alone.
  ProcessResult t = RunDiskspdProfile(dir, {"-Rptext", "-Xprinted.xml"});
  ASSERT_EQ(t.exit_code, 0) << t.err;
  EXPECT_NE(t.out.find("Input parameters:"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("block size: 8KiB"), std::string::npos);
  EXPECT_EQ(t.out.find("Results for timespan"), std::string::npos);
}

TEST(DiskspdProfileTest, PrintedProfileReadsBackToTheSameProfile) {
  TempDir dir;
  // Every switch a profile holds, printed (-Rp), read back (-X) and printed
  // again: the same XML, byte for byte (nothing is run or created).
  const std::vector<std::vector<std::string>> lines = {
      {"-b8K",   "-F2", "-O6",   "-rs40", "-r16K",  "-rdpct80/20:20/80",
       "-w30",   "-Sh", "-B64K", "-f32M", "-g500i", "-L",
       "-D250",  "-d3", "-W1",   "-C1",   "-z7",    "-a0,1",
       "-P1000", "-fr", "-I2",   "-Zr",   "a.dat",  "b.dat"},
      {"-b4K", "-t2", "-si", "-Sm", "-Nv", "-l", "-fs", "-Z64K", "a.dat"},
      {"-r", "-rdabs10/1M:20/2M", "-g100", "a.dat", "b.dat"},
      {"-b8K", "-x", "-o4", "-T8K", "-t3", "-s", "-i4", "-j2", "-n", "-Z8K,src.bin", "a.dat"}};
  for (const std::vector<std::string>& line : lines) {
    std::vector<std::string> print = {"-Rp"};
    print.insert(print.end(), line.begin(), line.end());
    ProcessResult first = RunDiskspdProfile(dir, print);
    ASSERT_EQ(first.exit_code, 0) << first.err;
    dir.Write("printed.xml", first.out);
    ProcessResult again = RunDiskspdProfile(dir, {"-Rp", "-Xprinted.xml"});
    ASSERT_EQ(again.exit_code, 0) << again.err << "\n" << first.out;
    EXPECT_EQ(again.out, first.out);
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "a.dat"));
}

}  // namespace
}  // namespace loadcell::testing
