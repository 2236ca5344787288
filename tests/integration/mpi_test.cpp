// MPI runs through the real binary under Open MPI's mpirun
// (testing/mpirun.h): the merged report on rank 0, what is refused, a rank
// that cannot start, and a plain run that never loads libmpi.

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "testing/mpirun.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::LoadcellBinary;
using testing::ProcessResult;
using testing::RunCommand;
using testing::RunLoadcell;
using testing::Show;

using testing::CountOf;
using testing::MpirunCommand;
using testing::RunMpi;

TEST(MpiRunTest, EventsAreTheSumOfTheRanksEvents) {
  struct Case {
    int ranks;
    int threads;
    int events;  // per rank (--events is each rank's own limit)
  };
  for (const Case& c : std::vector<Case>{{4, 1, 200}, {2, 2, 301}, {3, 1, 1}}) {
    const std::string name = std::to_string(c.ranks) + " ranks x " + std::to_string(c.threads) +
                             " threads, --events=" + std::to_string(c.events);
    const ProcessResult r =
        RunMpi(c.ranks, {"cpu", "--cpu-max-prime=2000", "--threads=" + std::to_string(c.threads),
                         "--events=" + std::to_string(c.events), "--format=json"});
    ASSERT_EQ(r.exit_code, 0) << name << "\n" << Show(r);
    // One document: only rank 0 prints.
    const nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, /*allow_exceptions=*/false);
    ASSERT_FALSE(doc.is_discarded()) << name << "\n" << Show(r);
    const auto total = static_cast<uint64_t>(c.ranks) * c.events;
    EXPECT_EQ(doc["summary"]["events"], total) << name;
    EXPECT_EQ(doc["summary"]["latency_ns"]["count"], total) << name;
    EXPECT_EQ(doc["manifest"]["threads"], c.ranks * c.threads) << name;
    ASSERT_EQ(doc["threads"].size(), static_cast<size_t>(c.ranks * c.threads)) << name;
    uint64_t thread_sum = 0;
    for (const auto& t : doc["threads"]) thread_sum += t["events"].get<uint64_t>();
    EXPECT_EQ(thread_sum, total) << name;
    const nlohmann::json& ranks = doc["cluster"]["ranks"];
    ASSERT_EQ(ranks.size(), static_cast<size_t>(c.ranks)) << name;
    uint64_t rank_sum = 0;
    for (int k = 0; k < c.ranks; ++k) {
      EXPECT_EQ(ranks[k]["rank"], k) << name;
      EXPECT_EQ(ranks[k]["threads"], c.threads) << name;
      EXPECT_EQ(ranks[k]["first_thread"], k * c.threads) << name;
      EXPECT_EQ(ranks[k]["events"], c.events) << name;
      EXPECT_TRUE(ranks[k]["failure"].is_null()) << name;
      EXPECT_FALSE(ranks[k]["host"].get<std::string>().empty()) << name;
      // The global window holds every rank's own.
      EXPECT_LE(ranks[k]["total_time_s"].get<double>(),
                doc["summary"]["total_time_s"].get<double>() + 1e-9)
          << name;
      rank_sum += ranks[k]["events"].get<uint64_t>();
    }
    EXPECT_EQ(rank_sum, total) << name;
  }
}

TEST(MpiRunTest, RankZeroPrintsTheOneTextAndCsvReport) {
  const ProcessResult text = RunMpi(3, {"cpu", "--cpu-max-prime=2000", "--events=50"});
  ASSERT_EQ(text.exit_code, 0) << Show(text);
  EXPECT_EQ(CountOf(text.out, "General statistics:"), 1u) << Show(text);
  EXPECT_EQ(CountOf(text.out, "total number of events:              150\n"), 1u) << Show(text);
  EXPECT_EQ(CountOf(text.out, "Ranks: 3\n"), 1u) << Show(text);
  EXPECT_EQ(CountOf(text.out, "max clock offset from rank 0:"), 1u) << Show(text);

  const ProcessResult csv =
      RunMpi(2, {"cpu", "--cpu-max-prime=2000", "--events=40", "--format=csv"});
  ASSERT_EQ(csv.exit_code, 0) << Show(csv);
  EXPECT_EQ(CountOf(csv.out, "time_s,duration_s,threads,events,"), 1u) << Show(csv);
  EXPECT_EQ(CountOf(csv.out, "\ntotal,"), 1u) << Show(csv);
  // The total row: 2 threads (one per rank), 80 events.
  const size_t total_row = csv.out.find("\ntotal,");
  ASSERT_NE(total_row, std::string::npos) << Show(csv);
  EXPECT_EQ(csv.out.compare(csv.out.find(',', total_row + 7), 6, ",2,80,"), 0) << Show(csv);
  EXPECT_EQ(CountOf(csv.out, "\nrank0,"), 1u) << Show(csv);
  EXPECT_EQ(CountOf(csv.out, "\nrank1,"), 1u) << Show(csv);
}

