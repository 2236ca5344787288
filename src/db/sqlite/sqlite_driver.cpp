// The sqlite driver: an embedded database file (libsqlite3), WAL mode, a busy
// timeout; SQLITE_BUSY and SQLITE_LOCKED are retryable. The driver's
// connections take turns to write through a first-come, first-served gate
// (db/sqlite/write_gate.h).

#include <fmt/format.h>
#include <sqlite3.h>

#include <cmath>
#include <memory>
#include <string>

#include "db/drivers.h"
#include "db/sqlite/write_gate.h"
#include "os/file_system.h"
#include "os/folder_check.h"

namespace loadcell {
namespace {

DbError SqliteError(sqlite3* db, int rc, std::string_view context) {
  DbError e;
  const int primary = rc & 0xff;
  e.code = db != nullptr ? sqlite3_extended_errcode(db) : rc;
  if (e.code == 0) e.code = rc;
  e.cls = (primary == SQLITE_BUSY || primary == SQLITE_LOCKED) ? DbErrorClass::kRetryable
                                                               : DbErrorClass::kFatal;
  const char* msg = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  e.message = fmt::format("sqlite: {}{}{} (code {})", context, context.empty() ? "" : ": ",
                          msg != nullptr ? msg : sqlite3_errstr(rc), e.code);
  // A full disk or a failed read or write: what the system said, in words.
  const int err = db != nullptr ? sqlite3_system_errno(db) : 0;
  if (err != 0 && (primary == SQLITE_FULL || primary == SQLITE_IOERR)) {
    e.message += ": " + FileErrnoInWords(err);
  }
  return e;
}

// Steps `stmt` to the end: counts rows, keeps them when asked, and resets.
DbError StepAll(sqlite3* db, sqlite3_stmt* stmt, DbExecResult& result, DbRows* rows) {
  const sqlite3_int64 before = sqlite3_total_changes64(db);
  result.rows_returned = 0;
  result.rows_affected = 0;
  // The columns are known before the first row (a SELECT of no rows has them).
  if (rows != nullptr && rows->columns.empty()) {
    const int n = sqlite3_column_count(stmt);
    for (int c = 0; c < n; ++c) rows->columns.emplace_back(sqlite3_column_name(stmt, c));
  }
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    ++result.rows_returned;
    if (rows != nullptr) {
      const int n = sqlite3_column_count(stmt);
      DbRows::Row& row = rows->AddRow(static_cast<size_t>(n));
      for (int c = 0; c < n; ++c) {
        const unsigned char* t = sqlite3_column_text(stmt, c);
        if (t == nullptr) {
          row[static_cast<size_t>(c)].reset();
        } else {
          DbRows::SetValue(row[static_cast<size_t>(c)], reinterpret_cast<const char*>(t),
                           static_cast<size_t>(sqlite3_column_bytes(stmt, c)));
        }
      }
    }
  }
  if (rc != SQLITE_DONE) {
    DbError e = SqliteError(db, rc, "");
    sqlite3_reset(stmt);
    return e;
  }
  result.rows_affected = static_cast<uint64_t>(sqlite3_total_changes64(db) - before);
  sqlite3_reset(stmt);
  return {};
}

struct SqliteSettings {
  std::string path;
  double busy_timeout_s = 10;
};

class SqliteConnection;

class SqliteStatement final : public DbStatement {
 public:
  SqliteStatement(SqliteConnection* conn, sqlite3_stmt* stmt, uint64_t generation)
      : conn_(conn), stmt_(stmt), generation_(generation) {}
  ~SqliteStatement() override { sqlite3_finalize(stmt_); }

  void BindInt(int index, int64_t v) override { sqlite3_bind_int64(stmt_, index + 1, v); }
  void BindDouble(int index, double v) override { sqlite3_bind_double(stmt_, index + 1, v); }
  void BindString(int index, std::string_view v) override {
    sqlite3_bind_text64(stmt_, index + 1, v.data(), v.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  }
  void BindNull(int index) override { sqlite3_bind_null(stmt_, index + 1); }

  using DbStatement::Execute;
  DbError Execute(DbExecResult& result, DbRows* rows) override;

 private:
  SqliteConnection* conn_;
  sqlite3_stmt* stmt_;
  uint64_t generation_;
};

class SqliteConnection final : public DbConnection {
 public:
  SqliteConnection(SqliteSettings settings, std::shared_ptr<WriteGate> gate)
      : settings_(std::move(settings)), gate_(std::move(gate)) {}
  ~SqliteConnection() override { Close(); }

