// The pgsql driver's own connection (--db-connector=native: no libpq)
// through the real binary against the throwaway PostgreSQL of
// scripts/test-servers: each password method its roles log in with, a
// wrong password as one line with the library path's exit code, what the
// native connection refuses (TLS, Unix sockets), the legacy oltp test; the
// password never printed. (Every workload's prepare/run/cleanup:
// oltp_matrix_test's pgsql_native; Debian's Lua script: lua_native_test.)

#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <memory>
#include <string>

#include "testing/oltp_test_env.h"

namespace loadcell {
namespace {

using testing::Args;
using testing::Concat;
using testing::CountLines;
using testing::ReportNumber;
using testing::RunLoadcell;
using testing::Show;
using testing::TestDatabase;

const Args kNative = {"--db-connector=native"};

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? v : "";
}

// `args` with --pgsql-user (and --pgsql-password when not empty) replaced.
Args AsUser(const Args& args, const std::string& user, const std::string& password) {
  Args out;
  for (const std::string& a : args) {
    if (a.rfind("--pgsql-user=", 0) == 0 || a.rfind("--pgsql-password=", 0) == 0) continue;
    out.push_back(a);
  }
  out.push_back("--pgsql-user=" + user);
  out.push_back("--pgsql-password=" + password);
  return out;
}

void ExpectNoPassword(const testing::ProcessResult& r, const std::string& password) {
  EXPECT_EQ(r.out.find(password), std::string::npos) << Show(r);
  EXPECT_EQ(r.err.find(password), std::string::npos) << Show(r);
}

class PgsqlNative : public ::testing::Test {
 protected:
  void SetUp() override {
    // A database per test: ctest runs them in parallel.
    std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    db_ = std::make_unique<TestDatabase>("pgsql", "native_" + name.substr(0, 30));
    ASSERT_TRUE(db_->error().empty()) << db_->error();
    password_ = Env("LOADCELL_PG_PASSWORD");
    ASSERT_FALSE(password_.empty()) << "LOADCELL_PG_PASSWORD is not set (scripts/run-tests)";
    base_ = Concat(Concat({"oltp_point_select"}, db_->args()),
                   Concat(kNative, {"--tables=1", "--table-size=100"}));
  }

