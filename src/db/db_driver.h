#pragma once
// Database drivers behind one small interface: sqlite, pgsql, mysql.
//
// Use by a workload:
//   DbDrivers db;                        // owns every driver and --db-* options
//   db.RegisterOptions(opts);            // in Workload::RegisterOptions
//   LC_RETURN_IF_ERROR(db.Resolve(opts)); // after parsing, in Validate
//   auto conn = db.driver().Connect(thread_id);   // one per thread
//   conn->Prepare("SELECT c FROM sbtest1 WHERE id=?", 1, stmt);
//   stmt->BindInt(0, 42); stmt->Execute(result);
//
// Threading: a DbDriver may be shared by threads once resolved (Connect is
// thread-safe); a DbConnection and its statements are used by one thread at a
// time. Statements must be destroyed before their connection.
//
// Errors are values (DbError) on the hot path; set-up failures are Status.
// No message, Describe() or option value text ever contains a password.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/options.h"
#include "core/status.h"

namespace loadcell {

// How the caller should react to an error.
enum class DbErrorClass {
  kNone,
  kRetryable,  // deadlock, serialization failure, lock wait timeout, SQLite busy:
               // roll back, retry the transaction
  kReconnect,  // the connection is gone: reconnect (with backoff), retry
  kIgnorable,  // listed in --mysql-ignore-errors / --pgsql-ignore-errors:
               // roll back, retry the transaction
  kFatal,
};

std::string_view DbErrorClassName(DbErrorClass c);  // "retryable", ...

struct DbError {
  DbErrorClass cls = DbErrorClass::kNone;
  int code = 0;          // server error number (MySQL errno, SQLite extended code)
  std::string sqlstate;  // five characters where the server has one
  std::string message;   // one line, never containing a password
  // The server's own text of the error (one line, no password), without
  // the driver's words around it: a Lua script's err.sql_errmsg. Empty
  // when the error is the client's (then `message` stands for it).
  std::string server_message{};  // {}: brace initialisations may leave it out
  bool ok() const { return cls == DbErrorClass::kNone; }
  // kReconnect -> kUnavailable, others -> kIoError; OK for kNone.
  Status ToStatus() const;
};

// Deadlock or serialization failure (MySQL 1213, SQLSTATE 40001 / 40P01).
bool IsDeadlock(const DbError& e);
// A lock not granted in time (MySQL 1205, PostgreSQL's lock_timeout:
// SQLSTATE 55P03).
bool IsLockWaitTimeout(const DbError& e);

enum class DbType { kInt, kBigInt, kDouble, kString, kNull };

struct DbValue {
  DbType type = DbType::kNull;
  int64_t i = 0;
  double d = 0;
  std::string s;
  static DbValue Int(int64_t v) { return {DbType::kBigInt, v, 0, {}}; }
  static DbValue Double(double v) { return {DbType::kDouble, 0, v, {}}; }
  static DbValue String(std::string v) { return {DbType::kString, 0, 0, std::move(v)}; }
  static DbValue Null() { return {}; }
};

// Rows kept when asked for; values as text (NULL -> nullopt).
//
// A DbRows read again and again (a prepared statement's result) can keep its
// memory: Clear() empties `rows` but keeps the rows' buffers, and drivers
// that add rows with AddRow() and SetValue() reuse them, so a steady stream
// of results allocates nothing.
struct DbRows {
  using Row = std::vector<std::optional<std::string>>;
  std::vector<std::string> columns;
  std::vector<Row> rows;

  // Empties `rows`; `columns` stay.
  void Clear() {
    for (Row& r : rows) spare_.push_back(std::move(r));
    rows.clear();
  }
  // Appends a row of `n` values; the caller sets each one (SetValue/reset).
  Row& AddRow(size_t n) {
    if (spare_.empty()) {
      rows.emplace_back(n);
    } else {
      rows.push_back(std::move(spare_.back()));
      spare_.pop_back();
      rows.back().resize(n);
    }
    return rows.back();
  }
  // Sets `slot` to a copy of text [p, p + n), reusing its buffer.
  static void SetValue(std::optional<std::string>& slot, const char* p, size_t n);