TEST(MpiRunTest, OffRunsEachRankOnItsOwn) {
  const ProcessResult r = RunMpi(2, {"cpu", "--cpu-max-prime=2000", "--events=10", "--mpi=off"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_EQ(CountOf(r.out, "General statistics:"), 2u) << Show(r);
  EXPECT_EQ(CountOf(r.out, "Ranks:"), 0u) << Show(r);
}

// LD_DEBUG=files makes the dynamic loader name every library it opens.
TEST(MpiRunTest, APlainRunDoesNotLoadLibmpi) {
  const ProcessResult plain =
      RunCommand({"env", "LD_DEBUG=files", LoadcellBinary(), "cpu", "--events=1"}, {});
  ASSERT_EQ(plain.exit_code, 0) << Show(plain);
  EXPECT_NE(plain.err.find("libfmt"), std::string::npos) << "LD_DEBUG had no effect\n" << plain.err;
  EXPECT_EQ(plain.err.find("libmpi"), std::string::npos) << plain.err;
  // The same check sees libmpi in an MPI run.
  std::vector<std::string> mpi = MpirunCommand(1, {"cpu", "--events=1"});
  mpi.insert(mpi.begin() + 3, {"-x", "LD_DEBUG=files"});
  const ProcessResult under = RunCommand(mpi, {});
  ASSERT_EQ(under.exit_code, 0) << Show(under);
  EXPECT_NE(under.err.find("libmpi.so.40"), std::string::npos) << under.err;
}

TEST(MpiRunTest, RefusedInOneLine) {
  const testing::TempDir dir;
  const std::string sqlite = "--sqlite-db=" + dir.File("lc.db");
  struct Case {
    int ranks;  // 0: without mpirun
    std::vector<std::string> args;
    std::string says;
  };
  const std::vector<Case> cases = {
      {0, {"cpu", "--mpi=on", "--events=1"}, "--mpi=on: no MPI launcher found"},
      {0, {"cpu", "--mpi", "--events=1"}, "--mpi=on: no MPI launcher found"},
      {0, {"cpu", "--mpi=sometimes", "--events=1"}, "--mpi=sometimes: expected auto, on or off"},
      // Refused once MPI started (every rank knows as much), before the
      // database file is created.
      {2,
       {"bulk_insert", "--db-driver=sqlite", sqlite, "run"},
       "bulk_insert: not supported across"},
      {2, {"bulk_insert", "--db-driver=sqlite", sqlite, "prepare"}, "bulk_insert: not supported"},
      {2, {"cpu", "--report-checkpoints=1"}, "--report-checkpoints: not merged across MPI"},
      {2, {"cpu", "--stonewall=on", "--time=1"}, "--stonewall=on: needs --events=N"},
      {2, {"cpu", "--stonewall=maybe", "--events=1"}, "--stonewall=maybe: expected on or off"},
      {2,
       {"cpu", "--mpi-timeout=0.1s", "--events=1"},
       "--mpi-timeout=0.1s: expected a duration from 0.5 s to 3600 s"},
      {0, {"cpu", "--mpi-timeout=forever", "--events=1"}, "--mpi-timeout=forever: expected"},
      {0, {"cpu", "--mpi-files=both", "--events=1"}, "--mpi-files=both: expected per-rank or"},
      {2, {"sqlio", "--mpi-files=both", "-s1", "testfile.dat"}, "--mpi-files=both: expected"},
  };
  for (const Case& c : cases) {
    const ProcessResult r = c.ranks == 0 ? RunLoadcell(c.args) : RunMpi(c.ranks, c.args);
    const std::string name = std::to_string(c.ranks) + " ranks: " + c.args[1];
    EXPECT_EQ(r.exit_code, 2) << name << "\n" << Show(r);
    EXPECT_EQ(r.out, "") << name;
    if (c.ranks == 0) {
      // Alone: that one line.
      EXPECT_EQ(r.err.find("loadcell: error: " + c.says), 0u) << name << "\n" << Show(r);
      EXPECT_EQ(CountOf(r.err, "\n"), 1u) << name << "\n" << r.err;
    } else {
      // Under mpirun: one line for the job, rank 0's (mpirun adds its own words).
      EXPECT_EQ(CountOf(r.err, "loadcell: error: "), 1u) << name << "\n" << Show(r);
      EXPECT_EQ(CountOf(r.err, c.says), 1u) << name << "\n" << Show(r);
    }
  }
  EXPECT_FALSE(std::filesystem::exists(dir.File("lc.db")));
}

// A rank that fails ends every rank at once, each with its exit code,
// never at the --time limit: `timeout` (exit 124) would end a hang.
TEST(MpiRunTest, AFailingRankEndsEveryRank) {
  const std::string bin = LoadcellBinary();
  struct Case {
    std::string name;
    std::string last_rank;  // the shell command of the last of 4 ranks
    int exit_code;
    std::string says;
  };
  const std::vector<Case> cases = {
      // Its block cannot be mapped under a 1 GB address-space limit.
      {"cannot start",
       "ulimit -v 1000000; exec " + bin + " memory --memory-block-size=2G --time=60 --mpi-mixed=on",
       1, "rank 3 ("},
      {"bad option", "exec " + bin + " memory --time=60 --no-such-option", 2,
       "unknown option '--no-such-option'"},
  };
  for (const Case& c : cases) {
    // --mpi-mixed=on: rank 3's block may be larger than the others'.
    std::vector<std::string> cmd =
        MpirunCommand(3, {"memory", "--time=60", "--mpi-mixed=on"}, /*timeout_s=*/40);
    testing::AddShellRank(cmd, c.last_rank);
    testing::ChildWatch watch;
    watch.timeout_s = 90;
    const ProcessResult r = RunCommand(cmd, watch);
    EXPECT_EQ(r.exit_code, c.exit_code) << c.name << "\n" << Show(r);
    EXPECT_NE(r.err.find(c.says), std::string::npos) << c.name << "\n" << Show(r);
    EXPECT_EQ(r.out.find("General statistics"), std::string::npos) << c.name << "\n" << Show(r);
  }
}

}  // namespace
}  // namespace loadcell
