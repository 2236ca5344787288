#include "cli/fio/fio_plan.h"

#include <gtest/gtest.h>

#include "io/io_engine.h"
#include "testing/fio_test_env.h"
#include "testing/status.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using fio::FioJobInstance;
using fio::FioJobSpec;
using fio::FioRunStep;
using testing::TempDir;

// An asynchronous ioengine this system and build run (io_uring, libaio on
// Linux; windowsaio on Windows): a plan refuses one that does not run here.
fio::FioEngine AsyncEngineHere() {
  if (CheckIoEngine("io_uring", "io_uring").ok()) return fio::FioEngine::kIoUring;
  if (CheckIoEngine("iocp", "windowsaio").ok()) return fio::FioEngine::kWindowsAio;
  return fio::FioEngine::kLibaio;
}

FioJobSpec Spec(const std::string& name, const std::string& dir) {
  FioJobSpec s;
  s.name = name;
  s.directories = {dir};
  s.size_given = true;
  s.size.bytes = 8 << 20;
  s.origin.file = "job.fio";
  s.origin.line = 1;
  return s;
}

// A plan's refusal: its message when it is InvalidArgument (exit 2).
std::string Refusal(const Result<FioPlan>& plan) {
  if (plan.ok()) return "planned";
  if (plan.status().code() != StatusCode::kInvalidArgument) return "not InvalidArgument";
  return plan.status().message();
}

std::vector<FioRunStep> OneStep(int clones) {
  FioRunStep step;
  for (int c = 0; c < clones; ++c) step.instances.push_back(FioJobInstance{0, "j", c, 0});
  return {step};
}

TEST(FioPlanTest, FilesSizesAndLimitsAreFios) {
  TempDir dir;
  FioJobSpec s = Spec("j", dir.path());
  s.nrfiles = 2;
  s.rw = fio::FioRwMode::kRandMixed;
  s.rwmixread = 0.7;
  s.ioengine = fio::FioEngine::kPsync;
  s.iodepth = 32;  // a synchronous engine runs at depth 1, as fio's do
  const std::vector<FioJobSpec> specs = {s};
  auto plan = PlanFioJobs(specs, OneStep(2), DefaultFileSystem());
  ASSERT_OK(plan);
  ASSERT_EQ(plan->steps.size(), 1u);
  ASSERT_EQ(plan->steps[0].size(), 2u);
  const FioJobSettings& a = plan->steps[0][0].settings;
  const FioJobSettings& b = plan->steps[0][1].settings;
  EXPECT_EQ(a.files, (std::vector<std::string>{dir / "j.0.0", dir / "j.0.1"}));
  EXPECT_EQ(b.files[1], dir / "j.1.1");
  EXPECT_EQ(a.file_size, 4u << 20);  // size shared over nrfiles
  EXPECT_EQ(a.byte_limit, 8u << 20);
  EXPECT_EQ(a.engine, "sync");
  EXPECT_EQ(a.iodepth, 1u);
  EXPECT_TRUE(a.pattern.random);
  EXPECT_TRUE(a.pattern.dirs[0] && a.pattern.dirs[1]);
  EXPECT_DOUBLE_EQ(a.pattern.read_pct, 70);
  EXPECT_NE(a.pattern.seed, b.pattern.seed);  // each clone its own sequence
  EXPECT_EQ(plan->steps[0][0].cfg.threads, 1);
  EXPECT_EQ(plan->steps[0][0].cfg.time_s, 0);
}

TEST(FioPlanTest, TimeBasedJobsHaveNoByteLimitAndNeedARuntime) {
  TempDir dir;
  FioJobSpec s = Spec("t", dir.path());
  s.time_based = true;
  s.runtime_ns = 3'000'000'000;
  s.ramp_time_ns = 1'000'000'000;
  s.ioengine = AsyncEngineHere();
  s.iodepth = 16;
  std::vector<FioJobSpec> specs = {s};
  auto plan = PlanFioJobs(specs, OneStep(1), DefaultFileSystem());
  ASSERT_OK(plan);
  const FioPlannedJob& j = plan->steps[0][0];
  EXPECT_EQ(j.settings.byte_limit, 0u);
  EXPECT_EQ(j.settings.iodepth, 16u);
  EXPECT_DOUBLE_EQ(j.cfg.time_s, 3);
  EXPECT_DOUBLE_EQ(j.cfg.warmup_s, 1);

  specs[0].runtime_ns = 0;
  auto bad = PlanFioJobs(specs, OneStep(1), DefaultFileSystem());
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("time_based needs runtime="), std::string::npos);
}

