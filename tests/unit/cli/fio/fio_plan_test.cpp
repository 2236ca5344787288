#include "cli/fio/fio_plan.h"

#include <gtest/gtest.h>

#include "testing/status.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using fio::FioJobInstance;
using fio::FioJobSpec;
using fio::FioRunStep;
using testing::TempDir;

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
  s.ioengine = fio::FioEngine::kIoUring;
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

TEST(FioPlanTest, WhatCannotRunYetIsRefusedWithItsLine) {
  TempDir dir;
  FioJobSpec s = Spec("r", dir.path());
  s.rate_iops = {100, 100, 100};
  s.given.push_back({"rate_iops", {"job.fio", 7, false}});
  std::vector<FioJobSpec> specs = {s};
  auto plan = PlanFioJobs(specs, OneStep(1), DefaultFileSystem());
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(plan.status().message(),
            "job.fio:7: fio option 'rate_iops' is not supported by loadcell yet");

  FioJobSpec t = Spec("t", dir.path());
  t.rw = fio::FioRwMode::kRandTrim;
  specs = {t};
  EXPECT_FALSE(PlanFioJobs(specs, OneStep(1), DefaultFileSystem()).ok());
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
