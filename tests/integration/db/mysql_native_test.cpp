// The mysql driver's native connector against the MariaDB server of
// scripts/test-servers, beside the library connector: the same statements
// give the same rows as text through both (text and binary result sets of
// every common column type, NULLs), the same errors (code, SQLSTATE, class),
// the same bulk load; and a connection that stays in step after an error.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "testing/db_test_env.h"
#include "testing/status.h"

namespace loadcell {
namespace {

using testing::DriverSetup;
using testing::Exec;
using testing::ServerArgs;
using testing::TableName;

class MysqlNativeTest : public ::testing::Test {
 protected:
  std::unique_ptr<DbConnection> Connect(const std::string& connector) {
    return testing::ConnectWith(setups_, ServerArgs("mysql", {{"db-connector", connector}}));
  }
  void SetUp() override {
    native_ = Connect("native");
    library_ = Connect("library");
    ASSERT_NE(native_, nullptr);
    ASSERT_NE(library_, nullptr);
    table_ = TableName("nat");
    Exec(*native_, "DROP TABLE IF EXISTS " + table_);
    Exec(*native_, "CREATE TABLE " + table_ +
                       " (id INTEGER NOT NULL PRIMARY KEY, t TINYINT, s SMALLINT, u BIGINT "
                       "UNSIGNED, f FLOAT, d DOUBLE, n DECIMAL(10,3), c VARCHAR(300), dt DATE, "
                       "ts DATETIME(6), tm TIME, y YEAR, b BLOB)");
    Exec(*native_, "INSERT INTO " + table_ +
                       " VALUES (1, -5, -300, 18446744073709551615, 1.5, -2.25, 12.345, "
                       "'caf\xC3\xA9 \\'q\\'', '2024-02-29', '2024-02-29 13:14:15.123456', "
                       "'-838:59:59', 2024, x'00ff'), "
                       "(2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "
                       "NULL)");
  }
  void TearDown() override {
    if (native_ != nullptr) Exec(*native_, "DROP TABLE IF EXISTS " + table_);
  }

  // The rows of `sql` through `c`, as text or, with `prepared`, as a
  // prepared statement's.
  DbRows Rows(DbConnection& c, const std::string& sql, bool prepared) {
    DbRows rows;
    DbExecResult r;
    if (!prepared) {
      EXPECT_OK(c.Execute(sql, r, &rows)) << sql;
      return rows;
    }
    std::unique_ptr<DbStatement> st;
    EXPECT_OK(c.Prepare(sql, 0, st)) << sql;
    if (st != nullptr) {
      EXPECT_OK(st->Execute(r, &rows)) << sql;
    }
    return rows;
  }

  std::vector<std::unique_ptr<DriverSetup>> setups_;
  std::unique_ptr<DbConnection> native_;
  std::unique_ptr<DbConnection> library_;
  std::string table_;
};

TEST_F(MysqlNativeTest, BothConnectorsReadTheSameRowsAsText) {
  const std::string sql = "SELECT * FROM " + table_ + " ORDER BY id";
  for (const bool prepared : {false, true}) {
    const DbRows n = Rows(*native_, sql, prepared);
    const DbRows l = Rows(*library_, sql, prepared);
    EXPECT_EQ(n.columns, l.columns) << prepared;
    ASSERT_EQ(n.rows.size(), 2u) << prepared;
    ASSERT_EQ(n.rows.size(), l.rows.size());
    for (size_t r = 0; r < n.rows.size(); ++r) {
      ASSERT_EQ(n.rows[r].size(), l.rows[r].size());
      for (size_t c = 0; c < n.rows[r].size(); ++c) {
        EXPECT_EQ(n.rows[r][c], l.rows[r][c])
            << (prepared ? "prepared" : "text") << " row " << r << " column " << n.columns[c];
      }
    }
    EXPECT_EQ(n.rows[0][3].value_or(""), "18446744073709551615");
    EXPECT_FALSE(n.rows[1][1].has_value());
  }
}

TEST_F(MysqlNativeTest, ErrorsAreTheServersAndTheSessionGoesOn) {
  for (DbConnection* c : {native_.get(), library_.get()}) {
    DbExecResult r;
    DbError e = c->Execute("INSERT INTO " + table_ + " (id) VALUES (1)", r);
    EXPECT_EQ(e.code, 1062) << e.message;
    EXPECT_EQ(e.sqlstate, "23000");
    EXPECT_EQ(e.cls, DbErrorClass::kFatal);
    std::unique_ptr<DbStatement> st;
    ASSERT_OK(c->Prepare("SELECT c FROM " + table_ + " WHERE id = ?", 1, st));
    st->BindInt(0, 1);
    DbRows rows;
    ASSERT_OK(st->Execute(r, &rows));
    ASSERT_EQ(rows.rows.size(), 1u);
    EXPECT_EQ(rows.rows[0][0].value_or(""), "caf\xC3\xA9 'q'");
    e = c->Prepare("SELECT nosuchcolumn FROM " + table_, 0, st);
    EXPECT_EQ(e.code, 1054) << e.message;
    ASSERT_OK(c->Begin());
    ASSERT_OK(c->Execute("UPDATE " + table_ + " SET t = 7 WHERE id = 2", r));
    EXPECT_EQ(r.rows_affected, 1u);
    ASSERT_OK(c->Rollback());
  }
}

TEST_F(MysqlNativeTest, TheBulkLoadQuotingAndVersionMatchTheLibrarys) {
  std::unique_ptr<DbBulkInsert> bulk;
  ASSERT_OK(native_->BeginBulkInsert(table_, {"id", "c", "d"}, bulk));
  for (int64_t i = 10; i < 1010; ++i) {
    const DbValue row[] = {DbValue::Int(i), DbValue::String("row\t" + std::to_string(i)),
                           DbValue::Double(0.5 * static_cast<double>(i))};
    ASSERT_OK(bulk->AddRow(row));
  }
  ASSERT_OK(bulk->Finish());
  const DbRows n = Rows(*native_, "SELECT count(*), sum(d) FROM " + table_, false);
  ASSERT_EQ(n.rows.size(), 1u);
  EXPECT_EQ(n.rows[0][0].value_or(""), "1002");
  // A duplicate key in a load is an error, as an INSERT's would be.
  ASSERT_OK(native_->BeginBulkInsert(table_, {"id"}, bulk));
  const DbValue dup[] = {DbValue::Int(10)};
  ASSERT_OK(bulk->AddRow(dup));
  EXPECT_EQ(bulk->Finish().code, 1062);
  const std::string odd = std::string("a'b\"c\\d\ne\0f", 11);
  std::string qn;
  std::string ql;
  native_->AppendQuoted(qn, odd);
  library_->AppendQuoted(ql, odd);
  EXPECT_EQ(qn, ql);
  EXPECT_EQ(native_->ServerVersion(), library_->ServerVersion());
}

}  // namespace
}  // namespace loadcell