// A forward skip (rw=read:8k) ends its own passes (workloads/fio/
// fio_passes.h): the plan hands the job fio's rule for them instead of a
// byte count; backwards skips and plain sequential jobs keep the bytes.
TEST(FioPlanTest, AForwardSkipRunsFiosPassesInsteadOfAByteCount) {
  TempDir dir;
  const auto plan = [&](int64_t skip, int loops, bool io_size, uint64_t number_ios) {
    FioJobSpec s = Spec("h", dir.path());
    s.size.bytes = 64 << 10;
    s.rw = fio::FioRwMode::kMixed;
    s.rw_sequential_skip = skip;
    s.loops = loops;
    s.number_ios = number_ios;
    if (io_size) {
      s.io_size_given = true;
      s.io_size.bytes = 128 << 10;
    }
    const std::vector<FioJobSpec> specs = {s};
    auto p = PlanFioJobs(specs, OneStep(1), DefaultFileSystem());
    EXPECT_OK(p);
    return p.ok() ? p->steps[0][0].settings : FioJobSettings{};
  };
  FioJobSettings s = plan(8192, 2, false, 10);
  EXPECT_TRUE(s.passes.on);
  EXPECT_EQ(s.passes.pass_bytes, 64u << 10);
  EXPECT_EQ(s.passes.loops, 2u);
  EXPECT_EQ(s.passes.number_ios, 10u);
  EXPECT_FALSE(s.passes.io_size_given);
  EXPECT_EQ(s.byte_limit, 0u);
  EXPECT_EQ(s.io_limit, 0u);
  s = plan(8192, 1, true, 0);
  EXPECT_EQ(s.passes.pass_bytes, 128u << 10);
  EXPECT_TRUE(s.passes.io_size_given);
  s = plan(-8192, 2, false, 10);  // backwards wraps: the bytes and I/Os, over the loops
  EXPECT_FALSE(s.passes.on);
  EXPECT_EQ(s.byte_limit, 128u << 10);
  EXPECT_EQ(s.io_limit, 20u);  // fio: number_ios times loops
  s = plan(0, 1, false, 0);
  EXPECT_FALSE(s.passes.on);
  EXPECT_EQ(s.byte_limit, 64u << 10);
}

TEST(FioPlanTest, BlockalignTurnsOffTheRandomMapAsFio) {
  TempDir dir;
  FioJobSpec s = Spec("b", dir.path());
  s.rw = fio::FioRwMode::kRandRead;
  s.block_size_range_given = true;
  s.block_size_range = {{{4096, 16384}, {4096, 16384}, {4096, 16384}}};
  std::vector<FioJobSpec> specs = {s};
  auto plan = PlanFioJobs(specs, OneStep(1), DefaultFileSystem());
  ASSERT_OK(plan);
  EXPECT_FALSE(plan->steps[0][0].settings.pattern.norandommap);
  specs[0].block_align = {512, 512, 512};
  plan = PlanFioJobs(specs, OneStep(1), DefaultFileSystem());
  ASSERT_OK(plan);
  EXPECT_TRUE(plan->steps[0][0].settings.pattern.norandommap);
  EXPECT_EQ(plan->steps[0][0].settings.pattern.bs[0].align, 512u);
}

TEST(FioPlanTest, WhatCannotRunYetIsRefusedWithItsLine) {
  TempDir dir;
  FioJobSpec s = Spec("r", dir.path());
  s.filesize_given = true;
  s.filesize = {1 << 20, 2 << 20};
  s.given.push_back({"filesize", {"job.fio", 7, false}});
  std::vector<FioJobSpec> specs = {s};
  EXPECT_OK(PlanFioJobs(specs, OneStep(1), DefaultFileSystem()));  // a range runs
  // ... but not with zones over files of several sizes.
  specs[0].random_distribution.kind = fio::FioDistributionKind::kZoned;
  specs[0].random_distribution.zones[0] = {{1.0, 1.0, 0}};
  specs[0].given.push_back({"random_distribution", {"job.fio", 8, false}});
  auto plan = PlanFioJobs(specs, OneStep(1), DefaultFileSystem());
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(plan.status().message(),
            "job.fio:8: fio option 'random_distribution' other than random with a filesize "
            "range is not supported by loadcell yet");
}