 private:
  std::vector<Row> spare_;
};

struct DbExecResult {
  uint64_t rows_affected = 0;  // INSERT/UPDATE/DELETE
  uint64_t rows_returned = 0;  // rows of a result set (always counted)
};

// A prepared statement with `?` placeholders. Binds stay in force until
// replaced. Index is 0-based. BindString copies the text.
class DbStatement {
 public:
  virtual ~DbStatement() = default;
  virtual void BindInt(int index, int64_t v) = 0;
  virtual void BindDouble(int index, double v) = 0;
  virtual void BindString(int index, std::string_view v) = 0;
  virtual void BindNull(int index) = 0;
  // Runs with the current binds; rows are counted, and kept when `rows` is set.
  virtual DbError Execute(DbExecResult& result, DbRows* rows = nullptr) = 0;

  // Binds `params` in order, then Execute.
  DbError Execute(std::span<const DbValue> params, DbExecResult& result, DbRows* rows = nullptr);
  DbError Execute(const std::vector<DbValue>& params, DbExecResult& result,
                  DbRows* rows = nullptr) {
    return Execute(std::span<const DbValue>(params), result, rows);
  }
  void Bind(int index, const DbValue& v);
};

// Loads rows into one table by the fastest path the server offers (COPY on
// PostgreSQL, LOAD DATA LOCAL INFILE on MySQL, multi-row INSERT elsewhere).
// Finish() must be called; a loader destroyed without it discards what was
// not sent. Wrap in Begin/Commit where that is faster (SQLite).
class DbBulkInsert {
 public:
  virtual ~DbBulkInsert() = default;
  // One row, values in the order of the columns. May send a batch.
  virtual DbError AddRow(std::span<const DbValue> values) = 0;
  virtual DbError Finish() = 0;
};

// What AppendTextRow wrote.
struct TextRowInfo {
  bool ascii = true;     // no string held a byte outside ASCII
  bool escaped = false;  // a backslash sequence was written (NULL or an escaped byte)
};

// Appends `values` as one line of tab-separated text, the format PostgreSQL's
// COPY and MySQL's LOAD DATA read by default: \N for NULL, backslash escapes
// for backslash, tab, newline, carriage return and NUL. `mysql` picks LOAD
// DATA's dialect: NUL as \0 and a non-finite double as NULL; otherwise COPY's:
// NUL as \000 (a \0 followed by digits would be read as another octal byte)
// and inf/-inf/nan. Rows with nothing escaped read the same with escapes
// switched off (LOAD DATA's ESCAPED BY ''), which the server parses faster.
TextRowInfo AppendTextRow(std::string& out, std::span<const DbValue> values, bool mysql);

// The FIELDS clause of a LOAD DATA statement reading such rows: with
// backslash escapes when a row had one written, without otherwise.
std::string_view LoadDataFieldsClause(bool escaped);

// The index of the first row of a SHOW WARNINGS result (Level, Code,
// Message) whose Level is "Warning" or "Error", or nullopt when every row is
// a Note. A Note tells of a value the server adjusted as the column type
// defines (a decimal rounded to its scale): the row was stored as an INSERT
// would store it, so it does not fail a LOAD DATA.
std::optional<size_t> FirstFailingWarning(const DbRows& warnings);

struct DbCapabilities {
  bool prepared_statements = true;  // server-side (false with --db-ps-mode=disable)
  bool multi_row_insert = true;
  bool transactions = true;  // BEGIN/COMMIT are meaningful
  std::string bulk_insert;   // "COPY", "multi-row INSERT", ...
};

// Time limits of every connection (--db-connect-timeout, --db-read-timeout,
// --db-write-timeout), in seconds; 0 read or write: no limit. A server that
// does not answer within the read limit, or take a request within the write
// limit, fails the statement as a fatal error naming the server and the
// option; a connect attempt gives up after the connect limit.
struct DbTimeouts {
  double connect_s = 10;
  double read_s = 300;
  double write_s = 300;
  int read_ms() const { return static_cast<int>(read_s * 1000); }
  int write_ms() const { return static_cast<int>(write_s * 1000); }
  // Whole seconds for client libraries that take them: rounded up, 0 kept.
  static unsigned int WholeSeconds(double s);
};

// Bounds of one reply on loadcell's own wire clients (--db-max-reply-size,
// --db-max-reply-rows): the bytes of one message or packet (chained MySQL
// packets together) and of the rows kept for the caller, and the number of
// rows kept. A server that sends more fails the statement (the connection
// is closed) with one line naming the limit and its option. The read limit
// of DbTimeouts bounds the reply's whole time, so that rows or notices the
// server sends without end stop there too.
struct DbReplyLimits {
  uint64_t max_bytes = uint64_t{64} << 20;
  int64_t max_rows = 1'000'000;
};

// What the server sent that passed one of DbReplyLimits, for a line that
// names the server before it: "a reply of more than N bytes
// (--db-max-reply-size=N)", or "... N rows (--db-max-reply-rows=N)";
// `what` is "bytes" or "rows".
std::string ReplyLimitText(std::string_view what, uint64_t limit);

// The rows and bytes kept so far for one reply, against its DbReplyLimits:
// two additions and two compares a row.
class DbReplyBudget {
 public:
  explicit DbReplyBudget(const DbReplyLimits& limits) : limits_(limits) {}
  // Counts one kept row of `bytes`: false once a limit is passed (Text()
  // then says which).
  bool Take(size_t bytes) {
    ++rows_;
    bytes_ += bytes;
    return rows_ <= static_cast<uint64_t>(limits_.max_rows) && bytes_ <= limits_.max_bytes;
  }
  // ReplyLimitText of the limit passed.
  std::string Text() const {
    return rows_ > static_cast<uint64_t>(limits_.max_rows)
               ? ReplyLimitText("rows", static_cast<uint64_t>(limits_.max_rows))
               : ReplyLimitText("bytes", limits_.max_bytes);
  }

