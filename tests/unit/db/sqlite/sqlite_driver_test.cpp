// The sqlite driver against a file in a temporary folder.

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <thread>

#include "db/db_driver.h"
#include "testing/status.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

class SqliteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = tmp_.path();
    ASSERT_FALSE(dir_.empty());
  }

  // A resolved sqlite driver with extra options (name, value).
  std::unique_ptr<DbDrivers> Drivers(std::vector<std::pair<std::string, std::string>> args = {}) {
    auto db = std::make_unique<DbDrivers>();
    sets_.push_back(std::make_unique<OptionSet>("test"));
    OptionSet& set = *sets_.back();
    db->RegisterOptions(set);
    RawOptions raw;
    raw.Add("sqlite-db", dir_ + "/test.db", true, "command line");
    for (auto& [k, v] : args) raw.Add(k, v, true, "command line");
    EXPECT_OK(set.Apply(raw));
    EXPECT_OK(db->Resolve(set));
    return db;
  }

  std::unique_ptr<DbConnection> Connect(DbDrivers& db) {
    auto c = db.driver().Connect(0);
    EXPECT_OK(c);
    return c.ok() ? std::move(c).value() : nullptr;
  }

  static void Exec(DbConnection& c, const std::string& sql) {
    DbExecResult r;
    DbError e = c.Execute(sql, r);
    ASSERT_OK(e) << sql;
  }

  testing::TempDir tmp_;
  std::string dir_;  // tmp_.path()
  std::vector<std::unique_ptr<OptionSet>> sets_;
};

TEST_F(SqliteTest, ExecuteCountsAffectedAndReturnedRows) {
  auto db = Drivers();
  auto c = Connect(*db);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(db->driver().Name(), "sqlite");
  EXPECT_NE(c->ServerVersion().find("SQLite 3."), std::string::npos);
  EXPECT_NE(db->driver().Describe().find("test.db"), std::string::npos);
  Exec(*c, "CREATE TABLE t (id INTEGER PRIMARY KEY, k INTEGER, c TEXT)");
  DbExecResult r;
  ASSERT_OK(c->Execute("INSERT INTO t VALUES (1, 10, 'a'), (2, 20, 'b'), (3, 20, NULL)", r));
  EXPECT_EQ(r.rows_affected, 3u);
  EXPECT_EQ(r.rows_returned, 0u);
  ASSERT_OK(c->Execute("UPDATE t SET k = k + 1 WHERE k = 20", r));
  EXPECT_EQ(r.rows_affected, 2u);
  // A SELECT counts rows without keeping them, and affects none.
  ASSERT_OK(c->Execute("SELECT c FROM t", r));
  EXPECT_EQ(r.rows_returned, 3u);
  EXPECT_EQ(r.rows_affected, 0u);
  DbRows rows;
  ASSERT_OK(c->Execute("SELECT id, c FROM t ORDER BY id", r, &rows));
  ASSERT_EQ(rows.columns, (std::vector<std::string>{"id", "c"}));
  ASSERT_EQ(rows.rows.size(), 3u);
  EXPECT_EQ(rows.rows[0][0], "1");
  EXPECT_EQ(rows.rows[1][1], "b");
  EXPECT_FALSE(rows.rows[2][1].has_value());
  // The file is in WAL mode.
  DbRows mode;
  ASSERT_OK(c->Execute("PRAGMA journal_mode", r, &mode));
  ASSERT_EQ(mode.rows.size(), 1u);
  EXPECT_EQ(mode.rows[0][0], "wal");
}