TEST(FioPlanTest, TrimModesTrimAndTrimwriteWrites) {
  TempDir dir;
  // The null engine: trims plan on every system (files need Linux's hole
  // punching).
  FioJobSpec t = Spec("t", dir.path());
  t.rw = fio::FioRwMode::kRandTrim;
  t.ioengine = fio::FioEngine::kNull;
  FioJobSpec w = Spec("w", dir.path());
  w.rw = fio::FioRwMode::kTrimWrite;
  w.ioengine = fio::FioEngine::kNull;
  std::vector<FioJobSpec> specs = {t, w};
  fio::FioRunStep step;
  step.instances = {{0, "t", 0, 0}, {1, "w", 0, 0}};
  auto plan = PlanFioJobs(specs, {step}, DefaultFileSystem());
  ASSERT_OK(plan);
  const FioPatternSettings& rt = plan->steps[0][0].settings.pattern;
  EXPECT_EQ(rt.dirs, (std::array<bool, kFioDirs>{false, false, true}));
  EXPECT_TRUE(rt.random);
  const FioPatternSettings& tw = plan->steps[0][1].settings.pattern;
  EXPECT_EQ(tw.dirs, (std::array<bool, kFioDirs>{false, true, true}));
  EXPECT_TRUE(tw.trim_then_write);
  EXPECT_FALSE(tw.random);

  specs[1].rate = {0, 1 << 20, 0};
  specs[1].given.push_back({"rate", {"job.fio", 3, false}});
  auto bad = PlanFioJobs(specs, {step}, DefaultFileSystem());
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "job.fio:3: fio option 'rate' with rw=trimwrite or randtrimwrite is not supported "
            "by loadcell");
}

TEST(FioPlanTest, LogsAreNamedByTheInstancesNumberAndCpusSplitByIt) {
  TempDir dir;
  FioJobSpec s = Spec("a", dir.path());
  s.write_lat_log = "p";
  s.write_iops_log = "q";
  s.log_avg_ns = 500'000'000;
  s.cpus_allowed = {0};
  s.cpus_allowed_split = true;
  s.ioengine = AsyncEngineHere();
  s.iodepth = 8;
  s.iodepth_batch_complete_min = 2;
  s.iodepth_batch_complete_max = 4;
  std::vector<FioJobSpec> specs = {s};
  auto plan = PlanFioJobs(specs, OneStep(2), DefaultFileSystem());
  ASSERT_OK(plan);
  ASSERT_EQ(plan->steps[0].size(), 2u);
  const FioPlannedJob& second = plan->steps[0][1];
  ASSERT_EQ(second.logs.size(), 4u);
  EXPECT_EQ(second.logs[0].second, "p_lat.2.log");
  EXPECT_EQ(second.logs[2].second, "p_slat.2.log");
  EXPECT_EQ(second.logs[3],
            (std::pair<FioLogKind, std::string>{FioLogKind::kIops, "q_iops.2.log"}));
  EXPECT_TRUE(second.settings.logs.lat);
  EXPECT_FALSE(second.settings.logs.bw);
  EXPECT_EQ(second.settings.logs.avg_ns, 500'000'000);
  EXPECT_EQ(second.settings.cpus, std::vector<int>{0});
  EXPECT_EQ(second.settings.complete_min, 2u);
  EXPECT_EQ(second.settings.complete_max, 4u);
}

// The options of the rate and think-time family, and startdelay, as given.
FioJobSpec PacedSpec(const std::string& dir) {
  FioJobSpec s = Spec("p", dir);
  s.rw = fio::FioRwMode::kRandMixed;
  s.block_size_split[0] = {{512, 0.5}, {8192, 0.5}};
  s.rate_iops = {500, 200, 200};
  s.rate_iops_min = {100, 0, 0};
  s.rate_process = fio::FioRateProcess::kPoisson;
  s.thinktime_ns = 2'000'000;
  s.thinktime_spin_ns = 500'000;
  s.thinktime_blocks = 4;
  s.startdelay = {1'000'000'000, 3'000'000'000};
  s.time_based = true;
  s.runtime_ns = 5'000'000'000;
  s.ramp_time_ns = 1'000'000'000;
  for (const char* o : {"rate_iops", "rate_iops_min", "rate_process", "thinktime", "thinktime_spin",
                        "thinktime_blocks", "startdelay"}) {
    s.given.push_back({o, {"job.fio", 3, false}});
  }
  return s;
}

