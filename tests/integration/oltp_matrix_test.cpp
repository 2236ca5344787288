// Every OLTP workload on every driver through the real binary: prepare, a
// short run, cleanup, against the throwaway PostgreSQL and MariaDB servers
// and a SQLite file; MariaDB also through the mysql driver's native
// connector ("mysql_native": --db-connector=native, what Windows uses).

#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "testing/oltp_test_env.h"

namespace loadcell {
namespace {

using testing::Args;
using testing::Concat;
using testing::ReportNumber;
using testing::RunLoadcell;
using testing::Show;
using testing::TestDatabase;

const std::vector<std::string> kWorkloads = {
    "oltp_read_only",       "oltp_read_write",       "oltp_write_only", "oltp_point_select",
    "oltp_update_index",    "oltp_update_non_index", "oltp_insert",     "oltp_delete",
    "select_random_points", "select_random_ranges",  "bulk_insert",     "oltp",
};

constexpr int kEvents = 40;

// Options that keep the tables small and the run short.
Args SizeArgs(const std::string& w) {
  if (w == "bulk_insert") return {};
  Args a = {"--table-size=1000"};
  if (w != "select_random_points" && w != "select_random_ranges") a.push_back("--tables=2");
  if (w == "oltp_read_only" || w == "oltp_read_write" || w == "oltp")
    a.push_back("--range-size=50");
  return a;
}

class OltpMatrixTest : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

// A driver of the matrix: "pgsql_native" is pgsql with --db-connector=native
// (loadcell's own connection, no libpq).
struct MatrixDriver {
  std::string driver;
  Args extra;
};
MatrixDriver DriverOf(const std::string& param) {
  if (param == "pgsql_native") return {"pgsql", {"--db-connector=native"}};
  if (param == "mysql_native") return {"mysql", {"--db-connector=native"}};
  return {param, {}};
}

TEST_P(OltpMatrixTest, PrepareRunCleanup) {
  const auto& [workload, param] = GetParam();
  const auto [driver, extra] = DriverOf(param);
  TestDatabase db(driver, "m_" + workload + (extra.empty() ? "" : "_n"));
  ASSERT_TRUE(db.error().empty()) << db.error();
  const Args base = Concat(Concat(Concat({workload}, db.args()), extra),
                           Concat(SizeArgs(workload), {"--threads=2"}));

  auto prep = RunLoadcell(Concat(base, {"prepare"}));
  ASSERT_EQ(prep.exit_code, 0) << Show(prep);
  EXPECT_NE(prep.out.find("Creating table 'sbtest1'"), std::string::npos) << Show(prep);
  EXPECT_TRUE(db.TableExists("sbtest1"));
  EXPECT_TRUE(db.TableExists("loadcell_tables"));
  if (workload != "bulk_insert" && workload != "oltp_insert") {
    EXPECT_EQ(db.Query("SELECT COUNT(*) FROM sbtest1"), std::vector<std::string>{"1000"});
  }

  auto run = RunLoadcell(Concat(base, {"--events=" + std::to_string(kEvents), "run"}));
  ASSERT_EQ(run.exit_code, 0) << Show(run);
  const std::string& out = run.out;
  EXPECT_NE(out.find("Database driver: " + driver), std::string::npos) << out;
  EXPECT_NE(out.find("Server version: "), std::string::npos) << out;
  // The test servers speak plain TCP: statements take loadcell's own path.
  if (driver == "sqlite") {
    EXPECT_EQ(out.find("Statements sent by:"), std::string::npos) << out;
  } else {
    EXPECT_NE(out.find("Statements sent by: loadcell's own protocol client"), std::string::npos)
        << out;
    EXPECT_EQ(out.find("--db-connector=native") != std::string::npos, !extra.empty()) << out;
  }
  EXPECT_NE(out.find("SQL statistics:"), std::string::npos) << out;
  EXPECT_EQ(ReportNumber(out, "    transactions:"), kEvents) << out;
  const long long reads = ReportNumber(out, "        read:");
  const long long writes = ReportNumber(out, "        write:");
  const long long others = ReportNumber(out, "        other:");
  EXPECT_EQ(ReportNumber(out, "        total:"), reads + writes + others) << out;
  if (workload == "oltp_read_only") {
    // 14 SELECTs plus BEGIN/COMMIT per transaction (retries add more).
    EXPECT_GE(reads, 14 * kEvents) << out;
    EXPECT_EQ(writes, 0) << out;
    EXPECT_GE(others, 2 * kEvents) << out;
  } else if (workload == "oltp_read_write" || workload == "oltp") {
    EXPECT_GE(reads, 14 * kEvents) << out;
    EXPECT_GE(writes + others, 6 * kEvents) << out;
  } else if (workload == "oltp_point_select") {
    EXPECT_EQ(reads, kEvents) << out;
    EXPECT_EQ(writes + others, 0) << out;
  } else if (workload == "bulk_insert") {
    // Forty rows per thread table at most: sent at the end, one INSERT each.
    EXPECT_EQ(reads, 0) << out;
    EXPECT_GE(writes, 1) << out;
  } else if (workload == "select_random_points" || workload == "select_random_ranges") {
    EXPECT_EQ(reads, kEvents) << out;
  } else {
    EXPECT_EQ(reads, 0) << out;
    EXPECT_GE(writes + others, kEvents) << out;
  }
  EXPECT_NE(out.find("CPU time per transaction:"), std::string::npos) << out;

  auto clean = RunLoadcell(Concat(base, {"cleanup"}));
  ASSERT_EQ(clean.exit_code, 0) << Show(clean);
  EXPECT_NE(clean.out.find("Dropping table 'sbtest1'"), std::string::npos) << Show(clean);
  EXPECT_FALSE(db.TableExists("sbtest1"));
  EXPECT_FALSE(db.TableExists("loadcell_tables"));

  // After cleanup, run says to prepare (exit 2), one line.
  auto again = RunLoadcell(Concat(base, {"--events=1", "run"}));
  EXPECT_EQ(again.exit_code, 2) << Show(again);
  EXPECT_NE(again.err.find("prepare"), std::string::npos) << Show(again);
  EXPECT_EQ(testing::CountLines(again.err), 1u) << Show(again);
}

std::string ParamName(const ::testing::TestParamInfo<OltpMatrixTest::ParamType>& info) {
  return std::get<0>(info.param) + "_" + std::get<1>(info.param);
}

INSTANTIATE_TEST_SUITE_P(
    All, OltpMatrixTest,
    ::testing::Combine(::testing::ValuesIn(kWorkloads),
                       ::testing::Values(std::string("sqlite"), std::string("pgsql"),
                                         std::string("pgsql_native"), std::string("mysql"),
                                         std::string("mysql_native"))),
    ParamName);

}  // namespace
}  // namespace loadcell
