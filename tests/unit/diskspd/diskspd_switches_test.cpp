#include "diskspd/diskspd_switches.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "testing/status.h"

namespace loadcell::diskspd {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

DiskspdSwitches Parse(const std::vector<std::string>& args) {
  Result<DiskspdSwitches> r = ParseDiskspdCommandLine(args);
  EXPECT_OK(r);
  return r.ok() ? *r : DiskspdSwitches{};
}

std::string ErrorOf(const std::vector<std::string>& args) {
  Result<DiskspdSwitches> r = ParseDiskspdCommandLine(args);
  EXPECT_FALSE(r.ok());
  if (r.ok()) return "";
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(r.status().message().find('\n'), std::string::npos) << r.status().message();
  return r.status().message();
}

constexpr uint64_t kKiB = 1024;
constexpr uint64_t kMiB = kKiB * 1024;
constexpr uint64_t kGiB = kMiB * 1024;

TEST(DiskspdSize, UnitsAsDiskspdReadsThem) {
  uint64_t v = 0;
  EXPECT_TRUE(ParseDiskspdSize("4096", 64 * kKiB, v));
  EXPECT_EQ(v, 4096U);
  EXPECT_TRUE(ParseDiskspdSize("4k", 64 * kKiB, v));
  EXPECT_EQ(v, 4 * kKiB);
  EXPECT_TRUE(ParseDiskspdSize("4K", 64 * kKiB, v));
  EXPECT_EQ(v, 4 * kKiB);
  EXPECT_TRUE(ParseDiskspdSize("20G", 64 * kKiB, v));
  EXPECT_EQ(v, 20 * kGiB);
  EXPECT_TRUE(ParseDiskspdSize("2T", 64 * kKiB, v));
  EXPECT_EQ(v, 2 * kGiB * 1024);
  EXPECT_TRUE(ParseDiskspdSize("8b", 4 * kKiB, v));  // blocks of -b
  EXPECT_EQ(v, 32 * kKiB);
  for (const char* bad : {"", "k", "4x", "4kb", "4 k", "-4", "4.5K", "99999999999T"}) {
    EXPECT_FALSE(ParseDiskspdSize(bad, 4096, v)) << bad;
  }
}

TEST(DiskspdSwitches, DefaultsAreDiskspds) {
  DiskspdSwitches s = Parse({"t.dat"});
  EXPECT_EQ(s.block_size, 64 * kKiB);
  EXPECT_EQ(s.duration_s, 10);
  EXPECT_EQ(s.warmup_s, 5);
  EXPECT_EQ(s.cooldown_s, 0);
  EXPECT_EQ(s.requests, 2U);
  EXPECT_EQ(s.threads_per_target, 1);
  EXPECT_EQ(s.write_ratio, 0U);
  EXPECT_EQ(s.random_ratio, 0U);
  EXPECT_EQ(s.Alignment(), 64 * kKiB);
  EXPECT_EQ(s.cache, DiskspdCache::kCached);
  EXPECT_FALSE(s.write_through);
  EXPECT_FALSE(s.latency);
  EXPECT_EQ(s.write_data, DiskspdWriteData::kSequence);
  EXPECT_EQ(s.seed, 0U);
  EXPECT_THAT(s.targets, ElementsAre("t.dat"));
}

TEST(DiskspdSwitches, SqlServerGuidance) {
  // Microsoft's SQL Server line, -c and -d made small.
  DiskspdSwitches s =
      Parse({"-b8K", "-d2", "-o4", "-t8", "-h", "-r", "-w25", "-L", "-Z1G", "-c20M", "t.dat"});
  EXPECT_EQ(s.block_size, 8 * kKiB);
  EXPECT_EQ(s.duration_s, 2);
  EXPECT_EQ(s.requests, 4U);
  EXPECT_EQ(s.threads_per_target, 8);
  EXPECT_EQ(s.ThreadCount(), 8);
  EXPECT_EQ(s.cache, DiskspdCache::kUnbuffered);
  EXPECT_TRUE(s.write_through);
  EXPECT_EQ(s.random_ratio, 100U);
  EXPECT_EQ(s.Alignment(), 8 * kKiB);
  EXPECT_EQ(s.write_ratio, 25U);
  EXPECT_TRUE(s.latency);
  EXPECT_EQ(s.write_data, DiskspdWriteData::kRandomBuffer);
  EXPECT_EQ(s.write_buffer_size, kGiB);
  EXPECT_TRUE(s.create);
  EXPECT_EQ(s.create_size, 20 * kMiB);
  EXPECT_EQ(s.command_line, "diskspd -b8K -d2 -o4 -t8 -h -r -w25 -L -Z1G -c20M t.dat");
}

TEST(DiskspdSwitches, BlockUnitIsTheFinalBlockSizeWherever) {
  // DiskSpd reads -b first: `b` units use it even when -b comes later.
  DiskspdSwitches s = Parse({"-c8b", "-b4K", "-B2b:4b", "t.dat"});
  EXPECT_EQ(s.create_size, 32 * kKiB);
  EXPECT_EQ(s.base_offset, 8 * kKiB);
  EXPECT_EQ(s.max_offset, 24 * kKiB);
}

TEST(DiskspdSwitches, RandomSequentialAndMixed) {
  EXPECT_EQ(Parse({"-r4K", "t"}).Alignment(), 4 * kKiB);
  DiskspdSwitches mixed = Parse({"-rs30", "-r8K", "t"});
  EXPECT_EQ(mixed.random_ratio, 30U);
  EXPECT_EQ(mixed.Alignment(), 8 * kKiB);
  DiskspdSwitches seq = Parse({"-si", "-t4", "t"});
  EXPECT_TRUE(seq.interlocked);
  EXPECT_EQ(seq.random_ratio, 0U);
  DiskspdSwitches stride = Parse({"-s128K", "-T1M", "-t2", "t"});
  EXPECT_EQ(stride.Alignment(), 128 * kKiB);
  EXPECT_EQ(stride.thread_stride, kMiB);
}

TEST(DiskspdSwitches, CacheFlags) {
  DiskspdSwitches su = Parse({"-Su", "t"});
  EXPECT_EQ(su.cache, DiskspdCache::kUnbuffered);
  EXPECT_FALSE(su.write_through);
  DiskspdSwitches bare = Parse({"-S", "t"});
  EXPECT_EQ(bare.cache, DiskspdCache::kUnbuffered);
  DiskspdSwitches sw = Parse({"-Sw", "t"});
  EXPECT_EQ(sw.cache, DiskspdCache::kCached);
  EXPECT_TRUE(sw.write_through);
  DiskspdSwitches suw = Parse({"-Swu", "t"});
  EXPECT_EQ(suw.cache, DiskspdCache::kUnbuffered);
  EXPECT_TRUE(suw.write_through);
  DiskspdSwitches sh = Parse({"-Sh", "t"});
  EXPECT_EQ(sh.cache, DiskspdCache::kUnbuffered);
  EXPECT_TRUE(sh.write_through);
}

TEST(DiskspdSwitches, TimesThroughputBurstsAndSeed) {
  DiskspdSwitches s =
      Parse({"-W0", "-d3", "-C2", "-D250", "-g100", "-i4", "-j10", "-z42", "-F3", "t1", "t2"});
  EXPECT_EQ(s.warmup_s, 0);
  EXPECT_EQ(s.duration_s, 3);
  EXPECT_EQ(s.cooldown_s, 2);
  EXPECT_TRUE(s.iops_stddev);
  EXPECT_EQ(s.bucket_ms, 250U);
  EXPECT_EQ(s.throughput_bytes_per_ms, 100U);
  EXPECT_EQ(s.burst, 4U);
  EXPECT_EQ(s.think_ms, 10U);
  EXPECT_EQ(s.seed, 42U);
  EXPECT_EQ(s.total_threads, 3);
  EXPECT_EQ(s.ThreadCount(), 3);
  EXPECT_EQ(Parse({"-g500i", "t"}).throughput_iops, 500U);
  EXPECT_EQ(Parse({"-D", "t"}).bucket_ms, 1000U);
  EXPECT_TRUE(Parse({"-z", "t"}).seed_from_clock);
}

TEST(DiskspdSwitches, WriteBuffers) {
  EXPECT_EQ(Parse({"-Z", "t"}).write_data, DiskspdWriteData::kZero);
  EXPECT_EQ(Parse({"-Zr", "t"}).write_data, DiskspdWriteData::kRandomPerIo);
  DiskspdSwitches f = Parse({"-Z1M,src.bin", "t"});
  EXPECT_EQ(f.write_data, DiskspdWriteData::kRandomBuffer);
  EXPECT_EQ(f.write_buffer_size, kMiB);
  EXPECT_EQ(f.write_buffer_file, "src.bin");
}

TEST(DiskspdSwitches, Distributions) {
  DiskspdSwitches p = Parse({"-r", "-rdpct90/10:10/90", "t"});
  EXPECT_EQ(p.distribution, DiskspdDistribution::kPercent);
  ASSERT_EQ(p.ranges.size(), 2U);
  EXPECT_EQ(p.ranges[0], (DiskspdRange{90, 10}));
  EXPECT_EQ(p.ranges[1], (DiskspdRange{10, 90}));
  DiskspdSwitches a = Parse({"-r", "-rdabs90/1G:10/2G", "t"});
  EXPECT_EQ(a.distribution, DiskspdDistribution::kAbsolute);
  ASSERT_EQ(a.ranges.size(), 2U);
  EXPECT_EQ(a.ranges[1], (DiskspdRange{10, 2 * kGiB}));
}

TEST(DiskspdSwitches, AffinityAsDiskspdWritesIt) {
  DiskspdSwitches plain = Parse({"-a", "t"});
  EXPECT_TRUE(plain.affinity_given);
  EXPECT_TRUE(plain.affinity.empty());  // DiskSpd's default round robin
  EXPECT_TRUE(Parse({"-ag", "t"}).affinity.empty());
  EXPECT_EQ(Parse({"-a0,1", "t"}).affinity, (std::vector<DiskspdAffinityCpu>{{0, 0}, {0, 1}}));
  // -ag<group>,<cpus>, groups switched inside, -a given twice adds.
  EXPECT_EQ(Parse({"-ag1,0,2,g0,3", "-a5", "t"}).affinity,
            (std::vector<DiskspdAffinityCpu>{{1, 0}, {1, 2}, {0, 3}, {0, 5}}));
  EXPECT_THAT(ErrorOf({"-a0,,1", "t"}), HasSubstr("affinity is -a, -ag"));
  EXPECT_THAT(ErrorOf({"-ag1", "t"}), HasSubstr("a group needs its CPUs"));
  EXPECT_THAT(ErrorOf({"-a256", "t"}), HasSubstr("'256' is not a CPU number (0 to 255)"));
  EXPECT_THAT(ErrorOf({"-ax", "t"}), HasSubstr("'x' is not a CPU number"));
  EXPECT_THAT(ErrorOf({"-n", "-a0", "t"}), HasSubstr("-n (no affinity) conflicts with -a"));
  EXPECT_TRUE(Parse({"-n", "t"}).disable_affinity);
}

TEST(DiskspdSwitches, AccessHints) {
  EXPECT_TRUE(Parse({"-fr", "t"}).hint_random);
  EXPECT_TRUE(Parse({"-fs", "t"}).hint_sequential);
  EXPECT_FALSE(Parse({"-fs", "t"}).hint_random);
  EXPECT_THAT(ErrorOf({"-fr", "-fs", "t"}), HasSubstr("give one access hint"));
  // -ft: taken (the plan says what it does on this platform), alone or with
  // another hint.
  EXPECT_TRUE(Parse({"-ft", "t"}).hint_temporary);
  EXPECT_FALSE(Parse({"-fr", "t"}).hint_temporary);
  const DiskspdSwitches rt = Parse({"-frt", "t"});
  EXPECT_TRUE(rt.hint_random);
  EXPECT_TRUE(rt.hint_temporary);
  EXPECT_THAT(ErrorOf({"-ftq", "t"}), HasSubstr("the hints of -f are r, s and t"));
  EXPECT_EQ(Parse({"-f1M", "t"}).max_offset, kMiB);  // -f<size> stays the largest offset
}

TEST(DiskspdSwitches, ResultsFormats) {
  EXPECT_FALSE(Parse({"-Rtext", "t"}).xml);
  EXPECT_TRUE(Parse({"-Rxml", "t"}).xml);
  DiskspdSwitches both = Parse({"-Rtext", "-Rxml:out.xml", "t"});
  EXPECT_FALSE(both.xml);
  EXPECT_EQ(both.xml_file, "out.xml");
}

TEST(DiskspdSwitches, RulesRefusedInOneLineNamingTheSwitch) {
  EXPECT_THAT(ErrorOf({"-F2", "-t2", "t"}), HasSubstr("-F and -t"));
  EXPECT_THAT(ErrorOf({"-rs", "t"}), HasSubstr("'-rs'"));
  EXPECT_THAT(ErrorOf({"-s", "-rs50", "t"}), HasSubstr("use -r to give the alignment"));
  EXPECT_THAT(ErrorOf({"-b4K", "t", "-r"}), HasSubstr("comes after a target"));
  EXPECT_THAT(ErrorOf({"-b4K"}), HasSubstr("at least one target"));
  EXPECT_THAT(ErrorOf({"-Q", "t"}), HasSubstr("unknown switch '-Q'"));
  EXPECT_TRUE(Parse({"-vs", "t"}).verbose_stats);
  EXPECT_FALSE(Parse({"-vs", "t"}).verbose);
  EXPECT_THAT(ErrorOf({"-vsx", "t"}), HasSubstr("verbose mode is -v or -vs"));
  EXPECT_TRUE(Parse({"-Sm", "-Nv", "t"}).memory_mapped);
  EXPECT_EQ(Parse({"-Sm", "-Nv", "t"}).mapped_flush, 'v');
  EXPECT_THAT(ErrorOf({"-Sm", "-Su", "t"}), HasSubstr("can't be used with memory mapped IO"));
  EXPECT_THAT(ErrorOf({"-g100", "-x", "t"}),
              HasSubstr("-g (throughput limit) cannot be used with -x"));
  EXPECT_THAT(ErrorOf({"-bfoo", "t"}), HasSubstr("'-bfoo'"));
  // -rs alone is DiskSpd's: the alignment is the block size.
  EXPECT_EQ(Parse({"-rs50", "t"}).random_ratio, 50U);
}

// -p: DiskSpd's parallel async I/O, sequential only, and its rules
// (Profile::Validate: -p with -r, -rs, -si or -O is refused).
TEST(DiskspdSwitches, ParallelAsyncIoIsSequentialOnly) {
  EXPECT_FALSE(Parse({"t"}).parallel_async);
  const DiskspdSwitches p = Parse({"-p", "-o8", "-s8K", "-t2", "-T1M", "t"});
  EXPECT_TRUE(p.parallel_async);
  EXPECT_EQ(p.random_ratio, 0U);
  EXPECT_EQ(p.Alignment(), 8 * kKiB);
  EXPECT_TRUE(Parse({"-p", "-o1", "t"}).parallel_async);  // DiskSpd only warns
  EXPECT_THAT(ErrorOf({"-p", "-r", "t"}), HasSubstr("-p conflicts with -r"));
  EXPECT_THAT(ErrorOf({"-r4K", "-p", "t"}), HasSubstr("-p conflicts with -r"));
  EXPECT_THAT(ErrorOf({"-p", "-rs30", "t"}), HasSubstr("-p conflicts with -r"));
  EXPECT_THAT(ErrorOf({"-p", "-si", "-t2", "t"}), HasSubstr("-si conflicts with -p"));
  EXPECT_THAT(ErrorOf({"-p", "-F2", "-O4", "t"}),
              HasSubstr("-p (parallel async I/O) cannot be used with -O"));
  EXPECT_THAT(ErrorOf({"-p2", "t"}), HasSubstr("unknown switch '-p2'"));
}

// -Sr: DiskSpd's cache mode "local cache off, remote cache on", one cache
// mode among -S, -Sb, -Su, -Sh; write-through may go with it.
TEST(DiskspdSwitches, RemoteCacheOnlyIsACacheMode) {
  const DiskspdSwitches r = Parse({"-Sr", "t"});
  EXPECT_TRUE(r.remote_cache_only);
  EXPECT_EQ(r.cache, DiskspdCache::kCached);  // the local cache is left to the open flags
  EXPECT_FALSE(Parse({"-Su", "t"}).remote_cache_only);
  const DiskspdSwitches rw = Parse({"-Srw", "t"});
  EXPECT_TRUE(rw.remote_cache_only);
  EXPECT_TRUE(rw.write_through);
  EXPECT_THAT(ErrorOf({"-Su", "-Sr", "t"}), HasSubstr("-Sr conflicts with an earlier cache mode"));
  EXPECT_THAT(ErrorOf({"-Sr", "-Sb", "t"}), HasSubstr("-Sb conflicts with an earlier cache mode"));
  EXPECT_THAT(ErrorOf({"-Sr", "-h", "t"}), HasSubstr("-h conflicts"));
  EXPECT_THAT(ErrorOf({"-Srm", "t"}),
              HasSubstr("the local cache off (-Sr) can't be used with memory mapped IO (-Sm)"));
}

// #N and E: are Windows' physical drive N and volume E:, in the names
// DiskSpd opens; any other target is a file.
std::string Drive(const std::string& target) {
  Result<std::string> r = DiskspdDriveTarget(target);
  EXPECT_OK(r);
  return r.ok() ? *r : "(refused)";
}

TEST(DiskspdDriveTarget, NamesDrivesAsWindowsOpensThem) {
  EXPECT_EQ(Drive("#0"), "\\\\.\\PhysicalDrive0");
  EXPECT_EQ(Drive("#12"), "\\\\.\\PhysicalDrive12");
  EXPECT_EQ(Drive("#007"), "\\\\.\\PhysicalDrive7");
  EXPECT_EQ(Drive("E:"), "\\\\.\\E:");
  EXPECT_EQ(Drive("z:"), "\\\\.\\z:");
  for (const char* file : {"#", "t.dat", "E:t.dat", "E:\\t.dat", "/dev/sdb", "1:", ""}) {
    EXPECT_EQ(Drive(file), "") << file;
  }
  for (const char* bad : {"#x", "#1x", "#-1", "#4294967296", "#99999999999"}) {
    Result<std::string> r = DiskspdDriveTarget(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
    EXPECT_THAT(r.status().message(), HasSubstr(std::string("target '") + bad + "'"));
    EXPECT_THAT(r.status().message(), HasSubstr("a physical drive is # and its number"));
  }
}

}  // namespace
}  // namespace loadcell::diskspd