TEST(FioPlanTest, RatesThinkTimeAndStartDelayAreNoLongerRefused) {
  TempDir dir;
  std::vector<FioJobSpec> specs = {PacedSpec(dir.path())};
  auto plan = PlanFioJobs(specs, OneStep(2), DefaultFileSystem());
  ASSERT_OK(plan);
  const FioPlannedJob& j = plan->steps[0][0];
  // rate_iops counts in the direction's smallest block (fio's measure).
  EXPECT_EQ(j.settings.rate_bytes[0], 500u * 512);
  EXPECT_EQ(j.settings.rate_bytes[1], 200u * 4096);
  EXPECT_EQ(j.settings.min_ios[0], 100u);
  EXPECT_EQ(j.settings.min_ios[1], 0u);
  EXPECT_TRUE(j.settings.rate_poisson);
  EXPECT_EQ(j.settings.thinktime_ns, 2'000'000);
  EXPECT_EQ(j.settings.thinktime_spin_ns, 500'000);
  EXPECT_EQ(j.settings.thinktime_blocks, 4u);
  EXPECT_EQ(j.settings.issue_window_ns, 6'000'000'000);  // ramp_time + runtime
  // startdelay=1-3: a delay in the range, each clone its own, the same every
  // run (randrepeat).
  const double a = plan->steps[0][0].cfg.start_delay_s;
  const double b = plan->steps[0][1].cfg.start_delay_s;
  EXPECT_GE(a, 1);
  EXPECT_LE(a, 3);
  EXPECT_GE(b, 1);
  EXPECT_LE(b, 3);
  EXPECT_NE(a, b);
  auto again = PlanFioJobs(specs, OneStep(2), DefaultFileSystem());
  ASSERT_OK(again);
  EXPECT_EQ(again->steps[0][0].cfg.start_delay_s, a);

  // A byte rate is taken as it is.
  specs[0].rate_iops = {0, 0, 0};
  specs[0].rate = {1 << 20, 0, 0};
  auto bytes = PlanFioJobs(specs, OneStep(1), DefaultFileSystem());
  ASSERT_OK(bytes);
  EXPECT_EQ(bytes->steps[0][0].settings.rate_bytes[0], 1u << 20);
  EXPECT_EQ(bytes->steps[0][0].settings.rate_bytes[1], 0u);
}

// The verdict judges each job's rate as it was asked: rate_iops in I/Os,
// rate in bytes, a minimum alone as a floor.
TEST(FioPlanTest, TheRateAskedIsKeptInTheUsersWords) {
  TempDir dir;
  std::vector<FioJobSpec> specs = {PacedSpec(dir.path())};
  auto plan = PlanFioJobs(specs, OneStep(1), DefaultFileSystem());
  ASSERT_OK(plan);
  const FioRateAsked& iops = plan->steps[0][0].settings.rate_asked;
  EXPECT_EQ(iops.option, "rate_iops");
  EXPECT_TRUE(iops.ios);
  EXPECT_FALSE(iops.minimum);
  EXPECT_EQ(iops.target[0], 500);
  EXPECT_EQ(iops.target[1], 200);
  specs[0].rate_iops = {0, 0, 0};
  specs[0].rate = {1 << 20, 0, 0};
  plan = PlanFioJobs(specs, OneStep(1), DefaultFileSystem());
  ASSERT_OK(plan);
  const FioRateAsked& bytes = plan->steps[0][0].settings.rate_asked;
  EXPECT_EQ(bytes.option, "rate");
  EXPECT_FALSE(bytes.ios);
  EXPECT_EQ(bytes.unit, "bytes per second");
  EXPECT_EQ(bytes.target[0], 1 << 20);
  specs[0].rate = {0, 0, 0};
  plan = PlanFioJobs(specs, OneStep(1), DefaultFileSystem());
  ASSERT_OK(plan);
  const FioRateAsked& floor = plan->steps[0][0].settings.rate_asked;
  EXPECT_EQ(floor.option, "rate_iops_min");
  EXPECT_TRUE(floor.minimum);
  EXPECT_EQ(floor.target[0], 100);
  specs[0].rate_iops_min = {0, 0, 0};
  plan = PlanFioJobs(specs, OneStep(1), DefaultFileSystem());
  ASSERT_OK(plan);
  EXPECT_EQ(plan->steps[0][0].settings.rate_asked.option, "");
}

TEST(FioPlanTest, DistributionsRunWithoutTheRandomMap) {
  TempDir dir;
  FioJobSpec s = Spec("z", dir.path());
  s.rw = fio::FioRwMode::kRandRead;
  s.random_distribution.kind = fio::FioDistributionKind::kZoned;
  s.random_distribution.zones[0] = {{0.6, 0.1, 0}, {0.4, 0.9, 0}};
  s.random_generator = fio::FioRandomGenerator::kLfsr;
  s.given.push_back({"random_distribution", {"job.fio", 4, false}});
  s.given.push_back({"random_generator", {"job.fio", 5, false}});
  std::vector<FioJobSpec> specs = {s};
  auto plan = PlanFioJobs(specs, OneStep(1), DefaultFileSystem());
  ASSERT_OK(plan);
  const FioPatternSettings& p = plan->steps[0][0].settings.pattern;
  EXPECT_EQ(p.distribution.law, FioOffsetLaw::kZoned);
  EXPECT_FALSE(p.distribution.absolute);
  ASSERT_EQ(p.distribution.zones[0].size(), 2u);
  EXPECT_DOUBLE_EQ(p.distribution.zones[0][0].access_pct, 60);
  EXPECT_DOUBLE_EQ(p.distribution.zones[0][1].size_pct, 90);
  EXPECT_TRUE(p.norandommap);  // fio's rule
  EXPECT_FALSE(p.full_cycle);  // a distribution draws its own offsets

  specs[0].random_distribution = {};
  specs[0].random_distribution.kind = fio::FioDistributionKind::kZipf;
  specs[0].random_distribution.parameter = 1.2;
  auto zipf = PlanFioJobs(specs, OneStep(1), DefaultFileSystem());
  ASSERT_OK(zipf);
  EXPECT_EQ(zipf->steps[0][0].settings.pattern.distribution.law, FioOffsetLaw::kZipf);
  EXPECT_DOUBLE_EQ(zipf->steps[0][0].settings.pattern.distribution.parameter, 1.2);

  // The uniform default keeps the map.
  specs[0].random_distribution = {};
  auto uniform = PlanFioJobs(specs, OneStep(1), DefaultFileSystem());
  ASSERT_OK(uniform);
  EXPECT_FALSE(uniform->steps[0][0].settings.pattern.norandommap);
  // lfsr's full cycle takes the uniform offsets; the tausworthes keep the map.
  EXPECT_TRUE(uniform->steps[0][0].settings.pattern.full_cycle);
  for (const auto g :
       {fio::FioRandomGenerator::kTausworthe, fio::FioRandomGenerator::kTausworthe64}) {
    specs[0].random_generator = g;
    auto map = PlanFioJobs(specs, OneStep(1), DefaultFileSystem());
    ASSERT_OK(map);
    EXPECT_FALSE(map->steps[0][0].settings.pattern.full_cycle);
  }
}

TEST(FioPlanTest, AbsoluteZonesBeyondTheRegionAreRefusedWithTheirLine) {
  TempDir dir;
  FioJobSpec s = Spec("za", dir.path());  // 8 MiB
  s.rw = fio::FioRwMode::kRandRead;
  s.random_distribution.kind = fio::FioDistributionKind::kZonedAbs;
  s.random_distribution.zones[0] = {{0.5, 0, 4 << 20}, {0.5, 0, 8 << 20}};
  s.given.push_back({"random_distribution", {"job.fio", 6, false}});
  std::vector<FioJobSpec> specs = {s};
  auto plan = PlanFioJobs(specs, OneStep(1), DefaultFileSystem());
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().message(),
            "job.fio:6: fio option 'random_distribution': zoned_abs zones add up to 12582912 "
            "bytes, beyond the 8388608 bytes the job does I/O on in each file");
  specs[0].random_distribution.zones[0][1].size_bytes = 4 << 20;
  EXPECT_OK(PlanFioJobs(specs, OneStep(1), DefaultFileSystem()));
}

TEST(FioPlanTest, AnExistingFileGivesTheSizeAndOffsetsResolveAgainstIt) {
  TempDir dir;
  const std::string path = dir.Write("data", std::string(1 << 20, 'x'));
  FioJobSpec s = Spec("e", dir.path());
  s.size_given = false;
  s.filenames = {path};
  s.offset.is_fraction = true;
  s.offset.fraction = 0.5;
  std::vector<FioJobSpec> specs = {s};
  auto plan = PlanFioJobs(specs, OneStep(1), DefaultFileSystem());
  ASSERT_OK(plan);
  const FioJobSettings& j = plan->steps[0][0].settings;
  EXPECT_EQ(j.files, (std::vector<std::string>{path}));
  EXPECT_EQ(j.file_size, 1u << 20);
  EXPECT_EQ(j.pattern.region_offset, 512u << 10);
  EXPECT_EQ(j.pattern.region_length, 512u << 10);
  EXPECT_EQ(j.byte_limit, 512u << 10);  // from offset to the end, once

  FioJobSpec none = Spec("n", dir.path());
  none.size_given = false;
  specs = {none};
  auto bad = PlanFioJobs(specs, OneStep(1), DefaultFileSystem());
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("has no size"), std::string::npos);
}

}  // namespace
}  // namespace loadcell

