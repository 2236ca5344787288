// Tables are loadcell's only when it can prove it: every case through the
// real binary on SQLite, PostgreSQL and MariaDB. A case puts the database in
// a state (a table swapped after prepare, a user's own sbtest1, an
// interrupted prepare, tables made as sysbench makes them), runs one
// command and checks its exit code, its stderr and what the tables hold.
// A new finding is one more row of kCases.

#include <gtest/gtest.h>
#include <signal.h>

#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include "testing/oltp_test_env.h"

namespace loadcell {
namespace {

using testing::Args;
using testing::ChildWatch;
using testing::Concat;
using testing::CountLines;
using testing::RunLoadcell;
using testing::Show;
using testing::TestDatabase;

// The connection options of the database, and its driver.
struct Db {
  TestDatabase& db;
  std::string driver;
  Args Base(const std::string& workload) const {
    Args a = Concat(Concat({workload}, db.args()), {"--table-size=100"});
    if (workload == "oltp_read_write" || workload == "oltp_read_only")
      a.push_back("--range-size=10");
    return a;
  }
};

void Prepare(const Db& d) {
  auto r = RunLoadcell(Concat(d.Base("oltp_read_write"), {"prepare"}));
  ASSERT_EQ(r.exit_code, 0) << Show(r);
}

// sbtest1 created and loaded with the SQL of sysbench 1.0's oltp_common.lua
// (SQLite, which sysbench lacks, with the same columns): 100 rows, c =
// 'sysbench'.
void CreateSysbenchTable(const Db& d) {
  const std::string id = d.driver == "mysql"   ? "INTEGER NOT NULL AUTO_INCREMENT"
                         : d.driver == "pgsql" ? "SERIAL"
                                               : "INTEGER NOT NULL";
  d.db.Query("CREATE TABLE sbtest1(\n  id " + id +
             ",\n  k INTEGER DEFAULT '0' NOT NULL,\n  c CHAR(120) DEFAULT '' NOT NULL,\n"
             "  pad CHAR(60) DEFAULT '' NOT NULL,\n  PRIMARY KEY (id)\n)" +
             (d.driver == "mysql" ? " /*! ENGINE = innodb */" : ""));
  std::string insert = "INSERT INTO sbtest1(k, c, pad) VALUES";
  for (int i = 1; i <= 100; ++i) {
    insert += (i == 1 ? "(" : ",(") + std::to_string(i % 10) + ", 'sysbench', 'pad')";
  }
  d.db.Query(insert);
  d.db.Query("CREATE INDEX k_1 ON sbtest1(k)");
}

// After prepare, sbtest1 dropped and made again by its user (same name,
// same columns, one row with c = 'mine').
void SwapAfterPrepare(const Db& d) {
  Prepare(d);
  d.db.Query("DROP TABLE sbtest1");
  d.db.Query(
      "CREATE TABLE sbtest1 (id INTEGER NOT NULL PRIMARY KEY, k INTEGER NOT NULL, c CHAR(120) "
      "NOT NULL, pad CHAR(60) NOT NULL)");
  d.db.Query("INSERT INTO sbtest1 VALUES (1, 1, 'mine', 'x')");
}

// A user's own sbtest1 (id, payroll) with three rows.
void UsersPayroll(const Db& d) {
  d.db.Query("CREATE TABLE sbtest1 (id INTEGER, payroll INTEGER)");
  d.db.Query("INSERT INTO sbtest1 VALUES (1, 100), (2, 200), (3, 300)");
}

// A prepare killed (SIGKILL) while it loads sbtest1.
void KilledPrepare(const Db& d) {
  ChildWatch watch;
  watch.marker = "Inserting";
  watch.delay_ms = 200;
  watch.during = [](int pid) { kill(pid, SIGKILL); };
  auto r = RunLoadcell(
      Concat(Concat({"oltp_read_write"}, d.db.args()), {"--table-size=5000000", "prepare"}), watch);
  ASSERT_EQ(r.exit_code, 128 + SIGKILL) << Show(r);
  ASSERT_TRUE(d.db.TableExists("sbtest1"));
}

// sysbench's sbtest1, recorded in a registry of the layout of an older
// loadcell (name and workload only: nothing proves the table its own).
void OldRegistry(const Db& d) {
  CreateSysbenchTable(d);
  d.db.Query(
      "CREATE TABLE loadcell_tables (name VARCHAR(64) NOT NULL PRIMARY KEY, workload VARCHAR(64) "
      "NOT NULL)");
  d.db.Query("INSERT INTO loadcell_tables VALUES ('sbtest1', 'oltp_read_only')");
}

void KeepsMine(const Db& d) {
  EXPECT_EQ(d.db.Query("SELECT TRIM(c) FROM sbtest1"), std::vector<std::string>{"mine"});
}

void KeepsPayroll(const Db& d) {
  EXPECT_EQ(d.db.Query("SELECT SUM(payroll) FROM sbtest1"), std::vector<std::string>{"600"});
}

void KeepsSysbenchRows(const Db& d) {
  EXPECT_EQ(d.db.Query("SELECT COUNT(*) FROM sbtest1 WHERE c = 'sysbench'"),
            std::vector<std::string>{"100"});
}

struct TableCase {
  const char* name;
  std::function<void(const Db&)> arrange;
  const char* workload;
  Args command;  // options and the command, after the base options
  int exit_code;
  const char* err_has;  // on stderr ("" for nothing), which has `err_lines` lines
  size_t err_lines;
  std::function<void(const Db&)> check;
};

const std::vector<TableCase> kCases = {
    {"swapped_run_refuses",
     SwapAfterPrepare,
     "oltp_read_write",
     {"--events=5", "run"},
     2,
     "is not the one loadcell's prepare created",
     1,
     KeepsMine},
    {"swapped_cleanup_keeps",
     SwapAfterPrepare,
     "oltp_read_write",
     {"cleanup"},
     0,
     "replaced since prepare); left in place",
     1,
     [](const Db& d) {
       KeepsMine(d);
       EXPECT_FALSE(d.db.TableExists("loadcell_tables"));
     }},
    {"payroll_delete_refuses",
     UsersPayroll,
     "oltp_delete",
     {"--events=20", "run"},
     2,
     "was not created by loadcell's prepare",
     1,
     KeepsPayroll},
    {"payroll_delete_existing_refuses",
     UsersPayroll,
     "oltp_delete",
     {"--db-use-existing-tables=on", "--events=20", "run"},
     2,
     "has no column k, c, pad",
     1,
     KeepsPayroll},
    {"payroll_cleanup_keeps",
     UsersPayroll,
     "oltp_delete",
     {"cleanup"},
     0,
     "was not created by loadcell; left in place",
     1,
     KeepsPayroll},
    {"killed_prepare_run_refuses",
     KilledPrepare,
     "oltp_read_write",
     {"--events=5", "run"},
     2,
     "not completely prepared",
     1,
     [](const Db& d) { EXPECT_TRUE(d.db.TableExists("sbtest1")); }},
    {"killed_prepare_cleanup_drops",
     KilledPrepare,
     "oltp_read_write",
     {"cleanup"},
     0,
     "",
     0,
     [](const Db& d) {
       EXPECT_FALSE(d.db.TableExists("sbtest1"));
       EXPECT_FALSE(d.db.TableExists("loadcell_tables"));
     }},
    {"sysbench_tables_need_the_option",
     CreateSysbenchTable,
     "oltp_read_only",
     {"--events=5", "run"},
     2,
     "--db-use-existing-tables=on",
     1,
     KeepsSysbenchRows},
    {"sysbench_tables_read_only",
     CreateSysbenchTable,
     "oltp_read_only",
     {"--db-use-existing-tables=on", "--events=10", "run"},
     0,
     "",
     0,
     KeepsSysbenchRows},
    {"sysbench_tables_write_needs_the_option",
     CreateSysbenchTable,
     "oltp_write_only",
     {"--events=5", "run"},
     2,
     "--db-use-existing-tables=on",
     1,
     KeepsSysbenchRows},
    {"old_registry_cleanup_refuses",
     OldRegistry,
     "oltp_read_only",
     {"cleanup"},
     2,
     "written by an older loadcell",
     1,
     KeepsSysbenchRows},
    {"old_registry_run_refuses",
     OldRegistry,
     "oltp_read_only",
     {"--events=5", "run"},
     2,
     "--db-use-existing-tables=on",
     1,
     KeepsSysbenchRows},
    {"old_registry_run_existing",
     OldRegistry,
     "oltp_read_only",
     {"--db-use-existing-tables=on", "--events=5", "run"},
     0,
     "",
     0,
     KeepsSysbenchRows},
    {"sysbench_tables_cleanup_keeps",
     CreateSysbenchTable,
     "oltp_read_only",
     {"cleanup"},
     0,
     "left in place",
     1,
     KeepsSysbenchRows},
};

class OltpTablesTest : public ::testing::TestWithParam<std::tuple<size_t, std::string>> {};

TEST_P(OltpTablesTest, Case) {
  const TableCase& c = kCases[std::get<0>(GetParam())];
  const std::string& driver = std::get<1>(GetParam());
  TestDatabase db(driver, std::string("t_") + c.name);
  ASSERT_TRUE(db.error().empty()) << db.error();
  const Db d{db, driver};
  c.arrange(d);
  if (::testing::Test::HasFatalFailure()) return;
  auto r = RunLoadcell(Concat(d.Base(c.workload), c.command));
  EXPECT_EQ(r.exit_code, c.exit_code) << Show(r);
  if (*c.err_has != '\0') {
    EXPECT_NE(r.err.find(c.err_has), std::string::npos) << Show(r);
  }
  EXPECT_EQ(CountLines(r.err), c.err_lines) << Show(r);
  if (c.exit_code == 2) {
    EXPECT_EQ(r.out.find("SQL statistics"), std::string::npos) << Show(r);
  }
  c.check(d);
}

std::string CaseName(const ::testing::TestParamInfo<OltpTablesTest::ParamType>& info) {
  return std::string(kCases[std::get<0>(info.param)].name) + "_" + std::get<1>(info.param);
}

INSTANTIATE_TEST_SUITE_P(All, OltpTablesTest,
                         ::testing::Combine(::testing::Range<size_t>(0, kCases.size()),
                                            ::testing::Values(std::string("sqlite"),
                                                              std::string("pgsql"),
                                                              std::string("mysql"))),
                         CaseName);

}  // namespace
}  // namespace loadcell
