// The validity checks over facts given through their seam (CheckInput):
// each check's condition, its clean case, and "not checked" where a fact is
// missing. The binary tests (tests/integration/verdict_test.cpp) make the
// conditions happen for real.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "testing/temp_dir.h"
#include "validity/check.h"
#include "validity/thresholds.h"
#include "validity/verdict.h"

namespace loadcell::validity {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// `events` events of `latency_ns` each over `seconds` on `threads` threads.
RunResult ResultOf(uint64_t events, double seconds, uint64_t latency_ns = 1000000,
                   int threads = 1) {
  RunResult r;
  r.manifest.threads = threads;
  r.total_time_s = seconds;
  r.events = events;
  LatencyHistogram h;
  if (events > 0) h.RecordN(latency_ns, events);
  r.latency.push_back({"event", h});
  r.threads.resize(static_cast<size_t>(threads));
  FillDerivedFigures(r);
  return r;
}

// A direct random read with io_uring at depth 4 on one thread.
IoTargetFacts DirectRead() {
  IoTargetFacts t;
  t.engine = "io_uring";
  t.asynchronous = true;
  t.direct = true;
  t.queue_depth_asked = 4;
  t.queue_depth = 4;
  t.queue_depth_set = true;
  t.depth_option = "--file-queue-depth";
  t.threads = 1;
  t.reads = true;
  t.write_pattern = "random";
  t.file_set_bytes = 1ULL << 30;
  t.block_bytes = 4096;
  t.offset_align_bytes = 4096;
  t.dir = "/data";
  t.paths = {"/data/test_file.0"};
  return t;
}

// The host over a seen run of `wall_s`: loadcell's CPU time, the host's
// busy share.
HostWindow WindowOf(double wall_s, double process_cpu_s, double host_busy) {
  HostWindow w;
  w.known = true;
  w.wall_s = wall_s;
  w.process_cpu_s = process_cpu_s;
  w.host_busy_fraction = host_busy;
  return w;
}

DeviceWindow DeviceOf(const std::string& name, uint64_t read, uint64_t written,
                      std::vector<std::string> under = {}) {
  DeviceWindow d;
  d.device = name;
  d.read_bytes = read;
  d.written_bytes = written;
  d.under = std::move(under);
  return d;
}

// The figure `name` of `c`, or -1 when it has none.
double FigureOf(const CheckOutcome& c, const std::string& name) {
  for (const CheckFigure& f : c.figures) {
    if (f.name == name) return f.value;
  }
  return -1;
}

struct Case {
  RunResult result;
  WorkloadFacts facts;
  HostFacts host;
  std::vector<TargetEndFacts> targets;
  double percentile = 95;
  double report_interval_s = 0;

  std::optional<CheckOutcome> Run(CheckFn fn) const {
    CheckInput in{result, facts, host, targets, percentile, report_interval_s};
    return fn(in);
  }
};

Case IoCase(IoTargetFacts t, RunResult r) {
  Case c;
  c.result = std::move(r);
  c.facts.io.push_back(std::move(t));
  c.targets.resize(1);
  c.host.memory_bytes = 8ULL << 30;
  c.host.cpus = 4;
  return c;
}

// ---------------------------------------------------------------- cache

TEST(CacheCheckTest, BufferedReadsOfAFileSetSmallerThanMemoryAreInvalid) {
  IoTargetFacts t = DirectRead();
  t.direct = false;
  t.file_set_bytes = 1ULL << 30;  // 1 GiB against 8 GiB
  const std::optional<CheckOutcome> c = IoCase(t, ResultOf(1000, 10)).Run(&CheckCache);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->level, CheckLevel::kInvalid);
  EXPECT_THAT(c->seen, HasSubstr("1 GiB"));
  EXPECT_THAT(c->seen, HasSubstr("8 GiB"));
  EXPECT_THAT(c->advice, HasSubstr("--file-extra-flags=direct"));
}

// The advice names the options of the front end the user wrote (fio's,
// DiskSpd's, SQLIO's state their own), fileio's by default.
TEST(CacheCheckTest, TheAdviceIsInTheFrontEndsWords) {
  IoTargetFacts t = DirectRead();
  t.direct = false;
  t.file_set_bytes = 1ULL << 30;
  Case c = IoCase(t, ResultOf(1000, 10));
  c.facts.option_names.direct = "direct=1";
  c.facts.option_names.file_set_size = "size";
  const std::optional<CheckOutcome> out = c.Run(&CheckCache);
  ASSERT_TRUE(out.has_value());
  EXPECT_THAT(out->advice, HasSubstr("use direct=1, or a size of at least"));
  EXPECT_THAT(out->advice, Not(HasSubstr("--file")));
}

TEST(CacheCheckTest, BetweenOnceAndTwiceMemoryWarns) {
  IoTargetFacts t = DirectRead();
  t.direct = false;
  t.file_set_bytes = 12ULL << 30;
  EXPECT_EQ(IoCase(t, ResultOf(1000, 10)).Run(&CheckCache)->level, CheckLevel::kWarn);
}

TEST(CacheCheckTest, TheCgroupLimitIsTheMemoryWhenItIsLower) {
  IoTargetFacts t = DirectRead();
  t.direct = false;
  t.file_set_bytes = 4ULL << 30;
  Case c = IoCase(t, ResultOf(1000, 10));
  c.host.memory_bytes = 64ULL << 30;
  c.host.cgroup_limit_bytes = 1ULL << 30;
  const std::optional<CheckOutcome> out = c.Run(&CheckCache);
  EXPECT_EQ(out->level, CheckLevel::kPass);
  c.host.cgroup_limit_bytes = 4ULL << 30;
  EXPECT_EQ(c.Run(&CheckCache)->level, CheckLevel::kInvalid);
  EXPECT_THAT(c.Run(&CheckCache)->seen, HasSubstr("cgroup"));
}

TEST(CacheCheckTest, DirectReadsPassAndSaySo) {
  const std::optional<CheckOutcome> direct =
      IoCase(DirectRead(), ResultOf(1000, 10)).Run(&CheckCache);
  ASSERT_TRUE(direct.has_value());
  EXPECT_EQ(direct->level, CheckLevel::kPass);
  EXPECT_EQ(direct->seen, "direct I/O: the reads bypass the page cache");
  IoTargetFacts t = DirectRead();
  t.direct = false;
  t.file_set_bytes = 32ULL << 30;
  EXPECT_EQ(IoCase(t, ResultOf(1000, 10)).Run(&CheckCache)->level, CheckLevel::kPass);
}

TEST(CacheCheckTest, UnknownMemoryIsNotChecked) {
  IoTargetFacts t = DirectRead();
  t.direct = false;
  Case c = IoCase(t, ResultOf(1000, 10));
  c.host.memory_bytes = 0;
  EXPECT_EQ(c.Run(&CheckCache)->level, CheckLevel::kNotChecked);
}

// ---------------------------------------------------------------- device-reads

TEST(DeviceReadsCheckTest, BufferedReadsTheDeviceDidNotServeAreInvalid) {
  IoTargetFacts t = DirectRead();
  t.direct = false;
  Case c = IoCase(t, ResultOf(1000, 10));
  c.facts.io_bytes_read = 100ULL << 20;
  c.host.devices = {DeviceOf("vda1", 1ULL << 20, 0)};
  const std::optional<CheckOutcome> out = c.Run(&CheckDeviceReads);
  EXPECT_EQ(out->level, CheckLevel::kInvalid);
  EXPECT_THAT(out->seen, HasSubstr("the device (vda1) read 1 MiB of the 100 MiB"));
  c.host.devices = {DeviceOf("vda1", 90ULL << 20, 0)};
  EXPECT_EQ(c.Run(&CheckDeviceReads)->level, CheckLevel::kPass);
  // A pass says which devices were counted (two folders' devices summed).
  c.host.devices = {DeviceOf("vda1", 40ULL << 20, 0), DeviceOf("vdb", 50ULL << 20, 0)};
  const std::optional<CheckOutcome> pass = c.Run(&CheckDeviceReads);
  EXPECT_EQ(pass->level, CheckLevel::kPass);
  EXPECT_THAT(pass->seen, HasSubstr("the device (vda1, vdb) read 90 MiB of the 100 MiB"));
}

TEST(DeviceReadsCheckTest, AStackedDeviceNamesTheDisksUnderIt) {
  IoTargetFacts t = DirectRead();
  t.direct = false;
  Case c = IoCase(t, ResultOf(1000, 10));
  c.facts.io_bytes_read = 100ULL << 20;
  c.host.devices = {DeviceOf("dm-0", 0, 0, {"sda2", "sdb2"})};
  const std::optional<CheckOutcome> out = c.Run(&CheckDeviceReads);
  EXPECT_EQ(out->level, CheckLevel::kInvalid);
  EXPECT_THAT(out->seen, HasSubstr("the device (dm-0 (over sda2, sdb2)) read 0 bytes"));
}

TEST(DeviceReadsCheckTest, NoCountersAreNotCheckedDirectReadsDoNotConcernIt) {
  IoTargetFacts t = DirectRead();
  t.direct = false;
  Case c = IoCase(t, ResultOf(1000, 10));
  c.facts.io_bytes_read = 1 << 20;
  c.host.devices_unknown = "/data: no block device's counters behind it";
  const std::optional<CheckOutcome> out = c.Run(&CheckDeviceReads);
  EXPECT_EQ(out->level, CheckLevel::kNotChecked);
  EXPECT_THAT(out->seen, HasSubstr("no block device"));
  c.facts.io[0].direct = true;
  EXPECT_FALSE(c.Run(&CheckDeviceReads).has_value());
}