  DbError Open() {
    const int rc =
        sqlite3_open_v2(settings_.path.c_str(), &db_,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
      const int err = db_ != nullptr ? sqlite3_system_errno(db_) : 0;
      DbError e = SqliteError(db_, rc, fmt::format("cannot open {}", settings_.path));
      const int primary = rc & 0xff;
      // SqliteError names the errno of a failed read or write itself.
      if (err != 0 && primary != SQLITE_IOERR && primary != SQLITE_FULL) {
        e.message += ": " + FileErrnoInWords(err);
      }
      e.cls = DbErrorClass::kFatal;
      Close();
      return e;
    }
    ++generation_;
    sqlite3_busy_timeout(db_, static_cast<int>(std::lround(settings_.busy_timeout_s * 1000)));
    DbExecResult r;
    DbRows rows;
    // journal_mode answers with a row; a read-only or in-memory file may refuse WAL.
    if (DbError e = Execute("PRAGMA journal_mode=WAL", r, &rows); !e.ok()) {
      Close();
      return e;
    }
    for (const char* sql : {"BEGIN", "COMMIT", "ROLLBACK"}) {
      sqlite3_stmt* s = nullptr;
      const int prc = sqlite3_prepare_v3(db_, sql, -1, SQLITE_PREPARE_PERSISTENT, &s, nullptr);
      if (prc != SQLITE_OK) {
        DbError e = SqliteError(db_, prc, sql);
        Close();
        return e;
      }
      control_.push_back(s);
    }
    return {};
  }

  DbError Execute(std::string_view sql, DbExecResult& result, DbRows* rows) override {
    if (db_ == nullptr) return NotOpen();
    result = {};
    const char* p = sql.data();
    const char* end = sql.data() + sql.size();
    while (p < end) {
      sqlite3_stmt* stmt = nullptr;
      const char* tail = nullptr;
      const int rc = sqlite3_prepare_v2(db_, p, static_cast<int>(end - p), &stmt, &tail);
      if (rc != SQLITE_OK) return SqliteError(db_, rc, "");
      if (stmt == nullptr) break;  // only whitespace or a comment left
      DbExecResult one;
      DbError e = Step(stmt, one, rows);
      sqlite3_finalize(stmt);
      if (!e.ok()) return e;
      result.rows_affected += one.rows_affected;
      result.rows_returned += one.rows_returned;
      p = tail;
    }
    return {};
  }

  DbError Begin() override { return Control(0); }
  DbError Commit() override { return Control(1); }
  DbError Rollback() override {
    if (db_ != nullptr && sqlite3_get_autocommit(db_) != 0) return {};  // nothing open
    return Control(2);
  }

  DbError Reconnect() override {
    Close();
    return Open();
  }

  std::string ServerVersion() override { return fmt::format("SQLite {}", sqlite3_libversion()); }

  DbError BeginBulkInsert(std::string_view table, const std::vector<std::string>& columns,
                          std::unique_ptr<DbBulkInsert>& out) override;

  sqlite3* db() const { return db_; }
  uint64_t generation() const { return generation_; }

  // Steps `stmt` to the end (StepAll). A statement that may write first
  // waits for this connection's turn at the gate, unless the connection
  // already has it; the turn ends when no transaction is left open (after
  // COMMIT or ROLLBACK, or after a write outside a transaction).
  DbError Step(sqlite3_stmt* stmt, DbExecResult& result, DbRows* rows) {
    if (!in_gate_ && sqlite3_stmt_readonly(stmt) == 0) {
      if (!gate_->Enter(settings_.busy_timeout_s)) {
        return {DbErrorClass::kRetryable, SQLITE_BUSY, "",
                fmt::format("sqlite: database is locked: another connection's write "
                            "transaction held it for more than {:g}s (--sqlite-busy-timeout)",
                            settings_.busy_timeout_s)};
      }
      in_gate_ = true;
    }
    DbError e = StepAll(db_, stmt, result, rows);
    if (in_gate_ && sqlite3_get_autocommit(db_) != 0) LeaveGate();
    return e;
  }

 protected:
  DbError PrepareServer(std::string_view sql, int nparams,
                        std::unique_ptr<DbStatement>& out) override {
    if (db_ == nullptr) return NotOpen();
    sqlite3_stmt* stmt = nullptr;
    const int rc = sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()),
                                      SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
    if (rc != SQLITE_OK) return SqliteError(db_, rc, "prepare");
    if (stmt == nullptr) return {DbErrorClass::kFatal, 0, "", "sqlite: prepare: empty statement"};
    out = std::make_unique<SqliteStatement>(this, stmt, generation_);
    return {};
  }

 private:
  static DbError NotOpen() {
    return {DbErrorClass::kFatal, SQLITE_MISUSE, "", "sqlite: the connection is not open"};
  }

  DbError Control(size_t which) {
    if (db_ == nullptr) return NotOpen();
    DbExecResult r;
    return Step(control_[which], r, nullptr);
  }

  void LeaveGate() {
    gate_->Leave();
    in_gate_ = false;
  }

  void Close() {
    for (sqlite3_stmt* s : control_) sqlite3_finalize(s);
    control_.clear();
    if (db_ != nullptr) sqlite3_close_v2(db_);  // a zombie until statements finalize
    db_ = nullptr;
    if (in_gate_) LeaveGate();  // closing rolled back what was open
  }

