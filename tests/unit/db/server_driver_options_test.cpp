// The PostgreSQL and MariaDB drivers' options: built only with both
// (LOADCELL_WITH_PGSQL and LOADCELL_WITH_MYSQL; the Windows build has
// neither).

#include <gtest/gtest.h>
#include <stdlib.h>

#include <string>
#include <utility>
#include <vector>

#include "db/db_driver.h"
#include "testing/option_args.h"
#include "testing/status.h"

namespace loadcell {
namespace {

using testing::ApplyArgs;

Status Resolve(DbDrivers& db, OptionSet& set,
               const std::vector<std::pair<std::string, std::string>>& args) {
  db.RegisterOptions(set);
  LC_RETURN_IF_ERROR(ApplyArgs(set, args));
  return db.Resolve(set);
}

TEST(ServerDriverOptions, BadValuesNameTheOption) {
  {
    OptionSet set("t");
    DbDrivers db;
    Status s = Resolve(db, set, {{"mysql-port", "3306,abc"}});
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
    EXPECT_NE(s.message().find("--mysql-port=abc"), std::string::npos) << s.message();
  }
  {
    OptionSet set("t");
    DbDrivers db;
    Status s = Resolve(db, set, {{"mysql-ignore-errors", "1213,oops"}});
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
    EXPECT_NE(s.message().find("--mysql-ignore-errors"), std::string::npos) << s.message();
  }
  {
    OptionSet set("t");
    DbDrivers db;
    // PostgreSQL has SQLSTATEs, no error numbers: a number matches nothing.
    Status s = Resolve(db, set, {{"pgsql-ignore-errors", "4000"}});
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
    EXPECT_NE(s.message().find("PostgreSQL has no error numbers"), std::string::npos)
        << s.message();
  }
  {
    OptionSet set("t");
    DbDrivers db;
    Status s = Resolve(db, set, {{"pgsql-sslmode", "sometimes"}});
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  }
}

TEST(ServerDriverOptions, DefaultsFollowSysbench) {
  OptionSet set("t");
  DbDrivers db;
  ASSERT_OK(Resolve(db, set, {{"db-driver", "mysql"}}));
  EXPECT_EQ(set.Find("mysql-user")->ValueText(), "sbtest");
  EXPECT_EQ(set.Find("mysql-db")->ValueText(), "sbtest");
  EXPECT_EQ(set.Find("mysql-ignore-errors")->ValueText(), "1213,1020,1205");
  EXPECT_EQ(set.Find("pgsql-user")->ValueText(), "sbtest");
  EXPECT_EQ(set.Find("pgsql-port")->ValueText(), "5432");
  EXPECT_EQ(set.Find("sqlite-db")->ValueText(), "sbtest.db");
  EXPECT_EQ(set.Find("db-ps-mode")->ValueText(), "auto");
  EXPECT_EQ(db.driver().Describe(), "mysql localhost port 3306 user sbtest database sbtest");
  EXPECT_EQ(db.driver().Capabilities().bulk_insert, "LOAD DATA LOCAL INFILE");
}

// The bounds on a hostile server's replies default to docs/safety.md's
// table: 10 s start, 300 s reply, 64 MiB, 1,000,000 rows, 100,000 SCRAM
// iterations.
TEST(ServerDriverOptions, ReplyBoundsDefaultToTheDocumentedValues) {
  OptionSet set("t");
  DbDrivers db;
  ASSERT_OK(Resolve(db, set, {{"db-driver", "pgsql"}}));
  EXPECT_EQ(db.options().timeouts.connect_s, 10.0);
  EXPECT_EQ(db.options().timeouts.read_s, 300.0);
  EXPECT_EQ(db.options().reply_limits.max_bytes, uint64_t{64} << 20);
  EXPECT_EQ(db.options().reply_limits.max_rows, 1'000'000);
  EXPECT_EQ(set.Find("pgsql-scram-max-iterations")->ValueText(), "100000");
}

// PGPASSWORD set (value) or removed (nullptr), on either platform.
void SetPgPassword(const char* value) {
#ifdef _WIN32
  _putenv_s("PGPASSWORD", value != nullptr ? value : "");
#else
  if (value != nullptr) {
    setenv("PGPASSWORD", value, 1);
  } else {
    unsetenv("PGPASSWORD");
  }
#endif
}

TEST(ServerDriverOptions, PasswordOnlyFromOptionOrEnvironmentNeverShown) {
  SetPgPassword("env-secret-123");
  OptionSet set("t");
  DbDrivers db;
  Status s = Resolve(db, set, {{"db-driver", "pgsql"}});
  SetPgPassword(nullptr);
  ASSERT_OK(s);
  EXPECT_EQ(set.Find("pgsql-password")->ValueText(), "");
  EXPECT_EQ(db.driver().Describe().find("env-secret"), std::string::npos);
  OptionSet set2("t");
  DbDrivers db2;
  ASSERT_OK(Resolve(db2, set2, {{"pgsql-password", "opt-secret-456"}}));
  EXPECT_EQ(db2.driver().Name(), "pgsql");
  EXPECT_EQ(set2.Find("pgsql-password")->ValueText(), "(hidden)");
  EXPECT_EQ(FormatHelp(set2).find("opt-secret"), std::string::npos);
}

}  // namespace
}  // namespace loadcell