// The counters' own reason is the not-checked reason: a counter file the
// process may not read is named with the system's words, not taken for "no
// block device"; a device that changed during the run is named.
TEST(DeviceReadsCheckTest, TheReasonCountersWereNotReadIsTheirOwn) {
  DeviceCounters known;
  known.known = true;
  known.device = "sda1";
  DeviceCounters denied;
  denied.unknown = "cannot read /sys/class/block/sda1/stat: Permission denied";
  EXPECT_EQ(DeviceWindowUnknown("/data", known, known), "");
  EXPECT_EQ(DeviceWindowUnknown("/data", known, denied),
            "/data: cannot read /sys/class/block/sda1/stat: Permission denied");
  EXPECT_EQ(DeviceWindowUnknown("/data", denied, known),
            "/data: cannot read /sys/class/block/sda1/stat: Permission denied");
  DeviceCounters other = known;
  other.device = "sdb1";
  EXPECT_EQ(DeviceWindowUnknown("/data", known, other),
            "/data: its device changed during the run (sda1, then sdb1)");
  // A reading that gives no reason keeps the general one.
  EXPECT_EQ(DeviceWindowUnknown("/data", DeviceCounters{}, known),
            "/data: no block device's counters behind it");

  IoTargetFacts t = DirectRead();
  t.direct = false;
  Case c = IoCase(t, ResultOf(1000, 10));
  c.facts.io_bytes_read = 1 << 20;
  c.host.devices_unknown = DeviceWindowUnknown("/data", known, denied);
  const std::optional<CheckOutcome> out = c.Run(&CheckDeviceReads);
  EXPECT_EQ(out->level, CheckLevel::kNotChecked);
  EXPECT_THAT(out->seen, HasSubstr("Permission denied"));
  EXPECT_THAT(out->seen, Not(HasSubstr("no block device")));
}

// ---------------------------------------------------------------- device-writes

// Buffered random writes of 4 KiB on one thread.
IoTargetFacts BufferedWrite() {
  IoTargetFacts t = DirectRead();
  t.direct = false;
  t.reads = false;
  t.writes = true;
  return t;
}

TEST(DeviceWritesCheckTest, WritesTheDeviceDidNotMakeWarnWithThePageCachesDirtyBytes) {
  Case c = IoCase(BufferedWrite(), ResultOf(1000, 10));
  c.facts.io_bytes_written = 64ULL << 20;
  c.host.devices = {DeviceOf("loop3", 0, 1ULL << 20)};
  c.host.dirty_known = true;
  c.host.dirty_bytes_end = 60ULL << 20;
  c.host.writeback_bytes_end = 2ULL << 20;
  const std::optional<CheckOutcome> out = c.Run(&CheckDeviceWrites);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("the device (loop3) wrote 1 MiB of the 64 MiB the run wrote"));
  EXPECT_THAT(out->seen, HasSubstr("62 MiB of the host's page cache was dirty or under writeback"));
  EXPECT_THAT(out->advice, HasSubstr("--file-fsync-freq"));
  // Flushed: the device wrote what the run did.
  c.host.devices = {DeviceOf("loop3", 0, 65ULL << 20)};
  EXPECT_EQ(c.Run(&CheckDeviceWrites)->level, CheckLevel::kPass);
}

TEST(DeviceWritesCheckTest, NoCountersAreNotCheckedDirectAndReadRunsDoNotConcernIt) {
  Case c = IoCase(BufferedWrite(), ResultOf(1000, 10));
  c.facts.io_bytes_written = 1 << 20;
  c.host.devices_unknown = "/data: no block device's counters behind it";
  EXPECT_EQ(c.Run(&CheckDeviceWrites)->level, CheckLevel::kNotChecked);
  c.facts.io[0].direct = true;
  EXPECT_FALSE(c.Run(&CheckDeviceWrites).has_value());
  EXPECT_FALSE(IoCase(DirectRead(), ResultOf(1000, 10)).Run(&CheckDeviceWrites).has_value());
}

// ---------------------------------------------------------------- unwritten-data

TEST(UnwrittenDataCheckTest, HolesInTheFilesReadAreInvalid) {
  Case c = IoCase(DirectRead(), ResultOf(1000, 10));
  c.targets[0].hole_bytes = 1ULL << 20;
  const std::optional<CheckOutcome> out = c.Run(&CheckUnwrittenData);
  EXPECT_EQ(out->level, CheckLevel::kInvalid);
  EXPECT_THAT(out->seen, HasSubstr("1 MiB"));
  c.targets[0].hole_bytes = 0;
  EXPECT_EQ(c.Run(&CheckUnwrittenData)->level, CheckLevel::kPass);
}

TEST(UnwrittenDataCheckTest, AFileSystemThatCannotTellIsNotChecked) {
  Case c = IoCase(DirectRead(), ResultOf(1000, 10));
  c.targets[0].holes_unknown = "the file system does not report holes";
  const std::optional<CheckOutcome> out = c.Run(&CheckUnwrittenData);
  EXPECT_EQ(out->level, CheckLevel::kNotChecked);
  EXPECT_THAT(out->seen, HasSubstr("does not report holes"));
}

TEST(UnwrittenDataCheckTest, UnwrittenExtentsAreInvalidAndCountOnceWithHoles) {
  Case c = IoCase(DirectRead(), ResultOf(1000, 10));
  c.facts.io[0].file_set_bytes = 4ULL << 20;
  // 3 MiB fallocated and never written, 1 MiB of it also seen as a hole.
  c.targets[0].hole_bytes = 1ULL << 20;
  c.targets[0].unwritten_bytes = 3ULL << 20;
  c.targets[0].never_written_bytes = 3ULL << 20;
  const std::optional<CheckOutcome> out = c.Run(&CheckUnwrittenData);
  EXPECT_EQ(out->level, CheckLevel::kInvalid);
  EXPECT_THAT(out->seen, HasSubstr("3 MiB of the 4 MiB read were never written: 3 MiB in "
                                   "unwritten extents"));
  EXPECT_THAT(out->seen, HasSubstr("1 MiB reported as holes"));
  EXPECT_THAT(out->advice, HasSubstr("fallocated"));
  EXPECT_EQ(FigureOf(*out, "unwritten_bytes"), 3.0 * (1 << 20));
  EXPECT_EQ(FigureOf(*out, "never_written_bytes"), 3.0 * (1 << 20));
}

TEST(UnwrittenDataCheckTest, ExtentsNotReadLeaveTheHolesToJudgeAndSaySo) {
  Case c = IoCase(DirectRead(), ResultOf(1000, 10));
  c.targets[0].unwritten_unknown = "/data/test_file.0: the file system gives no extent map";
  const std::optional<CheckOutcome> out = c.Run(&CheckUnwrittenData);
  EXPECT_EQ(out->level, CheckLevel::kPass);
  EXPECT_THAT(out->seen, HasSubstr("unwritten extents not read"));
  c.targets[0].hole_bytes = 1ULL << 20;
  EXPECT_EQ(c.Run(&CheckUnwrittenData)->level, CheckLevel::kInvalid);
}

// Nothing in the allocation, but sampled pages of zeros (a file laid out
// by SetEndOfFile, read past its valid data length; zeros written): warn,
// naming the files; holes found as well stay invalid, with the figures.
TEST(UnwrittenDataCheckTest, ZeroPagesWithoutHolesWarnAndNameTheFiles) {
  Case c = IoCase(DirectRead(), ResultOf(1000, 10));
  c.targets[0].sampled_pages = 64;
  c.targets[0].zero_pages = 16;
  c.targets[0].zero_page_files = {"/data/test_file.0", "/data/test_file.1", "/data/test_file.2",
                                  "/data/test_file.3", "/data/test_file.4"};
  std::optional<CheckOutcome> out = c.Run(&CheckUnwrittenData);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("16 of 64 pages sampled from the files read hold only zeros "
                                   "(/data/test_file.0, /data/test_file.1, /data/test_file.2 and "
                                   "2 more)"));
  EXPECT_THAT(out->seen, HasSubstr("valid data length"));
  EXPECT_THAT(out->advice, HasSubstr("write the files first"));
  EXPECT_EQ(FigureOf(*out, "zero_pages"), 16);
  EXPECT_EQ(FigureOf(*out, "sampled_pages"), 64);
  c.targets[0].hole_bytes = 1ULL << 20;
  out = c.Run(&CheckUnwrittenData);
  EXPECT_EQ(out->level, CheckLevel::kInvalid);
  EXPECT_EQ(FigureOf(*out, "zero_pages"), 16);
  // Holes not read (a system that cannot tell): the zero pages still warn,
  // saying so; without them it is not checked.
  c.targets[0].hole_bytes = 0;
  c.targets[0].holes_unknown = "the file system does not report holes";
  out = c.Run(&CheckUnwrittenData);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("; holes not read: the file system does not report holes"));
  c.targets[0].zero_pages = 0;
  out = c.Run(&CheckUnwrittenData);
  EXPECT_EQ(out->level, CheckLevel::kNotChecked);
  EXPECT_EQ(FigureOf(*out, "sampled_pages"), 64);
  EXPECT_EQ(FigureOf(*out, "zero_pages"), 0);
  c.targets[0].holes_unknown.clear();
  // No zero page sampled: passes, with the figures.
  c.targets[0].zero_pages = 0;
  c.targets[0].zero_page_files.clear();
  out = c.Run(&CheckUnwrittenData);
  EXPECT_EQ(out->level, CheckLevel::kPass);
  EXPECT_EQ(FigureOf(*out, "sampled_pages"), 64);
}

// ---------------------------------------------------------------- write-data

TEST(WriteDataCheckTest, ZerosWarnRandomPasses) {
  IoTargetFacts t = DirectRead();
  t.writes = true;
  t.write_pattern = "zero";
  const std::optional<CheckOutcome> out = IoCase(t, ResultOf(1000, 10)).Run(&CheckWriteData);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->advice, HasSubstr("--file-write-pattern=random"));
  t.write_pattern = "random";
  EXPECT_EQ(IoCase(t, ResultOf(1000, 10)).Run(&CheckWriteData)->level, CheckLevel::kPass);
  // Reads only: not concerned.
  EXPECT_FALSE(IoCase(DirectRead(), ResultOf(1000, 10)).Run(&CheckWriteData).has_value());
}

