// `loadcell fio` with create_on_open, fallocate, iodepth_batch_complete_min/
// _max and cpus_allowed: what the files hold afterwards, how many
// completions each reap took (fio's "complete" table) and the CPUs the job's
// thread was confined to (read back from the system).

#include <gtest/gtest.h>
#include <sched.h>
#include <sys/stat.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "testing/fio_run.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell::testing {
// Named, not anonymous: a unity build joins this file with the other fio
// tests.
namespace fio_layout {

ProcessResult Fio(const TempDir& dir, std::vector<std::string> args) {
  return RunFio(dir, std::move(args));
}

struct FileFacts {
  int64_t size = -1;
  int64_t allocated = -1;  // st_blocks bytes
};

FileFacts FactsOf(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return {};
  return {static_cast<int64_t>(st.st_size), static_cast<int64_t>(st.st_blocks) * 512};
}

nlohmann::json Jobs(const ProcessResult& r) { return FioJsonJobs(r); }

TEST(FioLayoutTest, CreateOnOpenMakesAWriteJobsFileEmptyAndTheJobWritesIt) {
  TempDir dir(BuildTree());
  // Four random 4 KiB writes into a 1 MiB region.
  const std::vector<std::string> job = {"--name=c",  "--rw=randwrite", "--bs=4k",
                                        "--size=1m", "--number_ios=4", "--filename=c.dat"};
  std::vector<std::string> args = job;
  args.push_back("--create_on_open=1");
  ProcessResult r = Fio(dir, args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("Laying out IO file"), std::string::npos) << r.out;
  const FileFacts made = FactsOf(dir / "c.dat");
  EXPECT_GT(made.size, 0);
  EXPECT_LE(made.size, int64_t{1} << 20);
  EXPECT_LT(made.allocated, 256 * 1024);  // 16 KiB written, not 1 MiB laid out

  // Without it the file is laid out whole first.
  args = job;
  args.back() = "--filename=l.dat";
  r = Fio(dir, args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Laying out IO file"), std::string::npos) << r.out;
  EXPECT_GE(FactsOf(dir / "l.dat").allocated, int64_t{1} << 20);
}

TEST(FioLayoutTest, EveryFallocateModeLaysOutTheWholeFile) {
  TempDir dir(BuildTree());
  for (const std::string mode : {"none", "native", "posix", "keep", "truncate", "0", "1"}) {
    SCOPED_TRACE(mode);
    const std::string file = "f_" + mode + ".dat";
    ProcessResult r = Fio(dir, {"--name=f", "--rw=read", "--bs=64k", "--size=1m",
                                "--fallocate=" + mode, "--filename=" + file});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const FileFacts f = FactsOf(dir / file);
    EXPECT_EQ(f.size, int64_t{1} << 20);
    EXPECT_GE(f.allocated, int64_t{1} << 20);
  }
}

// A write job's new file, as fio 3.33 leaves it after one 4 KiB write at
// its start (the figures of `fio --rw=write --size=1m --number_ios=1
// --fallocate=MODE --overwrite=N`): with overwrite=0 the layout only
// reserves the file as the mode says (none: nothing, sparse; keep: blocks
// past the end; truncate: a sparse 1 MiB), and the rest of the file holds
// zeros; with overwrite=1 it is written whole first, so that the job's
// writes overwrite data.
struct WriteLayoutCase {
  std::string mode;
  bool overwrite;
  int64_t size;
  bool whole_allocated;  // else at most 64 KiB allocated
  bool data_past_the_write;
};

TEST(FioLayoutTest, AWriteJobsFileIsWrittenFirstOnlyWithOverwrite) {
  TempDir dir(BuildTree());
  constexpr int64_t kMiB = int64_t{1} << 20;
  const WriteLayoutCase cases[] = {
      {"none", false, 4096, false, false},     {"native", false, kMiB, true, false},
      {"posix", false, kMiB, true, false},     {"keep", false, 4096, true, false},
      {"truncate", false, kMiB, false, false}, {"none", true, kMiB, true, true},
      {"native", true, kMiB, true, true},      {"keep", true, kMiB, true, true},
      {"truncate", true, kMiB, true, true},
  };
  for (const WriteLayoutCase& c : cases) {
    const std::string file = "w_" + c.mode + (c.overwrite ? "_1" : "_0") + ".dat";
    SCOPED_TRACE(file);
    ProcessResult r =
        Fio(dir, {"--name=w", "--rw=write", "--bs=4k", "--size=1m", "--number_ios=1",
                  "--fallocate=" + c.mode, std::string("--overwrite=") + (c.overwrite ? "1" : "0"),
                  "--filename=" + file});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // fio says it lays the file out either way.
    EXPECT_NE(r.out.find("w: Laying out IO file (1 file / 1MiB)"), std::string::npos) << r.out;
    const FileFacts f = FactsOf(dir / file);
    EXPECT_EQ(f.size, c.size);
    if (c.whole_allocated) {
      EXPECT_GE(f.allocated, kMiB);
    } else {
      EXPECT_LE(f.allocated, 64 * 1024);
    }
    // A block past the job's one write: zeros (or past the end) unless
    // the layout wrote it.
    std::ifstream in(dir / file, std::ios::binary);
    in.seekg(100 * 4096);
    std::string block(4096, '\0');
    in.read(block.data(), 4096);
    const bool data = in.gcount() == 4096 && block.find_first_not_of('\0') != std::string::npos;
    EXPECT_EQ(data, c.data_past_the_write);
  }

  // The file is the job's own at the size it left: the next run writes to
  // it without --allow-destructive, and lays out a file kept short again.
  ProcessResult again = Fio(dir, {"--name=w", "--rw=write", "--bs=4k", "--size=1m",
                                  "--number_ios=1", "--fallocate=none", "--filename=w_none_0.dat"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("Laying out IO file"), std::string::npos) << again.out;
  // A read job's file is written whole whatever overwrite says.
  ProcessResult read = Fio(dir, {"--name=r", "--rw=read", "--bs=4k", "--size=1m", "--number_ios=1",
                                 "--fallocate=none", "--filename=r.dat"});
  ASSERT_EQ(read.exit_code, 0) << read.err;
  EXPECT_EQ(FactsOf(dir / "r.dat").size, kMiB);
  EXPECT_GE(FactsOf(dir / "r.dat").allocated, kMiB);
}

// The share (percent) of reaps that took 1-4 and 9-16 completions.
std::pair<double, double> ReapShares(const nlohmann::json& job) {
  const nlohmann::json& c = job["iodepth_complete"];
  return {c["4"].get<double>(), c["16"].get<double>()};
}

TEST(FioLayoutTest, BatchCompleteMaxBoundsEachReap) {
  TempDir dir;
  const std::vector<std::string> job = {"--output-format=json",
                                        "--name=b",
                                        "--ioengine=null",
                                        "--rw=randread",
                                        "--bs=4k",
                                        "--size=4m",
                                        "--iodepth=16",
                                        "--iodepth_batch_submit=16"};
  ProcessResult r = Fio(dir, job);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json jobs = Jobs(r);
  ASSERT_EQ(jobs.size(), 1u) << r.out;
  // The null engine completes what was submitted at once: 16 a reap.
  EXPECT_GT(ReapShares(jobs[0]).second, 90.0) << jobs[0]["iodepth_complete"];

  std::vector<std::string> bounded = job;
  bounded.push_back("--iodepth_batch_complete_max=2");
  r = Fio(dir, bounded);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  jobs = Jobs(r);
  ASSERT_EQ(jobs.size(), 1u) << r.out;
  EXPECT_DOUBLE_EQ(ReapShares(jobs[0]).first, 100.0) << jobs[0]["iodepth_complete"];
}

TEST(FioLayoutTest, BatchCompleteMinWaitsForThatManyCompletions) {
  TempDir dir(BuildTree());
  ProcessResult r =
      Fio(dir, {"--output-format=json", "--name=m", "--ioengine=io_uring", "--rw=randread",
                "--bs=4k", "--size=4m", "--iodepth=16", "--iodepth_batch_submit=16",
                "--iodepth_batch_complete_min=16", "--filename=m.dat"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json jobs = Jobs(r);
  ASSERT_EQ(jobs.size(), 1u) << r.out;
  // 1024 reads, 16 in flight: every reap but the last takes 16.
  EXPECT_GT(ReapShares(jobs[0]).second, 90.0) << jobs[0]["iodepth_complete"];
  EXPECT_EQ(jobs[0]["read"]["total_ios"].get<uint64_t>(), 1024u);
}

std::vector<int> ProcessCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> out;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return out;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &set)) out.push_back(c);
  }
  return out;
}

TEST(FioLayoutTest, CpusAllowedConfinesEachJobsThread) {
  const std::vector<int> cpus = ProcessCpus();
  if (cpus.size() < 2) GTEST_SKIP() << "needs two CPUs";
  const std::string set = std::to_string(cpus[0]) + "," + std::to_string(cpus[1]);
  TempDir dir;
  const std::vector<std::string> job = {"--output-format=json",
                                        "--name=p",
                                        "--ioengine=null",
                                        "--rw=read",
                                        "--size=1m",
                                        "--numjobs=2",
                                        "--cpus_allowed=" + set};
  ProcessResult r = Fio(dir, job);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json jobs = Jobs(r);
  ASSERT_EQ(jobs.size(), 2u) << r.out;
  for (const nlohmann::json& j : jobs) {
    EXPECT_EQ(j["loadcell"]["cpus"], nlohmann::json(std::vector<int>{cpus[0], cpus[1]}));
  }
  std::vector<std::string> split = job;
  split.push_back("--cpus_allowed_policy=split");
  r = Fio(dir, split);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  jobs = Jobs(r);
  ASSERT_EQ(jobs.size(), 2u) << r.out;
  EXPECT_EQ(jobs[0]["loadcell"]["cpus"], nlohmann::json(std::vector<int>{cpus[0]}));
  EXPECT_EQ(jobs[1]["loadcell"]["cpus"], nlohmann::json(std::vector<int>{cpus[1]}));
}

TEST(FioLayoutTest, ACpuTheProcessMayNotUseIsRefused) {
  TempDir dir;
  ProcessResult r = Fio(dir, {"--name=x", "--size=1m", "--cpus_allowed=4095"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("fio option 'cpus_allowed': CPU 4095 is not one this process may use"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "x.0.0"));
}

}  // namespace fio_layout
}  // namespace loadcell::testing
