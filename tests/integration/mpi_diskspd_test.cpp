// `loadcell diskspd` across MPI ranks: every rank runs the command line
// (its targets in the sub-folder rankN of each target's folder, or every
// rank on the same targets with --mpi-files=shared), rank 0 prints one
// DiskSpd report merged exactly, its rows every rank's threads. Through the
// real binary under mpirun (testing/mpirun.h), 1 s runs on 64 KiB files.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "testing/diskspd_run.h"
#include "testing/mpirun.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
// Named, not anonymous: a unity build joins this file with the other MPI
// tests.
namespace mpi_diskspd {

namespace fs = std::filesystem;
using diskspd::XmlElement;
using testing::CountOf;
using testing::DiskspdSectionTotal;
using testing::DiskspdXmlChild;
using testing::DiskspdXmlChildren;
using testing::ProcessResult;
using testing::RunMpi;
using testing::Show;
using testing::TempDir;
using testing::Tree;

// One row of the text report's "Total IO" table.
struct TextRow {
  int thread = 0;
  uint64_t bytes = 0;
  uint64_t ios = 0;
  double avg_ms = 0;  // -L's AvgLat
  std::string path;
};

// The rows of the "Total IO" table (with -L: AvgLat is the fifth column).
std::vector<TextRow> TotalRows(const std::string& text) {
  std::vector<TextRow> rows;
  const size_t at = text.find("\nTotal IO\n");
  if (at == std::string::npos) return rows;
  std::istringstream in(text.substr(at + 10));
  std::string line;
  int borders = 0;
  while (std::getline(in, line) && borders < 2) {
    if (line.rfind("-----", 0) == 0) {
      ++borders;
      continue;
    }
    if (borders != 1) continue;
    std::istringstream cells(line);
    TextRow r;
    char bar = 0;
    double mib = 0, iops = 0;
    cells >> r.thread >> bar >> r.bytes >> bar >> r.ios >> bar >> mib >> bar >> iops >> bar >>
        r.avg_ms >> bar;
    std::string rest;
    std::getline(cells, rest);
    // "| PATH (SIZE)" after the latency columns.
    const size_t last_bar = rest.rfind("| ");
    const size_t paren = rest.rfind(" (");
    if (last_bar != std::string::npos && paren != std::string::npos && paren > last_bar) {
      r.path = rest.substr(last_bar + 2, paren - last_bar - 2);
    }
    rows.push_back(r);
  }
  return rows;
}

// Every rank's thread listed once, the totals the rows' sums and the mean
// latency the merge of every row's (exact sums of the ranks' histograms:
// the I/O-weighted mean of the rows' means, within the printed rounding).
void ExpectMergedText(const ProcessResult& r, const std::vector<std::string>& paths) {
  EXPECT_EQ(CountOf(r.out, "Results for timespan 1:"), 1u) << Show(r);
  EXPECT_NE(r.out.find("thread count:\t\t2\n"), std::string::npos) << Show(r);
  const std::vector<TextRow> rows = TotalRows(r.out);
  ASSERT_EQ(rows.size(), 2u) << Show(r);
  uint64_t bytes = 0, ios = 0;
  double weighted_ms = 0;
  for (size_t k = 0; k < rows.size(); ++k) {
    EXPECT_EQ(rows[k].thread, static_cast<int>(k)) << Show(r);
    EXPECT_EQ(rows[k].path, paths[k]) << Show(r);
    EXPECT_GT(rows[k].ios, 0u) << Show(r);
    bytes += rows[k].bytes;
    ios += rows[k].ios;
    weighted_ms += rows[k].avg_ms * static_cast<double>(rows[k].ios);
  }
  const auto [total_bytes, total_ios] = DiskspdSectionTotal(r.out, "Total IO");
  EXPECT_EQ(total_bytes, bytes);
  EXPECT_EQ(total_ios, ios);
  const size_t total = r.out.find("total:", r.out.find("\nTotal IO\n"));
  ASSERT_NE(total, std::string::npos);
  std::istringstream cells(r.out.substr(total + 6));
  uint64_t b = 0, n = 0;
  double mib = 0, iops = 0, avg = 0;
  char bar = 0;
  cells >> b >> bar >> n >> bar >> mib >> bar >> iops >> bar >> avg;
  EXPECT_NEAR(avg, weighted_ms / static_cast<double>(ios), 0.0015) << Show(r);
}

TEST(MpiDiskspdTest, EveryRankOnItsOwnTargetMergedIntoOneReport) {
  const TempDir dir;
  const std::string target = dir / "t.dat";
  const std::string xml = dir / "res.xml";
  const ProcessResult r = RunMpi(2, {"diskspd", "-c64K", "-b4K", "-d1", "-W0", "-o1", "-r", "-w50",
                                     "-L", "-Rtext", "-Rxml:" + xml, target});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  const std::vector<std::string> paths = {dir / "rank0/t.dat", dir / "rank1/t.dat"};
  ExpectMergedText(r, paths);
  EXPECT_NE(r.out.find("loadcell: 2 MPI ranks merged, per-rank targets"), std::string::npos)
      << Show(r);
  // Both ranks' targets in the input parameters.
  for (const std::string& p : paths) {
    EXPECT_EQ(CountOf(r.out, "\tpath: '" + p + "'\n"), 1u) << Show(r);
    EXPECT_EQ(fs::file_size(p), 64u << 10) << p;
  }
  EXPECT_EQ(Tree(dir.path()), (std::set<std::string>{
                                  "rank0", "rank0/t.dat", "rank0/.loadcell-sqlio.manifest", "rank1",
                                  "rank1/t.dat", "rank1/.loadcell-sqlio.manifest", "res.xml"}));

  // The XML of the same run: a <Thread> per rank's thread, on its own
  // target, whose counts add up to the text's totals.
  Result<XmlElement> doc = diskspd::ReadXmlDocument(dir.Read("res.xml"));
  ASSERT_TRUE(doc.ok()) << doc.status().ToString();
  const XmlElement* span = DiskspdXmlChild(&*doc, "TimeSpan");
  ASSERT_NE(span, nullptr);
  EXPECT_EQ(DiskspdXmlChild(span, "ThreadCount")->text, "2");
  const std::vector<const XmlElement*> threads = DiskspdXmlChildren(span, "Thread");
  ASSERT_EQ(threads.size(), 2u);
  uint64_t ios = 0;
  for (size_t k = 0; k < threads.size(); ++k) {
    EXPECT_EQ(DiskspdXmlChild(threads[k], "Id")->text, std::to_string(k));
    const XmlElement* t = DiskspdXmlChild(threads[k], "Target");
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(DiskspdXmlChild(t, "Path")->text, paths[k]);
    ios += std::stoull(DiskspdXmlChild(t, "IOCount")->text);
  }
  EXPECT_EQ(ios, DiskspdSectionTotal(r.out, "Total IO").second);
}

TEST(MpiDiskspdTest, SharedTargetIsCreatedOnceAndRunByEveryRank) {
  const TempDir dir;
  const std::string target = dir / "t.dat";
  const ProcessResult r = RunMpi(2, {"diskspd", "--mpi-files=shared", "-c64K", "-b4K", "-d1", "-W0",
                                     "-o1", "-r", "-L", target});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  ExpectMergedText(r, {target, target});
  EXPECT_NE(r.out.find("loadcell: 2 MPI ranks merged, shared targets"), std::string::npos)
      << Show(r);
  EXPECT_EQ(CountOf(r.out, "\tpath: '" + target + "'\n"), 1u) << Show(r);
  EXPECT_EQ(Tree(dir.path()), (std::set<std::string>{"t.dat", ".loadcell-sqlio.manifest"}));
}

// A drive target (#N) is not moved into a rank's folder: each rank refuses
// it as a drive, naming it as given (on Linux: not a file, not a device).
TEST(MpiDiskspdTest, ADriveTargetStaysAsGivenOnEveryRank) {
  const ProcessResult r = RunMpi(2, {"diskspd", "-b4K", "-d1", "-W0", "#1"});
  EXPECT_EQ(r.exit_code, 2) << Show(r);
  EXPECT_NE(r.err.find("target '#1' is a Windows drive"), std::string::npos) << Show(r);
  EXPECT_EQ(r.err.find("rank1"), std::string::npos) << Show(r);
  EXPECT_EQ(r.err.find("does not exist"), std::string::npos) << Show(r);
}

// The same merged report under MPICH's launcher (its own library and ABI:
// cluster/mpi_mpich.cpp), the VMFleet case on an MPICH cluster.
TEST(MpiDiskspdTest, MpichMergesTheRanksTargetsTheSame) {
  const TempDir dir;
  testing::ChildWatch watch;
  watch.timeout_s = 90;
  const ProcessResult r = testing::RunCommand(
      testing::MpichCommand(
          2, {"diskspd", "-c64K", "-b4K", "-d1", "-W0", "-o1", "-r", "-w50", "-L", dir / "t.dat"}),
      watch);
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  ExpectMergedText(r, {dir / "rank0/t.dat", dir / "rank1/t.dat"});
  EXPECT_NE(r.out.find("loadcell: 2 MPI ranks merged, per-rank targets"), std::string::npos)
      << Show(r);
  EXPECT_EQ(Tree(dir.path()),
            (std::set<std::string>{"rank0", "rank0/t.dat", "rank0/.loadcell-sqlio.manifest",
                                   "rank1", "rank1/t.dat", "rank1/.loadcell-sqlio.manifest"}));
}

TEST(MpiDiskspdTest, RefusalIsOneLineAndLeavesNoRankFolder) {
  const TempDir dir;
  // No -c: each rank's own copy (rankN/t.dat) is missing.
  const ProcessResult r = RunMpi(2, {"diskspd", "-b4K", "-d1", "-W0", dir / "t.dat"});
  EXPECT_EQ(r.exit_code, 2) << Show(r);
  EXPECT_EQ(CountOf(r.err, "error:"), 1u) << Show(r);
  EXPECT_NE(r.err.find("rank0/t.dat' does not exist; give -c<size>"), std::string::npos) << Show(r);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(Tree(dir.path()), std::set<std::string>{});
}

}  // namespace mpi_diskspd
}  // namespace loadcell