TEST(WriteDataCheckTest, EstimatedCompressibleOrRepeatedWritesWarn) {
  IoTargetFacts t = DirectRead();
  t.writes = true;
  t.write_pattern = "random";
  t.write_compressible_fraction = 0.5;  // fio's buffer_compress_percentage=50
  t.write_duplicate_fraction = 0;
  std::optional<CheckOutcome> out = IoCase(t, ResultOf(1000, 10)).Run(&CheckWriteData);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("50%"));
  t.write_compressible_fraction = 0;
  t.write_duplicate_fraction = 0.3;  // dedupe_percentage=30
  out = IoCase(t, ResultOf(1000, 10)).Run(&CheckWriteData);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("30% of the blocks"));
  // In the words of the front end that ran (DiskSpd's pattern by default).
  Case diskspd = IoCase(t, ResultOf(1000, 10));
  diskspd.facts.option_names.random_data = "random buffers (-Zr)";
  EXPECT_EQ(diskspd.Run(&CheckWriteData)->advice,
            "write random buffers (-Zr) unless that storage's savings are what is measured");
  t.write_duplicate_fraction = 0.01;
  EXPECT_EQ(IoCase(t, ResultOf(1000, 10)).Run(&CheckWriteData)->level, CheckLevel::kPass);
}

TEST(WriteDataCheckTest, TheTargetsOwnCompressionIsInTheEvidence) {
  IoTargetFacts t = DirectRead();
  t.writes = true;
  t.write_pattern = "zero";
  Case c = IoCase(t, ResultOf(1000, 10));
  c.targets[0].storage_compresses = 1;
  c.targets[0].savings = "btrfs mounted with compress=zstd:3";
  std::optional<CheckOutcome> out = c.Run(&CheckWriteData);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("; the target compresses: btrfs mounted with compress=zstd:3"));
  EXPECT_EQ(FigureOf(*out, "target_compresses"), 1);
  // Random data on it: still a pass, the compression stated.
  c.facts.io[0].write_pattern = "random";
  out = c.Run(&CheckWriteData);
  EXPECT_EQ(out->level, CheckLevel::kPass);
  EXPECT_THAT(out->seen, HasSubstr("the target compresses (btrfs mounted with compress=zstd:3)"));
  // A file system that does not compress: zeros still warn (a device or an
  // array under it may), and say so.
  c.facts.io[0].write_pattern = "zero";
  c.targets[0].storage_compresses = 0;
  c.targets[0].savings = "ext4: does not compress";
  out = c.Run(&CheckWriteData);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("the file system does not compress (ext4: does not compress), "
                                   "a device or array under it may"));
  EXPECT_EQ(FigureOf(*out, "target_compresses"), 0);
  // Nothing said: no figure.
  c.targets[0].storage_compresses = -1;
  EXPECT_EQ(FigureOf(*c.Run(&CheckWriteData), "target_compresses"), -1);
}

// ---------------------------------------------------------------- samples

TEST(SamplesCheckTest, APercentileFromTooFewEventsWarns) {
  Case c;
  c.result = ResultOf(2000, 1);
  c.percentile = 99.99;
  const std::optional<CheckOutcome> out = c.Run(&CheckSamples);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("99.99th percentile rests on 0.2 events"));
  EXPECT_THAT(out->advice, HasSubstr("100000 events"));
  c.percentile = 95;  // 100 events beyond it
  EXPECT_EQ(c.Run(&CheckSamples)->level, CheckLevel::kPass);
}

TEST(SamplesCheckTest, ARunShorterThanTwoIntervalsWarns) {
  Case c;
  c.result = ResultOf(100000, 3);
  c.report_interval_s = 5;
  const std::optional<CheckOutcome> out = c.Run(&CheckSamples);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("--report-interval=5"));
  c.report_interval_s = 1;
  EXPECT_EQ(c.Run(&CheckSamples)->level, CheckLevel::kPass);
}

// A front end whose intervals no option sets (fio's 0.5 s samples) is told
// to run longer, not to use an option it does not have.
TEST(SamplesCheckTest, IntervalsOfAFrontEndWithoutTheOptionNameNone) {
  Case c;
  c.result = ResultOf(100000, 0.6);
  c.report_interval_s = 0.5;
  c.facts.option_names.report_interval = "";
  const std::optional<CheckOutcome> out = c.Run(&CheckSamples);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("shorter than 2 intervals of 0.5s"));
  EXPECT_EQ(out->advice, "run at least 1s (--time, --events)");
}

// A warm-up too long for the measured time, in DiskSpd's words (-W, -d).
TEST(SamplesCheckTest, TheWarmUpAndRunLengthAreTheFrontEndsOptions) {
  Case c;
  c.result = ResultOf(100000, 2);
  c.result.manifest.warmup_s = 5;
  c.facts.option_names.run_length = "-d";
  c.facts.option_names.warm_up = "-W";
  const std::optional<CheckOutcome> out = c.Run(&CheckSamples);
  ASSERT_TRUE(out.has_value());
  EXPECT_THAT(out->seen, HasSubstr("shorter than its -W=5"));
  EXPECT_EQ(out->advice, "measure at least 5s after the warm-up (-d)");
}

TEST(SamplesCheckTest, AMeasureShorterThanItsWarmUpWarns) {
  // --events ended the run 2 s after a 10 s warm-up.
  Case c;
  c.result = ResultOf(100000, 2);
  c.result.manifest.warmup_s = 10;
  const std::optional<CheckOutcome> out = c.Run(&CheckSamples);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("measured 2.00s, shorter than its --warmup-time=10"));
  EXPECT_THAT(out->advice, HasSubstr("at least 10s after the warm-up"));
  bool warmup_figure = false;
  for (const CheckFigure& f : out->figures) warmup_figure |= f.name == "warmup_s" && f.value == 10;
  EXPECT_TRUE(warmup_figure);
  // As long as its warm-up, or no warm-up at all: passes.
  c.result.total_time_s = 10;
  EXPECT_EQ(c.Run(&CheckSamples)->level, CheckLevel::kPass);
  c.result.total_time_s = 2;
  c.result.manifest.warmup_s = 0;
  EXPECT_EQ(c.Run(&CheckSamples)->level, CheckLevel::kPass);
}

TEST(SamplesCheckTest, NoEventIsInvalid) {
  Case c;
  c.result = ResultOf(0, 1);
  EXPECT_EQ(c.Run(&CheckSamples)->level, CheckLevel::kInvalid);
}

// ---------------------------------------------------------------- steady-state

IntervalSnapshot Interval(uint64_t events) {
  IntervalSnapshot s;
  s.duration_s = 1;
  s.events = events;
  return s;
}

TEST(SteadyStateCheckTest, DriftBetweenThirdsWarns) {
  Case c;
  c.result = ResultOf(1000, 6);
  c.report_interval_s = 1;
  for (uint64_t e : {1000, 1000, 900, 800, 500, 500}) c.result.intervals.push_back(Interval(e));
  const std::optional<CheckOutcome> out = c.Run(&CheckSteadyState);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("1000.00/s"));
  EXPECT_THAT(out->seen, HasSubstr("500.00/s"));
  c.result.intervals.clear();
  for (uint64_t e : {1000, 990, 1010, 1000, 995, 1005}) c.result.intervals.push_back(Interval(e));
  EXPECT_EQ(c.Run(&CheckSteadyState)->level, CheckLevel::kPass);
}

// Thirds within 20% of each other, so only the windows moved over the
// intervals (the SNIA PTS rule) can warn. Interval i ends at i + 1 s.
Case SteadyCase(const std::vector<uint64_t>& events) {
  Case c;
  c.result = ResultOf(1000, static_cast<double>(events.size()));
  c.report_interval_s = 1;
  for (const uint64_t e : events) {
    c.result.intervals.push_back(Interval(e));
    c.result.intervals.back().t_end_s = static_cast<double>(c.result.intervals.size());
  }
  return c;
}

TEST(SteadyStateCheckTest, NoWindowAtTheEndWithinAFifthOfItsAverageWarns) {
  // The windows ending at the last interval and the one before: 6-11 s
  // (1150, 900, 1100, 880, 1050: mean 1016, range 270, 27%; slope excursion
  // 88, 9%) and 5-10 s (1000, 1150, 900, 1100, 880: range 27% of 1006,
  // excursion 116, 12%); the first lies nearer the rule. Thirds 1000, 1010.
  const Case c = SteadyCase({1000, 1000, 1000, 1000, 1000, 1000, 1150, 900, 1100, 880, 1050});
  const std::optional<CheckOutcome> out = c.Run(&CheckSteadyState);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("no window of 5 intervals at the end met the SNIA PTS rule: "
                                   "the nearest, 6.0-11.0s, ranged over 27% of its 1016.00/s"));
  EXPECT_EQ(FigureOf(*out, "window_from_s"), 6);
  EXPECT_EQ(FigureOf(*out, "window_to_s"), 11);
  EXPECT_NEAR(FigureOf(*out, "window_range"), 270.0 / 1016, 1e-9);
  EXPECT_NEAR(FigureOf(*out, "window_slope"), 88.0 / 1016, 1e-9);
}

TEST(SteadyStateCheckTest, AnEndThatClimbsBeyondATenthOfItsAverageWarns) {
  // 900 to 1100 by 40 over the last 6: both end windows' lines move 160,
  // 16% of 980 and of 1020. Thirds 1000 and 1060 (6%).
  const Case c = SteadyCase({1000, 1000, 1000, 1000, 1000, 900, 940, 980, 1020, 1060, 1100});
  const std::optional<CheckOutcome> out = c.Run(&CheckSteadyState);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("6.0-11.0s, had its fitted line move 16% of its 1020.00/s"));
  // A slower climb, 980 to 1020 by 10 (4%), is steady.
  const Case slow = SteadyCase({1000, 1000, 1000, 1000, 1000, 1000, 980, 990, 1000, 1010, 1020});
  const std::optional<CheckOutcome> steady = slow.Run(&CheckSteadyState);
  EXPECT_EQ(steady->level, CheckLevel::kPass);
  EXPECT_NEAR(FigureOf(*steady, "window_slope"), 0.04, 1e-9);
  EXPECT_NEAR(FigureOf(*steady, "window_range"), 0.04, 1e-9);
}

