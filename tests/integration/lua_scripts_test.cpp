// The Lua scripts of Debian's sysbench package, unmodified, through the real
// binary: prepare, run and cleanup on PostgreSQL and MariaDB (and SQLite
// where the script's SQL allows), with the statement mix per transaction
// that sysbench 1.0 counts. Tiny tables and --events limits keep it short.

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "testing/oltp_test_env.h"
#include "testing/status.h"

namespace loadcell {
namespace {

using testing::Args;
using testing::Client;
using testing::Concat;
using testing::ReportNumber;
using testing::RunLoadcell;
using testing::Show;
using testing::TestDatabase;

const char* const kScriptDir = "/usr/share/sysbench/";

struct Mix {
  const char* script;
  int reads, writes, others;  // per transaction with one thread; -1: not exact
};

const Mix kMixes[] = {
    {"oltp_read_write", 14, 4, 2},     {"oltp_read_only", 14, 0, 2},
    {"oltp_write_only", 0, 4, 2},      {"oltp_point_select", 1, 0, 0},
    {"oltp_insert", 0, 1, 0},          {"oltp_delete", 0, -1, -1},
    {"oltp_update_index", 0, 1, 0},    {"oltp_update_non_index", 0, 1, 0},
    {"select_random_points", 1, 0, 0}, {"select_random_ranges", 1, 0, 0},
};

bool HaveScripts() { return access("/usr/share/sysbench/oltp_common.lua", R_OK) == 0; }

class LuaScripts : public ::testing::TestWithParam<std::tuple<std::string, int>> {};

TEST_P(LuaScripts, PrepareRunCleanup) {
  if (!HaveScripts()) GTEST_SKIP() << "sysbench's scripts are not installed";
  const std::string driver = std::get<0>(GetParam());
  const Mix& mix = kMixes[std::get<1>(GetParam())];
  TestDatabase db(driver, std::string("lua_") + mix.script);
  ASSERT_TRUE(db.error().empty()) << db.error();
  const std::string script = std::string(kScriptDir) + mix.script + ".lua";
  const Args base = Concat({script, "--table-size=50"}, db.args());

  auto prep = RunLoadcell(Concat(base, {"--threads=2", "prepare"}));
  ASSERT_EQ(prep.exit_code, 0) << Show(prep);
  EXPECT_TRUE(db.TableExists("sbtest1"));

  const int events = 20;
  auto run = RunLoadcell(Concat(base, {"--threads=1", "--events=20", "run"}));
  ASSERT_EQ(run.exit_code, 0) << Show(run);
  EXPECT_EQ(ReportNumber(run.out, "    transactions:"), events) << run.out;
  const long long reads = ReportNumber(run.out, "        read:");
  const long long writes = ReportNumber(run.out, "        write:");
  const long long others = ReportNumber(run.out, "        other:");
  EXPECT_EQ(reads, mix.reads * events) << run.out;
  if (mix.writes >= 0) {
    EXPECT_EQ(writes, mix.writes * events) << run.out;
    EXPECT_EQ(others, mix.others * events) << run.out;
  } else {
    EXPECT_EQ(writes + others, events) << run.out;  // a DELETE hits a row or not
  }

  auto clean = RunLoadcell(Concat(base, {"cleanup"}));
  ASSERT_EQ(clean.exit_code, 0) << Show(clean);
  EXPECT_FALSE(db.TableExists("sbtest1"));
}

std::string Name(const ::testing::TestParamInfo<LuaScripts::ParamType>& p) {
  return std::get<0>(p.param) + "_" + kMixes[std::get<1>(p.param)].script;
}

INSTANTIATE_TEST_SUITE_P(Servers, LuaScripts,
                         ::testing::Combine(::testing::Values("pgsql", "mysql"),
                                            ::testing::Range(0, 10)),
                         Name);

class LuaBulkInsert : public ::testing::TestWithParam<std::string> {};

TEST_P(LuaBulkInsert, RowsArrive) {
  if (!HaveScripts()) GTEST_SKIP() << "sysbench's scripts are not installed";
  TestDatabase db(GetParam(), "lua_bulk_insert");
  ASSERT_TRUE(db.error().empty()) << db.error();
  const Args base = Concat({std::string(kScriptDir) + "bulk_insert.lua", "--threads=2"}, db.args());
  auto prep = RunLoadcell(Concat(base, {"prepare"}));
  ASSERT_EQ(prep.exit_code, 0) << Show(prep);
  auto run = RunLoadcell(Concat(base, {"--events=40", "run"}));
  ASSERT_EQ(run.exit_code, 0) << Show(run);
  EXPECT_EQ(ReportNumber(run.out, "    transactions:"), 40) << run.out;
  auto n1 = db.Query("SELECT count(*) FROM sbtest1");
  auto n2 = db.Query("SELECT count(*) FROM sbtest2");
  ASSERT_EQ(n1.size(), 1u);
  ASSERT_EQ(n2.size(), 1u);
  EXPECT_EQ(std::stoi(n1[0]) + std::stoi(n2[0]), 40);
  auto clean = RunLoadcell(Concat(base, {"cleanup"}));
  ASSERT_EQ(clean.exit_code, 0) << Show(clean);
  EXPECT_FALSE(db.TableExists("sbtest1"));
}

INSTANTIATE_TEST_SUITE_P(AllDrivers, LuaBulkInsert, ::testing::Values("sqlite", "pgsql", "mysql"));

// The verdict's database check on a Lua script's run (docs/validity.md):
// its sbtestN tables against the server's buffer pool, as for OLTP; tables
// of another name are not read, and the check says so (never a silent
// pass). The server's settings are recorded either way.
class LuaDataSetVerdict : public ::testing::TestWithParam<std::string> {};

TEST_P(LuaDataSetVerdict, SbtestTablesAreWeighedAgainstTheBufferPool) {
  const std::string script =
      std::string(LOADCELL_SOURCE_DIR) + "/tests/integration/scripts/verdict_rows.lua";
  for (const char* table : {"sbtest1", "mine"}) {
    SCOPED_TRACE(table);
    TestDatabase db(GetParam(), std::string("lua_verdict_") + table);
    ASSERT_TRUE(db.error().empty()) << db.error();
    const Args base = Concat({script, std::string("--table-name=") + table}, db.args());
    auto prep = RunLoadcell(Concat(base, {"prepare"}));
    ASSERT_EQ(prep.exit_code, 0) << Show(prep);
    auto run = RunLoadcell(Concat(base, {"--events=50", "--format=json", "run"}));
    ASSERT_EQ(run.exit_code, 0) << Show(run);
    const nlohmann::json report = nlohmann::json::parse(run.out);
    nlohmann::json check;
    for (const nlohmann::json& c : report["validity"]["checks"]) {
      if (c["id"] == "database") check = c;
    }
    ASSERT_FALSE(check.is_null()) << run.out;
    // The server's settings, read after the run (the script connects only
    // when its threads start), whatever the tables are called: what
    // compare weighs.
    const nlohmann::json& settings = report["manifest"]["database_settings"];
    ASSERT_GE(settings.size(), 2u) << report["manifest"].dump();
    EXPECT_EQ(settings[0]["name"], "server") << settings.dump();
    EXPECT_NE(settings[0]["value"].get<std::string>().find(GetParam() == "pgsql" ? "PostgreSQL"
                                                                                 : "MariaDB"),
              std::string::npos)
        << settings.dump();
    if (std::string(table) == "sbtest1") {
      EXPECT_EQ(check["level"], "warn") << check.dump();
      // PostgreSQL's sizes are the files'; InnoDB's statistics lag behind
      // fresh inserts (docs/validity.md), so MariaDB's may still say a page.
      EXPECT_GT(check["figures"]["data_bytes"].get<double>(),
                GetParam() == "pgsql" ? 500 * 200.0 : 0)
          << check.dump();
      EXPECT_GT(check["figures"]["cache_bytes"].get<double>(), 0) << check.dump();
      EXPECT_NE(check["seen"].get<std::string>().find(
                    GetParam() == "pgsql" ? "shared_buffers" : "innodb_buffer_pool_size"),
                std::string::npos)
          << check.dump();
    } else {
      EXPECT_EQ(check["level"], "not_checked") << check.dump();
      EXPECT_NE(check["seen"].get<std::string>().find("not sysbench's sbtestN tables"),
                std::string::npos)
          << check.dump();
    }
    auto clean = RunLoadcell(Concat(base, {"cleanup"}));
    EXPECT_EQ(clean.exit_code, 0) << Show(clean);
  }
}

INSTANTIATE_TEST_SUITE_P(Servers, LuaDataSetVerdict, ::testing::Values("pgsql", "mysql"));

// The OLTP scripts create tables only for mysql and pgsql: on SQLite the
// script's own error is reported with its file and line, exit 1.
TEST(LuaScriptsSqlite, OltpScriptRefusesSqliteWithItsOwnMessage) {
  if (!HaveScripts()) GTEST_SKIP() << "sysbench's scripts are not installed";
  TestDatabase db("sqlite", "lua");
  auto prep = RunLoadcell(Concat(
      {std::string(kScriptDir) + "oltp_read_write.lua", "--table-size=10", "prepare"}, db.args()));
  EXPECT_EQ(prep.exit_code, 1) << Show(prep);
  EXPECT_NE(prep.err.find("oltp_common.lua:"), std::string::npos) << prep.err;
  EXPECT_NE(prep.err.find("Unsupported database driver:sqlite"), std::string::npos) << prep.err;
}

// KILL each id; a connection that ended meanwhile is no error.
void KillIgnoringErrors(const Args& args, const std::vector<std::string>& ids) {
  OptionSet set("db");
  DbDrivers drivers;
  drivers.RegisterOptions(set);
  RawOptions raw;
  for (const std::string& a : args) {
    const size_t eq = a.find('=');
    raw.Add(a.substr(0, eq), a.substr(eq + 1), true, "test");
  }
  ASSERT_OK(set.Apply(raw));
  ASSERT_OK(drivers.Resolve(set));
  auto conn = drivers.driver().Connect(0);
  ASSERT_OK(conn);
  for (const std::string& id : ids) {
    DbExecResult r;
    (void)(*conn)->Execute("KILL " + id, r);
  }
}

// Connections killed mid-run: with the lost-connection codes in
// --mysql-ignore-errors the script's connections are reopened and the run
// goes on (as under sysbench); without them the run fails with exit 1.
TEST(LuaScriptsFaults, KilledConnectionsAreReopenedWhenIgnored) {
  if (!HaveScripts()) GTEST_SKIP() << "sysbench's scripts are not installed";
  TestDatabase db("mysql", "lua_kill");
  ASSERT_TRUE(db.error().empty()) << db.error();
  const Args base =
      Concat({std::string(kScriptDir) + "oltp_point_select.lua", "--table-size=50"}, db.args());
  ASSERT_EQ(RunLoadcell(Concat(base, {"prepare"})).exit_code, 0);
  auto kill_others = [&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    Client admin(db.args());
    ASSERT_OK(admin);
    const auto ids = admin.Query(
        "SELECT id FROM information_schema.processlist WHERE id <> CONNECTION_ID() AND "
        "db = DATABASE()");
    KillIgnoringErrors(db.args(), ids);
  };
  testing::ProcessResult run;
  std::thread killer(kill_others);
  run = RunLoadcell(
      Concat(base, {"--threads=2", "--time=3", "--mysql-ignore-errors=2013,2006,1927", "run"}));
  killer.join();
  ASSERT_EQ(run.exit_code, 0) << Show(run);
  EXPECT_GE(ReportNumber(run.out, "    reconnects:"), 1) << run.out;

  std::thread killer2(kill_others);
  auto fail =
      RunLoadcell(Concat(base, {"--threads=2", "--time=3", "--mysql-ignore-errors=none", "run"}));
  killer2.join();
  EXPECT_EQ(fail.exit_code, 1) << Show(fail);
  EXPECT_NE(fail.err.find("oltp_common.lua:"), std::string::npos) << fail.err;
}

// err.sql_errmsg is the server's message alone, as sysbench passes it on
// (no driver prefix, no code or SQLSTATE appended).
class LuaSqlErrmsg : public ::testing::TestWithParam<std::string> {};

TEST_P(LuaSqlErrmsg, IsTheServersMessage) {
  TestDatabase db(GetParam(), "lua_sql_errmsg");
  ASSERT_TRUE(db.error().empty()) << db.error();
  testing::TempDir tmp;
  const std::string script = tmp.Write("errmsg.lua", R"LUA(
function sysbench.hooks.sql_error_ignorable(err)
  print("errmsg=[" .. err.sql_errmsg .. "]")
  return false
end
function event()
  local con = sysbench.sql.driver():connect()
  pcall(con.query, con, "SELECT * FROM lua_no_such_table")
  return true
end
)LUA");
  auto run = RunLoadcell(Concat({script, "--events=1", "run"}, db.args()));
  ASSERT_EQ(run.exit_code, 0) << Show(run);
  const size_t at = run.out.find("errmsg=[");
  ASSERT_NE(at, std::string::npos) << run.out;
  const std::string msg = run.out.substr(at + 8, run.out.find(']', at) - at - 8);
  EXPECT_NE(msg.find("lua_no_such_table"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("mysql:"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("pgsql:"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("(error "), std::string::npos) << msg;
  EXPECT_EQ(msg.find("(SQLSTATE"), std::string::npos) << msg;
}

INSTANTIATE_TEST_SUITE_P(Servers, LuaSqlErrmsg, ::testing::Values("pgsql", "mysql"));

}  // namespace
}  // namespace loadcell
