// The fio plan's files: each file's size under a filesize range (fio's
// rule: drawn in [LOW, HIGH) and rounded down to the smallest block, an
// existing file in the range used as it is; size= bounds the job's bytes),
// and loadcell's rule for existing files it did not lay out (a write, trim
// or layout of one needs --allow-destructive; reads are allowed).

#include <gtest/gtest.h>

#include <filesystem>
#include <numeric>

#include "cli/fio/fio_plan.h"
#include "os/file_space.h"
#include "testing/status.h"
#include "testing/temp_dir.h"
#include "workloads/sqlio/sqlio_manifest.h"

namespace loadcell {
// Named, not anonymous: a unity build joins this file with fio_plan_test.
namespace fio_files_test {

using fio::FioJobInstance;
using fio::FioJobSpec;
using fio::FioRunStep;
using testing::TempDir;

FioJobSpec SizedSpec(const std::string& name, const std::string& dir) {
  FioJobSpec s;
  s.name = name;
  s.directories = {dir};
  s.origin.file = "job.fio";
  s.origin.line = 1;
  return s;
}

std::vector<FioRunStep> Instances(const std::string& name, int clones) {
  FioRunStep step;
  for (int c = 0; c < clones; ++c) step.instances.push_back(FioJobInstance{0, name, c, 0});
  return {step};
}

uint64_t SizeOfFile(const FioJobSettings& s, size_t f) { return s.FileSize(f); }

TEST(FioFileSizesTest, ARangeDrawsEachFilesSizeAndTheJobDoesThemAll) {
  TempDir dir;
  FioJobSpec s = SizedSpec("r", dir.path());
  s.nrfiles = 4;
  s.filesize_given = true;
  s.filesize = {1 << 20, 4 << 20};
  s.block_size = {8192, 4096, 4096};  // the smallest block rounds the sizes
  const std::vector<FioJobSpec> specs = {s};
  auto plan = PlanFioJobs(specs, Instances("r", 1), DefaultFileSystem());
  ASSERT_OK(plan);
  const FioJobSettings& j = plan->steps[0][0].settings;
  ASSERT_EQ(j.files.size(), 4u);
  uint64_t total = 0;
  bool differ = false;
  for (size_t f = 0; f < 4; ++f) {
    const uint64_t size = SizeOfFile(j, f);
    EXPECT_GE(size, 1u << 20) << f;
    EXPECT_LT(size, 4u << 20) << f;
    EXPECT_EQ(size % 4096, 0u) << f;
    EXPECT_LE(size, j.file_size) << f;
    differ = differ || size != SizeOfFile(j, 0);
    total += size;
  }
  EXPECT_TRUE(differ);  // four draws from 768 sizes
  EXPECT_EQ(j.pattern.region_lengths.size(), 4u);
  EXPECT_EQ(j.byte_limit, total);  // size is the files' total, as fio's

  // The same seed draws the same sizes; size= bounds the bytes only.
  std::vector<FioJobSpec> capped = specs;
  capped[0].size_given = true;
  capped[0].size.bytes = 2 << 20;
  auto again = PlanFioJobs(capped, Instances("r", 1), DefaultFileSystem());
  ASSERT_OK(again);
  const FioJobSettings& k = again->steps[0][0].settings;
  for (size_t f = 0; f < 4; ++f) EXPECT_EQ(SizeOfFile(k, f), SizeOfFile(j, f)) << f;
  EXPECT_EQ(k.byte_limit, 2u << 20);

  // A size above the files' total is cut to it (fio's rule).
  capped[0].size.bytes = uint64_t{64} << 20;
  auto above = PlanFioJobs(capped, Instances("r", 1), DefaultFileSystem());
  ASSERT_OK(above);
  EXPECT_EQ(above->steps[0][0].settings.byte_limit, total);
}

TEST(FioFileSizesTest, AnExistingFileInTheRangeKeepsItsSize) {
  TempDir dir;
  const std::string inside = dir.Write("inside", std::string(3 << 20, 'x'));
  const std::string above = dir.Write("above", std::string(5 << 20, 'x'));
  FioJobSpec s = SizedSpec("e", dir.path());
  s.filenames = {inside, above};
  s.filesize_given = true;
  s.filesize = {1 << 20, 4 << 20};
  const std::vector<FioJobSpec> specs = {s};
  auto plan = PlanFioJobs(specs, Instances("e", 1), DefaultFileSystem());
  ASSERT_OK(plan);
  const FioJobSettings& j = plan->steps[0][0].settings;
  EXPECT_EQ(SizeOfFile(j, 0), 3u << 20);
  EXPECT_GE(SizeOfFile(j, 1), 1u << 20);  // outside the range: drawn
  EXPECT_LT(SizeOfFile(j, 1), 4u << 20);
  EXPECT_EQ(j.byte_limit, SizeOfFile(j, 0) + SizeOfFile(j, 1));

  // An offset at or past a drawn size is refused with its line.
  std::vector<FioJobSpec> bad = specs;
  bad[0].offset.bytes = 4 << 20;
  bad[0].given.push_back({"offset", {"job.fio", 5, false}});
  auto refused = PlanFioJobs(bad, Instances("e", 1), DefaultFileSystem());
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().message().rfind("job.fio:5: offset 4194304 is not below", 0), 0u)
      << refused.status().message();
}

TEST(FioFileSizesTest, ARangeWithASkewedDistributionIsRefused) {
  TempDir dir;
  FioJobSpec s = SizedSpec("z", dir.path());
  s.rw = fio::FioRwMode::kRandRead;
  s.filesize_given = true;
  s.filesize = {1 << 20, 2 << 20};
  s.random_distribution.kind = fio::FioDistributionKind::kZipf;
  s.random_distribution.parameter = 1.2;
  s.given.push_back({"random_distribution", {"job.fio", 4, false}});
  const std::vector<FioJobSpec> specs = {s};
  auto plan = PlanFioJobs(specs, Instances("z", 1), DefaultFileSystem());
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(plan.status().message(),
            "job.fio:4: fio option 'random_distribution' other than random with a filesize "
            "range is not supported by loadcell yet");
}

// Records `path` (as it is now) as laid out by loadcell.
void RecordAsOurs(const std::string& dir, const std::string& name) {
  FileSystem& fs = DefaultFileSystem();
  auto info = fs.Stat(JoinPath(dir, name));
  ASSERT_OK(info);
  auto folder = OpenScopedDir(fs, dir);
  ASSERT_OK(folder);
  SqlioManifestEntry e;
  e.name = name;
  e.size = info->size;
  e.complete = true;
  e.id = info->id();
  ASSERT_OK(RecordSqlioFile(fs, folder->get(), e));
}

// Plans `s`; with `locks`, taking the folder locks into it.
Result<FioPlan> PlanWith(const FioJobSpec& s, bool allow_destructive,
                         FioFolderLocks* locks = nullptr) {
  static std::vector<FioJobSpec> kept;  // the plan points into its specs
  kept = {s};
  FioPlanOptions o;
  o.allow_destructive = allow_destructive;
  o.locks = locks;
  return PlanFioJobs(kept, Instances(s.name, 1), DefaultFileSystem(), o);
}

TEST(FioForeignFileTest, AWriteToAFileLoadcellDidNotLayOutNeedsAllowDestructive) {
  TempDir dir;
  const std::string path = dir.Write("w.0.0", std::string(1 << 20, 'u'));
  FioJobSpec s = SizedSpec("w", dir.path());
  s.size_given = true;
  s.size.bytes = 1 << 20;
  s.rw = fio::FioRwMode::kRandWrite;
  auto refused = PlanWith(s, false);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(refused.status().message(),
            "job.fio:1: job w writes to " + path +
                ", an existing file loadcell did not lay out (it is not listed in " +
                JoinPath(dir.path(), kSqlioManifestName) +
                "): loadcell changes such a file only with --allow-destructive");
  EXPECT_OK(PlanWith(s, true));

  // A trim, too (where files can be trimmed); a read of the same file, and
  // any job of the null engine, which touches no file, are allowed.
  if (CanPunchHoles()) {
    s.rw = fio::FioRwMode::kRandTrim;
    auto trim = PlanWith(s, false);
    ASSERT_FALSE(trim.ok());
    EXPECT_NE(trim.status().message().find("job w trims " + path), std::string::npos);
  }
  s.rw = fio::FioRwMode::kRandRead;
  EXPECT_OK(PlanWith(s, false));
  s.rw = fio::FioRwMode::kRandWrite;
  s.ioengine = fio::FioEngine::kNull;
  EXPECT_OK(PlanWith(s, false));
  s.ioengine = fio::FioEngine::kPsync;

  // Once the manifest lists the file as loadcell's, the write goes.
  s.rw = fio::FioRwMode::kRandWrite;
  RecordAsOurs(dir.path(), "w.0.0");
  EXPECT_OK(PlanWith(s, false));
}

TEST(FioForeignFileTest, ALayoutOfAShortFileLoadcellDidNotMakeIsAWrite) {
  TempDir dir;
  const std::string path = dir.Write("s.0.0", std::string(4096, 'u'));
  FioJobSpec s = SizedSpec("s", dir.path());
  s.size_given = true;
  s.size.bytes = 1 << 20;
  s.rw = fio::FioRwMode::kRead;
  auto refused = PlanWith(s, false);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("job s would lay out " + path +
                                            " again (4096 bytes; it needs 1048576)"),
            std::string::npos)
      << refused.status().message();
  EXPECT_OK(PlanWith(s, true));
  // The null engine lays nothing out: the read job runs.
  s.ioengine = fio::FioEngine::kNull;
  EXPECT_OK(PlanWith(s, false));
}