 private:
  const DbReplyLimits& limits_;
  uint64_t rows_ = 0;
  uint64_t bytes_ = 0;
};

// Results one statement may chain (MySQL's "more results", PostgreSQL's
// results of a multi-statement query): far more than any statement of a
// run has; a server that goes on past them is broken.
inline constexpr uint64_t kDbMaxResultsPerReply = 100'000;

// --db-connector, resolved: how the pgsql and mysql drivers open their
// connections. kLibrary: the client library (libpq, libmariadb) connects and
// authenticates (TLS, Unix sockets, GSSAPI, service and password files);
// kNative: loadcell's own protocol client over TCP (os/tcp.h), no library.
enum class DbConnector { kLibrary, kNative };

class DbDriver;

class DbConnection {
 public:
  virtual ~DbConnection() = default;
  // Runs one statement given as text (no placeholders).
  virtual DbError Execute(std::string_view sql, DbExecResult& result, DbRows* rows = nullptr) = 0;
  // `?` placeholders in `sql` (outside quotes); drivers translate to their own
  // ($1 for pgsql). `nparams` must equal the number of placeholders (pass -1
  // to skip the check). With --db-ps-mode=disable the statement is emulated:
  // binds are quoted into the text on each Execute.
  DbError Prepare(std::string_view sql, int nparams, std::unique_ptr<DbStatement>& out);
  virtual DbError Begin() = 0;
  virtual DbError Commit() = 0;
  virtual DbError Rollback() = 0;
  // Closes and opens the connection again with the same settings. Prepared
  // statements of the old connection become invalid: prepare them again.
  virtual DbError Reconnect() = 0;
  virtual std::string ServerVersion() = 0;
  // How this connection's statements reach the server, for the run header
  // (a client library's path costs the client more CPU than loadcell's own);
  // empty when there is one way only.
  virtual std::string StatementPath() const { return ""; }
  virtual DbError BeginBulkInsert(std::string_view table, const std::vector<std::string>& columns,
                                  std::unique_ptr<DbBulkInsert>& out);
  // Appends `s` as a quoted string literal of this server's dialect.
  virtual void AppendQuoted(std::string& out, std::string_view s);
  // Appends `v` as an SQL literal (number, quoted string or NULL).
  void AppendLiteral(std::string& out, const DbValue& v);

 protected:
  // The driver's own prepared statement; `sql` has `?` placeholders.
  virtual DbError PrepareServer(std::string_view sql, int nparams,
                                std::unique_ptr<DbStatement>& out) = 0;

