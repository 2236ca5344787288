// The mysql driver's own paths against the MariaDB server of
// scripts/test-servers: the bulk load (LOAD DATA LOCAL INFILE from memory)
// and the statements it runs without libmariadb (COM_STMT_EXECUTE, and
// COM_QUERY for BEGIN/COMMIT/ROLLBACK): replies of every kind, errors with
// the server's code, SQLSTATE and class, and a connection that stays in step;
// a session whose handshake does not suit that path runs them all through
// libmariadb.

#include <gtest/gtest.h>
#include <mysql.h>

#include "db/mysql/mysql_wire.h"
#include "testing/db_test_env.h"
#include "testing/status.h"

namespace loadcell {
namespace {

using testing::DriverSetup;
using testing::Exec;
using testing::ServerArgs;
using testing::TableName;

class MysqlDriverTest : public ::testing::Test {
 protected:
  std::unique_ptr<DbConnection> Connect() {
    return testing::ConnectWith(setups_, ServerArgs("mysql"));
  }
  void SetUp() override {
    conn_ = Connect();
    ASSERT_NE(conn_, nullptr);
    table_ = TableName("my");
    Exec(*conn_, "DROP TABLE IF EXISTS " + table_);
    Exec(*conn_, "CREATE TABLE " + table_ +
                     " (id INTEGER NOT NULL PRIMARY KEY, k INTEGER NOT NULL DEFAULT 0, "
                     "c VARCHAR(300), d DOUBLE)");
  }
  void TearDown() override {
    if (conn_ != nullptr) Exec(*conn_, "DROP TABLE IF EXISTS " + table_);
  }
  std::unique_ptr<DbStatement> Prepare(const std::string& sql, int n) {
    std::unique_ptr<DbStatement> st;
    DbError e = conn_->Prepare(sql, n, st);
    EXPECT_OK(e) << sql;
    return st;
  }
  int64_t Count() {
    DbExecResult r;
    DbRows rows;
    DbError e = conn_->Execute("SELECT count(*) FROM " + table_, r, &rows);
    EXPECT_OK(e);
    if (rows.rows.size() != 1 || !rows.rows[0][0].has_value()) return -1;
    return std::stoll(*rows.rows[0][0]);
  }

  // Recreates the table as (id, m DECIMAL(5,1), v VARCHAR(3)), where a value
  // can be rounded (a Note) or cut (a Warning), and bulk-loads `rows` of
  // (m, v) text into it; returns what the load said.
  DbError LoadNarrow(const std::vector<std::pair<std::string, std::string>>& rows) {
    Exec(*conn_, "DROP TABLE " + table_);
    Exec(*conn_, "CREATE TABLE " + table_ +
                     " (id INTEGER NOT NULL PRIMARY KEY, m DECIMAL(5,1), v VARCHAR(3))");
    std::unique_ptr<DbBulkInsert> bulk;
    DbError e = conn_->BeginBulkInsert(table_, {"id", "m", "v"}, bulk);
    for (size_t i = 0; e.ok() && i < rows.size(); ++i) {
      e = bulk->AddRow(std::vector<DbValue>{DbValue::Int(static_cast<int64_t>(i + 1)),
                                            DbValue::String(rows[i].first),
                                            DbValue::String(rows[i].second)});
    }
    return e.ok() ? bulk->Finish() : e;
  }