namespace loadcell {
namespace {

// `path` as a job file's value: fio splits names at ':', so a Windows
// drive's colon is written `\:`.
std::string FioValue(const std::string& path) {
  std::string out;
  for (const char c : path) {
    if (c == ':') out += '\\';
    out += c;
  }
  return out;
}

// The plan of job file `text` (named t.fio) through the whole front end.
Result<FioPlan> PlanOfText(const std::string& text) {
  LC_ASSIGN_OR_RETURN(std::vector<FioJobSpec> specs, testing::FioSpecsOf(text));
  static std::vector<FioJobSpec> kept;  // the plan points into its specs
  kept = std::move(specs);
  return PlanFioJobs(kept, fio::ScheduleFioJobs(kept), DefaultFileSystem());
}

TEST(FioPlanDataTest, BufferAndVerifyOptionsRun) {
  TempDir dir;
  auto plan = PlanOfText("[j]\ndirectory=" + FioValue(dir.path()) +
                         "\nsize=1m\nrw=randwrite\nloops=2\nverify=md5\nverify_backlog=16\n"
                         "verify_fatal=1\nbuffer_compress_percentage=50\n"
                         "buffer_compress_chunk=1k\ndedupe_percentage=20\n"
                         "buffer_pattern=0xdeadbeef\nscramble_buffers=0\nrefill_buffers\n");
  ASSERT_OK(plan);
  const FioJobSettings& s = plan->steps[0][0].settings;
  EXPECT_EQ(s.verify, FioVerifyKind::kMd5);
  EXPECT_TRUE(s.do_verify);
  EXPECT_FALSE(s.verify_only);
  EXPECT_TRUE(s.verify_fatal);
  EXPECT_EQ(s.verify_backlog, 16u);
  EXPECT_EQ(s.verify_pass_bytes, 1u << 20);  // verified after each of the loops
  EXPECT_DOUBLE_EQ(s.buffers.compress_fraction, 0.5);
  EXPECT_EQ(s.buffers.compress_chunk, 1024u);
  EXPECT_DOUBLE_EQ(s.buffers.dedupe_fraction, 0.2);
  EXPECT_EQ(s.buffers.pattern, "\xde\xad\xbe\xef");
  EXPECT_FALSE(s.buffers.scramble);
  EXPECT_TRUE(s.buffers.refill);
}

TEST(FioPlanDataTest, VerifyCutsIoSizeToSizeAsFioDoes) {
  TempDir dir;
  const std::string head = "[j]\ndirectory=" + FioValue(dir.path()) +
                           "\nsize=1m\nio_size=2m\nrw=randwrite\nverify=crc32c\n";
  auto plan = PlanOfText(head);
  ASSERT_OK(plan);
  EXPECT_EQ(plan->steps[0][0].settings.byte_limit, 1u << 20);
  // Random offsets without the map may repeat: io_size stands.
  plan = PlanOfText(head + "norandommap\n");
  ASSERT_OK(plan);
  EXPECT_EQ(plan->steps[0][0].settings.byte_limit, 2u << 20);
  plan = PlanOfText(head + "loops=2\n");
  ASSERT_OK(plan);
  EXPECT_EQ(plan->steps[0][0].settings.byte_limit, 2u << 20);
  EXPECT_EQ(plan->steps[0][0].settings.verify_pass_bytes, 1u << 20);
}

TEST(FioPlanDataTest, VerifyPatternAloneVerifiesThePattern) {
  TempDir dir;
  auto plan = PlanOfText("[j]\ndirectory=" + FioValue(dir.path()) +
                         "\nsize=1m\nrw=write\nverify_pattern=\"ab\"0x00\nverify_only=0\n");
  ASSERT_OK(plan);
  const FioJobSettings& s = plan->steps[0][0].settings;
  EXPECT_EQ(s.verify, FioVerifyKind::kPattern);
  EXPECT_EQ(s.verify_pattern, std::string("ab\0", 3));
  EXPECT_EQ(s.verify_pass_bytes, 0u);  // one pass: verified at the end
  EXPECT_TRUE(s.buffers.refill);       // verify refills every write, as fio
}

TEST(FioPlanDataTest, VerifyThatCannotRunIsRefusedWithItsLine) {
  TempDir dir;
  const std::string head = "[j]\ndirectory=" + FioValue(dir.path()) + "\nsize=1m\n";
  const auto error = [&](const std::string& rest) {
    Result<FioPlan> plan = PlanOfText(head + rest);
    EXPECT_FALSE(plan.ok()) << rest;
    EXPECT_EQ(plan.status().code(), StatusCode::kInvalidArgument) << rest;
    return plan.status().message();
  };
  EXPECT_EQ(error("rw=write\nverify_only\n"),
            "t.fio:5: fio option 'verify_only' needs 'verify' (a type to check; fio would "
            "ignore verify_only and write)");
  EXPECT_EQ(error("rw=randwrite\ntime_based\nruntime=5\nverify=crc32c\n"),
            "t.fio:7: fio option 'verify' with 'time_based': the writes take all of runtime and "
            "the verify phase never starts (fio warns); give verify_backlog=N, do_verify=0 or drop "
            "time_based");
  EXPECT_EQ(error("rw=write\ntime_based\nruntime=5\nverify=crc32c\nverify_only\n"),
            "t.fio:8: fio option 'verify_only' does not run time_based jobs (fio's rule)");
  EXPECT_EQ(error("rw=write\nbs=48\nverify=sha256\n"),
            "t.fio:6: fio option 'verify=sha256' needs blocks of at least 64 bytes (its "
            "header); the smallest is 48");
  EXPECT_EQ(error("rw=randwrite\nbssplit=4k/50:8k/50\nblockalign=16\nverify=crc32c\n"),
            "t.fio:7: fio option 'verify=crc32c' needs blocks of at least 36 bytes (its "
            "header); the smallest is 16");
  // What may run: the same without the contradiction.
  EXPECT_OK(PlanOfText(head + "rw=randwrite\ntime_based\nruntime=5\nverify=crc32c\ndo_verify=0\n"));
  EXPECT_OK(PlanOfText(head + "rw=read\ntime_based\nruntime=5\nverify=crc32c\n"));
  EXPECT_OK(
      PlanOfText(head + "rw=randwrite\ntime_based\nruntime=5\nverify=crc32c\nverify_backlog=8\n"));
  EXPECT_OK(PlanOfText(head + "rw=write\nbs=64\nverify=sha256\n"));
  EXPECT_OK(PlanOfText(head + "rw=write\nbuffer_compress_chunk=0\n"));
}

TEST(FioPlanTest, MakingOrExtendingAFileIsRefusedUnderAllowFileCreate0AndReadonly) {
  TempDir dir;
  const std::string whole = dir.Write("whole", std::string(64 << 10, 'x'));
  const std::string short_file = dir.Write("short", std::string(4 << 10, 'x'));
  FioJobSpec s = Spec("j", dir.path());
  s.size.bytes = 64 << 10;
  s.filenames = {"missing"};
  s.allow_file_create = false;
  s.given.push_back({"allow_file_create", {"job.fio", 5, false}});
  std::vector<FioJobSpec> specs = {s};
  auto plan = PlanFioJobs(specs, OneStep(1), DefaultFileSystem());
  EXPECT_EQ(Refusal(plan),
            "job.fio:5: job j would create " + (dir / "missing") +
                ", which does not exist: allow_file_create=0 forbids making or extending a "
                "file");
  specs[0].filenames = {"short"};
  EXPECT_EQ(Refusal(PlanFioJobs(specs, OneStep(1), DefaultFileSystem())),
            "job.fio:5: job j would lay out " + short_file +
                " again (4096 bytes; it needs 65536): allow_file_create=0 forbids making or "
                "extending a file");
  specs[0].filenames = {"whole"};
  EXPECT_OK(PlanFioJobs(specs, OneStep(1), DefaultFileSystem()));
  // The null engine makes no file.
  specs[0].filenames = {"missing"};
  specs[0].ioengine = fio::FioEngine::kNull;
  EXPECT_OK(PlanFioJobs(specs, OneStep(1), DefaultFileSystem()));

  FioPlanOptions readonly;
  readonly.readonly = true;
  FioJobSpec r = Spec("j", dir.path());
  r.size.bytes = 64 << 10;
  r.filenames = {"missing"};
  specs = {r};
  EXPECT_EQ(Refusal(PlanFioJobs(specs, OneStep(1), DefaultFileSystem(), readonly)),
            "job.fio:1: job j would create " + (dir / "missing") +
                ", which does not exist: --readonly forbids making or extending a file");
  specs[0].filenames = {"whole"};
  EXPECT_OK(PlanFioJobs(specs, OneStep(1), DefaultFileSystem(), readonly));
  // A job that writes or trims at all, on a whole file or the null engine.
  for (const fio::FioRwMode rw : {fio::FioRwMode::kWrite, fio::FioRwMode::kRandMixed,
                                  fio::FioRwMode::kTrim, fio::FioRwMode::kTrimWrite}) {
    specs[0].rw = rw;
    specs[0].ioengine = fio::FioEngine::kNull;
    EXPECT_EQ(Refusal(PlanFioJobs(specs, OneStep(1), DefaultFileSystem(), readonly)),
              "job.fio:1: job j writes or trims: --readonly lets a job only read");
  }
  EXPECT_EQ(testing::ReadFile(whole), std::string(64 << 10, 'x'));
}

TEST(FioPlanTest, AFileInAFolderThatDoesNotExistIsRefusedAndNoFolderIsMade) {
  TempDir dir;
  FioJobSpec s = Spec("j", dir / "nope");
  s.rw = fio::FioRwMode::kRead;
  std::vector<FioJobSpec> specs = {s};
  EXPECT_EQ(Refusal(PlanFioJobs(specs, OneStep(1), DefaultFileSystem())),
            "job.fio:1: job j: the folder " + (dir / "nope") + " of " +
                JoinPath(dir / "nope", "j.0.0") +
                " does not exist: loadcell makes no folder for a job's files (fio would); "
                "make it first");
  specs[0].directories.clear();
  specs[0].filenames = {JoinPath(dir / "nope", "f")};
  specs[0].given.push_back({"filename", {"job.fio", 3, false}});
  auto plan = PlanFioJobs(specs, OneStep(1), DefaultFileSystem());
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().message().rfind("job.fio:3: job j: the folder ", 0), 0u)
      << plan.status().message();
  // With nothing to lay out, the missing file is named.
  specs[0].size_given = false;
  plan = PlanFioJobs(specs, OneStep(1), DefaultFileSystem());
  EXPECT_EQ(Refusal(plan),
            "job.fio:1: job j has no size (" + JoinPath(dir / "nope", "f") +
                " is missing or empty): give size=, filesize= or an existing filename=");
  EXPECT_FALSE(DefaultFileSystem().Stat(dir / "nope")->exists);
}

}  // namespace
}  // namespace loadcell