TEST(FioFolderLockTest, AFolderAnotherLoadcellHoldsIsRefusedBeforeItsFilesAreChecked) {
  TempDir dir;
  FioJobSpec s = SizedSpec("l", dir.path());
  s.size_given = true;
  s.size.bytes = 1 << 20;
  s.rw = fio::FioRwMode::kRandWrite;
  // Another loadcell is laying out l.0.0 (its manifest says `creating`):
  // the refusal names the lock, not the half-made file.
  dir.Write("l.0.0", std::string(4096, 'p'));
  auto held = LockSqlioFolder(DefaultFileSystem(), dir.path(), "loadcell fio");
  ASSERT_OK(held);
  FioFolderLocks locks;
  auto refused = PlanWith(s, false, &locks);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(refused.status().message().rfind(
                "fio: " + dir.path() + " is in use by another loadcell (pid ", 0),
            0u)
      << refused.status().message();
  EXPECT_TRUE(locks.locks.empty());
  held->Release();

  // Let go: the plan takes the lock (once for the folder) and holds it.
  std::filesystem::remove(dir / "l.0.0");
  s.nrfiles = 2;
  auto plan = PlanWith(s, false, &locks);
  ASSERT_OK(plan);
  EXPECT_EQ(locks.folders, std::vector<std::string>{dir.path()});
  ASSERT_EQ(locks.locks.size(), 1u);
  EXPECT_FALSE(LockSqlioFolder(DefaultFileSystem(), dir.path(), "loadcell sqlio").ok());
  locks.locks.clear();
  EXPECT_FALSE(std::filesystem::exists(dir / kSqlioLockName));
}