  std::vector<std::unique_ptr<DriverSetup>> setups_;
  std::unique_ptr<DbConnection> conn_;
  std::string table_;
};

// Text that the load format must escape, NULL beside the empty string and
// beside the text "\N", and non-ASCII text all read back as they were given.
TEST_F(MysqlDriverTest, ValuesReadBackAsGiven) {
  const std::vector<std::optional<std::string>> texts = {"plain",
                                                         "",
                                                         std::nullopt,
                                                         "\\N",
                                                         "back\\slash",
                                                         "tab\there",
                                                         "line\nbreak",
                                                         "quote'\"",
                                                         "caf\xc3\xa9 \xc3\xbc",
                                                         std::string("nul\0byte", 8),
                                                         "-12.5e3"};
  std::unique_ptr<DbBulkInsert> bulk;
  DbError e = conn_->BeginBulkInsert(table_, {"id", "k", "c", "d"}, bulk);
  ASSERT_OK(e);
  for (size_t i = 0; i < texts.size(); ++i) {
    std::vector<DbValue> row = {
        DbValue::Int(static_cast<int64_t>(i + 1)), DbValue::Int(-static_cast<int64_t>(i)),
        texts[i] ? DbValue::String(*texts[i]) : DbValue::Null(),
        i % 2 == 0 ? DbValue::Double(0.25 * static_cast<double>(i)) : DbValue::Null()};
    e = bulk->AddRow(row);
    ASSERT_OK(e);
  }
  e = bulk->Finish();
  ASSERT_OK(e);
  DbExecResult r;
  DbRows rows;
  ASSERT_OK(conn_->Execute("SELECT id, k, c, d FROM " + table_ + " ORDER BY id", r, &rows));
  ASSERT_EQ(rows.rows.size(), texts.size());
  for (size_t i = 0; i < texts.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(rows.rows[i][1], std::to_string(-static_cast<int64_t>(i)));
    EXPECT_EQ(rows.rows[i][2], texts[i]);
    EXPECT_EQ(rows.rows[i][3].has_value(), i % 2 == 0);
  }
  EXPECT_EQ(rows.rows[4][3], "1");  // 0.25 * 4
}

// Rows with nothing to escape are loaded with escapes off (ESCAPED BY ''):
// the texts "NULL" and "N", the empty string and non-ASCII text still read
// back as given, not as NULL.
TEST_F(MysqlDriverTest, RowsWithoutEscapesReadBackAsGiven) {
  const std::vector<std::string> texts = {"NULL", "N", "", "12-34 ab", "caf\xc3\xa9"};
  std::unique_ptr<DbBulkInsert> bulk;
  ASSERT_OK(conn_->BeginBulkInsert(table_, {"id", "k", "c", "d"}, bulk));
  for (size_t i = 0; i < texts.size(); ++i) {
    DbError e = bulk->AddRow(std::vector<DbValue>{DbValue::Int(static_cast<int64_t>(i + 1)),
                                                  DbValue::Int(7), DbValue::String(texts[i]),
                                                  DbValue::Double(1.5)});
    ASSERT_OK(e);
  }
  DbError e = bulk->Finish();
  ASSERT_OK(e);
  DbExecResult r;
  DbRows rows;
  ASSERT_OK(conn_->Execute("SELECT c, d FROM " + table_ + " ORDER BY id", r, &rows));
  ASSERT_EQ(rows.rows.size(), texts.size());
  for (size_t i = 0; i < texts.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(rows.rows[i][0], texts[i]);
    EXPECT_EQ(rows.rows[i][1], "1.5");
  }
}

// A value the server cannot store fails the load with the server's code and
// SQLSTATE, as the same row in an INSERT would (LOAD DATA LOCAL itself only
// warns).
TEST_F(MysqlDriverTest, BadValueFailsWithTheServersCode) {
  std::unique_ptr<DbBulkInsert> bulk;
  ASSERT_OK(conn_->BeginBulkInsert(table_, {"id", "k"}, bulk));
  DbError e = bulk->AddRow(std::vector<DbValue>{DbValue::Int(1), DbValue::String("many")});
  if (e.ok()) e = bulk->Finish();
  EXPECT_EQ(e.cls, DbErrorClass::kFatal) << e.message;
  EXPECT_NE(e.code, 0) << e.message;
  EXPECT_EQ(e.sqlstate.size(), 5u) << e.message;
  EXPECT_NE(e.message.find("many"), std::string::npos) << e.message;
  // The connection goes on.
  EXPECT_GE(Count(), 0);
}

// A decimal with more digits than its scale is rounded with a Note, as an
// INSERT would round it: the load succeeds and keeps the rounded value.
TEST_F(MysqlDriverTest, NotesDoNotFailTheLoad) {
  DbError e = LoadNarrow({{"1.25", "a"}, {"1.25", "ab"}, {"1.25", "abc"}});
  EXPECT_OK(e);
  DbExecResult r;
  DbRows rows;
  ASSERT_OK(conn_->Execute("SELECT m FROM " + table_ + " ORDER BY id", r, &rows));
  ASSERT_EQ(rows.rows.size(), 3u);
  for (const DbRows::Row& row : rows.rows) EXPECT_EQ(row[0], "1.3");
}

// A Warning after Notes fails the load with the Warning's code and text, not
// the first Note's.
TEST_F(MysqlDriverTest, AWarningAfterNotesFailsTheLoad) {
  DbError e = LoadNarrow({{"1.25", "abc"}, {"2.5", "toolong"}});
  EXPECT_FALSE(e.ok());
  EXPECT_EQ(e.code, 1265) << e.message;  // data truncated
  EXPECT_NE(e.message.find("'v'"), std::string::npos) << e.message;
  EXPECT_NE(e.message.find("row 2"), std::string::npos) << e.message;
}

// Notes beyond what the server keeps (max_error_count) may hide a Warning:
// such a load fails rather than pass unseen.
TEST_F(MysqlDriverTest, NotesBeyondMaxErrorCountFailTheLoad) {
  Exec(*conn_, "SET SESSION max_error_count = 1");
  DbError e = LoadNarrow({{"1.25", "a"}, {"1.25", "b"}});
  EXPECT_FALSE(e.ok());
  EXPECT_NE(e.message.find("max_error_count"), std::string::npos) << e.message;
  Exec(*conn_, "SET SESSION max_error_count = DEFAULT");
}

// The server may ask for any local file in a LOAD DATA LOCAL statement; the
// driver serves only its own rows and refuses the rest.
TEST_F(MysqlDriverTest, OtherLocalFilesAreRefused) {
  DbExecResult r;
  DbError e =
      conn_->Execute("LOAD DATA LOCAL INFILE '/etc/hostname' INTO TABLE " + table_ + " (c)", r);
  EXPECT_FALSE(e.ok());
  EXPECT_NE(e.message.find("no local files"), std::string::npos) << e.message;
  EXPECT_EQ(Count(), 0);
}

// Rows counted for results of no, one and many rows, with wide values, in
// and out of transactions; counts agree with the rows kept.
TEST_F(MysqlDriverTest, CountsRowsOfEveryResult) {
  auto ins = Prepare("INSERT INTO " + table_ + " (id, k, c) VALUES (?, ?, ?)", 3);
  ASSERT_NE(ins, nullptr);
  DbExecResult r;
  for (int i = 1; i <= 300; ++i) {
    ins->BindInt(0, i);
    ins->BindInt(1, i % 7);
    ins->BindString(2, std::string(static_cast<size_t>(i), 'a' + static_cast<char>(i % 26)));
    ASSERT_OK(ins->Execute(r));
    EXPECT_EQ(r.rows_affected, 1u);
  }
  auto range = Prepare("SELECT c FROM " + table_ + " WHERE id BETWEEN ? AND ?", 2);
  ASSERT_NE(range, nullptr);
  for (auto [lo, hi] :
       {std::pair{1, 300}, std::pair{5, 5}, std::pair{400, 500}, std::pair{1, 300}}) {
    SCOPED_TRACE(lo);
    ASSERT_OK(conn_->Begin());
    range->BindInt(0, lo);
    range->BindInt(1, hi);
    ASSERT_OK(range->Execute(r));
    const uint64_t counted = r.rows_returned;
    DbRows rows;
    ASSERT_OK(range->Execute(r, &rows));
    EXPECT_EQ(counted, rows.rows.size());
    EXPECT_EQ(counted, lo > 300 ? 0u : static_cast<uint64_t>(hi - lo + 1));
    ASSERT_OK(conn_->Commit());
  }
  auto upd = Prepare("UPDATE " + table_ + " SET k = k + ? WHERE k = ?", 2);
  ASSERT_NE(upd, nullptr);
  upd->BindDouble(0, 1.0);
  upd->BindInt(1, 3);
  ASSERT_OK(upd->Execute(r));
  EXPECT_EQ(r.rows_affected, 43u);  // k = 3 for i = 3, 10, ..., 297
  upd->BindNull(0);
  upd->BindInt(1, 4);
  DbError e = upd->Execute(r);  // k = k + NULL into a NOT NULL column
  EXPECT_FALSE(e.ok());
  EXPECT_EQ(e.code, 1048) << e.message;
  EXPECT_EQ(e.sqlstate, "23000") << e.message;
}

TEST_F(MysqlDriverTest, ErrorsCarryCodeStateAndClass) {
  auto ins = Prepare("INSERT INTO " + table_ + " (id) VALUES (?)", 1);
  ASSERT_NE(ins, nullptr);
  DbExecResult r;
  ins->BindInt(0, 1);
  ASSERT_OK(ins->Execute(r));
  DbError e = ins->Execute(r);
  EXPECT_EQ(e.cls, DbErrorClass::kFatal);
  EXPECT_EQ(e.code, 1062);
  EXPECT_EQ(e.sqlstate, "23000");
  EXPECT_NE(e.message.find("Duplicate entry"), std::string::npos) << e.message;

  // A lock wait timeout inside a transaction is retryable; ROLLBACK works.
  auto other = Connect();
  ASSERT_NE(other, nullptr);
  ASSERT_OK(conn_->Begin());
  auto upd = Prepare("UPDATE " + table_ + " SET k = ? WHERE id = 1", 1);
  ASSERT_NE(upd, nullptr);
  upd->BindInt(0, 5);
  ASSERT_OK(upd->Execute(r));
  Exec(*other, "SET SESSION innodb_lock_wait_timeout = 1");
  std::unique_ptr<DbStatement> waits;
  ASSERT_OK(other->Prepare("UPDATE " + table_ + " SET k = ? WHERE id = 1", 1, waits));
  waits->BindInt(0, 6);
  ASSERT_OK(other->Begin());
  e = waits->Execute(r);
  EXPECT_EQ(e.cls, DbErrorClass::kRetryable) << e.message;
  EXPECT_EQ(e.code, 1205);
  EXPECT_EQ(e.sqlstate, "HY000");
  EXPECT_OK(other->Rollback());
  EXPECT_OK(conn_->Rollback());

  // COMMIT with no transaction open succeeds, and the connection goes on.
  EXPECT_OK(conn_->Commit());
  ins->BindInt(0, 2);
  EXPECT_OK(ins->Execute(r));
}

// The test server's plain sessions run statements through the own path.
TEST_F(MysqlDriverTest, PlainSessionsUseTheOwnPath) {
  EXPECT_EQ(MysqlOwnPathObstacle(*conn_), "");
  ASSERT_OK(conn_->Reconnect());
  EXPECT_EQ(MysqlOwnPathObstacle(*conn_), "");
}

// A session whose negotiated flags break an assumption of the own path
// (here as the check sees them: without EOF packets, or compressed) runs
// every statement through libmariadb, and they all still work.
TEST_F(MysqlDriverTest, SessionsTheOwnPathCannotReadUseLibmariadb) {
  struct Reset {
    ~Reset() { MysqlAddNegotiatedFlagsForTesting(0); }
  } reset;
  for (const auto& [flag, why] : {std::pair{kMyClientDeprecateEof, "DEPRECATE_EOF"},
                                  std::pair{uint64_t{CLIENT_COMPRESS}, "compressed"}}) {
    SCOPED_TRACE(why);
    MysqlAddNegotiatedFlagsForTesting(flag);
    auto c = Connect();
    ASSERT_NE(c, nullptr);
    EXPECT_NE(MysqlOwnPathObstacle(*c).find(why), std::string::npos) << MysqlOwnPathObstacle(*c);
    // The run header says so, with the reason.
    EXPECT_EQ(c->StatementPath(), "libmariadb (" + MysqlOwnPathObstacle(*c) + ")");
    Exec(*c, "DELETE FROM " + table_);
    std::unique_ptr<DbStatement> ins;
    ASSERT_OK(c->Prepare("INSERT INTO " + table_ + " (id, c) VALUES (?, ?)", 2, ins));
    DbExecResult r;
    ASSERT_OK(c->Begin());
    for (int i = 1; i <= 3; ++i) {
      ins->BindInt(0, i);
      ins->BindString(1, "x");
      ASSERT_OK(ins->Execute(r));
      EXPECT_EQ(r.rows_affected, 1u);
    }
    ASSERT_OK(c->Commit());
    ASSERT_OK(c->Begin());
    ins->BindInt(0, 4);
    ASSERT_OK(ins->Execute(r));
    ASSERT_OK(c->Rollback());
    std::unique_ptr<DbStatement> sel;
    ASSERT_OK(c->Prepare("SELECT c FROM " + table_ + " WHERE id >= ?", 1, sel));
    sel->BindInt(0, 2);
    ASSERT_OK(sel->Execute(r));
    EXPECT_EQ(r.rows_returned, 2u);
    ins->BindInt(0, 1);
    DbError e = ins->Execute(r);
    EXPECT_EQ(e.code, 1062) << e.message;
    EXPECT_EQ(e.sqlstate, "23000") << e.message;
    // A reconnect checks again.
    MysqlAddNegotiatedFlagsForTesting(0);
    ASSERT_OK(c->Reconnect());
    EXPECT_EQ(MysqlOwnPathObstacle(*c), "");
    EXPECT_EQ(c->StatementPath().rfind("loadcell's own protocol client", 0), 0u)
        << c->StatementPath();
  }
}

}  // namespace
}  // namespace loadcell
