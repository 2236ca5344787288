// Debian's sysbench script, unmodified, on the pgsql driver's own
// connection (--db-connector=native: no libpq) against the throwaway
// PostgreSQL of scripts/test-servers.

#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "testing/oltp_test_env.h"

namespace loadcell {
namespace {

using testing::Args;
using testing::Concat;
using testing::ReportNumber;
using testing::RunLoadcell;
using testing::Show;
using testing::TestDatabase;

TEST(PgsqlNativeLua, DebiansOltpReadWriteUnmodified) {
  const std::string script = "/usr/share/sysbench/oltp_read_write.lua";
  ASSERT_EQ(access(script.c_str(), R_OK), 0) << script << " missing: scripts/install-deps";
  TestDatabase db("pgsql", "native_lua");
  ASSERT_TRUE(db.error().empty()) << db.error();
  const Args base =
      Concat(Concat({script, "--table-size=50"}, db.args()), {"--db-connector=native"});
  auto prep = RunLoadcell(Concat(base, {"--threads=2", "prepare"}));
  ASSERT_EQ(prep.exit_code, 0) << Show(prep);
  auto run = RunLoadcell(Concat(base, {"--threads=1", "--events=20", "run"}));
  ASSERT_EQ(run.exit_code, 0) << Show(run);
  EXPECT_EQ(ReportNumber(run.out, "    transactions:"), 20) << run.out;
  EXPECT_EQ(ReportNumber(run.out, "        read:"), 14 * 20) << run.out;
  auto clean = RunLoadcell(Concat(base, {"cleanup"}));
  ASSERT_EQ(clean.exit_code, 0) << Show(clean);
  EXPECT_FALSE(db.TableExists("sbtest1"));
}

}  // namespace
}  // namespace loadcell