 private:
  friend class DbDriver;
  bool server_prepared_ = true;
};

class DbDriver {
 public:
  virtual ~DbDriver() = default;
  virtual std::string Name() const = 0;  // sqlite, pgsql, mysql
  virtual DbCapabilities Capabilities() const = 0;
  // Registers --<driver>-* options bound to the driver's fields.
  virtual void RegisterOptions(OptionSet& opts) = 0;
  // After parsing: checks values, reads PGPASSWORD / MYSQL_PWD fallbacks.
  virtual Status Validate() { return Status::Ok(); }
  // One line naming host:port/file and user for reports (never a password).
  virtual std::string Describe() const = 0;
  // Opens a connection. `index` (e.g. the thread id) spreads connections over
  // host lists. A failure names host and port (kUnavailable, exit 1).
  Result<std::unique_ptr<DbConnection>> Connect(int index);
  // --db-ps-mode: false emulates prepared statements in the client.
  void set_server_prepared(bool on) { server_prepared_ = on; }
  bool server_prepared() const { return server_prepared_; }
  // Set before Validate(), which hands them to the driver's connections.
  void set_timeouts(const DbTimeouts& t) { timeouts_ = t; }
  const DbTimeouts& timeouts() const { return timeouts_; }
  // Set before Validate() (--db-connector, "auto" already resolved).
  void set_connector(DbConnector c) { connector_ = c; }
  DbConnector connector() const { return connector_; }
  // Set before Validate(): the bounds of one reply (own wire clients).
  void set_reply_limits(const DbReplyLimits& l) { reply_limits_ = l; }
  const DbReplyLimits& reply_limits() const { return reply_limits_; }

 protected:
  virtual Result<std::unique_ptr<DbConnection>> Open(int index) = 0;

 private:
  bool server_prepared_ = true;
  DbTimeouts timeouts_;
  DbReplyLimits reply_limits_;
  DbConnector connector_ = DbConnector::kLibrary;
};

// Registry: every driver name, in the order help lists them.
std::vector<std::string> DbDriverNames();
// InvalidArgument naming the valid drivers for an unknown name.
Result<std::unique_ptr<DbDriver>> MakeDbDriver(const std::string& name);

// The general database options, registered by a workload that uses a driver.
struct DbOptions {
  std::string driver;              // --db-driver; "" = choose from the options given
  std::string ps_mode = "auto";    // --db-ps-mode: auto | disable
  std::string connector = "auto";  // --db-connector: auto | native | library
  DbTimeouts timeouts;
  DbReplyLimits reply_limits;
};
void RegisterDbOptions(OptionSet& opts, DbOptions* out);
// --db-connector's value for this build: auto is native on Windows, the
// library elsewhere; InvalidArgument for library in the Windows build.
Result<DbConnector> ResolveDbConnector(std::string_view connector);

// The driver to use after parsing: --db-driver when given; otherwise the one
// driver whose options (--mysql-*, --pgsql-*) the user set; otherwise sqlite.
// InvalidArgument for an unknown --db-driver or options of two drivers.
Result<std::string> ResolveDbDriverName(const DbOptions& db, const OptionSet& opts);

// --mysql-ignore-errors / --pgsql-ignore-errors: error numbers, SQLSTATEs,
// "all", or "none" (empty list = none).
class DbIgnoreList {
 public:
  // InvalidArgument "item 'X': not ..." naming what is valid for an item
  // that is no SQLSTATE nor, with `error_numbers` (MySQL/MariaDB; PostgreSQL
  // has none), an error number of 1 to 999999999.
  static Result<DbIgnoreList> Parse(const std::vector<std::string>& items,
                                    bool error_numbers = true);
  bool Matches(int code, std::string_view sqlstate) const;
  bool all() const { return all_; }
  bool empty() const { return !all_ && codes_.empty() && states_.empty(); }

 private:
  bool all_ = false;
  std::vector<int> codes_;
  std::vector<std::string> states_;
};

// Replaces `?` placeholders outside quotes and comments with $1, $2, ...;
// sets *count to their number.
std::string TranslatePlaceholdersDollar(std::string_view sql, int* count);
// Number of `?` placeholders outside quotes and comments.
int CountPlaceholders(std::string_view sql);

// All drivers with their options, and the one the user chose.
class DbDrivers final {
 public:
  DbDrivers();
  // Registers --db-driver, --db-ps-mode and every driver's options.
  void RegisterOptions(OptionSet& opts);
  // After parsing: picks the driver, validates its options, applies ps mode.
  Status Resolve(const OptionSet& opts);
  // REQUIRES: Resolve() returned OK.
  DbDriver& driver() { return *drivers_[chosen_]; }
  const DbDriver& driver() const { return *drivers_[chosen_]; }
  const DbOptions& options() const { return options_; }

 private:
  DbOptions options_;
  std::vector<std::unique_ptr<DbDriver>> drivers_;
  size_t chosen_ = 0;
};

}  // namespace loadcell
