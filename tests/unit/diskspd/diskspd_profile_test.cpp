#include "diskspd/diskspd_profile.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "diskspd/diskspd_xml_reader.h"
#include "testing/status.h"

namespace loadcell::diskspd {
namespace {

using ::testing::HasSubstr;

DiskspdSwitches CommandLine(const std::vector<std::string>& args) {
  Result<DiskspdSwitches> r = ParseDiskspdCommandLine(args, "loadcell diskspd");
  EXPECT_OK(r);
  return r.ok() ? *r : DiskspdSwitches{};
}

DiskspdProfile Profile(const std::string& xml, const std::vector<std::string>& args) {
  Result<DiskspdProfile> r = ParseDiskspdProfile(xml, "p.xml", CommandLine(args));
  EXPECT_OK(r);
  return r.ok() ? *r : DiskspdProfile{};
}

std::string ProfileError(const std::string& xml, const std::vector<std::string>& args) {
  Result<DiskspdProfile> r = ParseDiskspdProfile(xml, "p.xml", CommandLine(args));
  EXPECT_FALSE(r.ok());
  if (r.ok()) return "";
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(r.status().message().find('\n'), std::string::npos) << r.status().message();
  return r.status().message();
}

TEST(DiskspdXmlReader, ElementsAttributesTextAndLines) {
  Result<XmlElement> r = ReadXmlDocument(
      "<?xml version=\"1.0\"?>\n<!-- a comment -->\n<A x='1' y=\"a&amp;b\">\n"
      "  <B>one &lt;two&gt; &#65;&#x42;</B>\n  <C/><![CDATA[<raw>]]>\n</A>\n");
  ASSERT_OK(r);
  EXPECT_EQ(r->name, "A");
  EXPECT_EQ(r->line, 3);
  ASSERT_NE(r->Attribute("y"), nullptr);
  EXPECT_EQ(*r->Attribute("y"), "a&b");
  EXPECT_EQ(r->Attribute("z"), nullptr);
  ASSERT_EQ(r->children.size(), 2U);
  EXPECT_EQ(r->children[0].text, "one <two> AB");
  EXPECT_EQ(r->children[0].line, 4);
  EXPECT_EQ(r->children[1].name, "C");
  EXPECT_EQ(r->children[1].line, 5);
  EXPECT_THAT(r->text, HasSubstr("<raw>"));
}

TEST(DiskspdXmlReader, NotWellFormedNamesTheLine) {
  auto error = [](const std::string& xml) {
    Result<XmlElement> r = ReadXmlDocument(xml);
    EXPECT_FALSE(r.ok());
    return r.ok() ? "" : r.status().message();
  };
  EXPECT_THAT(error("<A>\n<B>\n</A>"), HasSubstr("line 3: </A> closes <B> (opened at line 2)"));
  EXPECT_THAT(error("<A>"), HasSubstr("<A> is not closed"));
  EXPECT_THAT(error("<A>&nbsp;</A>"), HasSubstr("unknown entity '&nbsp;'"));
  EXPECT_THAT(error("<A x=1/>"), HasSubstr("must be quoted"));
  EXPECT_THAT(error("<A x='1' x='2'/>"), HasSubstr("given twice"));
  EXPECT_THAT(error("<A/><B/>"), HasSubstr("text after the root element"));
  EXPECT_THAT(error("<!DOCTYPE A><A/>"), HasSubstr("DTD"));
  std::string deep;
  for (int i = 0; i < 40; ++i) deep += "<a>";
  for (int i = 0; i < 40; ++i) deep += "</a>";
  EXPECT_THAT(error(deep), HasSubstr("nest deeper than 32"));
  EXPECT_THAT(error(std::string(kMaxXmlBytes + 1, ' ')), HasSubstr("more than"));
}

constexpr const char* kTwoTimespans = R"(<?xml version="1.0" encoding="utf-8"?>
<Profile>
  <ResultFormat>xml</ResultFormat>
  <TimeSpans>
    <TimeSpan>
      <Duration>3</Duration>
      <Warmup>1</Warmup>
      <Cooldown>2</Cooldown>
      <RandSeed>7</RandSeed>
      <MeasureLatency>true</MeasureLatency>
      <CalculateIopsStdDev>true</CalculateIopsStdDev>
      <IoBucketDuration>250</IoBucketDuration>
      <Targets>
        <Target>
          <Path>*1</Path>
          <BlockSize>4096</BlockSize>
          <Random>8192</Random>
          <RandomRatio>40</RandomRatio>
          <WriteRatio>30</WriteRatio>
          <ThreadsPerFile>2</ThreadsPerFile>
          <RequestCount>8</RequestCount>
          <DisableAllCache>true</DisableAllCache>
          <FileSize>1048576</FileSize>
          <Throughput unit="IOPS">500</Throughput>
          <Distribution>
            <Percent>
              <Range IO="90">10</Range>
              <Range IO="10">90</Range>
            </Percent>
          </Distribution>
        </Target>
        <Target>
          <Path>*2</Path>
          <StrideSize>16384</StrideSize>
          <InterlockedSequential>true</InterlockedSequential>
          <BaseFileOffset>65536</BaseFileOffset>
          <MaxFileSize>1048576</MaxFileSize>
          <WriteBufferContent>
            <Pattern>random</Pattern>
            <RandomDataSource>
              <SizeInBytes>131072</SizeInBytes>
            </RandomDataSource>
          </WriteBufferContent>
        </Target>
      </Targets>
    </TimeSpan>
    <TimeSpan>
      <ThreadCount>3</ThreadCount>
      <RandomWriteData>true</RandomWriteData>
      <Targets>
        <Target>
          <Path>*2</Path>
          <WriteThrough>true</WriteThrough>
          <BurstSize>4</BurstSize>
          <ThinkTime>5</ThinkTime>
          <Throughput>100</Throughput>
        </Target>
      </Targets>
    </TimeSpan>
  </TimeSpans>
</Profile>
)";

TEST(DiskspdProfile, TimespansAndTargetsWithTheirOwnSettings) {
  DiskspdProfile p = Profile(kTwoTimespans, {"-Xp.xml", "a.dat", "b.dat"});
  ASSERT_EQ(p.timespans.size(), 2U);
  const DiskspdTimespan& one = p.timespans[0];
  EXPECT_EQ(one.sw.duration_s, 3);
  EXPECT_EQ(one.sw.warmup_s, 1);
  EXPECT_EQ(one.sw.cooldown_s, 2);
  EXPECT_EQ(one.sw.seed, 7U);
  EXPECT_TRUE(one.sw.latency);
  EXPECT_TRUE(one.sw.iops_stddev);
  EXPECT_EQ(one.sw.bucket_ms, 250U);
  EXPECT_TRUE(one.sw.xml);
  EXPECT_EQ(one.sw.targets, (std::vector<std::string>{"a.dat", "b.dat"}));
  ASSERT_EQ(one.per_target.size(), 2U);
  const DiskspdSwitches& a = one.per_target[0];
  EXPECT_EQ(a.targets, std::vector<std::string>{"a.dat"});
  EXPECT_EQ(a.block_size, 4096U);
  EXPECT_EQ(a.random_ratio, 40U);
  EXPECT_EQ(a.Alignment(), 8192U);
  EXPECT_EQ(a.write_ratio, 30U);
  EXPECT_EQ(a.threads_per_target, 2);
  EXPECT_EQ(a.requests, 8U);
  EXPECT_EQ(a.cache, DiskspdCache::kUnbuffered);
  EXPECT_TRUE(a.write_through);
  EXPECT_TRUE(a.create);
  EXPECT_EQ(a.create_size, 1048576U);
  EXPECT_EQ(a.throughput_iops, 500U);
  EXPECT_EQ(a.distribution, DiskspdDistribution::kPercent);
  EXPECT_EQ(a.ranges, (std::vector<DiskspdRange>{{90, 10}, {10, 90}}));
  EXPECT_TRUE(a.latency);  // the timespan's settings are the target's too
  const DiskspdSwitches& b = one.per_target[1];
  EXPECT_EQ(b.block_size, 64U * 1024);  // DiskSpd's default
  EXPECT_EQ(b.random_ratio, 0U);
  EXPECT_EQ(b.Alignment(), 16384U);
  EXPECT_TRUE(b.interlocked);
  EXPECT_EQ(b.base_offset, 65536U);
  EXPECT_EQ(b.max_offset, 1048576U);
  EXPECT_EQ(b.write_data, DiskspdWriteData::kRandomBuffer);
  EXPECT_EQ(b.write_buffer_size, 131072U);
  EXPECT_EQ(b.cache, DiskspdCache::kCached);
  EXPECT_EQ(b.requests, 2U);
  EXPECT_EQ(one.ThreadCount(), 3);

  const DiskspdTimespan& two = p.timespans[1];
  EXPECT_EQ(two.sw.duration_s, 10);  // DiskSpd's defaults
  EXPECT_EQ(two.sw.warmup_s, 5);
  EXPECT_EQ(two.sw.total_threads, 3);
  EXPECT_EQ(two.ThreadCount(), 3);
  ASSERT_EQ(two.per_target.size(), 1U);
  const DiskspdSwitches& c = two.per_target[0];
  EXPECT_EQ(c.targets, std::vector<std::string>{"b.dat"});
  EXPECT_TRUE(c.write_through);
  EXPECT_EQ(c.cache, DiskspdCache::kCached);
  EXPECT_EQ(c.burst, 4U);
  EXPECT_EQ(c.think_ms, 5U);
  EXPECT_EQ(c.throughput_bytes_per_ms, 100U);
  EXPECT_EQ(c.write_data, DiskspdWriteData::kRandomPerIo);
}

TEST(DiskspdProfile, CommandLineTimesSeedAndFormatWin) {
  DiskspdProfile p =
      Profile(kTwoTimespans, {"-d1", "-W0", "-C0", "-z9", "-Rtext", "-Xp.xml", "a.dat", "b.dat"});
  ASSERT_EQ(p.timespans.size(), 2U);
  for (const DiskspdTimespan& ts : p.timespans) {
    EXPECT_EQ(ts.sw.duration_s, 1);
    EXPECT_EQ(ts.sw.warmup_s, 0);
    EXPECT_EQ(ts.sw.cooldown_s, 0);
    EXPECT_EQ(ts.sw.seed, 9U);
    EXPECT_FALSE(ts.sw.xml);
    for (const DiskspdSwitches& t : ts.per_target) EXPECT_EQ(t.duration_s, 1);
  }
}

TEST(DiskspdProfile, OnlyTimesSeedOutputAndVerboseComposeWithX) {
  Result<DiskspdSwitches> r = ParseDiskspdCommandLine({"-b4K", "-Xp.xml", "a.dat"});
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("'-b4K' cannot be used with -X"));
  r = ParseDiskspdCommandLine({"-Xp.xml", "-o4"});
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("'-o4' cannot be used with -X"));
  // No target is needed: a profile may name its own.
  DiskspdSwitches sw = CommandLine({"-Xp.xml", "-Rp"});
  EXPECT_EQ(sw.profile_path, "p.xml");
  EXPECT_TRUE(sw.profile_only);
  EXPECT_FALSE(sw.format_given);
  EXPECT_TRUE(CommandLine({"-Rpxml", "t"}).xml);
  EXPECT_TRUE(CommandLine({"-Rptext", "t"}).format_given);
}