TEST_F(SqliteTest, PreparedStatementsBindEachType) {
  auto db = Drivers();
  auto c = Connect(*db);
  ASSERT_NE(c, nullptr);
  EXPECT_TRUE(db->driver().Capabilities().prepared_statements);
  Exec(*c, "CREATE TABLE t (id INTEGER PRIMARY KEY, big INTEGER, d REAL, s TEXT, n TEXT)");
  std::unique_ptr<DbStatement> ins;
  ASSERT_OK(c->Prepare("INSERT INTO t VALUES (?, ?, ?, ?, ?)", 5, ins));
  DbExecResult r;
  ins->BindInt(0, 1);
  ins->BindInt(1, int64_t{1} << 40);
  ins->BindDouble(2, 2.5);
  ins->BindString(3, std::string("it's \0 here", 11));
  ins->BindNull(4);
  ASSERT_OK(ins->Execute(r));
  EXPECT_EQ(r.rows_affected, 1u);
  // Binds stay in force: only the key changes.
  ins->BindInt(0, 2);
  ASSERT_OK(ins->Execute(r));
  ASSERT_OK(ins->Execute({DbValue::Int(3), DbValue::Int(-7), DbValue::Double(-0.25),
                          DbValue::String("x"), DbValue::String("y")},
                         r));

  std::unique_ptr<DbStatement> sel;
  ASSERT_OK(c->Prepare("SELECT big, d, s, n FROM t WHERE id BETWEEN ? AND ? ORDER BY id", 2, sel));
  sel->BindInt(0, 1);
  sel->BindInt(1, 3);
  DbRows rows;
  ASSERT_OK(sel->Execute(r, &rows));
  EXPECT_EQ(r.rows_returned, 3u);
  ASSERT_EQ(rows.rows.size(), 3u);
  EXPECT_EQ(rows.rows[0][0], std::to_string(int64_t{1} << 40));
  EXPECT_EQ(rows.rows[0][1], "2.5");
  EXPECT_EQ(rows.rows[0][2], std::string("it's \0 here", 11));
  EXPECT_FALSE(rows.rows[0][3].has_value());
  EXPECT_EQ(rows.rows[2][0], "-7");
  EXPECT_EQ(rows.rows[2][3], "y");
  // Re-executing counts afresh.
  sel->BindInt(1, 1);
  ASSERT_OK(sel->Execute(r));
  EXPECT_EQ(r.rows_returned, 1u);

  // A placeholder count that does not match is refused.
  std::unique_ptr<DbStatement> bad;
  DbError e = c->Prepare("SELECT ? + ?", 1, bad);
  EXPECT_EQ(e.cls, DbErrorClass::kFatal);
  // A syntax error is fatal and names the problem.
  e = c->Prepare("SELEC 1", 0, bad);
  EXPECT_EQ(e.cls, DbErrorClass::kFatal);
  EXPECT_NE(e.message.find("syntax"), std::string::npos) << e.message;
}

TEST_F(SqliteTest, EmulatedPreparedStatementsQuote) {
  auto db = Drivers({{"db-ps-mode", "disable"}});
  auto c = Connect(*db);
  ASSERT_NE(c, nullptr);
  EXPECT_FALSE(db->driver().Capabilities().prepared_statements);
  Exec(*c, "CREATE TABLE t (id INTEGER PRIMARY KEY, d REAL, s TEXT)");
  std::unique_ptr<DbStatement> ins;
  ASSERT_OK(c->Prepare("INSERT INTO t VALUES (?, ?, ?)", 3, ins));
  DbExecResult r;
  ASSERT_OK(ins->Execute({DbValue::Int(1), DbValue::Double(0.5), DbValue::String("a'b?")}, r));
  EXPECT_EQ(r.rows_affected, 1u);
  ASSERT_OK(
      ins->Execute({DbValue::Int(2), DbValue::Null(), DbValue::String("'); DROP TABLE t; --")}, r));
  std::unique_ptr<DbStatement> sel;
  ASSERT_OK(c->Prepare("SELECT s FROM t WHERE id = ? OR s = '?'", 1, sel));
  DbRows rows;
  sel->BindInt(0, 1);
  ASSERT_OK(sel->Execute(r, &rows));
  ASSERT_EQ(rows.rows.size(), 1u);
  EXPECT_EQ(rows.rows[0][0], "a'b?");
  ASSERT_OK(c->Execute("SELECT count(*) FROM t", r));
  EXPECT_EQ(r.rows_returned, 1u);
}

TEST_F(SqliteTest, TransactionsCommitAndRollBack) {
  auto db = Drivers();
  auto c = Connect(*db);
  ASSERT_NE(c, nullptr);
  Exec(*c, "CREATE TABLE t (id INTEGER PRIMARY KEY)");
  ASSERT_OK(c->Begin());
  Exec(*c, "INSERT INTO t VALUES (1)");
  ASSERT_OK(c->Rollback());
  ASSERT_OK(c->Begin());
  Exec(*c, "INSERT INTO t VALUES (2)");
  ASSERT_OK(c->Commit());
  DbRows rows;
  DbExecResult r;
  ASSERT_OK(c->Execute("SELECT id FROM t", r, &rows));
  ASSERT_EQ(rows.rows.size(), 1u);
  EXPECT_EQ(rows.rows[0][0], "2");
  // Rolling back with nothing open is harmless; committing is an error.
  EXPECT_OK(c->Rollback());
  EXPECT_EQ(c->Commit().cls, DbErrorClass::kFatal);
}