TEST(SteadyStateCheckTest, ARunThatSettlesLateIsSteadyOverItsLastWindow) {
  // Wide swings (range 40%) until 7 s, then within 2%: the last window,
  // 7-12 s, meets the rule; thirds 1000 and 1000.
  const Case c = SteadyCase({1200, 800, 1200, 800, 1200, 800, 1200, 1000, 990, 1010, 1000, 1000});
  const std::optional<CheckOutcome> out = c.Run(&CheckSteadyState);
  EXPECT_EQ(out->level, CheckLevel::kPass);
  EXPECT_EQ(FigureOf(*out, "window_from_s"), 7);
  EXPECT_EQ(FigureOf(*out, "window_to_s"), 12);
  EXPECT_NEAR(FigureOf(*out, "window_range"), 0.02, 1e-9);
}

TEST(SteadyStateCheckTest, OneDisturbedLastIntervalLeavesTheWindowBeforeIt) {
  // Steady at 1000 but for a last interval at 700: the window ending one
  // before the last (4-9 s) meets the rule; thirds 1000 and 900 (10%).
  const Case c = SteadyCase({1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 700});
  const std::optional<CheckOutcome> out = c.Run(&CheckSteadyState);
  EXPECT_EQ(out->level, CheckLevel::kPass);
  EXPECT_EQ(FigureOf(*out, "window_from_s"), 4);
  EXPECT_EQ(FigureOf(*out, "window_to_s"), 9);
  // Two disturbed intervals (800) are no longer the end's slack: both end
  // windows range over more than 20% (200 of 960, of 920).
  const Case two = SteadyCase({1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 800, 800});
  const std::optional<CheckOutcome> moved = two.Run(&CheckSteadyState);
  EXPECT_EQ(moved->level, CheckLevel::kWarn);
  EXPECT_THAT(moved->seen, HasSubstr("no window of 5 intervals at the end met the SNIA PTS rule"));
}

TEST(SteadyStateCheckTest, ARunNeverSteadyWarnsWithoutAnEarlierWindow) {
  // Swings of 400 throughout: no window anywhere meets the rule; the
  // nearest ranges over 400 of 1040 (38%).
  const Case c = SteadyCase({1200, 800, 1200, 800, 1200, 800, 1200, 800, 1200, 800, 1200, 800});
  const std::optional<CheckOutcome> out = c.Run(&CheckSteadyState);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("ranged over 38%"));
  EXPECT_THAT(out->seen, Not(HasSubstr("it was steady")));
  bool earlier = false;
  for (const CheckFigure& f : out->figures) earlier |= f.name == "steady_window_from_s";
  EXPECT_FALSE(earlier);
}

TEST(SteadyStateCheckTest, ARunSteadyEarlyThenDriftingWarnsAndNamesTheSteadyWindow) {
  // Flat at 1000 for 6 s, then up by 50 a second: thirds 1000 and 1225
  // (18%, within 20%), but the end's windows climb 17%; the latest steady
  // window is 3-8 s (1000, 1000, 1000, 1050, 1100: range and line 10%).
  const Case c =
      SteadyCase({1000, 1000, 1000, 1000, 1000, 1000, 1050, 1100, 1150, 1200, 1250, 1300});
  const std::optional<CheckOutcome> out = c.Run(&CheckSteadyState);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("(it was steady over 3.0-8.0s, then moved)"));
  EXPECT_EQ(FigureOf(*out, "steady_window_from_s"), 3);
  EXPECT_EQ(FigureOf(*out, "steady_window_to_s"), 8);
}

TEST(SteadyStateCheckTest, TooFewIntervalsAreNotChecked) {
  Case c;
  c.result = ResultOf(1000, 2);
  EXPECT_EQ(c.Run(&CheckSteadyState)->level, CheckLevel::kNotChecked);
  c.report_interval_s = 1;
  c.result.intervals = {Interval(1), Interval(2)};
  const std::optional<CheckOutcome> out = c.Run(&CheckSteadyState);
  EXPECT_EQ(out->level, CheckLevel::kNotChecked);
  EXPECT_THAT(out->seen, HasSubstr("2 intervals"));
}

TEST(SteadyStateCheckTest, NoIntervalsNameTheFrontEndsOptionOrNone) {
  Case c;
  c.result = ResultOf(1000, 2);
  EXPECT_EQ(c.Run(&CheckSteadyState)->seen, "no interval figures to compare (--report-interval)");
  c.facts.option_names.report_interval = "";  // DiskSpd, dbsim
  EXPECT_EQ(c.Run(&CheckSteadyState)->seen, "no interval figures to compare");
}

// ---------------------------------------------------------------- warm-up

TEST(WarmUpCheckTest, AFirstIntervalFarFromTheRestWarns) {
  Case c;
  c.result = ResultOf(1000, 5);
  c.report_interval_s = 1;
  for (uint64_t e : {3000, 1000, 1010, 990, 1000}) c.result.intervals.push_back(Interval(e));
  for (IntervalSnapshot& s : c.result.intervals) FillDerivedFigures(s);
  const std::optional<CheckOutcome> out = c.Run(&CheckWarmUp);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("3000.00/s, 3.00x the median"));
  EXPECT_THAT(out->advice, HasSubstr("--warmup-time"));
  c.result.intervals[0] = Interval(1100);
  FillDerivedFigures(c.result.intervals[0]);
  EXPECT_EQ(c.Run(&CheckWarmUp)->level, CheckLevel::kPass);
  c.result.intervals.resize(3);  // too few: steady-state says so
  EXPECT_FALSE(c.Run(&CheckWarmUp).has_value());
}

// ---------------------------------------------------------------- client-cpu

TEST(ClientCpuCheckTest, AWorkerThreadBusyAllTheTimeWarns) {
  Case c = IoCase(DirectRead(), ResultOf(1000, 10, 1000000, 2));
  c.host.window = WindowOf(10, 19, 0.5);  // 95% of two threads
  const std::optional<CheckOutcome> out = c.Run(&CheckClientCpu);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("95%"));
  c.host.window.process_cpu_s = 2;
  EXPECT_EQ(c.Run(&CheckClientCpu)->level, CheckLevel::kPass);
}

// One of four workers saturated, the others idle: the process' average
// (1.14 of 4 threads' time, 29%) hides it; each thread's own CPU time
// names it.
TEST(ClientCpuCheckTest, OneSaturatedWorkerAmongIdleOnesWarnsNamingIt) {
  Case c = IoCase(DirectRead(), ResultOf(1000, 10, 1000000, 4));
  c.host.window = WindowOf(10, 11.4, 0.3);
  const double shares[] = {0.05, 0.05, 0.99, 0.05};
  for (size_t i = 0; i < 4; ++i) {
    c.result.threads[i].cpu_time_s = shares[i] * 10;
    c.result.threads[i].run_time_s = 10;
  }
  std::optional<CheckOutcome> out = c.Run(&CheckClientCpu);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("worker thread 2 of 4 used 99% of its wall time in CPU (the "
                                   "others 5% at most)"));
  EXPECT_EQ(FigureOf(*out, "busiest_worker"), 2);
  EXPECT_DOUBLE_EQ(FigureOf(*out, "busiest_worker_cpu"), 0.99);
  EXPECT_DOUBLE_EQ(FigureOf(*out, "other_workers_cpu_max"), 0.05);
  EXPECT_LT(FigureOf(*out, "cpu_per_thread"), kClientBusyFraction);
  // The busiest at 80%: passes, with the figures.
  c.result.threads[2].cpu_time_s = 8;
  out = c.Run(&CheckClientCpu);
  EXPECT_EQ(out->level, CheckLevel::kPass);
  EXPECT_EQ(FigureOf(*out, "busiest_worker"), 2);
  // ... and waiting for a CPU another 15% (a busy host): it wanted one
  // 95% of its time, which the client then sets the pace of.
  c.result.threads[2].cpu_wait_s = 1.5;
  out = c.Run(&CheckClientCpu);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("worker thread 2 of 4 wanted a CPU 95% of its wall time (ran "
                                   "80%, waited for one 15%; the others 5% at most)"));
  EXPECT_DOUBLE_EQ(FigureOf(*out, "busiest_worker_wanting_cpu"), 0.95);
  // A thread's CPU time above its wall time is not its own (Wine's
  // GetThreadTimes): no thread's figure is used, the average decides.
  c.result.threads[2].cpu_time_s = 9.9;
  c.result.threads[0].cpu_time_s = 31;
  out = c.Run(&CheckClientCpu);
  EXPECT_EQ(out->level, CheckLevel::kPass);
  EXPECT_EQ(FigureOf(*out, "busiest_worker"), -1);
}

TEST(ClientCpuCheckTest, ThreadsBeyondTheCpusCountTheCpus) {
  Case c = IoCase(DirectRead(), ResultOf(1000, 10, 1000000, 64));
  c.host.cpus = 2;
  c.host.window = WindowOf(10, 19.5, 1.0);  // both CPUs busy, each thread 3%
  const std::optional<CheckOutcome> out = c.Run(&CheckClientCpu);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("of the 2 CPUs"));
}

TEST(ClientCpuCheckTest, MoreThreadsThanCpusOnAFullyBusyHostWarn) {
  // 64 threads on 2 CPUs, loadcell 45% of them, the host 100% busy (other
  // processes took the rest): the threads queued for a CPU.
  Case c = IoCase(DirectRead(), ResultOf(1000, 10, 1000000, 64));
  c.host.cpus = 2;
  c.host.window = WindowOf(10, 9, 1.0);
  const std::optional<CheckOutcome> out = c.Run(&CheckClientCpu);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("64 worker threads shared 2 CPUs that were 100% busy"));
  EXPECT_THAT(out->seen, HasSubstr("own share 45%"));
  // A host with CPU to spare, or no more threads than CPUs, or a busy
  // share the system does not state: not this warning.
  c.host.window.host_busy_fraction = 0.85;
  EXPECT_EQ(c.Run(&CheckClientCpu)->level, CheckLevel::kPass);
  c.host.window.host_busy_fraction = -1;
  EXPECT_EQ(c.Run(&CheckClientCpu)->level, CheckLevel::kPass);
  c.host.window.host_busy_fraction = 1.0;
  c.host.cpus = 64;
  EXPECT_EQ(c.Run(&CheckClientCpu)->level, CheckLevel::kPass);
}