TEST(DiskspdProfile, CommandLineIsOneTimespanOfSharedSwitches) {
  DiskspdProfile p = DiskspdProfileOf(CommandLine({"-t2", "-b8K", "a", "b"}));
  ASSERT_EQ(p.timespans.size(), 1U);
  ASSERT_EQ(p.timespans[0].per_target.size(), 2U);
  EXPECT_EQ(p.timespans[0].per_target[1].targets, std::vector<std::string>{"b"});
  EXPECT_EQ(p.timespans[0].per_target[1].block_size, 8192U);
  EXPECT_EQ(p.timespans[0].ThreadCount(), 4);
}

std::string OneTarget(const std::string& body, const std::string& timespan = "") {
  return "<Profile><TimeSpans><TimeSpan>" + timespan + "<Targets><Target><Path>*1</Path>" + body +
         "</Target></Targets></TimeSpan></TimeSpans></Profile>";
}

TEST(DiskspdProfile, AffinityElements) {
  const std::vector<std::string> args = {"-Xp.xml", "t"};
  DiskspdProfile p = Profile(OneTarget("",
                                       "<Affinity><AffinityAssignment>1</AffinityAssignment>"
                                       "<AffinityAssignment>0</AffinityAssignment></Affinity>"),
                             args);
  ASSERT_EQ(p.timespans.size(), 1U);
  EXPECT_EQ(p.timespans[0].sw.affinity, (std::vector<DiskspdAffinityCpu>{{0, 1}, {0, 0}}));
  EXPECT_EQ(p.timespans[0].per_target[0].affinity.size(), 2U);
  p = Profile(OneTarget("",
                        "<GroupAffinity>true</GroupAffinity><Affinity>"
                        "<AffinityGroupAssignment Group=\"0\" Processor=\"3\"/></Affinity>"),
              args);
  EXPECT_EQ(p.timespans[0].sw.affinity, (std::vector<DiskspdAffinityCpu>{{0, 3}}));
  EXPECT_THAT(ProfileError(OneTarget("",
                                     "<Affinity><AffinityAssignment>1</AffinityAssignment>"
                                     "<AffinityGroupAssignment Group=\"0\" Processor=\"1\"/>"
                                     "</Affinity>"),
                           args),
              HasSubstr("holds one kind of element"));
  EXPECT_THAT(ProfileError(OneTarget("",
                                     "<DisableAffinity>true</DisableAffinity><Affinity>"
                                     "<AffinityAssignment>1</AffinityAssignment></Affinity>"),
                           args),
              HasSubstr("conflicts with <Affinity>"));
  EXPECT_THAT(ProfileError(OneTarget("",
                                     "<Affinity><AffinityAssignment>256</AffinityAssignment>"
                                     "</Affinity>"),
                           args),
              HasSubstr("from 0 to 255"));
}

