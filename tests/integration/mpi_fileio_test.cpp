// fileio across MPI ranks: --mpi-files=per-rank (each rank prepares, runs
// on and cleans up its own files in the sub-folder rankN of --file-dir; a
// rank whose files fail during the run stops every rank) and
// --mpi-files=shared (one set, prepared and cleaned up by rank 0, sequential
// modes split into one segment per rank). Through the real binary under
// mpirun (testing/mpirun.h).

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "testing/mpirun.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

namespace fs = std::filesystem;
using testing::FileIoCommand;
using testing::MpirunCommand;
using testing::ProcessResult;
using testing::RunMpi;
using testing::Show;
using testing::Tree;

std::vector<std::string> WithCommand(std::vector<std::string> args, const std::string& command) {
  args.push_back(command);
  return args;
}

TEST(MpiFileIoTest, EachRankPreparesRunsAndCleansItsOwnFolder) {
  for (const int ranks : {2, 3}) {
    const testing::TempDir dir;
    const std::vector<std::string> args = FileIoCommand(dir.path(), {"--file-num=2"});
    const ProcessResult prepared = RunMpi(ranks, WithCommand(args, "prepare"));
    ASSERT_EQ(prepared.exit_code, 0) << Show(prepared);
    std::set<std::string> expected;
    for (int r = 0; r < ranks; ++r) {
      const std::string sub = "rank" + std::to_string(r);
      expected.insert(sub);
      for (const char* f : {"/test_file.0", "/test_file.1", "/.loadcell-fileio.manifest"}) {
        expected.insert(sub + f);
      }
      // Each rank's files are whole: 4M over 2 files.
      EXPECT_EQ(fs::file_size(dir / (sub + "/test_file.1")), 2u << 20) << sub;
    }
    EXPECT_EQ(Tree(dir.path()), expected) << ranks;

    std::vector<std::string> run = args;
    run.insert(run.end(), {"--file-test-mode=rndrw", "--events=300", "--format=json", "run"});
    const ProcessResult r = RunMpi(ranks, run);
    ASSERT_EQ(r.exit_code, 0) << Show(r);
    const nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
    ASSERT_FALSE(doc.is_discarded()) << Show(r);
    EXPECT_EQ(doc["summary"]["events"], 300 * ranks) << Show(r);
    ASSERT_EQ(doc["cluster"]["ranks"].size(), static_cast<size_t>(ranks));
    for (const auto& k : doc["cluster"]["ranks"]) EXPECT_EQ(k["events"], 300) << k.dump();
    // The run left the folders as they were (the lock files are gone).
    EXPECT_EQ(Tree(dir.path()), expected) << ranks;

    const ProcessResult cleaned = RunMpi(ranks, WithCommand(args, "cleanup"));
    ASSERT_EQ(cleaned.exit_code, 0) << Show(cleaned);
    EXPECT_TRUE(Tree(dir.path()).empty()) << Show(cleaned);
    // A second cleanup finds nothing to do.
    const ProcessResult again = RunMpi(ranks, WithCommand(args, "cleanup"));
    EXPECT_EQ(again.exit_code, 0) << Show(again);
  }
}

TEST(MpiFileIoTest, CleanupLeavesWhatIsNotOurs) {
  const testing::TempDir dir;
  const std::vector<std::string> args = FileIoCommand(dir.path(), {"--file-num=1"});
  ASSERT_EQ(RunMpi(2, WithCommand(args, "prepare")).exit_code, 0);
  dir.Write("rank1/notes.txt", "mine");
  const ProcessResult cleaned = RunMpi(2, WithCommand(args, "cleanup"));
  ASSERT_EQ(cleaned.exit_code, 0) << Show(cleaned);
  EXPECT_EQ(Tree(dir.path()), (std::set<std::string>{"rank1", "rank1/notes.txt"}));
}