// Workers on CPUs 1 and 3 of 4: their busy share is read from /proc/stat's
// lines of those CPUs (the seam: a stat file of the test's own), not from
// the host's line, which the two idle CPUs halve.
TEST(ClientCpuCheckTest, TheWorkersCpusBusyShareIsTheirsNotTheHosts) {
  testing::TempDir root;
  const std::string start = root.Write("start",
                                       "cpu  400 0 400 3200 0 0 0 0 0 0\n"
                                       "cpu0 100 0 100 800 0 0 0 0 0 0\n"
                                       "cpu1 100 0 100 800 0 0 0 0 0 0\n"
                                       "cpu2 100 0 100 800 0 0 0 0 0 0\n"
                                       "cpu3 100 0 100 800 0 0 0 0 0 0\n");
  // Then CPUs 1 and 3 busy for 1000 ticks (user, system, irq, softirq),
  // CPUs 0 and 2 idle.
  const std::string end = root.Write("end",
                                     "cpu  1600 0 1000 5200 0 100 100 0 0 0\n"
                                     "cpu0 100 0 100 1800 0 0 0 0 0 0\n"
                                     "cpu1 700 0 400 800 0 50 50 0 0 0\n"
                                     "cpu2 100 0 100 1800 0 0 0 0 0 0\n"
                                     "cpu3 700 0 400 800 0 50 50 0 0 0\n");
  const std::vector<int> workers = WorkerCpuSubset({1, 3}, {0, 1, 2, 3}, 4);
  ASSERT_EQ(workers, (std::vector<int>{1, 3}));
  const HostCpuTimes a = CpuTimesOf(ReadPerCpuTimes(start), workers);
  const HostCpuTimes b = CpuTimesOf(ReadPerCpuTimes(end), workers);
  ASSERT_TRUE(a.known && b.known);
  EXPECT_EQ(b.busy - a.busy, 2000u);
  EXPECT_EQ(b.total - a.total, 2000u);
  const HostCpuTimes host_a = ReadHostCpuTimes(start);
  const HostCpuTimes host_b = ReadHostCpuTimes(end);
  EXPECT_EQ(host_b.busy - host_a.busy, 2000u);  // the host's: half busy
  EXPECT_EQ(host_b.total - host_a.total, 4000u);
  // A CPU the file does not list: unknown.
  EXPECT_FALSE(CpuTimesOf(ReadPerCpuTimes(end), {1, 7}).known);
  // The process' affinity when nothing is pinned; every CPU: the host's.
  EXPECT_EQ(WorkerCpuSubset({}, {0, 2}, 4), (std::vector<int>{0, 2}));
  EXPECT_TRUE(WorkerCpuSubset({}, {0, 1, 2, 3}, 4).empty());
  EXPECT_TRUE(WorkerCpuSubset({}, {}, 4).empty());

  // 8 threads on those 2 CPUs, fully busy: the warning says whose CPUs.
  Case c = IoCase(DirectRead(), ResultOf(1000, 10, 1000000, 8));
  c.host.cpus = 2;
  c.host.window = WindowOf(10, 4, static_cast<double>(b.busy - a.busy) / (b.total - a.total));
  c.host.window.host_busy_cpus = 2;
  const std::optional<CheckOutcome> out = c.Run(&CheckClientCpu);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("8 worker threads shared 2 CPUs (theirs, not the whole "
                                   "host's) that were 100% busy"));
  EXPECT_EQ(FigureOf(*out, "host_busy_cpus"), 2);
  EXPECT_EQ(FigureOf(*out, "host_busy"), 1);
}

// Jobs run at once (fio's jobs of a group, dbsim's users): the process'
// CPU time is all of theirs, shared over all their threads, not one job's.
TEST(ClientCpuCheckTest, ConcurrentJobsShareTheProcessCpuOverAllTheirThreads) {
  // One job of 1 thread among jobs of 4 threads in all on 4 CPUs; the
  // process used 1.6 CPUs: 40% a thread, not 160% of the job's one.
  Case c = IoCase(DirectRead(), ResultOf(1000, 10, 1000000, 1));
  c.result.concurrent_threads = 4;
  c.host.window = WindowOf(10, 16, 0.4);
  std::optional<CheckOutcome> out = c.Run(&CheckClientCpu);
  EXPECT_EQ(out->level, CheckLevel::kPass);
  EXPECT_DOUBLE_EQ(FigureOf(*out, "cpu_per_thread"), 0.4);
  EXPECT_EQ(FigureOf(*out, "concurrent_threads"), 4);
  // The same run's job judged alone warned: the fault this guards.
  c.result.concurrent_threads = 0;
  EXPECT_EQ(c.Run(&CheckClientCpu)->level, CheckLevel::kWarn);
  // Every one of the 4 threads busy: still a saturated client.
  c.result.concurrent_threads = 4;
  c.host.window = WindowOf(10, 38, 0.95);
  out = c.Run(&CheckClientCpu);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("95%"));
}

TEST(ClientCpuCheckTest, ACpuTestIsNotConcernedAndNoStartIsNotChecked) {
  Case c = IoCase(DirectRead(), ResultOf(1000, 10));
  EXPECT_EQ(c.Run(&CheckClientCpu)->level, CheckLevel::kNotChecked);
  c.facts.measures_client_cpu = true;
  EXPECT_FALSE(c.Run(&CheckClientCpu).has_value());
}

// ---------------------------------------------------------------- queue-depth

TEST(QueueDepthCheckTest, LittlesLawBelowHalfTheDepthWarns) {
  IoTargetFacts t = DirectRead();
  t.queue_depth = 32;
  t.queue_depth_asked = 32;
  // 1000 requests/s x 1 ms: 1 in flight of 32.
  const std::optional<CheckOutcome> out = IoCase(t, ResultOf(10000, 10)).Run(&CheckQueueDepth);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("1.00 requests in flight"));
  EXPECT_THAT(out->seen, HasSubstr("of the 32 asked"));
  // 4000/s x 1 ms = 4 of 4.
  EXPECT_EQ(IoCase(DirectRead(), ResultOf(40000, 10)).Run(&CheckQueueDepth)->level,
            CheckLevel::kPass);
}

TEST(QueueDepthCheckTest, ADepthAskedOfASynchronousEngineWarns) {
  IoTargetFacts t = DirectRead();
  t.engine = "sync";
  t.asynchronous = false;
  t.queue_depth_asked = 32;
  t.queue_depth = 1;
  const std::optional<CheckOutcome> out = IoCase(t, ResultOf(1000, 1)).Run(&CheckQueueDepth);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("--file-queue-depth=32 asked of the sync engine"));
}

TEST(QueueDepthCheckTest, LibaioOnBufferedFilesWarns) {
  IoTargetFacts t = DirectRead();
  t.engine = "libaio";
  t.direct = false;
  t.buffered_aio = true;
  EXPECT_EQ(IoCase(t, ResultOf(40000, 10)).Run(&CheckQueueDepth)->level, CheckLevel::kWarn);
}

TEST(QueueDepthCheckTest, AWorkloadPacedByDesignIsBelowItsCeilingWithoutAWarning) {
  IoTargetFacts t = DirectRead();
  t.queue_depth = 32;
  t.paced = true;  // fio's thinktime, a dbsim user's pauses
  const std::optional<CheckOutcome> out = IoCase(t, ResultOf(10000, 10)).Run(&CheckQueueDepth);
  EXPECT_EQ(out->level, CheckLevel::kPass);
  EXPECT_THAT(out->seen, HasSubstr("1.00 requests in flight on average of at most 32"));
  EXPECT_EQ(FigureOf(*out, "mean_in_flight"), 1);
}

// ---------------------------------------------------------------- rate

TEST(RateCheckTest, ARateNotKeptIsInvalid) {
  Case c;
  c.result = ResultOf(5000, 10);
  c.result.rate = RateFigures{1000, 500, 4000, 2000, 1500};
  const std::optional<CheckOutcome> out = c.Run(&CheckRate);
  EXPECT_EQ(out->level, CheckLevel::kInvalid);
  EXPECT_THAT(out->seen, HasSubstr("500.00 events/s achieved of the 1000.00 asked"));
  EXPECT_THAT(out->advice, HasSubstr("--rate"));
}

// A rate the workload kept to by its front end's own option (fio's
// rate_iops, DiskSpd's -g): judged in that option's unit, and named.
TEST(RateCheckTest, AFrontEndsOwnRateIsJudgedInItsWords) {
  Case c = IoCase(DirectRead(), ResultOf(1000, 10));
  c.facts.option_names.deeper_queue = "ioengine, iodepth";
  EXPECT_FALSE(c.Run(&CheckRate).has_value());  // none asked
  c.facts.own_rate = {"rate_iops", "read I/Os per second", 20000, 100, false};
  std::optional<CheckOutcome> out = c.Run(&CheckRate);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->level, CheckLevel::kInvalid);
  EXPECT_EQ(out->seen,
            "100.00 read I/Os per second achieved of the 20000.00 asked by rate_iops (0%): the "
            "system could not keep the rate");
  EXPECT_EQ(out->advice, "ask a lower rate_iops, or a deeper queue (ioengine, iodepth)");
  EXPECT_EQ(FigureOf(*out, "rate_asked"), 20000);
  EXPECT_EQ(FigureOf(*out, "rate_achieved"), 100);
  // 96% of it: kept.
  c.facts.own_rate.achieved = 19200;
  EXPECT_EQ(c.Run(&CheckRate)->level, CheckLevel::kPass);
  // A minimum (rate_iops_min) is missed by any shortfall.
  c.facts.own_rate.minimum = true;
  c.facts.own_rate.option = "rate_iops_min";
  EXPECT_EQ(c.Run(&CheckRate)->level, CheckLevel::kInvalid);
  c.facts.own_rate.achieved = 20000;
  EXPECT_EQ(c.Run(&CheckRate)->level, CheckLevel::kPass);
  // DiskSpd's -g in bytes per millisecond.
  c.facts.own_rate = {"-g", "bytes per millisecond", 4096, 2048, false};
  out = c.Run(&CheckRate);
  EXPECT_EQ(out->level, CheckLevel::kInvalid);
  EXPECT_THAT(out->seen, HasSubstr("2048.00 bytes per millisecond achieved of the 4096.00 "
                                   "asked by -g (50%)"));
  EXPECT_THAT(out->advice, HasSubstr("ask a lower -g"));
}

