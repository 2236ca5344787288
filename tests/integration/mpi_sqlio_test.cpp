// sqlio across MPI ranks: each rank on its own copies of the param file's
// files (--mpi-files=per-rank, in the sub-folder rankN next to each) or
// every rank on the same files (--mpi-files=shared, created by rank 0), one
// merged report in SQLIO's shape from rank 0. Through the real binary under
// mpirun (testing/mpirun.h).

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "testing/mpirun.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

namespace fs = std::filesystem;
using testing::CountOf;
using testing::ProcessResult;
using testing::RunMpi;
using testing::Show;
using testing::Tree;

// A param file naming one 4 MB file in `dir` with 2 threads.
std::string ParamFile(const testing::TempDir& dir) {
  return dir.Write("param.txt", (dir / "data.dat") + " 2 0x0 4\n");
}

// The merged JSON: its events are the ranks' sum, its threads every rank's.
void ExpectMerged(const ProcessResult& r, int ranks) {
  const nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << Show(r);
  const nlohmann::json& k = doc["cluster"]["ranks"];
  ASSERT_EQ(k.size(), static_cast<size_t>(ranks)) << Show(r);
  uint64_t sum = 0;
  for (const auto& one : k) {
    EXPECT_GT(one["events"].get<uint64_t>(), 0u) << one.dump();
    EXPECT_EQ(one["threads"], 2) << one.dump();
    sum += one["events"].get<uint64_t>();
  }
  EXPECT_EQ(doc["summary"]["events"].get<uint64_t>(), sum) << Show(r);
}

TEST(MpiSqlioTest, EachRankRunsOnItsOwnCopiesWithOneMergedReport) {
  const testing::TempDir dir;
  const std::string param = ParamFile(dir);
  const ProcessResult r = RunMpi(
      3, {"sqlio", "-kR", "-s1", "-frandom", "-BY", "--quiet", "--format=json", "-F" + param});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  ExpectMerged(r, 3);
  std::set<std::string> expected = {"param.txt"};
  for (const char* sub : {"rank0", "rank1", "rank2"}) {
    expected.insert(sub);
    expected.insert(std::string(sub) + "/data.dat");
    expected.insert(std::string(sub) + "/.loadcell-sqlio.manifest");
    EXPECT_EQ(fs::file_size(dir / (std::string(sub) + "/data.dat")), 4u << 20) << sub;
  }
  EXPECT_EQ(Tree(dir.path()), expected);

  // SQLIO's text, once, from the merged result: every rank's 2 threads.
  const ProcessResult text =
      RunMpi(3, {"sqlio", "-kW", "-s1", "-fsequential", "-BY", "-LS", "--quiet", "-F" + param});
  ASSERT_EQ(text.exit_code, 0) << Show(text);
  EXPECT_EQ(CountOf(text.out, "sqlio v1.5 compatible"), 1u) << Show(text);
  EXPECT_EQ(CountOf(text.out, "CUMULATIVE DATA:"), 1u) << Show(text);
  EXPECT_EQ(CountOf(text.out, "IOs/sec: "), 1u) << Show(text);
  EXPECT_EQ(CountOf(text.out, "MBs/sec: "), 1u) << Show(text);
  EXPECT_EQ(CountOf(text.out, "histogram:\nms:  0  1  2"), 1u) << Show(text);
  EXPECT_NE(text.out.find("\n     5 |"), std::string::npos) << "6 threads in all\n" << Show(text);
  EXPECT_EQ(text.out.find("\n     6 |"), std::string::npos) << Show(text);
  EXPECT_NE(text.out.find("3 ranks (--mpi-files=per-rank)"), std::string::npos) << Show(text);
}

TEST(MpiSqlioTest, EveryRankRunsOnTheSameFilesCreatedOnce) {
  const testing::TempDir dir;
  const std::string param = ParamFile(dir);
  const ProcessResult r = RunMpi(3, {"sqlio", "--mpi-files=shared", "-kR", "-s1", "-frandom", "-BY",
                                     "--format=json", "-F" + param});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  ExpectMerged(r, 3);
  // One file, made by rank 0 alone (its progress is the only one).
  EXPECT_EQ(Tree(dir.path()),
            (std::set<std::string>{"param.txt", "data.dat", ".loadcell-sqlio.manifest"}));
  EXPECT_EQ(CountOf(r.err, "data.dat: 100% (4.0MiB of 4.0MiB"), 1u) << Show(r);

  // Sequential on the same file: one segment per rank.
  const ProcessResult seq = RunMpi(3, {"sqlio", "--mpi-files=shared", "-kR", "-s1", "-fsequential",
                                       "-BY", "--quiet", "-F" + param});
  ASSERT_EQ(seq.exit_code, 0) << Show(seq);
  EXPECT_EQ(CountOf(seq.out, "CUMULATIVE DATA:"), 1u) << Show(seq);
  EXPECT_NE(seq.out.find("3 ranks (--mpi-files=shared): every rank on the same files, created "
                         "by rank 0; sequential: rank r of n on"),
            std::string::npos)
      << Show(seq);
}

// Rank 1's copy is a file loadcell did not make: -kW refuses it there. The
// ranks join to say so: one line, rank 0's, naming rank 1, exit 2 as the
// run of one process on that file, and rank 0 creates nothing.
TEST(MpiSqlioTest, ARankWhoseFileIsNotOursIsOneLineNamingIt) {
  const testing::TempDir dir;
  const std::string param = ParamFile(dir);
  fs::create_directory(dir / "rank1");
  dir.Write("rank1/data.dat", std::string(4 << 20, 'x'));
  const ProcessResult r =
      RunMpi(2, {"sqlio", "-kW", "-s1", "-frandom", "-BY", "--quiet", "-F" + param});
  const std::string alone = dir.Write("alone.txt", (dir / "rank1/data.dat") + " 2 0x0 4\n");
  const ProcessResult single =
      testing::RunLoadcell({"sqlio", "-kW", "-s1", "-frandom", "-BY", "--quiet", "-F" + alone});
  ASSERT_NE(single.exit_code, 0) << Show(single);
  EXPECT_EQ(r.exit_code, single.exit_code) << Show(r);
  EXPECT_EQ(CountOf(r.err, "loadcell: error: "), 1u) << Show(r);
  EXPECT_EQ(r.err.find("loadcell: error: rank 1 ("), 0u) << Show(r);
  EXPECT_NE(r.err.find("is not listed as created by loadcell sqlio"), std::string::npos) << Show(r);
  EXPECT_FALSE(fs::exists(dir / "rank0")) << Show(r);
}

}  // namespace
}  // namespace loadcell
