// OLTP across MPI ranks against the throwaway PostgreSQL: prepare splits
// the tables across the ranks (each created and loaded once), the run's
// report merges every rank's, cleanup drops each table once, a global
// --rate is the rate of all ranks together, and a rank that fails in
// prepare ends every rank. Through the real binary under mpirun.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "testing/mpirun.h"
#include "testing/oltp_test_env.h"
#include "testing/run_binary.h"

namespace loadcell {
namespace {

using testing::Args;
using testing::Concat;
using testing::CountOf;
using testing::MpirunCommand;
using testing::ProcessResult;
using testing::RunMpi;
using testing::Show;
using testing::TestDatabase;

constexpr int kOltpRanks = 4;
constexpr int kRows = 500;

Args Oltp(const TestDatabase& db, int tables, const Args& more) {
  Args a = Concat({"oltp_point_select", "--tables=" + std::to_string(tables),
                   "--table-size=" + std::to_string(kRows), "--threads=2"},
                  db.args());
  return Concat(a, more);
}

// The sbtestN tables of the test's database, by name.
std::vector<std::string> Tables(TestDatabase& db) {
  return db.Query(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() "
      "AND table_name LIKE 'sbtest%' ORDER BY table_name");
}

nlohmann::json Json(const ProcessResult& r) {
  nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
  EXPECT_FALSE(doc.is_discarded()) << Show(r);
  return doc;
}

TEST(MpiOltpTest, PrepareSplitsTheTablesRunMergesAndCleanupDropsThemOnce) {
  TestDatabase db("pgsql", "mpi_split");
  ASSERT_TRUE(db.error().empty()) << db.error();
  const int tables = 6;  // ranks 0 and 1 load two, ranks 2 and 3 one
  const ProcessResult prepared = RunMpi(kOltpRanks, Oltp(db, tables, {"prepare"}));
  ASSERT_EQ(prepared.exit_code, 0) << Show(prepared);
  for (int n = 1; n <= tables; ++n) {
    const std::string t = "sbtest" + std::to_string(n);
    EXPECT_EQ(CountOf(prepared.out, "Creating table '" + t + "'...\n"), 1u) << t;
    EXPECT_EQ(db.Query("SELECT COUNT(*) FROM " + t), std::vector<std::string>{"500"}) << t;
  }
  EXPECT_EQ(Tables(db).size(), static_cast<size_t>(tables));
  for (const char* line : {"rank 0: Prepared 2 tables", "rank 1: Prepared 2 tables",
                           "rank 2: Prepared 1 table ", "rank 3: Prepared 1 table "}) {
    EXPECT_EQ(CountOf(prepared.out, line), 1u) << line << "\n" << Show(prepared);
  }
  EXPECT_EQ(db.Query("SELECT COUNT(*) FROM loadcell_tables WHERE state = 'complete'"),
            std::vector<std::string>{"6"});

  const ProcessResult run =
      RunMpi(kOltpRanks, Oltp(db, tables, {"--time=2", "--format=json", "run"}));
  ASSERT_EQ(run.exit_code, 0) << Show(run);
  const nlohmann::json doc = Json(run);
  ASSERT_EQ(doc["cluster"]["ranks"].size(), static_cast<size_t>(kOltpRanks)) << Show(run);
  uint64_t sum = 0;
  for (const auto& k : doc["cluster"]["ranks"]) {
    EXPECT_GT(k["events"].get<uint64_t>(), 0u) << k.dump();
    EXPECT_EQ(k["threads"], 2) << k.dump();
    sum += k["events"].get<uint64_t>();
  }
  EXPECT_EQ(doc["summary"]["events"].get<uint64_t>(), sum);
  EXPECT_EQ(doc["threads"].size(), 2u * kOltpRanks);

  const ProcessResult cleaned = RunMpi(kOltpRanks, Oltp(db, tables, {"cleanup"}));
  ASSERT_EQ(cleaned.exit_code, 0) << Show(cleaned);
  for (int n = 1; n <= tables; ++n) {
    EXPECT_EQ(CountOf(cleaned.out, "Dropping table 'sbtest" + std::to_string(n) + "'...\n"), 1u)
        << Show(cleaned);
  }
  EXPECT_TRUE(Tables(db).empty());
  EXPECT_FALSE(db.TableExists("loadcell_tables"));
}

// With fewer tables than ranks, the ranks without one wait for the others.
TEST(MpiOltpTest, RanksWithoutATableWait) {
  TestDatabase db("pgsql", "mpi_few");
  ASSERT_TRUE(db.error().empty()) << db.error();
  const ProcessResult prepared = RunMpi(kOltpRanks, Oltp(db, 2, {"prepare"}));
  ASSERT_EQ(prepared.exit_code, 0) << Show(prepared);
  EXPECT_EQ(CountOf(prepared.out, "Prepared "), 2u) << Show(prepared);
  EXPECT_EQ(Tables(db), (std::vector<std::string>{"sbtest1", "sbtest2"}));
  EXPECT_EQ(db.Query("SELECT COUNT(*) FROM sbtest2"), std::vector<std::string>{"500"});
  const ProcessResult run =
      RunMpi(kOltpRanks, Oltp(db, 2, {"--events=200", "--format=json", "run"}));
  ASSERT_EQ(run.exit_code, 0) << Show(run);
  EXPECT_EQ(Json(run)["summary"]["events"], 200 * kOltpRanks) << Show(run);
}

// --rate is the rate of every rank together: each rank runs its threads'
// slots of one schedule. A check of the split, not of speed: the bound is
// generous.
TEST(MpiOltpTest, TheRateIsTheGlobalOne) {
  TestDatabase db("pgsql", "mpi_rate");
  ASSERT_TRUE(db.error().empty()) << db.error();
  ASSERT_EQ(RunMpi(kOltpRanks, Oltp(db, 2, {"prepare"})).exit_code, 0);
  const double rate = 200;
  const ProcessResult run =
      RunMpi(kOltpRanks, Oltp(db, 2, {"--rate=200", "--time=3", "--format=json", "run"}));
  ASSERT_EQ(run.exit_code, 0) << Show(run);
  const nlohmann::json doc = Json(run);
  const double achieved = doc["summary"]["events_per_second"].get<double>();
  EXPECT_GT(achieved, 0.7 * rate) << Show(run);
  EXPECT_LT(achieved, 1.3 * rate) << Show(run);
  EXPECT_EQ(doc["summary"]["rate"]["target"], rate) << doc["summary"]["rate"].dump();
  // Each rank ran a quarter of it (each has a quarter of the threads).
  for (const auto& k : doc["cluster"]["ranks"]) {
    const double own = k["events_per_second"].get<double>();
    EXPECT_GT(own, 0.7 * rate / kOltpRanks) << k.dump();
    EXPECT_LT(own, 1.3 * rate / kOltpRanks) << k.dump();
  }
}

// Rank 0 finds a table it did not make: every rank ends before any table is
// created, naming rank 0's refusal.
TEST(MpiOltpTest, ARefusalOfRankZeroEndsEveryRank) {
  TestDatabase db("pgsql", "mpi_refuse");
  ASSERT_TRUE(db.error().empty()) << db.error();
  db.Query("CREATE TABLE sbtest3 (id INTEGER)");
  const ProcessResult r = RunMpi(kOltpRanks, Oltp(db, 4, {"prepare"}));
  EXPECT_EQ(r.exit_code, 2) << Show(r);
  EXPECT_NE(r.err.find("table sbtest3 already exists and was not created by loadcell"),
            std::string::npos)
      << Show(r);
  // Each other rank names it (mpirun may interleave the ranks' lines).
  EXPECT_EQ(CountOf(r.err, "rank 0 ("), static_cast<size_t>(kOltpRanks - 1)) << Show(r);
  EXPECT_EQ(Tables(db), std::vector<std::string>{"sbtest3"});
}

// Rank 3 is given other options than the rest (--tables=8, let through by
// --mpi-mixed=on): its share includes a table rank 0 did not record, so it
// fails, and every rank ends with its error; cleanup still drops what the
// others made.
TEST(MpiOltpTest, ARankThatFailsInPrepareEndsEveryRank) {
  TestDatabase db("pgsql", "mpi_fail");
  ASSERT_TRUE(db.error().empty()) << db.error();
  std::vector<std::string> command =
      MpirunCommand(kOltpRanks - 1, Oltp(db, 4, {"--mpi-mixed=on", "prepare"}));
  std::string last = "exec '" + testing::LoadcellBinary() + "'";
  for (const std::string& a : Oltp(db, 8, {"--mpi-mixed=on", "prepare"})) last += " '" + a + "'";
  testing::AddShellRank(command, last);
  testing::ChildWatch watch;
  watch.timeout_s = 90;
  const ProcessResult r = testing::RunCommand(command, watch);
  // Its refusal (FailedPrecondition) is every rank's: exit 2, no hang (124).
  EXPECT_EQ(r.exit_code, 2) << Show(r);
  EXPECT_NE(r.err.find("table sbtest8 was not recorded by rank 0's prepare"), std::string::npos)
      << Show(r);
  EXPECT_GE(CountOf(r.err, "rank 3 ("), 1u) << Show(r);
  EXPECT_EQ(CountOf(r.out, "rank 3: Prepared"), 0u) << Show(r);
  const ProcessResult cleaned = RunMpi(kOltpRanks, Oltp(db, 4, {"cleanup"}));
  EXPECT_EQ(cleaned.exit_code, 0) << Show(cleaned);
  EXPECT_TRUE(Tables(db).empty()) << Show(cleaned);
}

}  // namespace
}  // namespace loadcell
