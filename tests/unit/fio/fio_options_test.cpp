#include "fio/fio_options.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "testing/fio_test_env.h"
#include "testing/status.h"

namespace loadcell::fio {
namespace {

using loadcell::testing::FakeFioFiles;
using loadcell::testing::FioSpecsOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

FioJobSpec OnlyJob(const std::string& text) {
  Result<std::vector<FioJobSpec>> r = FioSpecsOf(text);
  EXPECT_OK(r) << text;
  if (!r.ok() || r->size() != 1) {
    ADD_FAILURE() << "not one job: " << text;
    return {};
  }
  return (*r)[0];
}

std::string SpecErrorOf(const std::string& text) {
  Result<std::vector<FioJobSpec>> r = FioSpecsOf(text);
  EXPECT_FALSE(r.ok()) << text;
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument) << text;
  return r.status().message();
}

TEST(FioOptionTable, NamesAndAliasesAreUniqueAndComplete) {
  std::set<std::string_view> names;
  for (const FioOptionInfo& info : FioOptionTable()) {
    EXPECT_TRUE(names.insert(info.name).second) << info.name;
    for (std::string_view alias : info.aliases) EXPECT_TRUE(names.insert(alias).second) << alias;
    EXPECT_FALSE(info.kind.empty()) << info.name;
    EXPECT_FALSE(info.valid.empty()) << info.name;
    EXPECT_TRUE(static_cast<bool>(info.apply)) << info.name;
    EXPECT_EQ(FindFioOption(info.name), &info);
  }
  EXPECT_EQ(FindFioOption("readwrite"), FindFioOption("rw"));
  EXPECT_EQ(FindFioOption("zonemode"), nullptr);
}

TEST(FioOptionTable, EveryOptionTheIssueNamesIsThere) {
  for (const char* name : {"rw",
                           "rwmixread",
                           "rwmixwrite",
                           "percentage_random",
                           "bs",
                           "bsrange",
                           "bssplit",
                           "blockalign",
                           "offset",
                           "offset_increment",
                           "filesize",
                           "nrfiles",
                           "filename",
                           "directory",
                           "filename_format",
                           "unlink",
                           "overwrite",
                           "fallocate",
                           "create_on_open",
                           "ioengine",
                           "iodepth",
                           "iodepth_batch_submit",
                           "iodepth_batch_complete_min",
                           "iodepth_batch_complete_max",
                           "direct",
                           "buffered",
                           "sync",
                           "fsync",
                           "fdatasync",
                           "end_fsync",
                           "fsync_on_close",
                           "norandommap",
                           "randrepeat",
                           "randseed",
                           "random_generator",
                           "random_distribution",
                           "rate",
                           "rate_iops",
                           "rate_min",
                           "rate_iops_min",
                           "rate_process",
                           "thinktime",
                           "thinktime_spin",
                           "thinktime_blocks",
                           "zero_buffers",
                           "refill_buffers",
                           "scramble_buffers",
                           "buffer_compress_percentage",
                           "buffer_compress_chunk",
                           "buffer_pattern",
                           "dedupe_percentage",
                           "verify",
                           "do_verify",
                           "verify_only",
                           "verify_fatal",
                           "verify_backlog",
                           "verify_pattern",
                           "percentile_list",
                           "clat_percentiles",
                           "lat_percentiles",
                           "unified_rw_reporting",
                           "write_lat_log",
                           "write_bw_log",
                           "write_iops_log",
                           "log_avg_msec",
                           "cpus_allowed",
                           "thread",
                           "allow_mounted_write",
                           "description",
                           "name",
                           "stonewall",
                           "wait_for_previous",
                           "new_group",
                           "numjobs",
                           "group_reporting",
                           "startdelay",
                           "loops",
                           "ramp_time",
                           "runtime",
                           "time_based",
                           "size",
                           "io_size",
                           "number_ios"}) {
    EXPECT_NE(FindFioOption(name), nullptr) << name;
  }
}

TEST(FioOptionTable, DocsListEveryOption) {
  std::ifstream in(std::string(LOADCELL_SOURCE_DIR) + "/docs/fio.md");
  ASSERT_TRUE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  for (const FioOptionInfo& info : FioOptionTable()) {
    EXPECT_NE(text.str().find("| `" + std::string(info.name) + "` |"), std::string::npos)
        << info.name << " is not in docs/fio.md's table";
  }
}

TEST(FioOptionTable, EachDefaultGivenIsTheSpecsDefault) {
  // Giving an option its documented fio default changes nothing: the
  // table's defaults and FioJobSpec's agree.
  auto normalised = [](FioJobSpec spec) {
    spec.given.clear();
    spec.randseed_given = false;
    return spec;
  };
  const FioJobSpec baseline = normalised(OnlyJob("[j]\nsize=1m\n"));
  int checked = 0;
  for (const FioOptionInfo& info : FioOptionTable()) {
    const std::string_view d = info.fio_default;
    // The defaults that name another option, and size (the baseline's own).
    if (d.empty() || d == "size" || d == "bs" || d == "size/nrfiles" || d == "iodepth" ||
        info.name == "size") {
      continue;
    }
    const std::string job = "[j]\nsize=1m\n" + std::string(info.name) + "=" + std::string(d) + "\n";
    EXPECT_TRUE(normalised(OnlyJob(job)) == baseline) << job;
    ++checked;
  }
  EXPECT_GE(checked, 50);
}

TEST(BuildFioJobSpec, WhatFioAcceptsIsAccepted) {
  std::ifstream in(std::string(LOADCELL_SOURCE_DIR) + "/tests/data/fio_good_options.txt");
  ASSERT_TRUE(in.good());
  int lines = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    EXPECT_OK(FioSpecsOf("[j]\nfilename=/tmp/x\nsize=1m\n" + line + "\n")) << line;
    ++lines;
  }
  EXPECT_GE(lines, 80);
}

