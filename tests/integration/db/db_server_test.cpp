// The pgsql and mysql drivers against real servers (scripts/test-servers).
// The same checks run on both; each test uses its own table.

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <thread>

#include "testing/db_test_env.h"
#include "testing/status.h"

namespace loadcell {
namespace {

using Args = testing::OptionPairs;
using testing::DriverSetup;
using testing::Exec;
using testing::ServerArgs;
using testing::TableName;

class DbServerTest : public ::testing::TestWithParam<std::string> {
 protected:
  std::string driver_name() const { return GetParam(); }
  bool pg() const { return GetParam() == "pgsql"; }

  // A connected driver; fails the test when the servers are not there.
  std::unique_ptr<DbConnection> Connect(const Args& extra = {}, int index = 0) {
    setups_.push_back(std::make_unique<DriverSetup>(ServerArgs(driver_name(), extra)));
    DriverSetup& s = *setups_.back();
    EXPECT_OK(s.status);
    if (!s.status.ok()) return nullptr;
    auto c = s.driver().Connect(index);
    EXPECT_OK(c);
    return c.ok() ? std::move(c).value() : nullptr;
  }

  // Creates `table` (id primary key, k, c) freshly; dropped at tear-down.
  void CreateTable(DbConnection& c, const std::string& table) {
    Exec(c, "DROP TABLE IF EXISTS " + table);
    Exec(c, "CREATE TABLE " + table +
                " (id INTEGER NOT NULL PRIMARY KEY, k INTEGER NOT NULL DEFAULT 0, "
                "c VARCHAR(200), d DOUBLE PRECISION)");
    tables_.push_back(table);
  }

  void TearDown() override {
    if (tables_.empty()) return;
    auto c = Connect();
    if (c == nullptr) return;
    for (const auto& t : tables_) {
      DbExecResult r;
      DbError e = c->Execute("DROP TABLE IF EXISTS " + t, r);
      EXPECT_OK(e);
    }
  }

  int64_t SessionId(DbConnection& c) {
    DbRows rows;
    DbExecResult r;
    DbError e = c.Execute(pg() ? "SELECT pg_backend_pid()" : "SELECT CONNECTION_ID()", r, &rows);
    EXPECT_OK(e);
    if (rows.rows.size() != 1 || !rows.rows[0][0]) return -1;
    return std::stoll(*rows.rows[0][0]);
  }

