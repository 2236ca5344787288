// The mysql driver's native connector (--db-connector=native: loadcell's own
// client, what loadcell.exe always uses) through the real binary against the
// throwaway MariaDB: a wrong password and a plugin it does not speak in one
// line each (exit 1, as the library connector), TLS and Unix sockets refused
// in one line (exit 2), the 0.4/0.5 command line, and Debian's
// oltp_read_only.lua unmodified. Every OLTP workload runs on it in
// oltp_matrix_test (mysql_native), the server killed and frozen in
// oltp_fault_test.

#include <gtest/gtest.h>

#include <string>

#include "testing/oltp_test_env.h"

namespace loadcell {
namespace {

using testing::Args;
using testing::Concat;
using testing::CountLines;
using testing::EnvVar;
using testing::ReportNumber;
using testing::RunLoadcell;
using testing::Show;
using testing::TestDatabase;

// The server's options with `password` for `user` ("" keeps the server's).
Args Login(const std::string& connector, const std::string& user, const std::string& password) {
  Args a = {"oltp_read_only",
            "--db-driver=mysql",
            "--db-connector=" + connector,
            "--mysql-host=" + EnvVar("LOADCELL_MYSQL_HOST"),
            "--mysql-port=" + EnvVar("LOADCELL_MYSQL_PORT"),
            "--mysql-user=" + (user.empty() ? EnvVar("LOADCELL_MYSQL_USER") : user),
            "--mysql-password=" + password,
            "--mysql-db=" + EnvVar("LOADCELL_MYSQL_DB")};
  return Concat(a, {"--time=1", "run"});
}

TEST(MysqlNativeCli, AWrongPasswordIsOneLineAndTheSameExitAsTheLibrarys) {
  ASSERT_EQ(testing::MissingServerEnv("mysql"), "");
  const std::string wrong = "not-the-password-4711";
  const auto native = RunLoadcell(Login("native", "", wrong));
  const auto library = RunLoadcell(Login("library", "", wrong));
  EXPECT_EQ(native.exit_code, 1) << Show(native);
  EXPECT_EQ(library.exit_code, native.exit_code) << Show(library);
  EXPECT_EQ(CountLines(native.err), 1u) << Show(native);
  EXPECT_NE(native.err.find("Access denied for user"), std::string::npos) << Show(native);
  EXPECT_NE(native.err.find("(error 1045)"), std::string::npos) << Show(native);
  EXPECT_EQ(native.err, library.err);
  for (const auto* r : {&native, &library}) {
    EXPECT_EQ((r->out + r->err).find(wrong), std::string::npos) << Show(*r);
  }
}

TEST(MysqlNativeCli, AnEd25519UserIsRefusedInOneLineNamingThePlugin) {
  const std::string user = EnvVar("LOADCELL_MYSQL_ED25519_USER");
  ASSERT_NE(user, "") << "LOADCELL_MYSQL_ED25519_USER unset: run through scripts/run-tests";
  const std::string password = EnvVar("LOADCELL_MYSQL_PASSWORD");
  const auto r = RunLoadcell(Login("native", user, password));
  EXPECT_EQ(r.exit_code, 1) << Show(r);
  EXPECT_EQ(CountLines(r.err), 1u) << Show(r);
  EXPECT_NE(r.err.find("'client_ed25519'"), std::string::npos) << Show(r);
  EXPECT_EQ((r.out + r.err).find(password), std::string::npos) << Show(r);
}

TEST(MysqlNativeCli, TlsAndUnixSocketsAreRefusedInOneLine) {
  const std::string password = EnvVar("LOADCELL_MYSQL_PASSWORD");
  for (const std::string ssl : {"on", "required", "verify_ca", "verify_identity"}) {
    const auto r = RunLoadcell(Concat(Login("native", "", password), {"--mysql-ssl=" + ssl}));
    EXPECT_EQ(r.exit_code, 2) << Show(r);
    EXPECT_EQ(CountLines(r.err), 1u) << Show(r);
    EXPECT_NE(r.err.find("--mysql-ssl=" + ssl + ": loadcell's own MySQL client has no TLS"),
              std::string::npos)
        << Show(r);
    EXPECT_EQ(r.out, "") << Show(r);
  }
  const auto s = RunLoadcell(Concat(Login("native", "", password), {"--mysql-socket=/tmp/x.sock"}));
  EXPECT_EQ(s.exit_code, 2) << Show(s);
  EXPECT_EQ(CountLines(s.err), 1u) << Show(s);
  EXPECT_NE(s.err.find("TCP only"), std::string::npos) << Show(s);
}

TEST(MysqlNativeCli, TheLegacyCommandLinePreparesRunsAndCleansUp) {
  TestDatabase db("mysql", "native_legacy");
  ASSERT_TRUE(db.error().empty()) << db.error();
  const Args base =
      Concat(Concat({"--test=oltp", "--oltp-tables-count=2", "--oltp-table-size=500"}, db.args()),
             {"--db-connector=native", "--num-threads=2"});
  auto prep = RunLoadcell(Concat(base, {"prepare"}));
  ASSERT_EQ(prep.exit_code, 0) << Show(prep);
  EXPECT_EQ(db.Query("SELECT COUNT(*) FROM sbtest2"), std::vector<std::string>{"500"});
  auto run = RunLoadcell(Concat(base, {"--max-time=1", "run"}));
  ASSERT_EQ(run.exit_code, 0) << Show(run);
  EXPECT_GT(ReportNumber(run.out, "    transactions:"), 0) << Show(run);
  EXPECT_NE(run.out.find("--db-connector=native"), std::string::npos) << Show(run);
  auto clean = RunLoadcell(Concat(base, {"cleanup"}));
  EXPECT_EQ(clean.exit_code, 0) << Show(clean);
  EXPECT_FALSE(db.TableExists("sbtest1"));
}

TEST(MysqlNativeCli, DebiansOltpReadOnlyScriptRunsUnmodified) {
  const std::string script = "/usr/share/sysbench/oltp_read_only.lua";
  TestDatabase db("mysql", "native_lua");
  ASSERT_TRUE(db.error().empty()) << db.error();
  const Args base = Concat(Concat({script}, db.args()),
                           {"--db-connector=native", "--tables=2", "--table-size=500"});
  auto prep = RunLoadcell(Concat(base, {"prepare"}));
  ASSERT_EQ(prep.exit_code, 0) << Show(prep);
  EXPECT_EQ(db.Query("SELECT COUNT(*) FROM sbtest1"), std::vector<std::string>{"500"});
  auto run = RunLoadcell(Concat(base, {"--time=1", "--threads=2", "run"}));
  ASSERT_EQ(run.exit_code, 0) << Show(run);
  EXPECT_GT(ReportNumber(run.out, "    transactions:"), 0) << Show(run);
  auto clean = RunLoadcell(Concat(base, {"cleanup"}));
  EXPECT_EQ(clean.exit_code, 0) << Show(clean);
  EXPECT_FALSE(db.TableExists("sbtest1"));
}

}  // namespace
}  // namespace loadcell