TEST(BuildFioJobSpec, FioDefaults) {
  const FioJobSpec spec = OnlyJob("[job]\nsize=1m\n");
  const FioJobSpec defaults;
  EXPECT_EQ(spec.name, "job");
  EXPECT_EQ(spec.rw, FioRwMode::kRead);
  EXPECT_EQ(spec.block_size, defaults.block_size);
  EXPECT_EQ(spec.block_size[0], 4096U);
  EXPECT_EQ(spec.block_size_range[1].min, 4096U);
  EXPECT_EQ(spec.block_size_range[1].max, 4096U);
  EXPECT_EQ(spec.ioengine, FioEngine::kPsync);
  EXPECT_EQ(spec.iodepth, 1);
  EXPECT_EQ(spec.iodepth_batch_complete_max, 1);
  EXPECT_DOUBLE_EQ(spec.rwmixread, 0.5);
  EXPECT_TRUE(spec.randrepeat);
  EXPECT_TRUE(spec.scramble_buffers);
  EXPECT_TRUE(spec.do_verify);
  EXPECT_TRUE(spec.clat_percentiles);
  EXPECT_EQ(spec.percentile_list.size(), 17U);
  EXPECT_EQ(spec.filename_format, "$jobname.$jobnum.$filenum");
  EXPECT_EQ(spec.fallocate, FioFallocate::kNative);
  EXPECT_TRUE(spec.size_given);
  EXPECT_EQ(spec.size.bytes, 1048576U);
  ASSERT_EQ(spec.given.size(), 1U);
  EXPECT_EQ(spec.given[0].name, "size");
}