  SqliteSettings settings_;
  std::shared_ptr<WriteGate> gate_;
  bool in_gate_ = false;  // this connection's turn to write
  sqlite3* db_ = nullptr;
  std::vector<sqlite3_stmt*> control_;  // BEGIN, COMMIT, ROLLBACK
  uint64_t generation_ = 0;
};

DbError SqliteStatement::Execute(DbExecResult& result, DbRows* rows) {
  if (conn_->db() == nullptr || conn_->generation() != generation_) {
    return {DbErrorClass::kFatal, SQLITE_MISUSE, "",
            "sqlite: statement prepared before a reconnect: prepare it again"};
  }
  return conn_->Step(stmt_, result, rows);
}

// One prepared single-row INSERT, stepped per row: SQLite's fastest load path
// inside a transaction.
class SqliteBulkInsert final : public DbBulkInsert {
 public:
  SqliteBulkInsert(std::unique_ptr<DbStatement> stmt, size_t ncols)
      : stmt_(std::move(stmt)), ncols_(ncols) {}
  DbError AddRow(std::span<const DbValue> values) override {
    if (values.size() != ncols_) {
      return {DbErrorClass::kFatal, 0, "",
              fmt::format("bulk insert: {} values for {} columns", values.size(), ncols_)};
    }
    DbExecResult r;
    return stmt_->Execute(values, r);
  }
  DbError Finish() override { return {}; }

 private:
  std::unique_ptr<DbStatement> stmt_;
  size_t ncols_;
};

DbError SqliteConnection::BeginBulkInsert(std::string_view table,
                                          const std::vector<std::string>& columns,
                                          std::unique_ptr<DbBulkInsert>& out) {
  std::string sql = fmt::format("INSERT INTO {} ({}) VALUES (", table, fmt::join(columns, ", "));
  for (size_t i = 0; i < columns.size(); ++i) sql += i == 0 ? "?" : ",?";
  sql += ')';
  std::unique_ptr<DbStatement> stmt;
  if (DbError e = PrepareServer(sql, static_cast<int>(columns.size()), stmt); !e.ok()) return e;
  out = std::make_unique<SqliteBulkInsert>(std::move(stmt), columns.size());
  return {};
}

// The folder of the database file must exist and take files (the file
// itself and its -wal and -shm beside it): said in words, exit 2, before
// anything starts. ":memory:" and URIs are SQLite's own business.
Status CheckDatabaseFolder(const std::string& path) {
  if (path == ":memory:" || path.rfind("file:", 0) == 0) return Status::Ok();
  // Dirname: '\\' and a drive letter are separators and roots on Windows.
  const std::string dir = Dirname(path);
  FileSystem& fs = DefaultFileSystem();
  Result<FileInfo> info = fs.Stat(dir);
  if (!info.ok() || !info->exists) {
    return Status::InvalidArgument(
        fmt::format("--sqlite-db={}: the folder {} does not exist", path, dir));
  }
  if (!info->is_directory) {
    return Status::InvalidArgument(fmt::format("--sqlite-db={}: {} is not a folder", path, dir));
  }
  return CheckFolderTakesFiles(fs, dir, "--sqlite-db=" + path);
}

class SqliteDriver final : public DbDriver {
 public:
  std::string Name() const override { return "sqlite"; }
  DbCapabilities Capabilities() const override {
    DbCapabilities c;
    c.prepared_statements = server_prepared();
    c.bulk_insert = "prepared INSERT";
    return c;
  }
  void RegisterOptions(OptionSet& opts) override {
    opts.String("sqlite-db", &settings_.path, "sbtest.db", "SQLite database file");
    opts.Seconds("sqlite-busy-timeout", &settings_.busy_timeout_s, 10,
                 "how long a statement waits for a lock before failing as busy (retryable)")
        .Min(0)
        .Max(2000000);  // SQLite takes the timeout as an int of milliseconds
  }
  Status Validate() override {
    if (settings_.path.empty()) return Status::InvalidArgument("--sqlite-db: empty path");
    return CheckDatabaseFolder(settings_.path);
  }
  std::string Describe() const override { return fmt::format("sqlite file {}", settings_.path); }

 protected:
  Result<std::unique_ptr<DbConnection>> Open(int index) override {
    auto conn = std::make_unique<SqliteConnection>(settings_, gate_);
    if (DbError e = conn->Open(); !e.ok()) return Status::IoError(e.message);
    return std::unique_ptr<DbConnection>(std::move(conn));
  }

 private:
  SqliteSettings settings_;
  std::shared_ptr<WriteGate> gate_ = std::make_shared<WriteGate>();
};

}  // namespace

std::unique_ptr<DbDriver> NewSqliteDriver() { return std::make_unique<SqliteDriver>(); }

}  // namespace loadcell