TEST(DiskspdProfile, SchemaAndRulesRefusedNamingTheElement) {
  const std::vector<std::string> args = {"-Xp.xml", "t"};
  EXPECT_THAT(ProfileError(OneTarget("<Blocksize>1</Blocksize>"), args),
              HasSubstr("diskspd -X p.xml: <Blocksize> at line 1: is not an element of <Target> "
                        "(valid: Path, BlockSize"));
  EXPECT_THAT(ProfileError(OneTarget("<BlockSize>-1</BlockSize>"), args),
              HasSubstr("'-1' is not a whole number from 0 to 4294967294"));
  EXPECT_THAT(ProfileError(OneTarget("<BlockSize>0</BlockSize>"), args),
              HasSubstr("block size must be above 0"));
  EXPECT_THAT(ProfileError(OneTarget("<RandomRatio>100</RandomRatio><Random>4096</Random>"), args),
              HasSubstr("from 0 to 99"));
  EXPECT_THAT(ProfileError(OneTarget("<WriteBufferContent><RandomDataSource><SizeInBytes>1"
                                     "</SizeInBytes></RandomDataSource></WriteBufferContent>"),
                           args),
              HasSubstr("needs a <Pattern> element"));
  EXPECT_THAT(ProfileError(OneTarget("<WriteBufferContent><Pattern>random</Pattern>"
                                     "<RandomDataSource><SizeInBytes>512</SizeInBytes>"
                                     "</RandomDataSource></WriteBufferContent>"),
                           args),
              HasSubstr("smaller than the block size"));
  EXPECT_THAT(ProfileError(OneTarget("<BurstSize>4</BurstSize>"), args),
              HasSubstr("-i (burst size) and -j (time between bursts) must be given together"));
  EXPECT_THAT(ProfileError(OneTarget("<Throughput>10</Throughput>",
                                     "<CompletionRoutines>true</CompletionRoutines>"),
                           args),
              HasSubstr("-g (throughput limit) cannot be used with -x"));
  EXPECT_THAT(
      ProfileError(OneTarget("<ThreadsPerFile>2</ThreadsPerFile>", "<ThreadCount>2</ThreadCount>"),
                   args),
      HasSubstr("-F and -t cannot be used together"));
  EXPECT_THAT(ProfileError(OneTarget("<Distribution><Absolute><Range IO=\"10\">1</Range>"
                                     "</Absolute></Distribution><Random>4096</Random>"),
                           args),
              HasSubstr("smaller than the block size"));
  EXPECT_THAT(ProfileError(OneTarget("<Distribution><Percent/><Absolute/></Distribution>"), args),
              HasSubstr("exactly one <Percent> or <Absolute>"));
  EXPECT_THAT(ProfileError(OneTarget(""), {"-Xp.xml"}),
              HasSubstr("template path '*1' has no target on the command line"));
  std::string bad_template = OneTarget("");
  bad_template.replace(bad_template.find("*1"), 2, "*x");
  EXPECT_THAT(ProfileError(bad_template, args), HasSubstr("*<integer>"));
  EXPECT_THAT(ProfileError("<Profile><TimeSpans/></Profile>", args),
              HasSubstr("needs at least one <TimeSpan>"));
}