// Rank 2's files are cut to nothing while every rank reads: its reads come
// back short, it fails, and rank 0 stops the others long before --time.
TEST(MpiFileIoTest, ARankWhoseFilesFailStopsEveryRank) {
  const testing::TempDir dir;
  const std::vector<std::string> args = FileIoCommand(dir.path(), {"--file-num=2"});
  ASSERT_EQ(RunMpi(3, WithCommand(args, "prepare")).exit_code, 0);
  std::vector<std::string> run = args;
  run.insert(run.end(), {"--file-test-mode=rndrd", "--time=60", "run"});
  testing::ChildWatch watch;
  watch.timeout_s = 90;
  watch.delay_ms = 500;
  watch.during = [&](int) {
    for (const char* f : {"rank2/test_file.0", "rank2/test_file.1"}) fs::resize_file(dir / f, 0);
  };
  const ProcessResult r = testing::RunCommand(MpirunCommand(3, run), watch);
  EXPECT_EQ(r.exit_code, 1) << Show(r);
  EXPECT_LT(r.seconds_after_action, 20) << Show(r);
  EXPECT_NE(r.out.find("Run failed: rank 2 ("), std::string::npos) << Show(r);
  EXPECT_NE(r.err.find("loadcell: error: rank 2 ("), std::string::npos) << Show(r);
  EXPECT_NE(r.err.find("short read"), std::string::npos) << Show(r);
  EXPECT_EQ(testing::CountOf(r.out, "Ranks: 3\n"), 1u) << Show(r);
  // Nothing stray: each folder holds its files and manifest, no lock file.
  for (const char* sub : {"rank0", "rank1", "rank2"}) {
    EXPECT_EQ(Tree(dir / sub),
              (std::set<std::string>{"test_file.0", "test_file.1", ".loadcell-fileio.manifest"}))
        << sub;
  }
  EXPECT_EQ(RunMpi(3, WithCommand(args, "cleanup")).exit_code, 0);
  // The files the test cut are no longer what loadcell wrote: cleanup leaves
  // them, and their folder (only what it created goes).
  EXPECT_EQ(Tree(dir.path()),
            (std::set<std::string>{"rank2", "rank2/test_file.0", "rank2/test_file.1"}));
}

// Whether every `block`-byte block of the files holds something but zeros.
bool NoZeroBlock(const testing::TempDir& dir, int files, size_t block) {
  for (int i = 0; i < files; ++i) {
    const std::string data = testing::ReadFile(dir / ("test_file." + std::to_string(i)));
    if (data.empty()) return false;
    for (size_t at = 0; at < data.size(); at += block) {
      if (data.find_first_not_of('\0', at) >= at + block) return false;
    }
  }
  return true;
}

