#pragma once
// Database drivers behind one small interface: sqlite, pgsql, mysql.
// A DbConnection is used by one thread at a time.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/options.h"
#include "core/status.h"

namespace loadcell {

// How the caller should react to an error.
enum class DbErrorClass {
  kNone,
  kRetryable,     // deadlock, serialization failure, lock wait timeout: roll back, retry
  kReconnect,     // the connection is gone: reconnect (with backoff), retry
  kIgnorable,     // listed in --mysql-ignore-errors / --pgsql-ignore-errors
  kFatal,
};

struct DbError {
  DbErrorClass cls = DbErrorClass::kNone;
  int code = 0;           // server error number (MySQL errno, SQLite code)
  std::string sqlstate;   // five characters where the server has one
  std::string message;    // one line, never containing a password
  bool ok() const { return cls == DbErrorClass::kNone; }
  Status ToStatus() const;
};

enum class DbType { kInt, kBigInt, kDouble, kString, kNull };

struct DbValue {
  DbType type = DbType::kNull;
  int64_t i = 0;
  double d = 0;
  std::string s;
};

struct DbRows {
  std::vector<std::string> columns;
  std::vector<std::vector<std::optional<std::string>>> rows;
};

struct DbExecResult {
  uint64_t rows_affected = 0;
  uint64_t rows_returned = 0;
};

class DbStatement {
 public:
  virtual ~DbStatement() = default;
  // Binds and runs; rows (if any) are counted, and kept when `rows` is set.
  virtual DbError Execute(const std::vector<DbValue>& params, DbExecResult& result,
                          DbRows* rows = nullptr) = 0;
};

struct DbCapabilities {
  bool prepared_statements = true;
  bool multi_row_insert = true;
  bool transactions = true;
};

class DbConnection {
 public:
  virtual ~DbConnection() = default;
  virtual DbError Execute(const std::string& sql, DbExecResult& result,
                          DbRows* rows = nullptr) = 0;
  // `?` placeholders in `sql`; drivers translate to their own ($1 for pgsql).
  virtual DbError Prepare(const std::string& sql, int nparams,
                          std::unique_ptr<DbStatement>& out) = 0;
  virtual DbError Begin() = 0;
  virtual DbError Commit() = 0;
  virtual DbError Rollback() = 0;
  virtual DbError Reconnect() = 0;
  virtual std::string ServerVersion() = 0;
};

class DbDriver {
 public:
  virtual ~DbDriver() = default;
  virtual std::string Name() const = 0;           // sqlite, pgsql, mysql
  virtual DbCapabilities Capabilities() const = 0;
  // Registers --<driver>-* options bound to the driver's fields.
  virtual void RegisterOptions(OptionSet& opts) = 0;
  virtual Status Validate() { return Status::Ok(); }
  // One line naming host:port/file for reports (never a password).
  virtual std::string Describe() const = 0;
  // Connection `index` lets drivers spread connections over host lists.
  virtual Result<std::unique_ptr<DbConnection>> Connect(int index) = 0;
};

}  // namespace loadcell