// <TemporaryFile> (-ft), <DisableLocalCache> (-Sr) and <VerboseStats>
// (-vs) read as their switches; -vs on the command line wins as -v does.
TEST(DiskspdProfile, TemporaryFileLocalCacheAndVerboseStatsElements) {
  const std::vector<std::string> args = {"-Xp.xml", "t"};
  DiskspdProfile p = Profile(
      "<Profile><VerboseStats>true</VerboseStats><TimeSpans><TimeSpan><Targets><Target>"
      "<Path>*1</Path><TemporaryFile>true</TemporaryFile>"
      "<DisableLocalCache>true</DisableLocalCache></Target></Targets></TimeSpan></TimeSpans>"
      "</Profile>",
      args);
  ASSERT_EQ(p.timespans.size(), 1U);
  EXPECT_TRUE(p.timespans[0].sw.verbose_stats);
  const DiskspdSwitches& t = p.timespans[0].per_target[0];
  EXPECT_TRUE(t.hint_temporary);
  EXPECT_TRUE(t.remote_cache_only);
  const DiskspdProfile plain = Profile(OneTarget(""), args);
  EXPECT_FALSE(plain.timespans[0].sw.verbose_stats);
  EXPECT_FALSE(plain.timespans[0].per_target[0].hint_temporary);
  EXPECT_FALSE(plain.timespans[0].per_target[0].remote_cache_only);
  EXPECT_TRUE(Profile(OneTarget(""), {"-vs", "-Xp.xml", "t"}).timespans[0].sw.verbose_stats);
  EXPECT_THAT(ProfileError(OneTarget("<DisableLocalCache>true</DisableLocalCache>"
                                     "<DisableOSCache>true</DisableOSCache>"),
                           args),
              HasSubstr("<DisableLocalCache> at line 1: conflicts with <DisableOSCache>"));
}

