#include "db/db_driver.h"

#include <fmt/format.h>

namespace loadcell {

std::string_view DbErrorClassName(DbErrorClass c) {
  switch (c) {
    case DbErrorClass::kNone:
      return "none";
    case DbErrorClass::kRetryable:
      return "retryable";
    case DbErrorClass::kReconnect:
      return "reconnect";
    case DbErrorClass::kIgnorable:
      return "ignorable";
    case DbErrorClass::kFatal:
      return "fatal";
  }
  return "fatal";
}

bool IsDeadlock(const DbError& e) {
  return e.code == 1213 || e.sqlstate == "40001" || e.sqlstate == "40P01";
}

bool IsLockWaitTimeout(const DbError& e) { return e.code == 1205 || e.sqlstate == "55P03"; }

Status DbError::ToStatus() const {
  switch (cls) {
    case DbErrorClass::kNone:
      return Status::Ok();
    case DbErrorClass::kReconnect:
      return Status::Unavailable(message);
    default:
      return Status::IoError(message);
  }
}

// ------------------------------------------------------------ DbStatement

void DbStatement::Bind(int index, const DbValue& v) {
  switch (v.type) {
    case DbType::kInt:
    case DbType::kBigInt:
      BindInt(index, v.i);
      break;
    case DbType::kDouble:
      BindDouble(index, v.d);
      break;
    case DbType::kString:
      BindString(index, v.s);
      break;
    case DbType::kNull:
      BindNull(index);
      break;
  }
}

DbError DbStatement::Execute(std::span<const DbValue> params, DbExecResult& result, DbRows* rows) {
  for (size_t i = 0; i < params.size(); ++i) Bind(static_cast<int>(i), params[i]);
  return Execute(result, rows);
}

namespace {

// The generic bulk path: multi-row INSERT statements of up to kMaxRows rows
// or about kMaxBytes of text.
class MultiRowInsert final : public DbBulkInsert {
 public:
  static constexpr size_t kMaxRows = 1000;
  static constexpr size_t kMaxBytes = size_t{512} * 1024;

  MultiRowInsert(DbConnection* conn, std::string_view table,
                 const std::vector<std::string>& columns)
      : conn_(conn), ncols_(columns.size()) {
    head_ = fmt::format("INSERT INTO {} ({}) VALUES ", table, fmt::join(columns, ", "));
    text_.reserve(kMaxBytes + 4096);
  }

  DbError AddRow(std::span<const DbValue> values) override {
    if (values.size() != ncols_) {
      return {DbErrorClass::kFatal, 0, "",
              fmt::format("bulk insert: {} values for {} columns", values.size(), ncols_)};
    }
    text_ += rows_ == 0 ? head_ : std::string_view(",");
    text_ += '(';
    for (size_t i = 0; i < values.size(); ++i) {
      if (i > 0) text_ += ',';
      conn_->AppendLiteral(text_, values[i]);
    }
    text_ += ')';
    if (++rows_ >= kMaxRows || text_.size() >= kMaxBytes) return Flush();
    return {};
  }

  DbError Finish() override { return Flush(); }

 private:
  DbError Flush() {
    if (rows_ == 0) return {};
    DbExecResult r;
    DbError e = conn_->Execute(text_, r);
    text_.clear();
    rows_ = 0;
    return e;
  }

  DbConnection* conn_;
  size_t ncols_;
  std::string head_;
  std::string text_;
  size_t rows_ = 0;
};

}  // namespace

DbError DbConnection::BeginBulkInsert(std::string_view table,
                                      const std::vector<std::string>& columns,
                                      std::unique_ptr<DbBulkInsert>& out) {
  out = std::make_unique<MultiRowInsert>(this, table, columns);
  return {};
}

// ------------------------------------------------------------ DbDriver

Result<std::unique_ptr<DbConnection>> DbDriver::Connect(int index) {
  auto conn = Open(index);
  if (conn.ok()) conn.value()->server_prepared_ = server_prepared_;
  return conn;
}

}  // namespace loadcell