TEST(RateCheckTest, LateStartsBeyondTheMedianWarnAndAKeptRatePasses) {
  Case c;
  c.result = ResultOf(10000, 10);  // 1 ms each
  c.result.rate = RateFigures{1000, 1000, 500, 30, 0};
  EXPECT_EQ(c.Run(&CheckRate)->level, CheckLevel::kWarn);
  c.result.rate = RateFigures{1000, 1000, 0, 0.2, 0};
  EXPECT_EQ(c.Run(&CheckRate)->level, CheckLevel::kPass);
  c.result.rate.reset();
  EXPECT_FALSE(c.Run(&CheckRate).has_value());
}

// ---------------------------------------------------------------- durability

TEST(DurabilityCheckTest, WritesWithNoFlushWarnAndNameTheDeviceCache) {
  IoTargetFacts t = DirectRead();
  t.writes = true;
  Case c = IoCase(t, ResultOf(1000, 10));
  c.targets[0].write_cache = "write back";
  const std::optional<CheckOutcome> out = c.Run(&CheckDurability);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("device cache: write back"));
  EXPECT_THAT(out->advice, HasSubstr("--file-fsync-freq"));
  c.facts.io[0].periodic_flush = true;
  EXPECT_EQ(c.Run(&CheckDurability)->level, CheckLevel::kPass);
}

TEST(DurabilityCheckTest, AnOptionTheAdviceWouldNameTwiceIsNamedOnce) {
  // DiskSpd's write-through is its only flush: "-Sw", not "-Sw or -Sw".
  IoTargetFacts t = BufferedWrite();
  Case c = IoCase(t, ResultOf(1000, 10));
  c.facts.option_names.flush_every = "-Sw (write-through)";
  c.facts.option_names.write_through = "-Sw";
  c.facts.option_names.direct = "-Sh (or -Su)";
  EXPECT_EQ(c.Run(&CheckDurability)->advice, "add -Sw (write-through) to measure durable writes");
  c.facts.io_bytes_written = 64ULL << 20;
  c.host.devices = {DeviceOf("vda", 0, 0)};
  EXPECT_EQ(c.Run(&CheckDeviceWrites)->advice,
            "add -Sw (write-through) or -Sh (or -Su) to count writes the device made");
  EXPECT_EQ(OptionsText({"a", "", "b", "c"}), "a, b or c");
}

// ---------------------------------------------------------------- errors

TEST(ErrorsCheckTest, ErrorsAndIncidentsWarnAFailureIsInvalid) {
  Case c;
  c.result = ResultOf(1000, 10);
  EXPECT_EQ(c.Run(&CheckErrors)->level, CheckLevel::kPass);
  c.result.errors = 3;
  c.facts.incidents = {{"reconnects", 2, "--reconnect-timeout"}, {"deadlocks", 0, ""}};
  const std::optional<CheckOutcome> out = c.Run(&CheckErrors);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("3 errors, 2 reconnects"));
  c.result.failure = Status::IoError("write failed");
  EXPECT_EQ(c.Run(&CheckErrors)->level, CheckLevel::kInvalid);
}

TEST(ErrorsCheckTest, CountedShortIosWarnWithTheirCount) {
  Case c;
  c.result = ResultOf(1000, 10);
  c.facts.counts_short_ios = true;
  std::optional<CheckOutcome> out = c.Run(&CheckErrors);
  EXPECT_EQ(out->level, CheckLevel::kPass);
  EXPECT_EQ(FigureOf(*out, "short_ios"), 0);
  c.facts.short_ios = 7;
  out = c.Run(&CheckErrors);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("7 short I/Os (fewer bytes moved than asked)"));
  EXPECT_THAT(out->advice, HasSubstr("look at the files; a short I/O reads or writes past"));
  EXPECT_EQ(FigureOf(*out, "short_ios"), 7);
  // A workload that fails at the first short I/O states no count.
  c.facts.counts_short_ios = false;
  out = c.Run(&CheckErrors);
  EXPECT_EQ(out->level, CheckLevel::kPass);
  EXPECT_EQ(FigureOf(*out, "short_ios"), -1);
}

// A forced shutdown abandoned threads inside an event: INVALID, the
// threads named and counted.
TEST(ErrorsCheckTest, ThreadsAbandonedByAForcedShutdownAreInvalid) {
  Case c;
  c.result = ResultOf(1000, 10);
  c.result.forced_shutdown = true;
  c.result.abandoned_threads = {0, 3};
  std::optional<CheckOutcome> out = c.Run(&CheckErrors);
  EXPECT_EQ(out->level, CheckLevel::kInvalid);
  EXPECT_THAT(out->seen, HasSubstr("2 threads (0, 3) abandoned inside an event past the "
                                   "--forced-shutdown grace"));
  EXPECT_THAT(out->seen, HasSubstr("the workload's own facts were not read"));
  EXPECT_EQ(FigureOf(*out, "abandoned_threads"), 2);
  c.result.abandoned_threads = {1};
  out = c.Run(&CheckErrors);
  EXPECT_THAT(out->seen, HasSubstr("thread 1 abandoned inside an event"));
}

// ---------------------------------------------------------------- memory-cache

TEST(MemoryCacheCheckTest, ABlockInsideL2Warns) {
  Case c;
  c.result = ResultOf(1000, 1);
  c.facts.measures_client_cpu = true;
  EXPECT_FALSE(c.Run(&CheckMemoryCache).has_value());
  c.facts.memory_block_bytes = 1024;
  c.facts.l2_cache_bytes = 1 << 20;
  const std::optional<CheckOutcome> out = c.Run(&CheckMemoryCache);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("1 KiB"));
  c.facts.memory_block_bytes = 1ULL << 30;
  EXPECT_EQ(c.Run(&CheckMemoryCache)->level, CheckLevel::kPass);
  c.facts.l2_cache_bytes = 0;
  EXPECT_EQ(c.Run(&CheckMemoryCache)->level, CheckLevel::kNotChecked);
}

// ---------------------------------------------------------------- alignment

Case AlignedCase(IoTargetFacts t, uint32_t logical, uint32_t physical) {
  Case c = IoCase(std::move(t), ResultOf(1000, 10));
  c.targets[0].logical_block_bytes = logical;
  c.targets[0].physical_block_bytes = physical;
  return c;
}

TEST(AlignmentCheckTest, BlocksBelowThePhysicalBlockWarn) {
  IoTargetFacts t = BufferedWrite();
  t.block_bytes = 512;
  t.offset_align_bytes = 512;
  const std::optional<CheckOutcome> out = AlignedCase(t, 512, 4096).Run(&CheckAlignment);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("requests of 512 bytes on a device of 4096-byte physical "
                                   "blocks: it reads, changes and writes whole blocks"));
  EXPECT_THAT(out->advice, HasSubstr("a multiple of 4096 bytes"));
  EXPECT_EQ(AlignedCase(DirectRead(), 512, 4096).Run(&CheckAlignment)->level, CheckLevel::kPass);
}

TEST(AlignmentCheckTest, OffsetsOffTheLogicalBlockOfDirectIoAreInvalid) {
  IoTargetFacts t = DirectRead();
  t.offset_align_bytes = 2048;  // -S2048 of SQLIO's base
  const std::optional<CheckOutcome> out = AlignedCase(t, 4096, 4096).Run(&CheckAlignment);
  EXPECT_EQ(out->level, CheckLevel::kInvalid);
  EXPECT_THAT(out->seen, HasSubstr("offsets at multiples of 2048 bytes on a device of 4096-byte "
                                   "logical blocks"));
  t.direct = false;
  EXPECT_EQ(AlignedCase(t, 4096, 4096).Run(&CheckAlignment)->level, CheckLevel::kWarn);
}

TEST(AlignmentCheckTest, UnknownBlockSizesAreNotCheckedTheNullEngineIsNotConcerned) {
  EXPECT_EQ(AlignedCase(DirectRead(), 0, 0).Run(&CheckAlignment)->level, CheckLevel::kNotChecked);
  IoTargetFacts t = DirectRead();
  t.null_engine = true;
  EXPECT_FALSE(AlignedCase(t, 512, 512).Run(&CheckAlignment).has_value());
}

// ---------------------------------------------------------------- fairness

TEST(FairnessCheckTest, AThreadFarBelowTheMeanWarns) {
  Case c = IoCase(DirectRead(), ResultOf(1000, 10, 1000000, 4));
  for (size_t i = 0; i < 4; ++i) c.result.threads[i].events = i == 0 ? 100 : 300;
  FillDerivedFigures(c.result);
  const std::optional<CheckOutcome> out = c.Run(&CheckFairness);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("the slowest of 4 threads did 100 events, 60% below their "
                                   "mean of 250.0 (the busiest: 300)"));
  for (ThreadFigures& th : c.result.threads) th.events = 250;
  FillDerivedFigures(c.result);
  EXPECT_EQ(c.Run(&CheckFairness)->level, CheckLevel::kPass);
}

TEST(FairnessCheckTest, OneThreadIsNotConcerned) {
  EXPECT_FALSE(IoCase(DirectRead(), ResultOf(1000, 10)).Run(&CheckFairness).has_value());
}

// ---------------------------------------------------------------- ranks

// A run of three ranks over 10 s; rank k's span [start, end] on rank 0's
// clock from the merged window's start.
Case RanksCase(const std::vector<std::pair<double, double>>& spans) {
  Case c = IoCase(DirectRead(), ResultOf(3000, 10));
  ClusterFigures cluster;
  for (size_t k = 0; k < spans.size(); ++k) {
    RankFigures f;
    f.rank = static_cast<int>(k);
    f.start_s = spans[k].first;
    f.end_s = spans[k].second;
    cluster.ranks.push_back(f);
  }
  c.result.cluster = cluster;
  return c;
}