TEST(DiskspdProfile, ParallelAsyncIoElementReadAsMinusP) {
  const std::vector<std::string> args = {"-Xp.xml", "t"};
  DiskspdProfile p = Profile(
      OneTarget("<ParallelAsyncIO>true</ParallelAsyncIO><RequestCount>4</RequestCount>"), args);
  ASSERT_EQ(p.timespans.size(), 1U);
  ASSERT_EQ(p.timespans[0].per_target.size(), 1U);
  EXPECT_TRUE(p.timespans[0].per_target[0].parallel_async);
  EXPECT_FALSE(Profile(OneTarget(""), args).timespans[0].per_target[0].parallel_async);
  EXPECT_THAT(
      ProfileError(OneTarget("<ParallelAsyncIO>true</ParallelAsyncIO><Random>4096</Random>"), args),
      HasSubstr("<Target> at line 1: diskspd: -p conflicts with -r"));
  EXPECT_THAT(ProfileError(OneTarget("<ParallelAsyncIO>true</ParallelAsyncIO>"
                                     "<InterlockedSequential>true</InterlockedSequential>"
                                     "<ThreadsPerFile>2</ThreadsPerFile>"),
                           args),
              HasSubstr("-si conflicts with -p"));
}

}  // namespace
}  // namespace loadcell::diskspd
