// `loadcell fio` with rw=trim, randtrim and trimwrite on files: each trim a
// hole punched in the file (what the file holds afterwards is checked), the
// trim direction in fio's JSON and text.

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdint>
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
namespace fio_trim {

ProcessResult Fio(const TempDir& dir, std::vector<std::string> args) {
  return RunFio(dir, std::move(args));
}

// The bytes of disk the file holds (st_blocks), -1 when it is missing.
int64_t Allocated(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return -1;
  return static_cast<int64_t>(st.st_blocks) * 512;
}

int64_t Size(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return -1;
  return static_cast<int64_t>(st.st_size);
}

nlohmann::json FirstJob(const ProcessResult& r) {
  const nlohmann::json jobs = FioJsonJobs(r);
  return jobs.empty() ? nlohmann::json(nullptr) : jobs[0];
}

TEST(FioTrimTest, TrimAndRandtrimPunchEveryBlockOfTheFileOnce) {
  // Under the folder the test runs in (the build tree): a disk file system.
  TempDir dir(BuildTree());
  for (const std::string mode : {"trim", "randtrim"}) {
    SCOPED_TRACE(mode);
    const std::string file = mode + ".dat";
    ProcessResult r = Fio(dir, {"--output-format=json", "--name=t", "--rw=" + mode, "--bs=64k",
                                "--size=1m", "--filename=" + file});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json job = FirstJob(r);
    ASSERT_FALSE(job.is_null()) << r.out;
    EXPECT_EQ(job["trim"]["total_ios"].get<uint64_t>(), 16u);
    EXPECT_EQ(job["trim"]["io_bytes"].get<uint64_t>(), uint64_t{1} << 20);
    EXPECT_EQ(job["trim"]["lat_ns"]["N"].get<uint64_t>(), 16u);
    EXPECT_EQ(job["read"]["total_ios"].get<uint64_t>(), 0u);
    EXPECT_EQ(job["write"]["total_ios"].get<uint64_t>(), 0u);
    // Laid out whole first, then every block trimmed: the size kept, no
    // block held.
    EXPECT_EQ(Size(dir / file), int64_t{1} << 20);
    EXPECT_EQ(Allocated(dir / file), 0);
  }
}

TEST(FioTrimTest, TrimwriteTrimsAndWritesEachBlock) {
  TempDir dir(BuildTree());
  ProcessResult r = Fio(dir, {"--output-format=json", "--name=tw", "--rw=trimwrite", "--bs=4k",
                              "--size=256k", "--filename=tw.dat"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json job = FirstJob(r);
  ASSERT_FALSE(job.is_null()) << r.out;
  // size counts the writes, each block trimmed before it is written.
  EXPECT_EQ(job["trim"]["total_ios"].get<uint64_t>(), 64u);
  EXPECT_EQ(job["write"]["total_ios"].get<uint64_t>(), 64u);
  EXPECT_EQ(job["write"]["io_bytes"].get<uint64_t>(), 256u * 1024);
  // The last write filled the last hole again.
  EXPECT_GE(Allocated(dir / "tw.dat"), 256 * 1024);
}

TEST(FioTrimTest, TheTextReportHasATrimLine) {
  TempDir dir;
  ProcessResult r =
      Fio(dir, {"--name=n", "--ioengine=null", "--rw=randtrim", "--bs=4k", "--size=1m"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("  trim: IOPS="), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("issued rwts: total=0,0,256,0"), std::string::npos) << r.out;
}

}  // namespace fio_trim
}  // namespace loadcell::testing