TEST(RanksCheckTest, ATailOfRanksEndingApartWarns) {
  const std::optional<CheckOutcome> out =
      RanksCase({{0, 7.5}, {0.001, 10}, {0.002, 8}}).Run(&CheckRanks);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("rank 1 ended 2.500 s after rank 0 (25.0% of the 10.00 s "
                                   "run): for that tail fewer ranks ran"));
  EXPECT_THAT(out->advice, HasSubstr("--stonewall=on"));
}

TEST(RanksCheckTest, ALateStartWarnsRanksTogetherPass) {
  const std::optional<CheckOutcome> late =
      RanksCase({{0, 10}, {0.4, 10}, {0, 10}}).Run(&CheckRanks);
  ASSERT_TRUE(late.has_value());
  EXPECT_EQ(late->level, CheckLevel::kWarn);
  EXPECT_THAT(late->seen, HasSubstr("rank 1 started 0.400 s after rank 0"));
  // Within the floor (50 ms) and the fractions: together.
  const std::optional<CheckOutcome> ok =
      RanksCase({{0, 9.97}, {0.004, 10}, {0.002, 9.99}}).Run(&CheckRanks);
  ASSERT_TRUE(ok.has_value());
  EXPECT_EQ(ok->level, CheckLevel::kPass);
}

// The verdict is made on rank 0 with its own host's facts: the ranks
// check's evidence says so, naming the hosts not read, whether it passes or
// warns.
TEST(RanksCheckTest, TheEvidenceSaysTheHostFactsAreRankZerosHostsAlone) {
  Case c = RanksCase({{0, 10}, {0.001, 10}, {0.002, 10}});
  std::vector<RankFigures>& ranks = c.result.cluster->ranks;
  for (RankFigures& f : ranks) f.host = "c1";
  std::optional<CheckOutcome> out = c.Run(&CheckRanks);
  EXPECT_EQ(out->level, CheckLevel::kPass);
  EXPECT_EQ(out->seen, "host facts from rank 0's host (c1), where every rank ran");
  EXPECT_EQ(FigureOf(*out, "hosts"), 1);
  ranks[1].host = "c2";
  ranks[2].host = "c3";
  out = c.Run(&CheckRanks);
  EXPECT_EQ(out->level, CheckLevel::kPass);
  EXPECT_EQ(out->seen,
            "host facts from rank 0's host (c1) only; the other ranks' hosts (c2, c3) were not "
            "read");
  EXPECT_EQ(FigureOf(*out, "hosts"), 3);
  ranks[2].host = "c1";
  ranks[2].end_s = 7.5;
  out = c.Run(&CheckRanks);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("both phases; host facts from rank 0's host (c1) only; the "
                                   "other ranks' host (c2) was not read"));
}

TEST(RanksCheckTest, OneProcessIsNotConcerned) {
  EXPECT_FALSE(IoCase(DirectRead(), ResultOf(1000, 10)).Run(&CheckRanks).has_value());
  EXPECT_FALSE(RanksCase({{0, 10}}).Run(&CheckRanks).has_value());
}

// ---------------------------------------------------------------- database

Case DatabaseCase(const std::string& driver, uint64_t data, uint64_t cache) {
  Case c;
  c.result = ResultOf(1000, 10);  // 1 ms each
  c.host.memory_bytes = 8ULL << 30;
  c.facts.has_database = true;
  c.facts.database.driver = driver;
  c.facts.database.data_bytes = data;
  c.facts.database.cache_bytes = cache;
  c.facts.database.cache_name = driver == "pgsql" ? "shared_buffers" : "";
  c.facts.database.transactions = 1000;
  return c;
}

TEST(DatabaseCheckTest, TablesThatFitInTheBufferPoolWarnLargerOnesPass) {
  const std::optional<CheckOutcome> out =
      DatabaseCase("pgsql", 2ULL << 20, 128ULL << 20).Run(&CheckDatabase);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("the tables (2 MiB) fit in shared_buffers (128 MiB)"));
  EXPECT_THAT(out->advice, HasSubstr("--table-size"));
  EXPECT_EQ(DatabaseCase("pgsql", 1ULL << 30, 128ULL << 20).Run(&CheckDatabase)->level,
            CheckLevel::kPass);
}

TEST(DatabaseCheckTest, SqliteIsMeasuredAgainstTheHostsMemory) {
  const std::optional<CheckOutcome> out = DatabaseCase("sqlite", 3ULL << 20, 0).Run(&CheckDatabase);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("fit in the host's memory"));
  EXPECT_EQ(DatabaseCase("sqlite", 9ULL << 30, 0).Run(&CheckDatabase)->level, CheckLevel::kPass);
}

TEST(DatabaseCheckTest, ASlowP95AndRollbacksWarn) {
  Case c = DatabaseCase("mysql", 1ULL << 30, 1ULL << 20);
  c.result = ResultOf(1000, 10, 250000000);  // 250 ms each
  std::optional<CheckOutcome> out = c.Run(&CheckDatabase);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("above 100 ms): the server is overloaded"));
  c.result = ResultOf(1000, 10);
  c.facts.database.rollbacks = 50;
  out = c.Run(&CheckDatabase);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("50 of 1000 transactions were rolled back (5.0%)"));
}

// Deadlocks above 0.1% of the transactions warn before the rollbacks'
// bound (1%) is reached; at the bound they pass, and the counts are figures.
TEST(DatabaseCheckTest, DeadlocksPerTransactionAboveTheBoundWarn) {
  Case c = DatabaseCase("pgsql", 1ULL << 30, 128ULL << 20);
  c.facts.database.rollbacks = 5;
  c.facts.database.deadlocks = 2;  // 0.2%
  c.facts.database.lock_waits = 1;
  std::optional<CheckOutcome> out = c.Run(&CheckDatabase);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("2 deadlocks in 1000 transactions (0.20%, above 0.1%; 5 rolled "
                                   "back, 1 lock wait timeouts)"));
  EXPECT_THAT(out->advice, HasSubstr("--table-size"));
  EXPECT_NEAR(FigureOf(*out, "deadlocks_per_transaction"), 0.002, 1e-12);
  EXPECT_EQ(FigureOf(*out, "deadlocks"), 2);
  EXPECT_EQ(FigureOf(*out, "lock_wait_timeouts"), 1);
  EXPECT_NEAR(FigureOf(*out, "lock_wait_timeouts_per_transaction"), 0.001, 1e-12);
  c.facts.database.deadlocks = 1;  // 0.1%: at the bound
  out = c.Run(&CheckDatabase);
  EXPECT_EQ(out->level, CheckLevel::kPass);
  EXPECT_NEAR(FigureOf(*out, "deadlocks_per_transaction"), kDbMaxDeadlockFraction, 1e-12);
}

TEST(DatabaseCheckTest, SizesNotReadAreNotCheckedOtherTestsAreNotConcerned) {
  Case c = DatabaseCase("pgsql", 0, 0);
  c.facts.database.unknown = "the tables' size or shared_buffers could not be read: denied";
  EXPECT_EQ(c.Run(&CheckDatabase)->level, CheckLevel::kNotChecked);
  EXPECT_FALSE(IoCase(DirectRead(), ResultOf(1000, 10)).Run(&CheckDatabase).has_value());
}

// The run's own findings do not need the tables' size: a slow p95 or many
// rollbacks warn with sizes unread, and say the fit was not checked.
TEST(DatabaseCheckTest, WithSizesUnreadASlowP95OrRollbacksStillWarn) {
  Case c = DatabaseCase("pgsql", 0, 0);
  c.facts.database.unknown = "the tables' size could not be read: denied";
  c.result = ResultOf(1000, 10, 250000000);  // 250 ms each
  std::optional<CheckOutcome> out = c.Run(&CheckDatabase);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("the server is overloaded (the tables' fit in the cache not "
                                   "checked: the tables' size could not be read: denied)"));
  EXPECT_EQ(FigureOf(*out, "latency_p95_ms"), 250);
  c.result = ResultOf(1000, 10);
  c.facts.database.rollbacks = 50;
  out = c.Run(&CheckDatabase);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("were rolled back (5.0%)"));
}

// ---------------------------------------------------------------- noisy-host

// ---------------------------------------------------------------- other-io

constexpr uint64_t kMiB = 1ULL << 20;

// A direct read whose own device I/O was 100 MiB read and 2 MiB written,
// with 1 MiB of dirty pages flushed over the run.
Case OtherIoCase(uint64_t device_read, uint64_t device_written) {
  Case c = IoCase(DirectRead(), ResultOf(1000, 10));
  c.host.window = WindowOf(10, 1, 0.5);
  c.host.window.process_io_known = true;
  c.host.window.process_read_bytes = 100 * kMiB;
  c.host.window.process_written_bytes = 2 * kMiB;
  c.host.window.dirty_flushed_bytes = 1 * kMiB;
  c.host.devices = {DeviceOf("vda1", device_read, device_written)};
  return c;
}

TEST(OtherIoCheckTest, AnotherLoadOnTheDeviceWarnsWithWhatItDid) {
  const std::optional<CheckOutcome> out =
      OtherIoCase(100 * kMiB + 64 * kMiB, 3 * kMiB + 200 * kMiB).Run(&CheckOtherIo);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("other processes read 64 MiB and wrote 200 MiB on the device "
                                   "(vda1) over the run, beside the run's own 100 MiB read and "
                                   "2 MiB written"));
}

TEST(OtherIoCheckTest, JournalWritesFlushedPagesAndASmallShareOfTheRunsOwnPass) {
  // 120 MiB beyond its own: under the 128 MiB floor.
  EXPECT_EQ(OtherIoCase(100 * kMiB, 123 * kMiB).Run(&CheckOtherIo)->level, CheckLevel::kPass);
  // 200 MiB written that the page cache flushed of earlier dirty pages.
  Case flushed = OtherIoCase(100 * kMiB, 203 * kMiB);
  flushed.host.window.dirty_flushed_bytes = 201 * kMiB;
  EXPECT_EQ(flushed.Run(&CheckOtherIo)->level, CheckLevel::kPass);
  // 200 MiB beside 1 GiB of the run's own: under a quarter of it.
  Case big = OtherIoCase(1024 * kMiB + 200 * kMiB, 0);
  big.host.window.process_read_bytes = 1024 * kMiB;
  big.host.window.process_written_bytes = 0;
  EXPECT_EQ(big.Run(&CheckOtherIo)->level, CheckLevel::kPass);
}