// --mpi-files=shared: rank 0 prepares one set in --file-dir itself (once:
// its progress is the only one), every rank runs on it, rank 0 cleans it up.
TEST(MpiFileIoTest, SharedFilesArePreparedOnceRunByEveryRankAndCleanedUpOnce) {
  const testing::TempDir dir;
  const std::vector<std::string> args = FileIoCommand(dir.path(), {"--mpi-files=shared"});
  std::vector<std::string> prepare = args;
  prepare.insert(prepare.end(), {"--file-write-pattern=zero", "prepare"});
  const ProcessResult prepared = RunMpi(4, prepare);
  ASSERT_EQ(prepared.exit_code, 0) << Show(prepared);
  EXPECT_EQ(testing::CountOf(prepared.out, "Creating files for the test"), 1u) << Show(prepared);
  const std::set<std::string> files = {"test_file.0", "test_file.1", "test_file.2", "test_file.3",
                                       ".loadcell-fileio.manifest"};
  EXPECT_EQ(Tree(dir.path()), files);

  // Sequential: 4 x 1M in 4K blocks are 1024 requests, 256 per rank's
  // segment. Each rank writes exactly its share once over the zeros; the
  // 1024 writes leave no block unwritten, so no two ranks wrote the same.
  std::vector<std::string> seq = args;
  seq.insert(seq.end(), {"--file-test-mode=seqrewr", "--events=256", "--file-fsync-freq=0",
                         "--file-fsync-end=off", "--format=json", "run"});
  const ProcessResult s = RunMpi(4, seq);
  ASSERT_EQ(s.exit_code, 0) << Show(s);
  nlohmann::json doc = nlohmann::json::parse(s.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << Show(s);
  EXPECT_EQ(doc["summary"]["events"], 1024) << Show(s);
  EXPECT_TRUE(NoZeroBlock(dir, 4, 4096)) << "the ranks' segments overlap or leave gaps";
  EXPECT_NE(s.out.find("one contiguous segment per rank"), std::string::npos) << Show(s);

  // Random: every rank over the whole set; the events are the ranks' sum.
  std::vector<std::string> rnd = args;
  rnd.insert(rnd.end(), {"--file-test-mode=rndrd", "--events=300", "--format=json", "run"});
  const ProcessResult r = RunMpi(4, rnd);
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  doc = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << Show(r);
  EXPECT_EQ(doc["summary"]["events"], 1200) << Show(r);
  for (const auto& k : doc["cluster"]["ranks"]) EXPECT_EQ(k["events"], 300) << k.dump();
  EXPECT_EQ(Tree(dir.path()), files) << "a run leaves no lock file behind";

  dir.Write("notes.txt", "mine");
  const ProcessResult cleaned = RunMpi(4, WithCommand(args, "cleanup"));
  ASSERT_EQ(cleaned.exit_code, 0) << Show(cleaned);
  EXPECT_EQ(testing::CountOf(cleaned.out, "Removed 4 files and the manifest."), 1u)
      << Show(cleaned);
  EXPECT_EQ(Tree(dir.path()), std::set<std::string>{"notes.txt"});
}

// Rank 0's lock holds the folder for every rank of the run: a second
// loadcell on it is refused while the run goes on.
TEST(MpiFileIoTest, ASharedRunHoldsTheFolderAgainstAnotherRun) {
  const testing::TempDir dir;
  const std::vector<std::string> args = FileIoCommand(dir.path(), {"--mpi-files=shared"});
  ASSERT_EQ(RunMpi(3, WithCommand(args, "prepare")).exit_code, 0);
  std::vector<std::string> run = args;
  run.insert(run.end(), {"--file-test-mode=rndrd", "--time=4", "run"});
  ProcessResult shared;
  std::thread mpi([&] { shared = RunMpi(3, run); });
  const std::string lock = dir / ".loadcell-fileio.lock";
  for (int i = 0; i < 200 && testing::ReadFile(lock).find('\n') == std::string::npos; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  const ProcessResult other = testing::RunLoadcell(
      FileIoCommand(dir.path(), {"--file-test-mode=rndrd", "--time=1", "run"}));
  mpi.join();
  EXPECT_EQ(shared.exit_code, 0) << Show(shared);
  EXPECT_EQ(other.exit_code, 2) << Show(other);
  EXPECT_NE(other.err.find("(rank 0 of 3 sharing these files)); wait until it ends"),
            std::string::npos)
      << Show(other);
  EXPECT_EQ(RunMpi(3, WithCommand(args, "cleanup")).exit_code, 0);
}

// Rank 0's prepare fails (a folder stands where a file goes): every rank
// ends, the others naming rank 0.
TEST(MpiFileIoTest, ASharedPrepareThatFailsOnRankZeroStopsEveryRank) {
  const testing::TempDir dir;
  fs::create_directory(dir / "test_file.2");
  const ProcessResult r = RunMpi(3, FileIoCommand(dir.path(), {"--mpi-files=shared", "prepare"}));
  EXPECT_NE(r.exit_code, 0) << Show(r);
  EXPECT_EQ(testing::CountOf(r.err, "loadcell: error: rank 0 ("), 2u) << Show(r);
  EXPECT_EQ(testing::CountOf(r.err, ") could not prepare the shared files (its error is above)"),
            2u)
      << Show(r);
  EXPECT_NE(r.err.find("test_file.2"), std::string::npos) << Show(r);
}

TEST(MpiFileIoTest, SharedFilesRefuseSeqwrInOneLine) {
  const testing::TempDir dir;
  const ProcessResult r =
      RunMpi(2, FileIoCommand(dir.path(), {"--mpi-files=shared", "--file-test-mode=seqwr", "run"}));
  EXPECT_EQ(r.exit_code, 2) << Show(r);
  EXPECT_NE(
      r.err.find(
          "loadcell: error: every rank: --mpi-files=shared: --file-test-mode=seqwr re-creates"),
      std::string::npos)
      << Show(r);
  EXPECT_TRUE(Tree(dir.path()).empty());
}

}  // namespace
}  // namespace loadcell