TEST_F(SqliteTest, ConstraintViolationIsFatalBusyIsRetryable) {
  // `b` comes from a second driver, as another process's connection would:
  // it does not share the first driver's gate and meets SQLite's own lock.
  auto db = Drivers({{"sqlite-busy-timeout", "0"}});
  auto other = Drivers({{"sqlite-busy-timeout", "0"}});
  auto a = Connect(*db);
  auto b = Connect(*other);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  Exec(*a, "CREATE TABLE t (id INTEGER PRIMARY KEY)");
  Exec(*a, "INSERT INTO t VALUES (1)");
  DbExecResult r;
  DbError dup = a->Execute("INSERT INTO t VALUES (1)", r);
  EXPECT_EQ(dup.cls, DbErrorClass::kFatal);
  EXPECT_EQ(dup.code, 1555 /* SQLITE_CONSTRAINT_PRIMARYKEY */);
  EXPECT_NE(dup.message.find("UNIQUE"), std::string::npos) << dup.message;

  // `a` holds the write lock; `b` cannot write and must not wait.
  ASSERT_OK(a->Begin());
  Exec(*a, "INSERT INTO t VALUES (2)");
  DbError busy = b->Execute("INSERT INTO t VALUES (3)", r);
  EXPECT_EQ(busy.cls, DbErrorClass::kRetryable) << busy.message;
  EXPECT_EQ(busy.code & 0xff, 5);  // SQLITE_BUSY
  EXPECT_EQ(busy.message.find("--sqlite-busy-timeout"), std::string::npos) << busy.message;
  ASSERT_OK(a->Commit());
  ASSERT_OK(b->Rollback());
  Exec(*b, "INSERT INTO t VALUES (3)");
}

// Writes of the driver's connections wait at its gate (db/write_gate.h, whose
// own tests show the first-come, first-served order), not in SQLite's busy
// handler; the turn ends with the transaction, or with the connection.
TEST_F(SqliteTest, WritesWaitAtTheGate) {
  auto db = Drivers({{"sqlite-busy-timeout", "0"}});
  auto a = Connect(*db);
  auto b = Connect(*db);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  Exec(*a, "CREATE TABLE t (id INTEGER PRIMARY KEY)");
  DbExecResult r;
  Exec(*a, "BEGIN IMMEDIATE");
  DbError busy = b->Execute("INSERT INTO t VALUES (1)", r);
  EXPECT_EQ(busy.cls, DbErrorClass::kRetryable) << busy.message;
  EXPECT_EQ(busy.code, 5);  // SQLITE_BUSY
  EXPECT_NE(busy.message.find("--sqlite-busy-timeout"), std::string::npos) << busy.message;
  // Reads do not queue.
  DbRows rows;
  EXPECT_OK(b->Execute("SELECT count(*) FROM t", r, &rows));
  Exec(*a, "COMMIT");
  Exec(*b, "INSERT INTO t VALUES (1)");  // outside a transaction: the turn ends with it
  Exec(*a, "INSERT INTO t VALUES (2)");
  // A failed statement that leaves no transaction open ends the turn too.
  DbError dup = b->Execute("INSERT INTO t VALUES (1)", r);
  EXPECT_EQ(dup.cls, DbErrorClass::kFatal) << dup.message;
  Exec(*a, "INSERT INTO t VALUES (3)");
  // So does closing a connection in the middle of a write transaction.
  Exec(*a, "BEGIN IMMEDIATE");
  Exec(*a, "INSERT INTO t VALUES (4)");
  a.reset();
  Exec(*b, "INSERT INTO t VALUES (5)");
  rows = {};
  ASSERT_OK(b->Execute("SELECT group_concat(id) FROM t", r, &rows));
  EXPECT_EQ(rows.rows.at(0).at(0), "1,2,3,5");
}