TEST(FioFolderLockTest, AReadOfWholeFilesOrTheNullEngineTakesNoLock) {
  TempDir dir;
  FioJobSpec s = SizedSpec("r", dir.path());
  s.size_given = true;
  s.size.bytes = 64 << 10;
  s.rw = fio::FioRwMode::kRandRead;
  dir.Write("r.0.0", std::string(64 << 10, 'x'));
  FioFolderLocks locks;
  ASSERT_OK(PlanWith(s, false, &locks));
  EXPECT_TRUE(locks.folders.empty());
  s.rw = fio::FioRwMode::kRandWrite;
  s.ioengine = fio::FioEngine::kNull;
  ASSERT_OK(PlanWith(s, false, &locks));
  EXPECT_TRUE(locks.folders.empty());
  // A read of a missing file lays it out: locked.
  s.ioengine = fio::FioEngine::kPsync;
  s.rw = fio::FioRwMode::kRandRead;
  std::filesystem::remove(dir / "r.0.0");
  ASSERT_OK(PlanWith(s, false, &locks));
  EXPECT_EQ(locks.folders.size(), 1u);
}

// Under MPI each rank's files are in its own folder (rankN), missing on the
// rank's first run: the plan makes it to lock it, so that a second run on
// that folder is refused then too. Let go, the lock file goes, and so does
// the folder made for it when empty; a folder that was there stays.
TEST(FioFolderLockTest, ARanksFolderMissingOnItsFirstRunIsMadeAndLocked) {
  TempDir dir;
  FioJobSpec s = SizedSpec("k", dir.path());
  s.size_given = true;
  s.size.bytes = 64 << 10;
  s.rw = fio::FioRwMode::kRandWrite;
  const std::vector<FioJobSpec> specs = {s};
  FioPlanOptions o;
  o.rank_folder = "rank1";
  const auto plan_rank = [&](FioFolderLocks& locks) {
    o.locks = &locks;
    return PlanFioJobs(specs, Instances("k", 1), DefaultFileSystem(), o);
  };
  const std::string rank = dir / "rank1";
  FioFolderLocks first;
  auto planned = plan_rank(first);
  ASSERT_OK(planned);
  EXPECT_EQ(planned->steps[0][0].settings.files, std::vector<std::string>{rank + "/k.0.0"});
  EXPECT_EQ(first.made, std::vector<std::string>{rank});
  EXPECT_EQ(first.folders, std::vector<std::string>{rank});
  EXPECT_TRUE(std::filesystem::exists(rank + "/" + kSqlioLockName));

  FioFolderLocks second;
  auto refused = plan_rank(second);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(
      refused.status().message().rfind("fio: " + rank + " is in use by another loadcell (pid ", 0),
      0u)
      << refused.status().message();
  EXPECT_TRUE(second.made.empty());
  EXPECT_TRUE(second.locks.empty());

  first.Release();
  EXPECT_FALSE(std::filesystem::exists(rank));
  // A rank folder that was there is locked, not made, and stays.
  std::filesystem::create_directory(rank);
  {
    FioFolderLocks again;
    ASSERT_OK(plan_rank(again));
    EXPECT_TRUE(again.made.empty());
    EXPECT_EQ(again.folders, std::vector<std::string>{rank});
  }
  EXPECT_TRUE(std::filesystem::exists(rank));
  EXPECT_FALSE(std::filesystem::exists(rank + "/" + kSqlioLockName));
  // Under a folder that does not exist the job is refused, nothing made.
  std::vector<FioJobSpec> nowhere = specs;
  nowhere[0].directories = {dir / "missing"};
  FioFolderLocks none;
  o.locks = &none;
  auto refused_nowhere = PlanFioJobs(nowhere, Instances("k", 1), DefaultFileSystem(), o);
  ASSERT_FALSE(refused_nowhere.ok());
  EXPECT_EQ(refused_nowhere.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(refused_nowhere.status().message().find("the folder " + (dir / "missing") + " of "),
            std::string::npos)
      << refused_nowhere.status().message();
  EXPECT_TRUE(none.made.empty());
  EXPECT_TRUE(none.locks.empty());
  EXPECT_FALSE(std::filesystem::exists(dir / "missing"));
}

}  // namespace fio_files_test
}  // namespace loadcell
