// The mysql driver's prepared statements: binds kept for libmariadb's
// mysql_stmt_* calls, rows streamed and counted without copying, and the
// statements without rows to keep sent through our own COM_STMT_EXECUTE.

#include <string>

#include "db/mysql/mysql_internal.h"

namespace loadcell::mysql_internal {

DbError MyStatement::Fail() {
  return Classify(static_cast<int>(Mariadb().mysql_stmt_errno(stmt_)),
                  Mariadb().mysql_stmt_sqlstate(stmt_), Mariadb().mysql_stmt_error(stmt_),
                  conn_->settings());
}

DbError MyStatement::BindResult(DbRows& rows) {
  MYSQL_RES* meta = Mariadb().mysql_stmt_result_metadata(stmt_);
  if (meta == nullptr) return Fail();
  const unsigned int nf = Mariadb().mysql_num_fields(meta);
  if (rows.columns.empty()) {
    MYSQL_FIELD* fields = Mariadb().mysql_fetch_fields(meta);
    for (unsigned int c = 0; c < nf; ++c) rows.columns.emplace_back(fields[c].name);
  }
  Mariadb().mysql_free_result(meta);
  if (result_binds_.size() == nf) return {};
  columns_.assign(nf, Column{});
  result_binds_.assign(nf, MYSQL_BIND{});
  for (unsigned int c = 0; c < nf; ++c) {
    MYSQL_BIND& b = result_binds_[c];
    b.buffer_type = MYSQL_TYPE_STRING;
    b.buffer = columns_[c].buf;
    b.buffer_length = sizeof(columns_[c].buf);
    b.length = &columns_[c].length;
    b.is_null = &columns_[c].is_null;
    b.error = &columns_[c].error;
  }
  if (Mariadb().mysql_stmt_bind_result(stmt_, result_binds_.data()) != 0) return Fail();
  return {};
}

DbError MyStatement::KeepRow(DbRows& rows) {
  DbRows::Row& out = rows.AddRow(columns_.size());
  for (size_t c = 0; c < columns_.size(); ++c) {
    Column& col = columns_[c];
    if (col.is_null) {
      out[c].reset();
    } else if (col.length <= sizeof(col.buf)) {
      DbRows::SetValue(out[c], col.buf, col.length);
    } else {
      // Longer than the buffer: fetch the whole value.
      std::string big(col.length, '\0');
      MYSQL_BIND b{};
      unsigned long len = 0;
      b.buffer_type = MYSQL_TYPE_STRING;
      b.buffer = big.data();
      b.buffer_length = col.length;
      b.length = &len;
      if (Mariadb().mysql_stmt_fetch_column(stmt_, &b, static_cast<unsigned int>(c), 0) != 0)
        return Fail();
      out[c] = std::move(big);
    }
  }
  return {};
}

DbError MyStatement::Execute(DbExecResult& result, DbRows* rows) {
  result = {};
  if (conn_->mysql() == nullptr) return conn_->Lost();
  if (conn_->generation() != generation_) {
    return {DbErrorClass::kFatal, 0, "",
            "mysql: statement prepared before a reconnect: prepare it again"};
  }
  if (rows == nullptr) {
    if (MyRawIo* io = conn_->raw()) {
      DbError e;
      if (RawExecute(*io, result, e)) return e;
    }
  }
  if (dirty_ && !binds_.empty()) {
    if (Mariadb().mysql_stmt_bind_param(stmt_, binds_.data()) != 0) return Fail();
    dirty_ = false;
  }
  if (Mariadb().mysql_stmt_execute(stmt_) != 0) return Fail();
  if (Mariadb().mysql_stmt_field_count(stmt_) == 0) {
    result.rows_affected = Mariadb().mysql_stmt_affected_rows(stmt_);
    return {};
  }
  if (rows != nullptr) {
    if (DbError e = BindResult(*rows); !e.ok()) {
      Mariadb().mysql_stmt_free_result(stmt_);
      return e;
    }
  }
  // Rows are streamed; without result binds nothing is converted or copied.
  for (;;) {
    const int rc = Mariadb().mysql_stmt_fetch(stmt_);
    if (rc == MYSQL_NO_DATA) break;
    if (rc == 1) {
      DbError e = Fail();
      Mariadb().mysql_stmt_free_result(stmt_);
      return e;
    }
    ++result.rows_returned;  // 0 or MYSQL_DATA_TRUNCATED
    if (rows != nullptr) {
      if (DbError e = KeepRow(*rows); !e.ok()) {
        Mariadb().mysql_stmt_free_result(stmt_);
        return e;
      }
    }
  }
  Mariadb().mysql_stmt_free_result(stmt_);
  return {};
}

// COM_STMT_EXECUTE with the current binds, their types sent each time. False
// (nothing sent) when the request would not fit one packet: libmariadb runs
// it then.
bool MyStatement::RawExecute(MyRawIo& io, DbExecResult& result, DbError& e) {
  if (!MyBuildStmtExecute(io.out(), static_cast<uint32_t>(stmt_->stmt_id), types_, values_)) {
    return false;
  }
  if (!io.Send()) {
    e = conn_->RawLost();
    return true;
  }
  e = RawReply(io, result);
  return true;
}

// Reads the reply to COM_STMT_EXECUTE, counting the rows.
DbError MyStatement::RawReply(MyRawIo& io, DbExecResult& result) {
  MyCommandReply reply;
  MyReadExecuteReply(io, reply);
  result.rows_affected += reply.rows_affected;
  result.rows_returned += reply.rows_returned;
  return conn_->RawOutcome(reply);
}

}  // namespace loadcell::mysql_internal