  std::unique_ptr<TestDatabase> db_;
  std::string password_;
  Args base_;
};

TEST_F(PgsqlNative, EveryPasswordMethodLogsIn) {
  auto prep = RunLoadcell(Concat(base_, {"prepare"}));
  ASSERT_EQ(prep.exit_code, 0) << Show(prep);
  ExpectNoPassword(prep, password_);
  db_->Query("GRANT SELECT ON ALL TABLES IN SCHEMA public TO PUBLIC");
  // The owner's password is SCRAM-SHA-256; the roles of scripts/test-servers
  // log in with md5, a cleartext password and trust (pg_hba.conf).
  for (const char* var : {"LOADCELL_PG_USER", "LOADCELL_PG_MD5_USER", "LOADCELL_PG_CLEAR_USER",
                          "LOADCELL_PG_TRUST_USER"}) {
    const std::string user = Env(var);
    ASSERT_FALSE(user.empty()) << var << " is not set (scripts/test-servers)";
    auto run = RunLoadcell(Concat(AsUser(base_, user, password_), {"--events=30", "run"}));
    EXPECT_EQ(run.exit_code, 0) << var << "\n" << Show(run);
    EXPECT_EQ(ReportNumber(run.out, "    transactions:"), 30) << Show(run);
    EXPECT_NE(run.out.find("--db-connector=native: no client library, TLS not used"),
              std::string::npos)
        << Show(run);
    ExpectNoPassword(run, password_);
  }
  auto clean = RunLoadcell(Concat(base_, {"cleanup"}));
  EXPECT_EQ(clean.exit_code, 0) << Show(clean);
}

TEST_F(PgsqlNative, AWrongPasswordIsOneLineWithTheLibrarysExitCode) {
  for (const char* var : {"LOADCELL_PG_USER", "LOADCELL_PG_MD5_USER", "LOADCELL_PG_CLEAR_USER"}) {
    const Args args = AsUser(base_, Env(var), "not-the-password-42");
    auto native = RunLoadcell(Concat(args, {"--events=1", "run"}));
    auto library = RunLoadcell(Concat(args, {"--db-connector=library", "--events=1", "run"}));
    EXPECT_EQ(native.exit_code, 1) << Show(native);
    EXPECT_EQ(native.exit_code, library.exit_code) << Show(library);
    EXPECT_EQ(CountLines(native.err), 1u) << Show(native);
    EXPECT_NE(native.err.find("password authentication failed for user"), std::string::npos)
        << Show(native);
    ExpectNoPassword(native, "not-the-password-42");
  }
}

TEST_F(PgsqlNative, RefusesTlsAndUnixSocketsInOneLine) {
  for (const char* mode : {"require", "verify-ca", "verify-full"}) {
    auto r = RunLoadcell(Concat(base_, {std::string("--pgsql-sslmode=") + mode, "run"}));
    EXPECT_EQ(r.exit_code, 2) << Show(r);
    EXPECT_EQ(CountLines(r.err), 1u) << Show(r);
    EXPECT_NE(r.err.find("has no TLS"), std::string::npos) << Show(r);
  }
  auto sock = RunLoadcell(Concat(base_, {"--pgsql-host=/var/run/postgresql", "run"}));
  EXPECT_EQ(sock.exit_code, 2) << Show(sock);
  EXPECT_EQ(CountLines(sock.err), 1u) << Show(sock);
  EXPECT_NE(sock.err.find("Unix socket"), std::string::npos) << Show(sock);
  // Plaintext modes connect (the test server has no TLS).
  auto prep = RunLoadcell(Concat(base_, {"--pgsql-sslmode=disable", "prepare"}));
  EXPECT_EQ(prep.exit_code, 0) << Show(prep);
  auto run = RunLoadcell(Concat(base_, {"--pgsql-sslmode=prefer", "--events=5", "run"}));
  EXPECT_EQ(run.exit_code, 0) << Show(run);
  auto clean = RunLoadcell(Concat(base_, {"cleanup"}));
  EXPECT_EQ(clean.exit_code, 0) << Show(clean);
}

// A --pgsql-host list spreads the connections, connection i on host i mod n
// (both connectors): with 127.0.0.1 first and ::1 second (where the test
// server does not listen), one thread runs on the first host; the second
// thread's connection goes to ::1 and fails naming it.
TEST_F(PgsqlNative, AHostListSpreadsTheConnections) {
  auto prep = RunLoadcell(Concat(base_, {"prepare"}));
  ASSERT_EQ(prep.exit_code, 0) << Show(prep);
  Args listed;
  for (const std::string& a : base_) {
    listed.push_back(a.rfind("--pgsql-host=", 0) == 0 ? a + ",::1" : a);
  }
  for (const char* connector : {"native", "library"}) {
    const Args args = Concat(listed, {std::string("--db-connector=") + connector});
    auto one = RunLoadcell(Concat(args, {"--threads=1", "--events=10", "run"}));
    EXPECT_EQ(one.exit_code, 0) << connector << "\n" << Show(one);
    EXPECT_EQ(ReportNumber(one.out, "    transactions:"), 10) << Show(one);
    auto two = RunLoadcell(Concat(args, {"--threads=2", "--events=10", "run"}));
    EXPECT_EQ(two.exit_code, 1) << connector << "\n" << Show(two);
    EXPECT_NE(two.err.find("::1"), std::string::npos) << connector << "\n" << Show(two);
  }
  auto empty = RunLoadcell(Concat(base_, {"--pgsql-host=127.0.0.1,", "run"}));
  EXPECT_EQ(empty.exit_code, 2) << Show(empty);
  EXPECT_NE(empty.err.find("an empty host in the list"), std::string::npos) << Show(empty);
  auto clean = RunLoadcell(Concat(base_, {"cleanup"}));
  EXPECT_EQ(clean.exit_code, 0) << Show(clean);
}

TEST(PgsqlNativeLegacy, OltpTestOfSysbench05) {
  TestDatabase db("pgsql", "native_legacy");
  ASSERT_TRUE(db.error().empty()) << db.error();
  const Args base =
      Concat(Concat({"--test=oltp", "--oltp-tables-count=2", "--oltp-table-size=500"}, db.args()),
             kNative);
  auto prep = RunLoadcell(Concat(base, {"prepare"}));
  ASSERT_EQ(prep.exit_code, 0) << Show(prep);
  auto run = RunLoadcell(Concat(base, {"--num-threads=2", "--max-time=1", "run"}));
  EXPECT_EQ(run.exit_code, 0) << Show(run);
  EXPECT_GT(ReportNumber(run.out, "    transactions:"), 0) << Show(run);
  auto clean = RunLoadcell(Concat(base, {"cleanup"}));
  EXPECT_EQ(clean.exit_code, 0) << Show(clean);
  EXPECT_FALSE(db.TableExists("sbtest1"));
}

}  // namespace
}  // namespace loadcell
