// The mysql driver's bulk load (LOAD DATA LOCAL INFILE from memory) against
// the MariaDB server of scripts/test-servers.

#include <gtest/gtest.h>

#include "db_test_env.h"

namespace loadcell {
namespace {

using dbtest::DriverSetup;
using dbtest::Exec;
using dbtest::ServerArgs;
using dbtest::TableName;

class MysqlLoadTest : public testing::Test {
 protected:
  void SetUp() override {
    setup_ = std::make_unique<DriverSetup>(ServerArgs("mysql"));
    ASSERT_TRUE(setup_->status.ok()) << setup_->status.ToString();
    auto c = setup_->driver().Connect(0);
    ASSERT_TRUE(c.ok()) << c.status().ToString();
    conn_ = std::move(c).value();
    table_ = TableName("load");
    Exec(*conn_, "DROP TABLE IF EXISTS " + table_);
    Exec(*conn_, "CREATE TABLE " + table_ +
                     " (id INTEGER NOT NULL PRIMARY KEY, k INTEGER NOT NULL DEFAULT 0, "
                     "c VARCHAR(200), d DOUBLE)");
  }
  void TearDown() override {
    if (conn_ != nullptr) Exec(*conn_, "DROP TABLE IF EXISTS " + table_);
  }

  int64_t Count() {
    DbExecResult r;
    DbRows rows;
    DbError e = conn_->Execute("SELECT count(*) FROM " + table_, r, &rows);
    EXPECT_TRUE(e.ok()) << e.message;
    if (rows.rows.size() != 1 || !rows.rows[0][0].has_value()) return -1;
    return std::stoll(*rows.rows[0][0]);
  }

  std::unique_ptr<DriverSetup> setup_;
  std::unique_ptr<DbConnection> conn_;
  std::string table_;
};

// Text that the load format must escape, NULL beside the empty string and
// beside the text "\N", and non-ASCII text all read back as they were given.
TEST_F(MysqlLoadTest, ValuesReadBackAsGiven) {
  const std::vector<std::optional<std::string>> texts = {
      "plain", "", std::nullopt, "\\N", "back\\slash", "tab\there", "line\nbreak",
      "quote'\"", "caf\xc3\xa9 \xc3\xbc", std::string("nul\0byte", 8), "-12.5e3"};
  std::unique_ptr<DbBulkInsert> bulk;
  DbError e = conn_->BeginBulkInsert(table_, {"id", "k", "c", "d"}, bulk);
  ASSERT_TRUE(e.ok()) << e.message;
  for (size_t i = 0; i < texts.size(); ++i) {
    std::vector<DbValue> row = {DbValue::Int(static_cast<int64_t>(i + 1)),
                                DbValue::Int(-static_cast<int64_t>(i)),
                                texts[i] ? DbValue::String(*texts[i]) : DbValue::Null(),
                                i % 2 == 0 ? DbValue::Double(0.25 * static_cast<double>(i))
                                           : DbValue::Null()};
    e = bulk->AddRow(row);
    ASSERT_TRUE(e.ok()) << e.message;
  }
  e = bulk->Finish();
  ASSERT_TRUE(e.ok()) << e.message;
  DbExecResult r;
  DbRows rows;
  ASSERT_TRUE(conn_->Execute("SELECT id, k, c, d FROM " + table_ + " ORDER BY id", r, &rows).ok());
  ASSERT_EQ(rows.rows.size(), texts.size());
  for (size_t i = 0; i < texts.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(rows.rows[i][1], std::to_string(-static_cast<int64_t>(i)));
    EXPECT_EQ(rows.rows[i][2], texts[i]);
    EXPECT_EQ(rows.rows[i][3].has_value(), i % 2 == 0);
  }
  EXPECT_EQ(rows.rows[4][3], "1");  // 0.25 * 4
}

// A value the server cannot store fails the load with the server's code and
// SQLSTATE, as the same row in an INSERT would (LOAD DATA LOCAL itself only
// warns).
TEST_F(MysqlLoadTest, BadValueFailsWithTheServersCode) {
  std::unique_ptr<DbBulkInsert> bulk;
  ASSERT_TRUE(conn_->BeginBulkInsert(table_, {"id", "k"}, bulk).ok());
  DbError e = bulk->AddRow(std::vector<DbValue>{DbValue::Int(1), DbValue::String("many")});
  if (e.ok()) e = bulk->Finish();
  EXPECT_EQ(e.cls, DbErrorClass::kFatal) << e.message;
  EXPECT_NE(e.code, 0) << e.message;
  EXPECT_EQ(e.sqlstate.size(), 5u) << e.message;
  EXPECT_NE(e.message.find("many"), std::string::npos) << e.message;
  // The connection goes on.
  EXPECT_GE(Count(), 0);
}

// The server may ask for any local file in a LOAD DATA LOCAL statement; the
// driver serves only its own rows and refuses the rest.
TEST_F(MysqlLoadTest, OtherLocalFilesAreRefused) {
  DbExecResult r;
  DbError e = conn_->Execute(
      "LOAD DATA LOCAL INFILE '/etc/hostname' INTO TABLE " + table_ + " (c)", r);
  EXPECT_FALSE(e.ok());
  EXPECT_NE(e.message.find("no local files"), std::string::npos) << e.message;
  EXPECT_EQ(Count(), 0);
}

}  // namespace
}  // namespace loadcell
