// The OLTP command line through the real binary: the legacy 0.4/0.5 form of
// the issue, and bad input (one line each; exit 2 for usage, 1 for a failed
// connection; nothing dropped).

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "testing/oltp_test_env.h"

namespace loadcell {
namespace {

using testing::Args;
using testing::Concat;
using testing::CountLines;
using testing::EnvVar;
using testing::FreePort;
using testing::MissingServerEnv;
using testing::ReportNumber;
using testing::RunLoadcell;
using testing::ServerCommandLine;
using testing::Show;
using testing::TestDatabase;

TEST(OltpLegacy, IssueCommandLineOnMariaDb) {
  // The issue's 0.4/0.5 command line, scaled down: no --db-driver, the
  // --mysql-* options choose the driver.
  TestDatabase db("mysql", "legacy");
  ASSERT_TRUE(db.error().empty()) << db.error();
  Args my;
  for (const std::string& a : db.args()) {
    if (a.rfind("--db-driver", 0) != 0) my.push_back(a);
  }
  const Args legacy = Concat({"--test=oltp", "--oltp-tables-count=2", "--oltp-table-size=2000",
                              "--oltp-test-mode=complex"},
                             Concat(my, {"--num-threads=2"}));
  auto prep = RunLoadcell(Concat(legacy, {"prepare"}));
  ASSERT_EQ(prep.exit_code, 0) << Show(prep);
  auto run = RunLoadcell(Concat(legacy, {"--oltp-point-selects=100", "--oltp-range-size=1000",
                                         "--oltp-index-updates=100", "--max-time=1", "run"}));
  ASSERT_EQ(run.exit_code, 0) << Show(run);
  EXPECT_NE(run.out.find("Database driver: mysql"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("Legacy test mode: complex (as oltp_read_write)"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("100 point selects"), std::string::npos) << run.out;
  EXPECT_GT(ReportNumber(run.out, "    transactions:"), 0) << run.out;
  // The password never shows.
  const std::string password = EnvVar("LOADCELL_MYSQL_PASSWORD");
  EXPECT_EQ(run.out.find(password), std::string::npos);
  EXPECT_EQ(run.err.find(password), std::string::npos);

  // A 0.5-style script path that names no file runs the built-in test.
  auto lua =
      RunLoadcell(Concat({"--test=/nonexistent/sysbench/tests/db/oltp.lua", "--oltp-tables-count=2",
                          "--oltp-table-size=2000", "--oltp-test-mode=simple", "--max-requests=20"},
                         Concat(my, {"run"})));
  ASSERT_EQ(lua.exit_code, 0) << Show(lua);
  EXPECT_EQ(ReportNumber(lua.out, "        read:"), 20) << lua.out;
  EXPECT_EQ(ReportNumber(lua.out, "        other:"), 0) << lua.out;

  auto clean =
      RunLoadcell(Concat({"--test=oltp", "--oltp-tables-count=2"}, Concat(my, {"cleanup"})));
  ASSERT_EQ(clean.exit_code, 0) << Show(clean);
  EXPECT_FALSE(db.TableExists("sbtest2"));
}

TEST(OltpBadInput, UnknownDriver) {
  auto r = RunLoadcell({"oltp_read_write", "--db-driver=oracle", "run"});
  EXPECT_EQ(r.exit_code, 2) << Show(r);
  EXPECT_NE(r.err.find("oracle"), std::string::npos) << Show(r);
  EXPECT_NE(r.err.find("sqlite, pgsql, mysql"), std::string::npos) << Show(r);
  EXPECT_EQ(CountLines(r.err), 1u) << Show(r);
}

TEST(OltpBadInput, RefusedConnectionNamesHostAndPort) {
  const int port = FreePort();
  ASSERT_GT(port, 0);
  for (const std::string driver : {"pgsql", "mysql"}) {
    auto r =
        RunLoadcell({"oltp_read_write", "--db-driver=" + driver, "--" + driver + "-host=127.0.0.1",
                     "--" + driver + "-port=" + std::to_string(port), "run"});
    EXPECT_EQ(r.exit_code, 1) << Show(r);
    EXPECT_NE(r.err.find("127.0.0.1:" + std::to_string(port)), std::string::npos) << Show(r);
    EXPECT_NE(r.err.find("not be running"), std::string::npos) << Show(r);
    EXPECT_EQ(CountLines(r.err), 1u) << Show(r);
  }
}

TEST(OltpBadInput, WrongPasswordIsNotPrinted) {
  for (const std::string driver : {"pgsql", "mysql"}) {
    const std::string missing = MissingServerEnv(driver);
    ASSERT_TRUE(missing.empty()) << missing;
    Args args = {"oltp_read_write"};
    for (const std::string& a : ServerCommandLine(driver)) {
      args.push_back(a.find("-password=") != std::string::npos
                         ? "--" + driver + "-password=Wrong-Secret-77"
                         : a);
    }
    args.push_back("run");
    auto r = RunLoadcell(args);
    EXPECT_EQ(r.exit_code, 1) << Show(r);
    EXPECT_EQ(r.err.find("Wrong-Secret-77"), std::string::npos) << Show(r);
    EXPECT_EQ(r.out.find("Wrong-Secret-77"), std::string::npos) << Show(r);
    EXPECT_EQ(CountLines(r.err), 1u) << Show(r);
  }
}

TEST(OltpBadInput, MissingDatabase) {
  for (const std::string driver : {"pgsql", "mysql"}) {
    const std::string missing = MissingServerEnv(driver);
    ASSERT_TRUE(missing.empty()) << missing;
    auto r = RunLoadcell(Concat(
        {"oltp_read_write"}, Concat(ServerCommandLine(driver, "sbtest_does_not_exist"), {"run"})));
    EXPECT_EQ(r.exit_code, 1) << Show(r);
    EXPECT_NE(r.err.find("sbtest_does_not_exist"), std::string::npos) << Show(r);
    EXPECT_EQ(CountLines(r.err), 1u) << Show(r);
  }
}

TEST(OltpBadInput, RunBeforePrepare) {
  for (const std::string driver : {"sqlite", "pgsql", "mysql"}) {
    TestDatabase db(driver, "before_prepare");
    ASSERT_TRUE(db.error().empty()) << db.error();
    auto r = RunLoadcell(Concat({"oltp_point_select"}, Concat(db.args(), {"run"})));
    EXPECT_EQ(r.exit_code, 2) << driver << Show(r);
    EXPECT_NE(r.err.find("prepare"), std::string::npos) << Show(r);
    EXPECT_EQ(CountLines(r.err), 1u) << Show(r);
    EXPECT_EQ(r.out.find("SQL statistics"), std::string::npos) << Show(r);
  }
}

TEST(OltpBadInput, SizesAndRanges) {
  TestDatabase db("sqlite", "sizes");
  const std::vector<std::pair<Args, std::string>> cases = {
      {{"--table-size=0"}, "--table-size=0"},
      {{"--tables=0"}, "--tables=0"},
      {{"--table-size=100", "--range-size=101"}, "--range-size=101"},
      {{"--oltp-table-size=0"}, "--oltp-table-size=0: must be between 1 and 2147483647"},
      {{"--sqlite-busy-timeout=1e12"}, "--sqlite-busy-timeout=1e12"},
      {{"--sqlite-busy-timeout=-1"}, "--sqlite-busy-timeout=-1"},
      {{"--db-connect-timeout=0"}, "--db-connect-timeout=0"},
      {{"--db-read-timeout=0.5s"}, "--db-read-timeout=0.5s"},
      {{"--db-write-timeout=2d"}, "--db-write-timeout=2d"},
  };
  for (const auto& [extra, expect] : cases) {
    for (const char* command : {"prepare", "run"}) {
      auto r =
          RunLoadcell(Concat(Concat({"oltp_read_write"}, db.args()), Concat(extra, {command})));
      EXPECT_EQ(r.exit_code, 2) << Show(r);
      EXPECT_NE(r.err.find(expect), std::string::npos) << Show(r);
      EXPECT_EQ(CountLines(r.err), 1u) << Show(r);
    }
  }
  // Nothing was created.
  EXPECT_FALSE(std::filesystem::exists(db.dir() + "/sbtest.db"));
}

TEST(OltpBadInput, ForeignTableIsNeverDropped) {
  for (const std::string driver : {"sqlite", "pgsql", "mysql"}) {
    TestDatabase db(driver, "foreign");
    ASSERT_TRUE(db.error().empty()) << db.error();
    db.Query("CREATE TABLE sbtest1 (id INTEGER, note VARCHAR(20))");
    db.Query("INSERT INTO sbtest1 VALUES (7, 'keep me')");
    const Args base =
        Concat(Concat({"oltp_read_write"}, db.args()), {"--table-size=100", "--range-size=10"});
    auto prep = RunLoadcell(Concat(base, {"prepare"}));
    EXPECT_EQ(prep.exit_code, 2) << Show(prep);
    EXPECT_NE(prep.err.find("not created by loadcell"), std::string::npos) << Show(prep);
    EXPECT_EQ(CountLines(prep.err), 1u) << Show(prep);
    auto clean = RunLoadcell(Concat(base, {"cleanup"}));
    EXPECT_EQ(clean.exit_code, 0) << Show(clean);
    EXPECT_NE(clean.err.find("left in place"), std::string::npos) << Show(clean);
    EXPECT_EQ(db.Query("SELECT note FROM sbtest1"), std::vector<std::string>{"keep me"}) << driver;
  }
}

// Think time under --rate: the thread that thinks 20 ms after each
// transaction cannot keep 200/s, so each transaction waits longer behind the
// one before. That wait is in the latency (from the intended start), not in
// the service time, which is reported beside it.
TEST(OltpRate, ThinkTimeDelaysShowInTheLatencyFromTheIntendedStart) {
  TestDatabase db("sqlite", "think");
  const Args base = Concat(Concat({"oltp_point_select"}, db.args()), {"--table-size=100"});
  ASSERT_EQ(RunLoadcell(Concat(base, {"prepare"})).exit_code, 0);
  auto r = RunLoadcell(Concat(base, {"--oltp-user-delay-min=20000", "--oltp-user-delay-max=20000",
                                     "--rate=200", "--time=1", "--format=json", "run"}));
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  const nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << r.out;
  const nlohmann::json& s = doc["summary"];
  ASSERT_TRUE(s.contains("service_latency_ns")) << s.dump(1);
  const uint64_t events = s["events"].get<uint64_t>();
  ASSERT_GT(events, 10u);
  EXPECT_EQ(s["service_latency_ns"]["count"].get<uint64_t>(), events);
  const double latency_p99 = s["latency_ns"]["percentiles"]["99"].get<double>();
  const double service_p99 = s["service_latency_ns"]["percentiles"]["99"].get<double>();
  // After 10 transactions the wait is above 10 x (20 - 5) ms.
  EXPECT_GE(latency_p99, 150e6) << s.dump(1);
  EXPECT_LT(service_p99, latency_p99 / 10) << s.dump(1);
}

}  // namespace
}  // namespace loadcell
