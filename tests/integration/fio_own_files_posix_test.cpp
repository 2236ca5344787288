// `loadcell fio` and the files it did not make: a job that would write to
// an existing file loadcell did not lay out is refused before anything is
// written (the file's bytes unchanged) unless --allow-destructive is given;
// reads of it run; files loadcell laid out are recorded in the folder's
// manifest and reused by later write jobs. And filesize ranges: each file's
// size drawn in the range, the job's bytes their total as fio counts them.

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
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
namespace fio_own_files {

constexpr const char* kManifest = ".loadcell-sqlio.manifest";

// 1 MiB that no layout of loadcell's writes (it writes random bytes).
std::string UserBytes() {
  std::string s(1 << 20, '\0');
  for (size_t i = 0; i < s.size(); ++i) s[i] = static_cast<char>('a' + i % 23);
  return s;
}

int64_t SizeOf(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 ? static_cast<int64_t>(st.st_size) : -1;
}

TEST(FioOwnFilesTest, AWriteToAUsersFileIsRefusedUntilAllowDestructive) {
  TempDir dir(BuildTree());
  const std::string bytes = UserBytes();
  dir.Write("mine.dat", bytes);
  const std::vector<std::string> job = {"--name=w",  "--rw=randwrite",  "--bs=4k",
                                        "--size=1m", "--number_ios=64", "--filename=mine.dat"};
  ProcessResult r = RunFio(dir, job);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("job w writes to mine.dat, an existing file loadcell did not lay out"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("--allow-destructive"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(dir.Read("mine.dat"), bytes);  // not one byte written
  EXPECT_FALSE(std::filesystem::exists(dir / kManifest));

  // A read job on it runs and leaves it as it was.
  ProcessResult read = RunFio(dir, {"--name=r", "--rw=randread", "--bs=4k", "--size=1m",
                                    "--number_ios=64", "--filename=mine.dat"});
  EXPECT_EQ(read.exit_code, 0) << read.err;
  EXPECT_EQ(dir.Read("mine.dat"), bytes);

  // With --allow-destructive the write goes, and the file stays the user's.
  std::vector<std::string> allowed = job;
  allowed.insert(allowed.begin(), "--allow-destructive");
  ProcessResult w = RunFio(dir, allowed);
  EXPECT_EQ(w.exit_code, 0) << w.err;
  EXPECT_NE(dir.Read("mine.dat"), bytes);
  EXPECT_EQ(SizeOf(dir / "mine.dat"), int64_t{1} << 20);
  EXPECT_EQ(RunFio(dir, job).exit_code, 2);
}

TEST(FioOwnFilesTest, AShortUsersFileIsNotLaidOutAgainForARead) {
  TempDir dir(BuildTree());
  dir.Write("short.dat", "a user's few bytes\n");
  ProcessResult r =
      RunFio(dir, {"--name=r", "--rw=read", "--bs=4k", "--size=64k", "--filename=short.dat"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("job r would lay out short.dat again (19 bytes; it needs 65536)"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(dir.Read("short.dat"), "a user's few bytes\n");
}

TEST(FioOwnFilesTest, FilesLoadcellLaidOutAreRecordedAndWrittenLater) {
  TempDir dir(BuildTree());
  ProcessResult r = RunFio(dir, {"--name=l", "--rw=read", "--bs=64k", "--size=1m"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string manifest = dir.Read(kManifest);
  EXPECT_NE(manifest.find("creating l.0.0 1048576 bytes by loadcell"), std::string::npos)
      << manifest;
  EXPECT_NE(manifest.find("created l.0.0 1048576 bytes by loadcell"), std::string::npos)
      << manifest;
  // A later write job on it needs no --allow-destructive; a longer one lays
  // it out again (it is loadcell's) and records the new size.
  r = RunFio(dir, {"--name=l", "--rw=randwrite", "--bs=4k", "--size=1m", "--number_ios=32"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = RunFio(dir, {"--name=l", "--rw=write", "--bs=64k", "--size=2m"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(SizeOf(dir / "l.0.0"), int64_t{2} << 20);
  EXPECT_NE(dir.Read(kManifest).find("created l.0.0 2097152 bytes by loadcell"), std::string::npos);
  r = RunFio(dir, {"--name=l", "--rw=randwrite", "--bs=4k", "--size=2m", "--number_ios=8"});
  EXPECT_EQ(r.exit_code, 0) << r.err;

  // unlink=1: the job's file is gone at its end and never recorded.
  r = RunFio(dir, {"--name=u", "--rw=write", "--size=256k", "--unlink=1"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "u.0.0"));
  EXPECT_EQ(dir.Read(kManifest).find(" u.0.0 "), std::string::npos);
}

TEST(FioOwnFilesTest, TheLayoutLineIsSaidOnlyForFilesLaidOutAsFioSaysIt) {
  TempDir dir(BuildTree());
  const std::vector<std::string> job = {"--name=j", "--rw=read", "--bs=64k", "--size=2m",
                                        "--nrfiles=2"};
  ProcessResult r = RunFio(dir, job);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("j: Laying out IO files (2 files / total 2MiB)\n"), std::string::npos)
      << r.out;
  // The files are there and long enough: nothing is laid out, nothing said.
  r = RunFio(dir, job);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("Laying out"), std::string::npos) << r.out;
  // One of them gone: only it is laid out again.
  std::filesystem::remove(dir / "j.0.1");
  r = RunFio(dir, job);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("j: Laying out IO file (1 file / 1MiB)\n"), std::string::npos) << r.out;
}

TEST(FioOwnFilesTest, ASecondRunOnFilesBeingLaidOutIsRefusedAndTheFirstGoesOn) {
  TempDir dir(BuildTree());
  const std::vector<std::string> job = {"--name=a",        "--rw=randrw", "--bs=4k",
                                        "--size=32m",      "--runtime=1", "--time_based",
                                        "--ioengine=psync"};
  std::vector<std::string> args = job;
  args.insert(args.begin(), "fio");
  ProcessResult second;
  ChildWatch watch;
  watch.cwd = dir.path();
  watch.timeout_s = 120;
  watch.marker = "a: Laying out IO file (1 file / 32MiB)";
  // The first run is laying out a.0.0 (then runs on it for a second): the
  // second may neither lay it out too nor run on it.
  watch.during = [&](int) { second = RunFio(dir, job); };
  ProcessResult first = RunLoadcell(args, watch);
  EXPECT_EQ(second.exit_code, 2) << Show(second);
  EXPECT_EQ(OutputLines(second.err), 1) << second.err;
  EXPECT_NE(second.err.find("fio: . is in use by another loadcell (pid "), std::string::npos)
      << second.err;
  EXPECT_NE(second.err.find(" loadcell fio); wait until it ends"), std::string::npos) << second.err;
  EXPECT_EQ(second.out, "");
  // The first one ran as it would alone: the file laid out whole and
  // recorded, its report, the lock let go.
  EXPECT_EQ(first.exit_code, 0) << Show(first);
  EXPECT_NE(first.out.find("Run status group 0 (all jobs):"), std::string::npos) << first.out;
  EXPECT_EQ(SizeOf(dir / "a.0.0"), int64_t{32} << 20);
  EXPECT_NE(dir.Read(kManifest).find("created a.0.0 33554432 bytes by loadcell"),
            std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir / ".loadcell-sqlio.lock"));
  // Alone, the second goes through.
  ProcessResult again = RunFio(dir, job);
  EXPECT_EQ(again.exit_code, 0) << Show(again);
}

// The files r.0.0 ... of a job named r, and their sizes.
std::vector<int64_t> FileSizes(const TempDir& dir, int n) {
  std::vector<int64_t> out;
  for (int f = 0; f < n; ++f) out.push_back(SizeOf(dir / ("r.0." + std::to_string(f))));
  return out;
}

TEST(FioFilesizeRangeTest, EachFilesSizeIsDrawnInTheRangeAndTheJobReadsThemAll) {
  TempDir dir(BuildTree());
  ProcessResult r = RunFio(dir, {"--output-format=json", "--name=r", "--rw=read", "--bs=4k",
                                 "--nrfiles=3", "--filesize=1m-4m"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<int64_t> sizes = FileSizes(dir, 3);
  int64_t total = 0;
  for (int64_t s : sizes) {
    EXPECT_GE(s, int64_t{1} << 20);
    EXPECT_LT(s, int64_t{4} << 20);
    EXPECT_EQ(s % 4096, 0);
    total += s;
  }
  EXPECT_NE(sizes[0], sizes[1]);  // drawn, not one size (768 possible)
  nlohmann::json jobs = FioJsonJobs(r);
  ASSERT_EQ(jobs.size(), 1u) << r.out;
  EXPECT_EQ(jobs[0]["read"]["io_bytes"].get<int64_t>(), total);
  EXPECT_EQ(jobs[0]["read"]["total_ios"].get<int64_t>(), total / 4096);

  // fio's colon form; the files are in the range, so they are kept as they
  // are, and size= bounds the job's bytes.
  r = RunFio(dir, {"--output-format=json", "--name=r", "--rw=randread", "--bs=4k", "--nrfiles=3",
                   "--filesize=1m:4m", "--size=2m"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(FileSizes(dir, 3), sizes);
  jobs = FioJsonJobs(r);
  ASSERT_EQ(jobs.size(), 1u) << r.out;
  EXPECT_EQ(jobs[0]["read"]["io_bytes"].get<int64_t>(), int64_t{2} << 20);
  EXPECT_EQ(jobs[0]["read"]["total_ios"].get<int64_t>(), 512);
}

}  // namespace fio_own_files
}  // namespace loadcell::testing