  std::vector<std::unique_ptr<DriverSetup>> setups_;
  std::vector<std::string> tables_;
};

TEST_P(DbServerTest, ConnectsAndReportsTheServer) {
  auto c = Connect();
  ASSERT_NE(c, nullptr);
  const std::string v = c->ServerVersion();
  EXPECT_NE(v.find(pg() ? "PostgreSQL" : "MariaDB"), std::string::npos) << v;
  const std::string d = setups_.back()->driver().Describe();
  EXPECT_NE(d.find(testing::RequiredServerVar(pg() ? "PG" : "MYSQL", "PORT")), std::string::npos)
      << d;
  EXPECT_EQ(d.find(testing::RequiredServerVar(pg() ? "PG" : "MYSQL", "PASSWORD")),
            std::string::npos)
      << d;
  const OptionSpec* pw = setups_.back()->opts->Find(driver_name() + "-password");
  ASSERT_NE(pw, nullptr);
  EXPECT_EQ(pw->ValueText(), "(hidden)");
}

TEST_P(DbServerTest, ExecutesAndCountsRows) {
  auto c = Connect();
  ASSERT_NE(c, nullptr);
  const std::string t = TableName("exec");
  CreateTable(*c, t);
  DbExecResult r;
  ASSERT_OK(c->Execute(
      "INSERT INTO " + t + " (id, k, c) VALUES (1, 5, 'a'), (2, 5, 'b'), (3, 6, NULL)", r));
  EXPECT_EQ(r.rows_affected, 3u);
  ASSERT_OK(c->Execute("UPDATE " + t + " SET k = 7 WHERE k = 5", r));
  EXPECT_EQ(r.rows_affected, 2u);
  ASSERT_OK(c->Execute("SELECT c FROM " + t, r));
  EXPECT_EQ(r.rows_returned, 3u);
  DbRows rows;
  ASSERT_OK(c->Execute("SELECT id, c FROM " + t + " ORDER BY id", r, &rows));
  ASSERT_EQ(rows.columns, (std::vector<std::string>{"id", "c"}));
  ASSERT_EQ(rows.rows.size(), 3u);
  EXPECT_EQ(rows.rows[1][0], "2");
  EXPECT_EQ(rows.rows[1][1], "b");
  EXPECT_FALSE(rows.rows[2][1].has_value());
  // A syntax error is fatal and carries the server's code.
  DbError e = c->Execute("SELEC 1", r);
  EXPECT_EQ(e.cls, DbErrorClass::kFatal);
  if (pg()) {
    EXPECT_EQ(e.sqlstate, "42601");
  } else {
    EXPECT_EQ(e.code, 1064);
  }
}

TEST_P(DbServerTest, PreparedStatementsBindEachType) {
  for (const char* mode : {"auto", "disable"}) {
    SCOPED_TRACE(mode);
    auto c = Connect({{"db-ps-mode", mode}});
    ASSERT_NE(c, nullptr);
    const std::string t = TableName(std::string("ps") + mode);
    CreateTable(*c, t);
    std::unique_ptr<DbStatement> ins;
    DbError e = c->Prepare("INSERT INTO " + t + " (id, k, c, d) VALUES (?, ?, ?, ?)", 4, ins);
    ASSERT_OK(e);
    DbExecResult r;
    const std::string tricky = "it's a \\ tab\tquote\" ?";
    ins->BindInt(0, 1);
    ins->BindInt(1, 2000000000);
    ins->BindString(2, tricky);
    ins->BindDouble(3, 0.125);
    ASSERT_OK(ins->Execute(r));
    EXPECT_EQ(r.rows_affected, 1u);
    ins->BindInt(0, 2);
    ins->BindNull(2);
    ASSERT_OK(ins->Execute(r));
    e = ins->Execute({DbValue::Int(3), DbValue::Int(-1), DbValue::String(std::string(150, 'x')),
                      DbValue::Null()},
                     r);
    ASSERT_OK(e);

    std::unique_ptr<DbStatement> sel;
    e = c->Prepare("SELECT k, c, d FROM " + t + " WHERE id BETWEEN ? AND ? ORDER BY id", 2, sel);
    ASSERT_OK(e);
    sel->BindInt(0, 1);
    sel->BindInt(1, 3);
    ASSERT_OK(sel->Execute(r));
    EXPECT_EQ(r.rows_returned, 3u);
    DbRows rows;
    ASSERT_OK(sel->Execute(r, &rows));
    ASSERT_EQ(rows.rows.size(), 3u);
    EXPECT_EQ(rows.rows[0][0], "2000000000");
    EXPECT_EQ(rows.rows[0][1], tricky);
    EXPECT_EQ(std::stod(*rows.rows[0][2]), 0.125);
    EXPECT_FALSE(rows.rows[1][1].has_value());
    EXPECT_EQ(rows.rows[2][0], "-1");
    EXPECT_EQ(rows.rows[2][1], std::string(150, 'x'));
    EXPECT_FALSE(rows.rows[2][2].has_value());

    // Update counts affected rows; the statement is reused many times.
    std::unique_ptr<DbStatement> upd;
    ASSERT_OK(c->Prepare("UPDATE " + t + " SET k = k + 1 WHERE id = ?", 1, upd));
    uint64_t affected = 0;
    for (int i = 0; i < 200; ++i) {
      upd->BindInt(0, 1 + i % 3);
      ASSERT_OK(upd->Execute(r));
      affected += r.rows_affected;
    }
    EXPECT_EQ(affected, 200u);
    // A long value is returned whole.
    std::unique_ptr<DbStatement> one;
    ASSERT_OK(c->Prepare("SELECT c FROM " + t + " WHERE id = ?", 1, one));
    one->BindInt(0, 3);
    DbRows big;
    ASSERT_OK(one->Execute(r, &big));
    ASSERT_EQ(big.rows.size(), 1u);
    EXPECT_EQ(big.rows[0][0], std::string(150, 'x'));
  }
}

TEST_P(DbServerTest, TransactionsCommitAndRollBack) {
  auto c = Connect();
  ASSERT_NE(c, nullptr);
  const std::string t = TableName("trx");
  CreateTable(*c, t);
  ASSERT_OK(c->Begin());
  Exec(*c, "INSERT INTO " + t + " (id) VALUES (1)");
  ASSERT_OK(c->Rollback());
  ASSERT_OK(c->Begin());
  Exec(*c, "INSERT INTO " + t + " (id) VALUES (2)");
  ASSERT_OK(c->Commit());
  DbRows rows;
  DbExecResult r;
  ASSERT_OK(c->Execute("SELECT id FROM " + t, r, &rows));
  ASSERT_EQ(rows.rows.size(), 1u);
  EXPECT_EQ(rows.rows[0][0], "2");
  // A failed statement inside a transaction: roll back and go on.
  ASSERT_OK(c->Begin());
  DbError dup = c->Execute("INSERT INTO " + t + " (id) VALUES (2)", r);
  EXPECT_FALSE(dup.ok());
  ASSERT_OK(c->Rollback());
  Exec(*c, "INSERT INTO " + t + " (id) VALUES (3)");
}

TEST_P(DbServerTest, DuplicateKeyIsIgnorableOnlyWhenListed) {
  // pgsql's default list has 23505 (unique violation), mysql's has not 1062.
  auto c = Connect();
  ASSERT_NE(c, nullptr);
  const std::string t = TableName("dup");
  CreateTable(*c, t);
  Exec(*c, "INSERT INTO " + t + " (id) VALUES (1)");
  DbExecResult r;
  DbError e = c->Execute("INSERT INTO " + t + " (id) VALUES (1)", r);
  if (pg()) {
    EXPECT_EQ(e.cls, DbErrorClass::kIgnorable) << e.message;
    EXPECT_EQ(e.sqlstate, "23505");
  } else {
    EXPECT_EQ(e.cls, DbErrorClass::kFatal) << e.message;
    EXPECT_EQ(e.code, 1062);
    EXPECT_EQ(e.sqlstate, "23000");
  }
  auto listed = Connect({{driver_name() + "-ignore-errors", pg() ? "23505" : "1062"}});
  ASSERT_NE(listed, nullptr);
  EXPECT_EQ(listed->Execute("INSERT INTO " + t + " (id) VALUES (1)", r).cls,
            DbErrorClass::kIgnorable);
  auto none = Connect({{driver_name() + "-ignore-errors", "none"}});
  ASSERT_NE(none, nullptr);
  EXPECT_EQ(none->Execute("INSERT INTO " + t + " (id) VALUES (1)", r).cls, DbErrorClass::kFatal);
  auto all = Connect({{driver_name() + "-ignore-errors", "all"}});
  ASSERT_NE(all, nullptr);
  EXPECT_EQ(all->Execute("SELEC 1", r).cls, DbErrorClass::kIgnorable);
}

TEST_P(DbServerTest, BulkInsertLoadsEveryRow) {
  auto c = Connect();
  ASSERT_NE(c, nullptr);
  const std::string t = TableName("bulk");
  CreateTable(*c, t);
  std::unique_ptr<DbBulkInsert> bulk;
  DbError e = c->BeginBulkInsert(t, {"id", "k", "c", "d"}, bulk);
  ASSERT_OK(e);
  std::vector<DbValue> row = {DbValue::Int(0), DbValue::Int(0), DbValue::String(""),
                              DbValue::Double(0)};
  const int n = 12000;
  for (int i = 1; i <= n; ++i) {
    row[0].i = i;
    row[1].i = i % 100;
    row[2].s.clear();  // (assign("v") trips a false -Wrestrict of GCC 12 here)
    row[2].s.push_back('v');
    row[2].s.append(std::to_string(i));
    if (i % 1000 == 0) {
      row[2].s.append("'\t\\\n\"");
    } else {
      row[2].s.append(100, 'p');
    }
    row[3] = i % 10 == 0 ? DbValue::Null() : DbValue::Double(i / 4.0);
    e = bulk->AddRow(row);
    ASSERT_OK(e);
  }
  e = bulk->Finish();
  ASSERT_OK(e);
  bulk.reset();
  DbRows rows;
  DbExecResult r;
  ASSERT_OK(c->Execute("SELECT count(*), sum(id), count(d) FROM " + t, r, &rows));
  EXPECT_EQ(rows.rows[0][0], std::to_string(n));
  EXPECT_EQ(rows.rows[0][1], std::to_string(int64_t{n} * (n + 1) / 2));
  EXPECT_EQ(rows.rows[0][2], std::to_string(n - n / 10));
  rows = {};
  ASSERT_OK(c->Execute("SELECT c FROM " + t + " WHERE id = 5000", r, &rows));
  EXPECT_EQ(rows.rows.at(0)[0], "v5000'\t\\\n\"");

  // A failing load reports the server's error and leaves the connection usable.
  ASSERT_OK(c->BeginBulkInsert(t, {"id", "k", "c", "d"}, bulk));
  row[0].i = 1;  // duplicate key
  e = bulk->AddRow(row);
  if (e.ok()) e = bulk->Finish();
  EXPECT_FALSE(e.ok());
  EXPECT_EQ(e.sqlstate, pg() ? "23505" : "23000") << e.message;
  bulk.reset();
  ASSERT_OK(c->Execute("SELECT count(*) FROM " + t, r));
}

// pgsql loads in COPY's binary format when it writes every column's type:
// each type's values (from ints, doubles, strings and NULL) arrive as the
// text format would have them; a value a column cannot take is refused with
// the server's SQLSTATE; a table with another type loads through text.
TEST_P(DbServerTest, PgBulkInsertTypesRoundTrip) {
  if (!pg()) GTEST_SKIP() << "COPY's binary format is pgsql's";
  auto c = Connect();
  ASSERT_NE(c, nullptr);
  const std::string t = TableName("bulktypes");
  Exec(*c, "DROP TABLE IF EXISTS " + t);
  Exec(*c, "CREATE TABLE " + t +
               " (a SMALLINT, b INTEGER, e BIGINT, f REAL, g DOUBLE PRECISION, h TEXT, "
               "i CHAR(5), j VARCHAR(10))");
  tables_.push_back(t);
  const std::vector<std::string> cols = {"a", "b", "e", "f", "g", "h", "i", "j"};
  std::unique_ptr<DbBulkInsert> bulk;
  ASSERT_OK(c->BeginBulkInsert(t, cols, bulk));
  ASSERT_OK(bulk->AddRow(std::vector<DbValue>{
      DbValue::Int(-32768), DbValue::String("2147483647"), DbValue::Int(int64_t{1} << 40),
      DbValue::Int(3), DbValue::Double(-0.25), DbValue::String("tab\there 'q' \xc3\xa9"),
      DbValue::String("ab"), DbValue::Double(1.5)}));
  ASSERT_OK(bulk->AddRow(std::vector<DbValue>(8, DbValue::Null())));
  // Numbers as text take what the server's own input takes: surrounding
  // whitespace and one leading '+'.
  ASSERT_OK(bulk->AddRow(std::vector<DbValue>{DbValue::String(" +5 "), DbValue::String("\t-7\n"),
                                              DbValue::String("+12"), DbValue::String(" +1.5\r\n"),
                                              DbValue::String("\f+2e3 "), DbValue::Null(),
                                              DbValue::Null(), DbValue::Null()}));
  // What it refuses is refused here too, as an invalid text representation.
  for (const char* bad : {"+-5", "++5", "-+5", "+", " ", "", "+ 5", "5 5", "0x10"}) {
    for (size_t col : {1, 4}) {  // b INTEGER, g DOUBLE PRECISION
      std::vector<DbValue> row(8, DbValue::Null());
      row[col] = DbValue::String(bad);
      const DbError bad_e = bulk->AddRow(row);
      EXPECT_EQ(bad_e.sqlstate, "22P02")
          << "'" << bad << "' column " << col << ": " << bad_e.message;
    }
  }
  // Refused before it reaches the server: the row is not sent, the load goes on.
  DbError e = bulk->AddRow(std::vector<DbValue>{DbValue::Int(40000), DbValue::Null(),
                                                DbValue::Null(), DbValue::Null(), DbValue::Null(),
                                                DbValue::Null(), DbValue::Null(), DbValue::Null()});
  EXPECT_EQ(e.sqlstate, "22003") << e.message;
  e = bulk->AddRow(std::vector<DbValue>{DbValue::Null(), DbValue::String("12x"), DbValue::Null(),
                                        DbValue::Null(), DbValue::Null(), DbValue::Null(),
                                        DbValue::Null(), DbValue::Null()});
  EXPECT_EQ(e.sqlstate, "22P02") << e.message;
  ASSERT_OK(bulk->Finish());
  bulk.reset();
  DbRows rows;
  DbExecResult r;
  ASSERT_OK(
      c->Execute("SELECT a, b, e, f, g, h, i, j FROM " + t + " ORDER BY a NULLS LAST", r, &rows));
  ASSERT_EQ(rows.rows.size(), 3u);
  const DbRows::Row want = {"-32768", "2147483647", "1099511627776",
                            "3",      "-0.25",      "tab\there 'q' \xc3\xa9",
                            "ab   ",  "1.5"};
  EXPECT_EQ(rows.rows[0], want);
  const DbRows::Row want_trimmed = {"5",    "-7",         "12",         "1.5",
                                    "2000", std::nullopt, std::nullopt, std::nullopt};
  EXPECT_EQ(rows.rows[1], want_trimmed);
  for (const auto& v : rows.rows[2]) EXPECT_FALSE(v.has_value());

  // NUMERIC and DATE are not written in binary: the text format loads them.
  const std::string t2 = TableName("bulktext");
  Exec(*c, "DROP TABLE IF EXISTS " + t2);
  Exec(*c, "CREATE TABLE " + t2 + " (n NUMERIC(6,2), d DATE, b INTEGER)");
  tables_.push_back(t2);
  ASSERT_OK(c->BeginBulkInsert(t2, {"n", "d", "b"}, bulk));
  ASSERT_OK(bulk->AddRow(std::vector<DbValue>{DbValue::String("1.50"),
                                              DbValue::String("2026-11-30"), DbValue::Int(7)}));
  ASSERT_OK(bulk->Finish());
  bulk.reset();
  rows = {};
  ASSERT_OK(c->Execute("SELECT n, d, b FROM " + t2, r, &rows));
  ASSERT_EQ(rows.rows.size(), 1u);
  EXPECT_EQ(rows.rows[0], (DbRows::Row{"1.50", "2026-11-30", "7"}));
}

// Transactions around nothing, a statement prepared inside one, a bulk load
// inside one, and a COPY given as text (pgsql sends BEGIN with the request
// that follows it).
TEST_P(DbServerTest, TransactionsAroundEveryKindOfRequest) {
  auto c = Connect();
  ASSERT_NE(c, nullptr);
  const std::string t = TableName("trxkinds");
  CreateTable(*c, t);
  DbExecResult r;
  ASSERT_OK(c->Begin());
  EXPECT_OK(c->Commit());
  ASSERT_OK(c->Begin());
  EXPECT_OK(c->Rollback());

  ASSERT_OK(c->Begin());
  std::unique_ptr<DbStatement> ins;
  ASSERT_OK(c->Prepare("INSERT INTO " + t + " (id) VALUES (?)", 1, ins));
  ins->BindInt(0, 1);
  ASSERT_OK(ins->Execute(r));
  EXPECT_EQ(r.rows_affected, 1u);
  ASSERT_OK(c->Rollback());

  for (bool commit : {false, true}) {
    ASSERT_OK(c->Begin());
    std::unique_ptr<DbBulkInsert> bulk;
    ASSERT_OK(c->BeginBulkInsert(t, {"id", "k"}, bulk));
    for (int i = 10; i < 20; ++i) {
      ASSERT_OK(bulk->AddRow(std::vector<DbValue>{DbValue::Int(i), DbValue::Int(i)}));
    }
    ASSERT_OK(bulk->Finish());
    bulk.reset();
    ASSERT_TRUE(commit ? c->Commit().ok() : c->Rollback().ok());
  }
  DbRows rows;
  ASSERT_OK(c->Execute("SELECT count(*), min(id) FROM " + t, r, &rows));
  ASSERT_EQ(rows.rows.size(), 1u);
  EXPECT_EQ(rows.rows[0][0], "10");  // the rolled-back insert and load left nothing
  EXPECT_EQ(rows.rows[0][1], "10");

  // COPY as text: refused (pgsql) or unknown (mysql); the connection goes on.
  DbError e = c->Execute("COPY " + t + " (id) FROM STDIN", r);
  EXPECT_EQ(e.cls, DbErrorClass::kFatal) << e.message;
  rows = {};
  ASSERT_OK(c->Execute("SELECT count(*) FROM " + t, r, &rows));
  EXPECT_EQ(rows.rows.at(0)[0], "10");
  if (pg()) {  // the same as a prepared statement (MySQL cannot prepare it)
    std::unique_ptr<DbStatement> copy;
    ASSERT_OK(c->Prepare("COPY " + t + " (id) FROM STDIN", 0, copy));
    DbError refused = copy->Execute(r);
    EXPECT_EQ(refused.cls, DbErrorClass::kFatal);
    // Our refusal, not the server's 57014 that follows our CopyFail.
    EXPECT_NE(refused.message.find("only available through bulk insert"), std::string::npos)
        << refused.sqlstate << " " << refused.message;
    rows = {};
    ASSERT_OK(c->Execute("SELECT count(*) FROM " + t, r, &rows));
    EXPECT_EQ(rows.rows.at(0)[0], "10");
  }
}

TEST_P(DbServerTest, ConflictIsRetryable) {
  auto a = Connect();
  auto b = Connect();
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  const std::string t = TableName("conflict");
  CreateTable(*a, t);
  Exec(*a, "INSERT INTO " + t + " (id, k) VALUES (1, 0), (2, 0)");
  DbExecResult r;
  if (pg()) {
    // Serialization failure: `a` updates a row changed after its snapshot.
    Exec(*a, "BEGIN ISOLATION LEVEL REPEATABLE READ");
    Exec(*a, "SELECT k FROM " + t + " WHERE id = 1");
    Exec(*b, "UPDATE " + t + " SET k = 1 WHERE id = 1");
    DbError e = a->Execute("UPDATE " + t + " SET k = 2 WHERE id = 1", r);
    EXPECT_EQ(e.cls, DbErrorClass::kRetryable) << e.message;
    EXPECT_EQ(e.sqlstate, "40001");
    ASSERT_OK(a->Rollback());
  } else {
    // Lock wait timeout: `b` waits for a row `a` holds.
    ASSERT_OK(a->Begin());
    Exec(*a, "UPDATE " + t + " SET k = 1 WHERE id = 1");
    Exec(*b, "SET SESSION innodb_lock_wait_timeout = 1");
    ASSERT_OK(b->Begin());
    DbError e = b->Execute("UPDATE " + t + " SET k = 2 WHERE id = 1", r);
    EXPECT_EQ(e.cls, DbErrorClass::kRetryable) << e.message;
    EXPECT_EQ(e.code, 1205);
    ASSERT_OK(b->Rollback());
    ASSERT_OK(a->Rollback());
  }
  // Deadlock: each holds one row and asks for the other's.
  ASSERT_OK(a->Begin());
  ASSERT_OK(b->Begin());
  Exec(*a, "UPDATE " + t + " SET k = 10 WHERE id = 1");
  Exec(*b, "UPDATE " + t + " SET k = 20 WHERE id = 2");
  auto blocked = std::async(std::launch::async, [&] {
    DbExecResult ra;
    return a->Execute("UPDATE " + t + " SET k = 11 WHERE id = 2", ra);
  });
  // Let `a` block on row 2 before `b` closes the cycle.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  DbError eb = b->Execute("UPDATE " + t + " SET k = 21 WHERE id = 1", r);
  if (!eb.ok()) {
    ASSERT_OK(b->Rollback());
  }
  DbError ea = blocked.get();
  const DbError& loser = eb.ok() ? ea : eb;
  EXPECT_TRUE(ea.ok() != eb.ok()) << ea.message << " / " << eb.message;
  EXPECT_EQ(loser.cls, DbErrorClass::kRetryable) << loser.message;
  if (pg()) {
    EXPECT_EQ(loser.sqlstate, "40P01");
  } else {
    EXPECT_EQ(loser.code, 1213);
  }
  a->Rollback();
  b->Rollback();
}

TEST_P(DbServerTest, KilledConnectionAsksForReconnect) {
  auto victim = Connect();
  auto killer = Connect();
  ASSERT_NE(victim, nullptr);
  ASSERT_NE(killer, nullptr);
  std::unique_ptr<DbStatement> stmt;
  ASSERT_OK(victim->Prepare("SELECT ? + 1", 1, stmt));
  stmt->BindInt(0, 1);
  DbExecResult r;
  ASSERT_OK(stmt->Execute(r));
  const int64_t id = SessionId(*victim);
  ASSERT_GT(id, 0);
  Exec(*killer, pg() ? "SELECT pg_terminate_backend(" + std::to_string(id) + ")"
                     : "KILL CONNECTION " + std::to_string(id));
  // The server may need a moment to close the session.
  DbError e;
  for (int i = 0; i < 50; ++i) {
    e = stmt->Execute(r);
    if (!e.ok()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(e.cls, DbErrorClass::kReconnect) << e.message;
  ASSERT_OK(victim->Reconnect());
  EXPECT_NE(SessionId(*victim), id);
  // Statements of the old session must be prepared again.
  EXPECT_EQ(stmt->Execute(r).cls, DbErrorClass::kFatal);
  ASSERT_OK(victim->Prepare("SELECT ? + 1", 1, stmt));
  stmt->BindInt(0, 41);
  DbRows rows;
  ASSERT_OK(stmt->Execute(r, &rows));
  EXPECT_EQ(rows.rows.at(0)[0], "42");
}

TEST_P(DbServerTest, WrongPasswordIsNotPrinted) {
  const std::string wrong = "Wr0ngPassw0rd-xyzzy";
  DriverSetup s(ServerArgs(driver_name(), {{driver_name() + "-password", wrong}}));
  ASSERT_OK(s.status);
  auto c = s.driver().Connect(0);
  ASSERT_FALSE(c.ok());
  const std::string m = c.status().message();
  EXPECT_EQ(c.status().code(), StatusCode::kUnavailable);
  EXPECT_EQ(ExitCodeFor(c.status()), 1);
  EXPECT_EQ(m.find(wrong), std::string::npos) << m;
  EXPECT_NE(m.find("bench"), std::string::npos) << m;  // names the user
  EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  EXPECT_EQ(s.driver().Describe().find(wrong), std::string::npos);
  EXPECT_EQ(s.opts->Find(driver_name() + "-password")->ValueText().find(wrong), std::string::npos);
}

TEST_P(DbServerTest, RefusedConnectionNamesHostAndPort) {
  // Port 1 on the loopback: nothing listens there.
  DriverSetup s(ServerArgs(driver_name(), {{driver_name() + "-port", "1"}}));
  ASSERT_OK(s.status);
  auto c = s.driver().Connect(0);
  ASSERT_FALSE(c.ok());
  const std::string m = c.status().message();
  EXPECT_EQ(c.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(m.find("127.0.0.1:1"), std::string::npos) << m;
  EXPECT_NE(m.find("may not be running"), std::string::npos) << m;
  EXPECT_EQ(m.find('\n'), std::string::npos) << m;
}

TEST_P(DbServerTest, MissingDatabaseIsNamed) {
  DriverSetup s(ServerArgs(driver_name(), {{driver_name() + "-db", "sbtest_no_such_db"}}));
  ASSERT_OK(s.status);
  auto c = s.driver().Connect(0);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("sbtest_no_such_db"), std::string::npos)
      << c.status().message();
  EXPECT_EQ(ExitCodeFor(c.status()), 1);
}

TEST_P(DbServerTest, PasswordFromTheEnvironment) {
  const char* var = pg() ? "PGPASSWORD" : "MYSQL_PWD";
  const std::string pw = testing::RequiredServerVar(pg() ? "PG" : "MYSQL", "PASSWORD");
  Args args = ServerArgs(driver_name());
  std::erase_if(args, [&](const auto& a) { return a.first == driver_name() + "-password"; });
  setenv(var, pw.c_str(), 1);
  DriverSetup s(args);
  unsetenv(var);
  ASSERT_OK(s.status);
  auto c = s.driver().Connect(0);
  EXPECT_OK(c);
  EXPECT_EQ(s.opts->Find(driver_name() + "-password")->ValueText(), "");
}

INSTANTIATE_TEST_SUITE_P(Servers, DbServerTest, ::testing::Values("pgsql", "mysql"),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

// mysql only: host and port lists spread connections round-robin.
TEST(MysqlHosts, PortListIsRoundRobin) {
  const std::string port = testing::RequiredServerVar("MYSQL", "PORT");
  DriverSetup s(ServerArgs("mysql", {{"mysql-port", port + ",1"}}));
  ASSERT_OK(s.status);
  auto c0 = s.driver().Connect(0);
  EXPECT_OK(c0);
  auto c1 = s.driver().Connect(1);
  ASSERT_FALSE(c1.ok());
  EXPECT_NE(c1.status().message().find("127.0.0.1:1"), std::string::npos);
  auto c2 = s.driver().Connect(2);
  EXPECT_OK(c2);
}

TEST(MysqlHosts, UnixSocket) {
  const std::string socket = testing::RequiredServerVar("MYSQL", "SOCKET");
  DriverSetup s(ServerArgs("mysql", {{"mysql-host", "localhost"}, {"mysql-socket", socket}}));
  ASSERT_OK(s.status);
  auto c = s.driver().Connect(0);
  ASSERT_OK(c);
  EXPECT_NE(s.driver().Describe().find(socket), std::string::npos);
}

}  // namespace
}  // namespace loadcell