TEST(BuildFioJobSpec, ATypicalJobFile) {
  const FioJobSpec spec = OnlyJob(
      "[global]\nioengine=libaio\ndirect=1\nruntime=30\ntime_based\n"
      "[rand]\nrw=randrw\nrwmixread=70\nbs=4k,8k\niodepth=32\nsize=1g\n"
      "filename=/dev/loop0:/dev/loop1\nthinktime=50\nramp_time=2s\nrate_iops=500,100\n"
      "random_distribution=zipf:1.2\ncpus_allowed=0-1\npercentile_list=99:99.9\n"
      "write_bw_log\nlog_avg_msec=500\nstartdelay=1-3\n");
  EXPECT_EQ(spec.ioengine, FioEngine::kLibaio);
  EXPECT_TRUE(spec.direct);
  EXPECT_EQ(spec.runtime_ns, 30'000'000'000);
  EXPECT_TRUE(spec.time_based);
  EXPECT_EQ(spec.rw, FioRwMode::kRandMixed);
  EXPECT_DOUBLE_EQ(spec.rwmixread, 0.7);
  EXPECT_THAT(spec.block_size, ElementsAre(4096U, 8192U, 8192U));
  EXPECT_EQ(spec.block_size_range[1].max, 8192U);
  EXPECT_EQ(spec.iodepth, 32);
  EXPECT_EQ(spec.iodepth_batch_complete_max, 32);
  EXPECT_EQ(spec.size.bytes, uint64_t{1} << 30);
  EXPECT_THAT(spec.filenames, ElementsAre("/dev/loop0", "/dev/loop1"));
  EXPECT_EQ(spec.thinktime_ns, 50'000);
  EXPECT_EQ(spec.ramp_time_ns, 2'000'000'000);
  EXPECT_THAT(spec.rate_iops, ElementsAre(500U, 100U, 100U));
  EXPECT_EQ(spec.random_distribution.kind, FioDistributionKind::kZipf);
  EXPECT_THAT(spec.cpus_allowed, ElementsAre(0, 1));
  EXPECT_THAT(spec.percentile_list,
              ElementsAre(::testing::DoubleEq(0.99), ::testing::DoubleEq(0.999)));
  EXPECT_EQ(spec.write_bw_log, "rand");
  EXPECT_EQ(spec.log_avg_ns, 500'000'000);
  EXPECT_EQ(spec.startdelay.min_ns, 1'000'000'000);
  EXPECT_EQ(spec.startdelay.max_ns, 3'000'000'000);
  // The global options are recorded with their own lines.
  EXPECT_EQ(spec.given[0].name, "ioengine");
  EXPECT_EQ(spec.given[0].origin.line, 2);
}

TEST(BuildFioJobSpec, AliasesAreRecordedByTheirOptionsName) {
  const FioJobSpec spec = OnlyJob(
      "[job]\nreadwrite=write\nblocksize=16k\nio_limit=10m\ntimeout=5\nba=8k\nnr_files=3\n"
      "iodepth_batch=4\niodepth=8\nwait_for_previous\nsize=30m\nfileoffset=10%\nratemin=1m\n");
  EXPECT_EQ(spec.rw, FioRwMode::kWrite);
  EXPECT_EQ(spec.block_size[2], 16384U);
  EXPECT_EQ(spec.io_size.bytes, 10U << 20);
  EXPECT_EQ(spec.runtime_ns, 5'000'000'000);
  EXPECT_EQ(spec.block_align[0], 8192U);
  EXPECT_EQ(spec.nrfiles, 3);
  EXPECT_EQ(spec.iodepth_batch_submit, 4);
  EXPECT_TRUE(spec.stonewall);
  EXPECT_TRUE(spec.offset.is_fraction);
  EXPECT_DOUBLE_EQ(spec.offset.fraction, 0.1);
  EXPECT_EQ(spec.rate_min[0], 1U << 20);
  std::vector<std::string> given;
  for (const FioGivenOption& g : spec.given) given.push_back(g.name);
  EXPECT_THAT(given, ElementsAre("rw", "bs", "io_size", "runtime", "blockalign", "nrfiles",
                                 "iodepth_batch_submit", "iodepth", "stonewall", "size", "offset",
                                 "rate_min"));
}

TEST(BuildFioJobSpec, TheLaterOfTwoRelatedOptionsWins) {
  EXPECT_DOUBLE_EQ(OnlyJob("[j]\nsize=1m\nrwmixwrite=30\n").rwmixread, 0.7);
  EXPECT_DOUBLE_EQ(OnlyJob("[j]\nsize=1m\nrwmixwrite=30\nrwmixread=20\n").rwmixread, 0.2);
  EXPECT_TRUE(OnlyJob("[j]\nsize=1m\nbuffered=0\n").direct);
  EXPECT_FALSE(OnlyJob("[j]\nsize=1m\ndirect=1\nbuffered=1\n").direct);
  EXPECT_EQ(OnlyJob("[global]\nbs=8k\n[j]\nsize=1m\nbs=16k\n").block_size[0], 16384U);
}

TEST(BuildFioJobSpec, KbBaseAppliesToSizesGivenBeforeIt) {
  const FioJobSpec spec = OnlyJob("[j]\nsize=1m\nbs=4k\nkb_base=1000\n");
  EXPECT_EQ(spec.block_size[0], 4000U);
  EXPECT_EQ(spec.size.bytes, 1000000U);
}

TEST(BuildFioJobSpec, NameOverridesTheSectionAndBareLogsFollowIt) {
  const FioJobSpec spec = OnlyJob("[j]\nsize=1m\nwrite_lat_log\nname=renamed\nwrite_iops_log=p\n");
  EXPECT_EQ(spec.name, "renamed");
  EXPECT_EQ(spec.write_lat_log, "renamed");
  EXPECT_EQ(spec.write_iops_log, "p");
  EXPECT_EQ(spec.write_bw_log, "");
}

TEST(BuildFioJobSpec, ClampsAsFio) {
  FioJobSpec spec = OnlyJob(
      "[j]\nsize=1m\niodepth=8\niodepth_batch_complete_min=4\niodepth_batch_complete_max=2\n"
      "thinktime=10\nthinktime_spin=20\n");
  EXPECT_EQ(spec.iodepth_batch_complete_max, 4);
  EXPECT_EQ(spec.thinktime_spin_ns, 10'000);
}

TEST(BuildFioJobSpec, DepthDerivedDefaults) {
  FioJobSpec spec = OnlyJob("[j]\nsize=1m\niodepth=16\niodepth_batch_submit=64\n");
  EXPECT_EQ(spec.iodepth_batch_submit, 16);  // fio: never above the depth
  EXPECT_EQ(spec.iodepth_batch_complete_max, 16);
  spec =
      OnlyJob("[j]\nsize=1m\niodepth=16\niodepth_batch_submit=0\niodepth_batch_complete_max=4\n");
  EXPECT_EQ(spec.iodepth_batch_submit, 16);
  EXPECT_EQ(spec.iodepth_batch_complete_max, 4);
}

TEST(BuildFioJobSpec, RefusalsNameTheFileLineAndOption) {
  EXPECT_EQ(SpecErrorOf("[j]\nsize=1m\nzonemode=zbd\n"),
            "t.fio:3: fio option 'zonemode' is not supported by loadcell");
  EXPECT_EQ(SpecErrorOf("[j]\nsize=1m\nrwmixred=70\n"),
            "t.fio:3: fio option 'rwmixred' is not supported by loadcell (did you mean "
            "'rwmixread'?)");
  EXPECT_EQ(SpecErrorOf("[j]\nsize=1m\nbs_unaligned\n"),
            "t.fio:3: fio option 'bs_unaligned' is not supported by loadcell");
  EXPECT_EQ(SpecErrorOf("[j]\nsize=1m\nrwmixread=120\n"),
            "t.fio:3: fio option 'rwmixread': 120 is over 100: a percentage 0 to 100");
  EXPECT_EQ(SpecErrorOf("[j]\nsize=1m\ndirect\n"),
            "t.fio:3: fio option 'direct': needs a value: direct=0|1");
  EXPECT_EQ(SpecErrorOf("[j]\nsize=1m\nbssplit=4k/50:8k/40\n"),
            "t.fio:3: fio option 'bssplit': bssplit percentages add up to 90: they must add up "
            "to 100");
  EXPECT_EQ(SpecErrorOf("[j]\nsize=1m\nioengine=posixaio\n"),
            "t.fio:3: fio option 'ioengine': fio's engine 'posixaio' is not supported by loadcell "
            "(psync, sync, pvsync, pvsync2, libaio, io_uring, mmap, null, windowsaio)");
  EXPECT_THAT(SpecErrorOf("[j]\nsize=1m\nioengine=foo\n"), HasSubstr("'foo' is not one of psync"));
  EXPECT_THAT(SpecErrorOf("[j]\nsize=1m\nioengine=io_uring_cmd\n"),
              HasSubstr("fio's engine 'io_uring_cmd' is not supported by loadcell"));
  EXPECT_EQ(SpecErrorOf("[j]\nrw=read\n"),
            "t.fio:1: job 'j' has no size: give size=, filesize=, or filename= of a file or "
            "device to take it from");
  EXPECT_EQ(SpecErrorOf("[j]\nsize=1m\nrate=1m\nrate_iops=100\n"),
            "t.fio:4: fio options 'rate' and 'rate_iops' exclude each other: give one of them "
            "(fio's rule)");
  // In different directions too, as fio.
  EXPECT_THAT(SpecErrorOf("[j]\nsize=1m\nrate=,1m\nrate_iops=100,\n"),
              HasSubstr("t.fio:4: fio options 'rate' and 'rate_iops' exclude each other"));
  EXPECT_THAT(SpecErrorOf("[j]\nsize=1m\nrate=1m\nrate_min=2m\n"),
              HasSubstr("t.fio:4: fio option 'rate_min' is above 'rate' for read"));
  EXPECT_THAT(SpecErrorOf("[j]\nsize=6k\nbssplit=8k/50:16k/50\n"),
              HasSubstr("t.fio:2: fio option 'size' (6144) is smaller than the smallest block "
                        "size (8192)"));
  EXPECT_EQ(OnlyJob("[j]\nsize=2k\nbssplit=1k/50:4k/50\n").size.bytes, 2048U);
  EXPECT_EQ(SpecErrorOf("[j]\nsize=1m\ntime_based\n"),
            "t.fio:3: fio option 'time_based' needs 'runtime' (fio warns and drops time_based)");
  EXPECT_THAT(SpecErrorOf("[j]\nsize=1m\nverify=md5\nnorandommap\nioengine=libaio\niodepth=8\n"),
              HasSubstr("t.fio:3: fio option 'verify' with 'norandommap'"));
  EXPECT_THAT(SpecErrorOf("[global]\nbs=4q\n[j]\nsize=1m\n"),
              HasSubstr("t.fio:2: fio option 'bs'"));
}

TEST(ScheduleFioJobs, ClonesGroupsAndSteps) {
  FakeFioFiles files;
  files.files["a.fio"] =
      "[global]\nsize=1m\n[a]\nnumjobs=2\n[b]\n[c]\nstonewall\nnumjobs=3\n[d]\nnew_group\n";
  files.files["b.fio"] = "[e]\nsize=1m\n";
  Result<std::vector<FioSection>> sections = ParseJobFiles({"a.fio", "b.fio"}, files.Env());
  ASSERT_OK(sections);
  Result<std::vector<FioJobOptions>> jobs = ResolveJobs(*sections, {});
  ASSERT_OK(jobs);
  Result<std::vector<FioJobSpec>> specs = BuildFioJobSpecs(*jobs);
  ASSERT_OK(specs);
  const std::vector<FioRunStep> steps = ScheduleFioJobs(*specs);
  ASSERT_EQ(steps.size(), 3U);
  auto describe = [](const FioRunStep& step) {
    std::vector<std::string> out;
    for (const FioJobInstance& i : step.instances) {
      out.push_back(i.name + "." + std::to_string(i.clone_index) + "@" +
                    std::to_string(i.group_id));
    }
    return out;
  };
  EXPECT_THAT(describe(steps[0]), ElementsAre("a.0@0", "a.1@0", "b.0@0"));
  // c waits (stonewall, a new group); d runs beside it in a group of its own.
  EXPECT_THAT(describe(steps[1]), ElementsAre("c.0@1", "c.1@1", "c.2@1", "d.0@2"));
  // The second file's first job: an implied stonewall.
  EXPECT_THAT(describe(steps[2]), ElementsAre("e.0@3"));
  EXPECT_EQ(steps[2].instances[0].job, 4U);
}

TEST(ScheduleFioJobs, NoJobsNoSteps) { EXPECT_TRUE(ScheduleFioJobs({}).empty()); }

TEST(ScheduleFioJobs, AStonewallOnTheFirstJobStartsNoEmptyGroup) {
  Result<std::vector<FioJobSpec>> specs =
      FioSpecsOf("[a]\nsize=1m\nstonewall\nnew_group\n[b]\nsize=1m\n");
  ASSERT_OK(specs);
  const std::vector<FioRunStep> steps = ScheduleFioJobs(*specs);
  ASSERT_EQ(steps.size(), 1U);
  ASSERT_EQ(steps[0].instances.size(), 2U);
  EXPECT_EQ(steps[0].instances[0].group_id, 0);
  EXPECT_EQ(steps[0].instances[1].group_id, 0);
}

}  // namespace
}  // namespace loadcell::fio