// Many writers at once: every transaction gets its turn, none is lost and
// nothing waits for ever.
TEST_F(SqliteTest, ConcurrentWritersAllFinish) {
  auto db = Drivers();
  constexpr int kThreads = 4;
  constexpr int kEach = 100;
  std::vector<std::unique_ptr<DbConnection>> conns;
  for (int i = 0; i < kThreads; ++i) {
    conns.push_back(Connect(*db));
    ASSERT_NE(conns.back(), nullptr);
    Exec(*conns.back(), "PRAGMA synchronous=OFF");
  }
  Exec(*conns[0], "CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER)");
  Exec(*conns[0], "INSERT INTO t VALUES (1, 0)");
  std::vector<std::string> errors(kThreads);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      DbConnection& c = *conns[static_cast<size_t>(i)];
      DbExecResult r;
      for (int k = 0; k < kEach; ++k) {
        for (const char* sql :
             {"BEGIN IMMEDIATE", "UPDATE t SET n = n + 1 WHERE id = 1", "COMMIT"}) {
          if (DbError e = c.Execute(sql, r); !e.ok()) {
            errors[static_cast<size_t>(i)] = e.message;
            return;
          }
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (int i = 0; i < kThreads; ++i) EXPECT_EQ(errors[static_cast<size_t>(i)], "") << i;
  DbExecResult r;
  DbRows rows;
  ASSERT_OK(conns[0]->Execute("SELECT n FROM t", r, &rows));
  EXPECT_EQ(rows.rows.at(0).at(0), std::to_string(kThreads * kEach));
}

TEST_F(SqliteTest, BulkInsertAndReconnect) {
  auto db = Drivers();
  auto c = Connect(*db);
  ASSERT_NE(c, nullptr);
  Exec(*c, "CREATE TABLE t (id INTEGER PRIMARY KEY, k INTEGER, c TEXT)");
  std::unique_ptr<DbBulkInsert> bulk;
  ASSERT_OK(c->BeginBulkInsert("t", {"id", "k", "c"}, bulk));
  ASSERT_OK(c->Begin());
  std::vector<DbValue> row = {DbValue::Int(0), DbValue::Int(0), DbValue::String("")};
  for (int i = 1; i <= 2500; ++i) {
    row[0].i = i;
    row[1].i = i % 7;
    row[2].s = "row-" + std::to_string(i);
    ASSERT_OK(bulk->AddRow(row));
  }
  EXPECT_EQ(bulk->AddRow(std::span<const DbValue>(row).first(2)).cls, DbErrorClass::kFatal);
  ASSERT_OK(bulk->Finish());
  bulk.reset();
  ASSERT_OK(c->Commit());
  DbRows rows;
  DbExecResult r;
  ASSERT_OK(c->Execute("SELECT count(*), sum(id) FROM t", r, &rows));
  EXPECT_EQ(rows.rows[0][0], "2500");
  EXPECT_EQ(rows.rows[0][1], std::to_string(2500 * 2501 / 2));

  std::unique_ptr<DbStatement> old;
  ASSERT_OK(c->Prepare("SELECT c FROM t WHERE id = ?", 1, old));
  ASSERT_OK(c->Reconnect());
  old->BindInt(0, 1);
  EXPECT_EQ(old->Execute(r).cls, DbErrorClass::kFatal);  // prepared before the reconnect
  std::unique_ptr<DbStatement> fresh;
  ASSERT_OK(c->Prepare("SELECT c FROM t WHERE id = ?", 1, fresh));
  fresh->BindInt(0, 7);
  ASSERT_OK(fresh->Execute(r));
  EXPECT_EQ(r.rows_returned, 1u);
}

TEST_F(SqliteTest, OpenFailureNamesTheFile) {
  // A folder where the database file belongs passes the folder check and
  // fails at the open.
  ASSERT_TRUE(std::filesystem::create_directory(dir_ + "/adir"));
  auto db = Drivers({{"sqlite-db", dir_ + "/adir"}});
  auto c = db->driver().Connect(0);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("adir"), std::string::npos);
  EXPECT_EQ(ExitCodeFor(c.status()), 1);
}

TEST_F(SqliteTest, AMissingFolderIsAUsageErrorBeforeAnyOpen) {
  auto db = std::make_unique<DbDrivers>();
  OptionSet set("test");
  db->RegisterOptions(set);
  RawOptions raw;
  raw.Add("sqlite-db", dir_ + "/no/such/dir/x.db", true, "command line");
  ASSERT_OK(set.Apply(raw));
  const Status s = db->Resolve(set);
  EXPECT_EQ(ExitCodeFor(s), 2) << s.ToString();
  EXPECT_NE(s.message().find("the folder " + dir_ + "/no/such/dir does not exist"),
            std::string::npos)
      << s.ToString();
}

}  // namespace
}  // namespace loadcell