TEST(OtherIoCheckTest, UnknownOwnIoOrDevicesAreNotCheckedTheNullEngineIsNotConcerned) {
  Case c = OtherIoCase(500 * kMiB, 0);
  c.host.window.process_io_known = false;
  EXPECT_EQ(c.Run(&CheckOtherIo)->level, CheckLevel::kNotChecked);
  c = OtherIoCase(500 * kMiB, 0);
  c.host.devices.clear();
  c.host.devices_unknown = "/tmp: no block device's counters behind it";
  EXPECT_EQ(c.Run(&CheckOtherIo)->seen, "/tmp: no block device's counters behind it");
  IoTargetFacts null_engine = DirectRead();
  null_engine.null_engine = true;
  EXPECT_FALSE(IoCase(null_engine, ResultOf(1000, 10)).Run(&CheckOtherIo).has_value());
}

TEST(NoisyHostCheckTest, StealTimeWarnsAVirtualMachineIsStatedOnly) {
  Case c = IoCase(DirectRead(), ResultOf(1000, 10));
  c.host.window = WindowOf(10, 1, 0.5);
  c.host.window.steal_fraction = 0.01;
  c.host.virtual_machine = "KVM";
  std::optional<CheckOutcome> out = c.Run(&CheckNoisyHost);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->level, CheckLevel::kPass);
  EXPECT_THAT(out->seen, HasSubstr("a virtual machine (KVM)"));
  c.host.window.steal_fraction = 0.12;
  out = c.Run(&CheckNoisyHost);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("the hypervisor took 12.0% of the host's CPU time"));
}

// A run shorter than a second holds too few 10 ms ticks for a steal share:
// not checked, whatever the ticks said.
TEST(NoisyHostCheckTest, ARunTooShortForStealTicksIsNotChecked) {
  Case c = IoCase(DirectRead(), ResultOf(1000, 10));
  c.host.window = WindowOf(0.003, 0.001, 0.5);
  c.host.window.steal_fraction = 0.857;
  std::optional<CheckOutcome> out = c.Run(&CheckNoisyHost);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->level, CheckLevel::kNotChecked);
  EXPECT_THAT(out->seen, HasSubstr("the run's 0.003 s are too short"));
  c.host.virtual_machine = "KVM";
  EXPECT_THAT(c.Run(&CheckNoisyHost)->seen, HasSubstr("a virtual machine (KVM)"));
  c.host.window.wall_s = 1.5;
  EXPECT_EQ(c.Run(&CheckNoisyHost)->level, CheckLevel::kWarn);
}

TEST(NoisyHostCheckTest, ThrottleEventsWarnUnknownCpuTimesAreNotChecked) {
  Case c = IoCase(DirectRead(), ResultOf(1000, 10));
  c.host.window = WindowOf(10, 1, 0.5);
  c.host.window.steal_fraction = 0;
  c.host.window.throttle_known = true;
  c.host.window.throttle_events = 7;
  const std::optional<CheckOutcome> out = c.Run(&CheckNoisyHost);
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("throttled for heat 7 times"));
  c.host.window.steal_fraction = -1;
  EXPECT_EQ(c.Run(&CheckNoisyHost)->level, CheckLevel::kNotChecked);
  c.host.window.known = false;
  EXPECT_EQ(c.Run(&CheckNoisyHost)->level, CheckLevel::kNotChecked);
}

// Without steal time (Windows) the check is not made, and a virtual machine
// is still stated, named, on that line.
TEST(NoisyHostCheckTest, NoStealTimeStillStatesAVirtualMachine) {
  Case c = IoCase(DirectRead(), ResultOf(1000, 10));
  c.host.window = WindowOf(10, 1, 0.5);
  c.host.window.steal_fraction = -1;
  std::optional<CheckOutcome> out = c.Run(&CheckNoisyHost);
  EXPECT_EQ(out->level, CheckLevel::kNotChecked);
  EXPECT_EQ(out->seen, "the system does not state its CPUs' steal time");
  EXPECT_EQ(FigureOf(*out, "virtual_machine"), 0);
  c.host.virtual_machine = "Hyper-V";
  out = c.Run(&CheckNoisyHost);
  EXPECT_EQ(out->level, CheckLevel::kNotChecked);
  EXPECT_EQ(out->seen,
            "the system does not state its CPUs' steal time; a virtual machine (Hyper-V): its "
            "figures are the guest's, and other guests may share its CPUs");
  EXPECT_EQ(FigureOf(*out, "virtual_machine"), 1);
}

// ---------------------------------------------------------------- cpu-frequency

TEST(CpuFrequencyCheckTest, AFrequencyThatChangedWarnsAndNamesTheGovernor) {
  Case c;
  c.result = ResultOf(1000, 10);
  c.facts.measures_client_cpu = true;
  c.host.window = WindowOf(10, 10, 0.5);
  CpuFrequencyFacts start;
  start.governor = "powersave";
  start.khz = {3000000, 3000000};
  CpuFrequencyFacts end = start;
  end.khz = {1500000, 3000000};
  FillFrequencyWindow(start, end, c.host.window);
  EXPECT_DOUBLE_EQ(c.host.window.frequency_change, 0.5);
  const std::optional<CheckOutcome> out = c.Run(&CheckCpuFrequency);
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->level, CheckLevel::kWarn);
  EXPECT_THAT(out->seen, HasSubstr("changed by 50% over the run (mean 3000 MHz at the start, "
                                   "2250 MHz at the end, governor powersave): the result mixes "
                                   "speeds"));
  EXPECT_THAT(out->advice, HasSubstr("performance governor"));
  end.khz = {2900000, 3000000};
  FillFrequencyWindow(start, end, c.host.window);
  EXPECT_EQ(c.Run(&CheckCpuFrequency)->level, CheckLevel::kPass);
}

TEST(CpuFrequencyCheckTest, NoCpufreqIsNotCheckedThrottleCountsAreTheirDifference) {
  Case c;
  c.result = ResultOf(1000, 10);
  c.host.window = WindowOf(10, 10, 0.5);
  CpuFrequencyFacts start;
  start.khz = {0, 0};
  start.throttle_known = true;
  start.throttle_events = 5;
  CpuFrequencyFacts end = start;
  end.throttle_events = 9;
  FillFrequencyWindow(start, end, c.host.window);
  EXPECT_EQ(c.host.window.frequency_change, -1);
  EXPECT_TRUE(c.host.window.throttle_known);
  EXPECT_EQ(c.host.window.throttle_events, 4u);
  const std::optional<CheckOutcome> out = c.Run(&CheckCpuFrequency);
  EXPECT_EQ(out->level, CheckLevel::kNotChecked);
  EXPECT_THAT(out->seen, HasSubstr("cpufreq"));
}

// ---------------------------------------------------------------- the list

TEST(RunChecksTest, ACleanDirectReadIsValid) {
  Case c = IoCase(DirectRead(), ResultOf(40000, 10));
  c.host.window = WindowOf(10, 1, 0.2);
  c.host.window.steal_fraction = 0.001;
  c.host.window.frequency_change = 0.01;
  c.targets[0].logical_block_bytes = 512;
  c.targets[0].physical_block_bytes = 4096;
  c.percentile = 95;
  CheckInput in{c.result, c.facts, c.host, c.targets, c.percentile, c.report_interval_s};
  const Validity v = RunChecks(in);
  EXPECT_TRUE(v.judged);
  EXPECT_EQ(v.overall(), Overall::kValid);
  EXPECT_EQ(VerdictLine(v), "valid");
  EXPECT_EQ(v.Count(CheckLevel::kWarn), 0);
  EXPECT_EQ(v.Count(CheckLevel::kInvalid), 0);
  // The host's facts all known: the checks over them passed.
  for (const char* id : {"alignment", "noisy-host", "cpu-frequency"}) {
    bool passed = false;
    for (const CheckOutcome& o : v.checks)
      passed = passed || (o.id == id && o.level == CheckLevel::kPass);
    EXPECT_TRUE(passed) << id;
  }
}

TEST(RunChecksTest, EveryCheckIdIsListedOnce) {
  std::vector<std::string> ids;
  for (const CheckEntry& e : AllChecks()) {
    for (const std::string& seen : ids) EXPECT_NE(seen, e.id);
    ids.emplace_back(e.id);
  }
  EXPECT_EQ(ids.size(), 21u);
}

TEST(VerdictLineTest, CountsWarningsAndInvalidChecks) {
  Validity v;
  v.judged = true;
  v.checks = {Found("a", CheckLevel::kWarn, "x", "y"), Found("b", CheckLevel::kWarn, "x", "y")};
  EXPECT_EQ(VerdictLine(v), "valid with warnings (2)");
  v.checks.push_back(Found("c", CheckLevel::kInvalid, "x", "y"));
  EXPECT_EQ(VerdictLine(v), "INVALID (1)");
  EXPECT_STREQ(OverallName(v.overall()), "invalid");
}

TEST(DevicesTextTest, StackedDevicesNameTheirDisks) {
  EXPECT_EQ(DevicesText({DeviceOf("vda1", 0, 0)}), "vda1");
  EXPECT_EQ(DevicesText({DeviceOf("md0", 0, 0, {"sda1", "sdb1"}), DeviceOf("vdb", 0, 0)}),
            "md0 (over sda1, sdb1), vdb");
}

TEST(BytesTextTest, BinaryUnits) {
  EXPECT_EQ(BytesText(100), "100 bytes");
  EXPECT_EQ(BytesText(1536), "1.50 KiB");
  EXPECT_EQ(BytesText(8ULL << 30), "8 GiB");
}

}  // namespace
}  // namespace loadcell::validity
